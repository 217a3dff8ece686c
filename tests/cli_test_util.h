#pragma once

// Running the built `tally` binary from a CLI test: its exit code, standard output and standard
// error. The test target defines TALLY_BIN="$<TARGET_FILE:tally>" (see tests/CMakeLists.txt).
#include <QByteArray>
#include <QProcess>
#include <QStringList>

namespace tally::test {

struct Run {
    int exit_code = -1;  // -1: crashed or timed out
    QByteArray out;
    QByteArray err;
};

// Runs `tally ARGS...`, writing `input` to its standard input, and waits up to a minute.
inline Run run_tally(const QStringList& args, const QByteArray& input = {}) {
    QProcess p;
    p.start(QStringLiteral(TALLY_BIN), args);
    if (!input.isEmpty()) {
        p.write(input);
    }
    p.closeWriteChannel();
    if (!p.waitForFinished(60000)) {
        p.kill();
        p.waitForFinished();
        return {};
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
            p.readAllStandardError()};
}

}  // namespace tally::test
