#include "gpu_probe/probe_runner.h"

#include <unistd.h>

#include <chrono>
#include <ctime>
#include <exception>

#include <fmt/format.h>

namespace tally::probe {

void FileEventSink::emit(const Event& event) {
    const std::string line = to_json_line(event);
    std::fwrite(line.data(), 1, line.size(), m_file);
    std::fputc('\n', m_file);
    std::fflush(m_file);
}

TestSelection select_tests(const std::vector<TestInfo>& available,
                           const std::vector<std::string>& requested) {
    TestSelection selection;
    if (requested.empty()) {
        for (const auto& info : available) {
            selection.tests.push_back(info.name);
        }
        return selection;
    }
    for (const auto& name : requested) {
        bool known = false;
        for (const auto& info : available) {
            known = known || info.name == name;
        }
        if (!known) {
            std::string names;
            for (const auto& info : available) {
                names += (names.empty() ? "" : ", ") + info.name;
            }
            selection.error = fmt::format("unknown test '{}' (available: {})", name, names);
            return selection;
        }
        selection.tests.push_back(name);
    }
    return selection;
}

void list_tests(std::string_view backend, const std::vector<TestInfo>& tests, EventSink& sink) {
    for (const auto& info : tests) {
        sink.emit(TestEvent{info.name, std::string(backend), info.description});
    }
}

ExitCode run_probe(Backend& backend, const Options& options, const std::vector<std::string>& tests,
                   EventSink& sink) {
    const auto began = std::chrono::steady_clock::now();
    RunSettings settings;
    settings.quick = options.quick;
    settings.criterion = stop_criterion(options);
    settings.l2_flush = options.l2_flush;
    settings.seed = options.seed;
    settings.inject_fault = options.inject_fault;
    settings.gemm_shapes = options.gemm_shapes;

    StartEvent start;
    start.backend = std::string(backend.name());
    start.host = host_name();
    start.started_at = iso8601_utc_now();
    start.quick = options.quick;
    start.tests = tests;
    start.time_limit_s = settings.criterion.time_limit_s;
    start.l2_flush = options.l2_flush;
    start.inject_fault = options.inject_fault;
    start.seed = options.seed;
    sink.emit(start);
    sink.emit(backend.describe());

    DoneEvent done;
    const int total = static_cast<int>(tests.size());
    for (int i = 0; i < total; ++i) {
        const std::string& name = tests[static_cast<std::size_t>(i)];
        TestContext ctx(name, i + 1, total, settings, sink);
        ctx.progress("running " + name);
        try {
            backend.run(name, ctx);
            if (ctx.reported() == 0) {
                ctx.report(failed_result({}, "the test reported no result"));
            }
        } catch (const std::exception& e) {
            // A test that throws (a CUDA call failed, memory ran out) fails; the run goes on.
            sink.emit(ErrorEvent{fmt::format("{}: {}", name, e.what()), name, false, {}});
            ctx.report(failed_result({}, e.what()));
        }
        done.passed += ctx.passed();
        done.waived += ctx.waived();
        done.failed += ctx.failed();
    }
    done.status = done.failed == 0 ? RunStatus::ok : RunStatus::failed;
    done.finished_at = iso8601_utc_now();
    done.elapsed_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    sink.emit(done);
    return done.failed == 0 ? ExitCode::ok : ExitCode::test_failed;
}

std::string iso8601_utc_now() {
    const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm utc{};
    gmtime_r(&now, &utc);
    char text[32];
    const std::size_t n = std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return std::string(text, n);
}

std::string host_name() {
    char name[256] = {};
    if (gethostname(name, sizeof name - 1) != 0) {
        return "unknown";
    }
    return name;
}

}  // namespace tally::probe
