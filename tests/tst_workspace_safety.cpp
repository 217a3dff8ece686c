// What must never happen to a workspace: a foreign, damaged or newer file overwritten; a half
// write on a read-only folder or a full disk; a lost row when two processes write at once or one
// is killed; user text spliced into SQL. Child processes are tests/workspace_writer.cpp.
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRandomGenerator>
#include <QSet>
#include <QTemporaryDir>
#include <QtTest>

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "planner/core/errors.h"
#include "planner/hardware/hardware.h"
#include "planner/io/spec_json.h"
#include "planner/store/workspace.h"
#include "tests/workspace_test_util.h"

using namespace tally;

namespace {

struct ChildResult {
    int exit_code = -1;
    QString out;
    QString err;
};

ChildResult run_writer(const QStringList& args, int timeout_ms = 60000) {
    QProcess p;
    p.start(QStringLiteral(WORKSPACE_WRITER), args);
    if (!p.waitForFinished(timeout_ms)) {
        p.kill();
        p.waitForFinished();
        return {-1, QString(), QStringLiteral("timed out")};
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

// What a writer reported as committed: complete lines "plan ID", "run ID", "profile ID". A line
// cut by the kill is dropped (its row was committed before printing began, so it may be there,
// but nothing promised it).
struct Committed {
    QSet<qint64> plans;
    QSet<qint64> runs;
    QSet<QString> profiles;
    int rows() const { return int(plans.size() + runs.size() + profiles.size()); }
};

void collect(const QByteArray& output, Committed& into) {
    const qsizetype end = output.lastIndexOf('\n');
    if (end < 0) {
        return;
    }
    for (const QByteArray& line : output.left(end).split('\n')) {
        const QList<QByteArray> parts = line.split(' ');
        if (parts.size() != 2) {
            continue;
        }
        if (parts[0] == "plan") {
            into.plans.insert(parts[1].toLongLong());
        } else if (parts[0] == "run") {
            into.runs.insert(parts[1].toLongLong());
        } else if (parts[0] == "profile") {
            into.profiles.insert(QString::fromUtf8(parts[1]));
        }
    }
}

// Every reported row is in the file; returns the first missing one, or an empty string.
QString first_missing(const std::string& path, const Committed& committed) {
    sqlite::Database db = wstest::raw_read(path);
    QSet<qint64> plans;
    QSet<qint64> runs;
    QSet<QString> profiles;
    for (sqlite::Statement s(db, "SELECT id FROM plans"); s.step();) {
        plans.insert(s.column_int(0));
    }
    for (sqlite::Statement s(db, "SELECT id FROM probe_runs"); s.step();) {
        runs.insert(s.column_int(0));
    }
    for (sqlite::Statement s(db, "SELECT id FROM profiles"); s.step();) {
        profiles.insert(QString::fromStdString(s.column_text(0)));
    }
    for (qint64 id : committed.plans) {
        if (!plans.contains(id)) {
            return QStringLiteral("plan %1").arg(id);
        }
    }
    for (qint64 id : committed.runs) {
        if (!runs.contains(id)) {
            return QStringLiteral("run %1").arg(id);
        }
        // A run is committed with its two results or not at all.
        sqlite::Statement r(db, "SELECT count(*) FROM probe_results WHERE run_id = ?1");
        r.bind(1, std::int64_t{id});
        r.step();
        if (r.column_int(0) != 2) {
            return QStringLiteral("results of run %1").arg(id);
        }
    }
    for (const QString& id : committed.profiles) {
        if (!profiles.contains(id)) {
            return QStringLiteral("profile %1").arg(id);
        }
    }
    return QString();
}

// The problem a WorkspaceError reports, or "<no error>".
template <typename F>
std::pair<QString, QString> workspace_error(F&& f) {
    try {
        f();
    } catch (const WorkspaceError& e) {
        return {QString::fromLatin1(to_string(e.problem()).data()), QString::fromUtf8(e.what())};
    } catch (const std::exception& e) {
        return {QStringLiteral("<other>"), QString::fromUtf8(e.what())};
    }
    return {QStringLiteral("<no error>"), QString()};
}

bool write_file(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

// A closed workspace with a few rows in it (several pages, so damage can hit a table).
void make_workspace(const std::string& path, int plans = 6) {
    Workspace ws = Workspace::open(path);
    for (int i = 0; i < plans; ++i) {
        ws.save_plan("plan " + std::string(1, char('a' + i)), default_plan_spec());
    }
    ws.add_profile(duplicate_profile(*find_builtin_hardware("h100-sxm"), "kept", "Kept"));
}

}  // namespace

class TestWorkspaceSafety : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void refusesForeignFile_data();
    void refusesForeignFile();
    void hotJournalIsRolledBack();
    void readOnlyFolder();
    void fullDisk();
    void fullDiskWhileCreating();
    void busyWriterGetsClearError();
    void concurrentWritersBothSucceed();
    void killedWriterLosesNoCommittedRow();
    void userTextIsBoundNotSpliced();
    void lostLocksStopTheConnection();
    void secondConnectionKeepsTheFirstsLocks();

private:
    QString path(const QString& name) const { return m_dir.path() + QLatin1Char('/') + name; }
    QTemporaryDir m_dir;
};

void TestWorkspaceSafety::initTestCase() {
    QVERIFY(m_dir.isValid());
    QVERIFY(QFileInfo::exists(QStringLiteral(WORKSPACE_WRITER)));
    // A user without privileges must reach the files of the read-only test.
    QVERIFY(::chmod(QFile::encodeName(m_dir.path()).constData(), 0755) == 0);
}

void TestWorkspaceSafety::refusesForeignFile_data() {
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("problem");
    QTest::addColumn<QString>("says");
    QTest::newRow("text file") << "text"
                               << "not_sqlite"
                               << "not an SQLite database";
    QTest::newRow("shorter than an SQLite header") << "short"
                                                   << "not_sqlite"
                                                   << "SQLite header";
    QTest::newRow("zip archive") << "zip"
                                 << "not_sqlite"
                                 << "not an SQLite database";
    QTest::newRow("table page overwritten") << "garbage-page"
                                            << "corrupt"
                                            << "damaged";
    QTest::newRow("truncated to two pages") << "truncated"
                                            << "corrupt"
                                            << "damaged";
    QTest::newRow("invalid page size in header") << "page-size"
                                                 << "corrupt"
                                                 << "damaged";
    QTest::newRow("another program's database") << "other-app"
                                                << "not_workspace"
                                                << "not a Tally workspace";
    QTest::newRow("schema version but no Tally id") << "no-app-id"
                                                    << "not_workspace"
                                                    << "not a Tally workspace";
    QTest::newRow("newer schema version") << "newer"
                                          << "newer_schema"
                                          << "schema version 99";
}

void TestWorkspaceSafety::refusesForeignFile() {
    QFETCH(QString, kind);
    QFETCH(QString, problem);
    QFETCH(QString, says);
    const QString file = path(QStringLiteral("foreign-%1.sqlite").arg(kind));
    const std::string file_std = file.toStdString();
    if (kind == QLatin1String("text")) {
        QVERIFY(write_file(file, "name,memory\nmy card,80e9\n"));
    } else if (kind == QLatin1String("short")) {
        QVERIFY(write_file(file, "SQLite format"));
    } else if (kind == QLatin1String("zip")) {
        QVERIFY(write_file(file, QByteArray("PK\x03\x04", 4) + QByteArray(600, '\0')));
    } else if (kind == QLatin1String("other-app") || kind == QLatin1String("no-app-id")) {
        sqlite::Database db(file_std, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
        db.exec(
            "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT); "
            "INSERT INTO notes (text) VALUES ('mine')");
        if (kind == QLatin1String("no-app-id")) {
            db.exec("PRAGMA user_version = 3");
        }
    } else {
        make_workspace(file_std);
        QByteArray bytes = wstest::file_bytes(file_std);
        // sqlite.org/fileformat.html: page size at offset 16 (big-endian); page 1 is the header.
        const int page = (uchar(bytes[16]) << 8) | uchar(bytes[17]);
        QVERIFY(bytes.size() >= 4 * page);
        if (kind == QLatin1String("garbage-page")) {
            // Page 2 is the root of the first table created (profiles).
            bytes.replace(page, page, QByteArray(page, char(0xA5)));
        } else if (kind == QLatin1String("truncated")) {
            bytes.truncate(2 * page);
        } else if (kind == QLatin1String("page-size")) {
            bytes[16] = 0x00;
            bytes[17] = 0x07;  // a page size must be a power of two from 512 to 65536
        } else if (kind == QLatin1String("newer")) {
            sqlite::Database db(file_std, SQLITE_OPEN_READWRITE);
            db.exec("PRAGMA user_version = 99");
        }
        if (kind != QLatin1String("newer")) {
            QVERIFY(write_file(file, bytes));
        }
    }
    const QByteArray before = wstest::file_bytes(file_std);
    const auto [got, message] = workspace_error([&] { Workspace::open(file_std); });
    QCOMPARE(got, problem);
    QVERIFY2(message.contains(file), qPrintable(message));
    QVERIFY2(message.contains(says), qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("left untouched")), qPrintable(message));
    // Byte for byte as it was, and nothing created beside it.
    QCOMPARE(wstest::file_bytes(file_std), before);
    for (const char* sidecar : {"-journal", "-wal", "-shm"}) {
        QVERIFY2(!QFileInfo::exists(file + QLatin1String(sidecar)), sidecar);
    }
}

void TestWorkspaceSafety::hotJournalIsRolledBack() {
    // A writer died inside a rollback-journal transaction (the mode a workspace is in while it is
    // created or migrated) after some of its pages reached the file.
    const std::string file = path(QStringLiteral("hot-journal.sqlite")).toStdString();
    make_workspace(file, 2);
    const ChildResult r = run_writer({QStringLiteral("spill"), QString::fromStdString(file)});
    QCOMPARE(r.exit_code, 0);
    QVERIFY(r.out.contains(QStringLiteral("spilled")));
    const QString journal = QString::fromStdString(file) + QStringLiteral("-journal");
    QVERIFY(QFileInfo(journal).size() > 0);
    // A read-only connection cannot play the journal back: SQLite refuses to read at all.
    try {
        sqlite::Database ro(file, SQLITE_OPEN_READONLY);
        ro.query_int("SELECT count(*) FROM plans");
        QFAIL("a read-only connection read past a hot journal");
    } catch (const sqlite::Error& e) {
        QCOMPARE(e.extended_code(), SQLITE_READONLY_ROLLBACK);
    }
    // Opening the workspace plays it back: the committed rows, none of the dead transaction's.
    Workspace ws = Workspace::open(file);
    const auto plans = ws.list_plans();
    QCOMPARE(plans.size(), std::size_t{2});
    QCOMPARE(plans[0].name, std::string("plan a"));
    QVERIFY(!QFileInfo::exists(journal));
    QCOMPARE(QString::fromStdString(wstest::integrity(file)), QStringLiteral("ok"));
}

void TestWorkspaceSafety::readOnlyFolder() {
    // Tests may run as root, whom chmod does not stop: the writer then drops to "nobody".
    const QString folder = path(QStringLiteral("read-only"));
    QVERIFY(QDir().mkpath(folder));
    const QString file = folder + QStringLiteral("/ws.sqlite");
    make_workspace(file.toStdString(), 2);
    const QByteArray before = wstest::file_bytes(file.toStdString());
    const QByteArray folder_name = QFile::encodeName(folder);
    QVERIFY(::chmod(QFile::encodeName(file).constData(), 0444) == 0);
    QVERIFY(::chmod(folder_name.constData(), 0555) == 0);
    const ChildResult existing =
        run_writer({QStringLiteral("--drop-privileges"), QStringLiteral("save-plan"), file,
                    QStringLiteral("after")});
    const ChildResult fresh =
        run_writer({QStringLiteral("--drop-privileges"), QStringLiteral("save-plan"),
                    folder + QStringLiteral("/new.sqlite"), QStringLiteral("first")});
    // What cannot be written can still be browsed: the two plans make_workspace() saved.
    const ChildResult listed =
        run_writer({QStringLiteral("--drop-privileges"), QStringLiteral("list-plans"), file});
    QVERIFY(::chmod(folder_name.constData(), 0755) == 0);
    QVERIFY(::chmod(QFile::encodeName(file).constData(), 0644) == 0);
    if (existing.exit_code == 4) {
        QSKIP(qPrintable(QStringLiteral("cannot drop root privileges here: ") + existing.err));
    }

    QCOMPARE(existing.exit_code, 1);
    QVERIFY2(existing.err.startsWith(QStringLiteral("error read_only:")), qPrintable(existing.err));
    QVERIFY2(existing.err.contains(file), qPrintable(existing.err));
    // The refusal says the workspace is open read-only, and names what was refused.
    QVERIFY2(existing.err.contains(QStringLiteral("open read-only")), qPrintable(existing.err));
    QVERIFY2(existing.err.contains(QStringLiteral("saving plan after")), qPrintable(existing.err));
    QCOMPARE(listed.exit_code, 0);
    QVERIFY2(listed.err.isEmpty(), qPrintable(listed.err));
    // One line "plan NAME" for each of make_workspace()'s plans, "plan a" and "plan b".
    QCOMPARE(listed.out.count(QStringLiteral("plan plan ")), 2);
    QVERIFY2(listed.out.trimmed().endsWith(QStringLiteral("read-only")), qPrintable(listed.out));
    QCOMPARE(fresh.exit_code, 1);
    QVERIFY2(fresh.err.startsWith(QStringLiteral("error read_only:")), qPrintable(fresh.err));
    QVERIFY2(fresh.err.contains(QStringLiteral("read-only")), qPrintable(fresh.err));
    // Nothing half-written: the file as it was, no new file.
    QCOMPARE(wstest::file_bytes(file.toStdString()), before);
    QVERIFY(!QFileInfo::exists(folder + QStringLiteral("/new.sqlite")));
    QCOMPARE(wstest::count_rows(file.toStdString(), "plans"), std::int64_t{2});
}

void TestWorkspaceSafety::fullDisk() {
    const std::string file = path(QStringLiteral("full.sqlite")).toStdString();
    make_workspace(file, 2);
    const qint64 size = QFileInfo(QString::fromStdString(file)).size();
    // Every file the writer writes (the database and its WAL) stops growing 64 KiB past the
    // database's size; the profile needs 4 MB.
    const ChildResult r = run_writer({QStringLiteral("--fsize-limit"),
                                      QString::number(size + 65536), QStringLiteral("big-profile"),
                                      QString::fromStdString(file), QStringLiteral("4000000")});
    QCOMPARE(r.exit_code, 1);
    QVERIFY2(r.err.startsWith(QStringLiteral("error disk_full:")), qPrintable(r.err));
    QVERIFY2(r.err.contains(QString::fromStdString(file)), qPrintable(r.err));
    QVERIFY2(r.err.contains(QStringLiteral("Nothing was saved")), qPrintable(r.err));
    // The rows from before are all there, the big profile is not, and the file is sound.
    QCOMPARE(QString::fromStdString(wstest::integrity(file)), QStringLiteral("ok"));
    QCOMPARE(wstest::count_rows(file, "plans"), std::int64_t{2});
    QVERIFY(!wstest::row_exists(file, "SELECT 1 FROM profiles WHERE id = ?1", "big"));
    QVERIFY(wstest::row_exists(file, "SELECT 1 FROM profiles WHERE id = ?1", "kept"));
    Workspace ws = Workspace::open(file);
    QCOMPARE(ws.list_plans().size(), std::size_t{2});
}

void TestWorkspaceSafety::fullDiskWhileCreating() {
    // A new workspace on a disk with 1 KiB left: less than one page of the schema.
    const QString file = path(QStringLiteral("full-new.sqlite"));
    const ChildResult r = run_writer({QStringLiteral("--fsize-limit"), QStringLiteral("1024"),
                                      QStringLiteral("save-plan"), file, QStringLiteral("first")});
    QCOMPARE(r.exit_code, 1);
    QVERIFY2(r.err.startsWith(QStringLiteral("error disk_full:")), qPrintable(r.err));
    // Nothing half-written: the file the writer created is gone again.
    QVERIFY(!QFileInfo::exists(file));
    QVERIFY(!QFileInfo::exists(file + QStringLiteral("-journal")));
}

void TestWorkspaceSafety::busyWriterGetsClearError() {
    const std::string file = path(QStringLiteral("busy.sqlite")).toStdString();
    make_workspace(file, 1);
    QProcess holder;
    // Held for 4 s: the impatient writer below must meet the lock however slowly this process
    // opens the file on a loaded machine; the patient one then waits out the rest.
    holder.start(QStringLiteral(WORKSPACE_WRITER),
                 {QStringLiteral("hold"), QString::fromStdString(file), QStringLiteral("4000")});
    QVERIFY(holder.waitForReadyRead(10000));
    QCOMPARE(holder.readLine().trimmed(), QByteArray("locked"));

    // Opening needs no write lock; saving does, and gives up after 200 ms.
    Workspace impatient = Workspace::open(file, WorkspaceOptions{200});
    QElapsedTimer waited;
    waited.start();
    const auto [problem, message] =
        workspace_error([&] { impatient.save_plan("while busy", default_plan_spec()); });
    QCOMPARE(problem, QStringLiteral("busy"));
    QVERIFY(waited.elapsed() >= 150);
    QVERIFY2(message.contains(QStringLiteral("busy")), qPrintable(message));
    QVERIFY2(message.contains(QString::fromStdString(file)), qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("Nothing was saved")), qPrintable(message));
    QVERIFY(!impatient.find_plan(std::string("while busy")).has_value());

    // A patient writer waits for the lock and succeeds.
    Workspace patient = Workspace::open(file, WorkspaceOptions{20000});
    patient.save_plan("after the wait", default_plan_spec());
    QVERIFY(holder.waitForFinished(10000));
    QCOMPARE(holder.exitCode(), 0);
    QVERIFY(holder.readAllStandardOutput().contains("released"));
    QVERIFY(patient.find_plan(std::string("after the wait")).has_value());
}

void TestWorkspaceSafety::concurrentWritersBothSucceed() {
    const std::string file = path(QStringLiteral("concurrent.sqlite")).toStdString();
    const QString qfile = QString::fromStdString(file);
    // Two processes (say the GUI and the CLI) and this one, all writing at once.
    QProcess a;
    QProcess b;
    a.start(QStringLiteral(WORKSPACE_WRITER),
            {QStringLiteral("loop"), qfile, QStringLiteral("120")});
    b.start(QStringLiteral(WORKSPACE_WRITER),
            {QStringLiteral("loop"), qfile, QStringLiteral("120")});
    QVERIFY(a.waitForStarted() && b.waitForStarted());
    int mine = 0;
    for (int i = 0; i < 40; ++i) {
        try {
            Workspace ws = Workspace::open(file);
            ws.save_plan("main " + std::to_string(i), default_plan_spec());
            ++mine;
        } catch (const WorkspaceError& e) {
            // The one failure allowed is a clear "busy" (and the count below still wants none).
            QVERIFY2(e.problem() == WorkspaceProblem::busy, e.what());
        }
    }
    QVERIFY(a.waitForFinished(60000) && b.waitForFinished(60000));
    const QString err_a = QString::fromUtf8(a.readAllStandardError());
    const QString err_b = QString::fromUtf8(b.readAllStandardError());
    QVERIFY2(a.exitCode() == 0 || err_a.startsWith(QStringLiteral("error busy:")),
             qPrintable(err_a));
    QVERIFY2(b.exitCode() == 0 || err_b.startsWith(QStringLiteral("error busy:")),
             qPrintable(err_b));
    Committed committed;
    collect(a.readAllStandardOutput(), committed);
    collect(b.readAllStandardOutput(), committed);
    // Default busy timeout (5 s) is far above any one write here: all of them got through.
    QVERIFY2(a.exitCode() == 0, qPrintable(err_a));
    QVERIFY2(b.exitCode() == 0, qPrintable(err_b));
    QCOMPARE(committed.rows(), 240);
    QCOMPARE(mine, 40);
    QCOMPARE(first_missing(file, committed), QString());
    // 120 rows each as plan, run, profile in turn: 40 plans per writer, + 40 of this process.
    QCOMPARE(wstest::count_rows(file, "plans"), std::int64_t{40 + 40 + 40});
    QCOMPARE(QString::fromStdString(wstest::integrity(file)), QStringLiteral("ok"));
}

void TestWorkspaceSafety::killedWriterLosesNoCommittedRow() {
    const std::string file = path(QStringLiteral("killed.sqlite")).toStdString();
    const QString qfile = QString::fromStdString(file);
    const quint32 seed = QRandomGenerator::global()->generate();
    QRandomGenerator rng(seed);
    constexpr int kKills = 60;
    // The kills go on to kKills within the budget, and to kMinKills however long they take (a
    // loaded machine or a sanitizer build starts each writer slowly): the test's strength does
    // not depend on the machine's speed.
    constexpr int kMinKills = 20;
    constexpr qint64 kBudgetMs = 25000;
    Committed committed;
    int kills = 0;
    int killed_before_first_commit = 0;
    QElapsedTimer clock;
    clock.start();
    while (kills < kKills && (kills < kMinKills || clock.elapsed() < kBudgetMs)) {
        QProcess writer;
        writer.start(QStringLiteral(WORKSPACE_WRITER), {QStringLiteral("loop"), qfile});
        QVERIFY(writer.waitForStarted());
        // A random moment. Every other kill counts from the start, so it may land while the
        // writer opens (and on the first run, creates) the file; the others count from its first
        // reported commit, so they land between and inside later commits however slowly the
        // writer starts (a sanitizer build under load takes most of 120 ms just to start).
        const bool after_first_commit = kills % 2 == 1;
        if (after_first_commit) {
            QVERIFY2(writer.waitForReadyRead(30000),
                     qPrintable(QStringLiteral("writer reported no commit: ") +
                                QString::fromUtf8(writer.readAllStandardError())));
        }
        const int delay_ms = int(after_first_commit ? rng.bounded(0, 40) : rng.bounded(2, 120));
        QVERIFY2(!writer.waitForFinished(delay_ms),
                 qPrintable(QStringLiteral("writer stopped by itself: ") +
                            QString::fromUtf8(writer.readAllStandardError())));
        QVERIFY(::kill(pid_t(writer.processId()), SIGKILL) == 0);
        QVERIFY(writer.waitForFinished(10000));
        QCOMPARE(writer.exitStatus(), QProcess::CrashExit);
        ++kills;
        const int before = committed.rows();
        collect(writer.readAllStandardOutput(), committed);
        if (committed.rows() == before) {
            ++killed_before_first_commit;
        }
        if (!QFileInfo::exists(qfile)) {
            continue;  // killed before it created the file
        }
        // Every row it reported (in this and every earlier run) survived, and the file is sound.
        // Opening it as the next writer would comes first: a kill inside the creation of the
        // file (rollback-journal mode) leaves a hot journal that only a writer can play back.
        QString missing;
        QString report;
        try {
            { Workspace::open(file); }
            missing = first_missing(file, committed);
            report = QString::fromStdString(wstest::integrity(file));
        } catch (const std::exception& e) {
            QFAIL(qPrintable(QStringLiteral("seed %1, kill %2 after %3 ms: %4")
                                 .arg(seed)
                                 .arg(kills)
                                 .arg(delay_ms)
                                 .arg(QString::fromUtf8(e.what()))));
        }
        QVERIFY2(
            missing.isEmpty(),
            qPrintable(
                QStringLiteral("seed %1, kill %2: lost %3").arg(seed).arg(kills).arg(missing)));
        QCOMPARE(report, QStringLiteral("ok"));
    }
    // The file opens as a workspace and takes new rows after all that.
    {
        Workspace ws = Workspace::open(file);
        ws.save_plan("after the kills", default_plan_spec());
    }
    QCOMPARE(first_missing(file, committed), QString());
    qInfo(
        "SIGKILL test: %d kills (%d before the first commit of that run), %d committed rows "
        "checked after every kill, %lld ms, seed %u",
        kills, killed_before_first_commit, committed.rows(), clock.elapsed(), seed);
    QVERIFY(kills >= kMinKills);
    // Half the kills waited for a commit, so at least that many runs reported one.
    QVERIFY(kills - killed_before_first_commit >= kills / 2);
    QVERIFY(committed.rows() >= kills / 2);
}

void TestWorkspaceSafety::userTextIsBoundNotSpliced() {
    const std::string file = path(QStringLiteral("hostile.sqlite")).toStdString();
    const std::vector<std::string> names = {
        "'); DROP TABLE plans;--",   "Robert'); DROP TABLE profiles; --",
        "\"; DELETE FROM plans; --", "x' OR '1'='1",
        "100% _match_ \\",           "名前 with ünïcode",
    };
    Workspace ws = Workspace::open(file);
    for (std::size_t i = 0; i < names.size(); ++i) {
        const std::int64_t id = ws.save_plan(names[i], default_plan_spec());
        HardwareProfile p = duplicate_profile(*find_builtin_hardware("b200"),
                                              "hostile-" + std::to_string(i), names[i]);
        p.notes = names[i];
        ws.add_profile(p);
        ProbeRunRecord run;
        run.backend = names[i];
        run.host = names[i];
        run.started_at = names[i];
        run.device_json = nlohmann::json{{"name", names[i]}}.dump();
        ws.add_probe_run(run);
        // Read back exactly, found by its own name only.
        const auto plan = ws.find_plan(names[i]);
        QVERIFY(plan.has_value());
        QCOMPARE(plan->id, id);
        QCOMPARE(plan->name, names[i]);
        QCOMPARE(ws.find_profile("hostile-" + std::to_string(i))->name, names[i]);
        QCOMPARE(ws.find_profile("hostile-" + std::to_string(i))->notes, names[i]);
    }
    // A name that would match every row if it were spliced into SQL matches none.
    QVERIFY(!ws.find_plan(std::string("y' OR '1'='1")).has_value());
    sqlite::Database db = wstest::raw_read(file);
    QCOMPARE(db.query_int("SELECT count(*) FROM sqlite_master WHERE type = 'table'"),
             std::int64_t{4});
    QCOMPARE(ws.list_plans().size(), names.size());
    QCOMPARE(ws.stored_profiles().size(), names.size());
    const auto runs = ws.list_probe_runs();
    QCOMPARE(runs.size(), names.size());
    QSet<QString> hosts;
    for (const ProbeRunRecord& r : runs) {
        hosts.insert(QString::fromStdString(r.host));
    }
    for (const std::string& n : names) {
        QVERIFY(hosts.contains(QString::fromStdString(n)));
    }
    QCOMPARE(QString::fromStdString(wstest::integrity(file)), QStringLiteral("ok"));
}

// SQLite's locks are POSIX advisory locks: closing any other descriptor of the file in this
// process drops them all ("How To Corrupt An SQLite Database File", section 2.2). Another process
// that then closes the workspace believes it is the last user, checkpoints and removes the
// write-ahead log. The connection whose locks were lost must refuse to go on (its writes would
// land in a deleted file) and must not copy its stale log back into the file when it closes.
void TestWorkspaceSafety::lostLocksStopTheConnection() {
    const QString file = path(QStringLiteral("lost-locks.sqlite"));
    const std::string file_std = file.toStdString();
    std::optional<Workspace> app(Workspace::open(file_std));
    app->save_plan("before", default_plan_spec());
    QVERIFY(QFileInfo::exists(file + QStringLiteral("-wal")));

    // What the file dialog's content sniffing did: open and close the workspace and its -shm.
    for (const QString& name : {file, file + QStringLiteral("-shm")}) {
        const int fd = ::open(QFile::encodeName(name).constData(), O_RDONLY | O_CLOEXEC);
        QVERIFY2(fd >= 0, qPrintable(name));
        QCOMPARE(::close(fd), 0);
    }
    const ChildResult other =
        run_writer({QStringLiteral("save-plan"), file, QStringLiteral("other")});
    QVERIFY2(other.exit_code == 0, qPrintable(other.err));
    // The mechanism, as this SQLite behaves: the other process removed the log on closing.
    QVERIFY(!QFileInfo::exists(file + QStringLiteral("-wal")));

    const auto [problem, message] =
        workspace_error([&] { app->save_plan("after", default_plan_spec()); });
    QCOMPARE(problem, QStringLiteral("detached"));
    QVERIFY2(message.contains(QStringLiteral("-wal")), qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("Nothing was read or saved")), qPrintable(message));
    QVERIFY(app->detached());
    // Reads are refused too: the stale log is not the file other programs see.
    QCOMPARE(workspace_error([&] { app->list_plans(); }).first, QStringLiteral("detached"));
    app.reset();  // closes the connection

