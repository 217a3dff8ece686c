// tally-probe: measures the machine it runs on and prints JSON lines (PROTOCOL.md).
#include <cstdio>
#include <exception>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "gpu_probe/probe_backend.h"
#include "gpu_probe/probe_cpu_backend.h"
#include "gpu_probe/probe_cuda_backend.h"
#include "gpu_probe/probe_options.h"
#include "gpu_probe/probe_protocol.h"
#include "gpu_probe/probe_runner.h"

namespace {

using namespace tally::probe;

// A problem that ends the run: one error event on stdout, the same message on stderr.
int fail(EventSink& sink, ExitCode code, const std::string& message) {
    std::fprintf(stderr, "tally-probe: %s\n", message.c_str());
    sink.emit(ErrorEvent{message, {}, true, static_cast<int>(code)});
    return static_cast<int>(code);
}

int run(const Options& options, EventSink& sink) {
    // Pick the backend: as asked, or CUDA when it is built in and a device answers.
    std::string backend = options.backend.value_or("");
    if (backend.empty()) {
        backend = cuda_backend_built() && !cuda_unavailable_reason(options.device) ? "cuda" : "cpu";
    }
    if (backend == "cuda" && !cuda_backend_built()) {
        return fail(sink, ExitCode::backend_unavailable, *cuda_unavailable_reason(options.device));
    }
    const std::vector<TestInfo> available = backend == "cuda" ? cuda_tests() : cpu_tests();
    const TestSelection selection = select_tests(available, options.tests);
    if (!selection.error.empty()) {
        return fail(sink, ExitCode::bad_arguments, "--tests: " + selection.error);
    }
    if (options.inject_fault) {
        const TestSelection target = select_tests(available, {*options.inject_fault});
        if (!target.error.empty()) {
            return fail(sink, ExitCode::bad_arguments, "--inject-fault: " + target.error);
        }
    }
    if (options.list) {
        list_tests(backend, available, sink);
        return static_cast<int>(ExitCode::ok);
    }
    std::unique_ptr<Backend> instance;
    try {
        instance = backend == "cuda" ? make_cuda_backend(options.device) : make_cpu_backend();
    } catch (const BackendUnavailable& e) {
        return fail(sink, ExitCode::backend_unavailable, e.what());
    }
    return static_cast<int>(run_probe(*instance, options, selection.tests, sink));
}

}  // namespace

int main(int argc, char** argv) {
    FileEventSink sink(stdout);
    const std::vector<std::string_view> args(argv + 1, argv + argc);
    const ParsedOptions parsed = parse_options(args);
    if (!parsed.error.empty()) {
        return fail(sink, ExitCode::bad_arguments, parsed.error);
    }
    if (parsed.options.help) {
        std::fputs(usage_text().c_str(), stdout);
        return static_cast<int>(ExitCode::ok);
    }
    if (parsed.options.version) {
        std::printf("%s %s (protocol %d; backends: cpu%s)\n", kToolName.data(), kToolVersion.data(),
                    kProtocolVersion, cuda_backend_built() ? ", cuda" : "");
        return static_cast<int>(ExitCode::ok);
    }
    try {
        return run(parsed.options, sink);
    } catch (const std::exception& e) {
        return fail(sink, ExitCode::test_failed, std::string("internal error: ") + e.what());
    }
}