    // Both committed plans are in the file; the refused one is not; the file is sound.
    Workspace again = Workspace::open(file_std);
    QStringList names;
    for (const StoredPlan& plan : again.list_plans()) {
        names << QString::fromStdString(plan.name);
    }
    names.sort();
    QCOMPARE(names, (QStringList{QStringLiteral("before"), QStringLiteral("other")}));
    QCOMPARE(QString::fromStdString(wstest::integrity(file_std)), QStringLiteral("ok"));
}

// The app opens a second connection while its first is open (the probe panel saves a run through
// its own). Opening inspects the file first; if that read the header through a descriptor of its
// own, closing it dropped the first connection's locks, and the next process to close the
// workspace removed the log under it.
void TestWorkspaceSafety::secondConnectionKeepsTheFirstsLocks() {
    const QString file = path(QStringLiteral("two-connections.sqlite"));
    const std::string file_std = file.toStdString();
    Workspace first = Workspace::open(file_std);
    first.save_plan("first", default_plan_spec());
    {
        Workspace second = Workspace::open(file_std);
        second.save_plan("second", default_plan_spec());
    }
    const ChildResult other =
        run_writer({QStringLiteral("save-plan"), file, QStringLiteral("other")});
    QVERIFY2(other.exit_code == 0, qPrintable(other.err));
    QVERIFY(QFileInfo::exists(file + QStringLiteral("-wal")));
    const auto [problem, message] =
        workspace_error([&] { first.save_plan("first again", default_plan_spec()); });
    QVERIFY2(problem == QStringLiteral("<no error>"), qPrintable(message));
    QCOMPARE(first.list_plans().size(), std::size_t{4});
}

QTEST_GUILESS_MAIN(TestWorkspaceSafety)
#include "tst_workspace_safety.moc"
