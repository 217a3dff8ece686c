// tally-probe: measures the machine it runs on and prints JSON lines (PROTOCOL.md).
#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "gpu_probe/probe_backend.h"
#include "gpu_probe/probe_cluster.h"
#include "gpu_probe/probe_collective_backend.h"
#include "gpu_probe/probe_cpu_backend.h"
#include "gpu_probe/probe_cuda_backend.h"
#include "gpu_probe/probe_nccl_backend.h"
#include "gpu_probe/probe_options.h"
#include "gpu_probe/probe_runner.h"
#include "gpu_probe/protocol/probe_protocol.h"

namespace {

using namespace tally::probe;

// A problem that ends the run: one error event on stdout, the same message on stderr.
int fail(EventSink& sink, ExitCode code, const std::string& message) {
    std::fprintf(stderr, "tally-probe: %s\n", message.c_str());
    sink.emit(ErrorEvent{message, {}, true, static_cast<int>(code)});
    return static_cast<int>(code);
}

// Where the events of a rank other than 0 go: nowhere (the launcher merges every rank's stdout,
// and rank 0 alone speaks for the run).
class DiscardingSink : public EventSink {
public:
    void emit(const Event&) override {}
};

// The cluster backends: every rank runs this; rank 0 writes the events.
int run_cluster(const Options& options, const std::string& backend, EventSink& stdout_sink) {
    RankPlacement placement;
    try {
        placement = rank_placement(process_environment());
    } catch (const std::invalid_argument& e) {
        return fail(stdout_sink, ExitCode::bad_arguments, e.what());
    }
    DiscardingSink discard;
    EventSink& sink = placement.rank == 0 ? stdout_sink : discard;
    const auto rank_fail = [&](ExitCode code, const std::string& message) {
        if (placement.rank == 0) {
            return fail(sink, code, message);
        }
        std::fprintf(stderr, "tally-probe rank %d: %s\n", placement.rank, message.c_str());
        return static_cast<int>(code);
    };
    const std::vector<TestInfo> available = collective_tests();
    const TestSelection selection = select_tests(available, options.tests);
    if (!selection.error.empty()) {
        return rank_fail(ExitCode::bad_arguments, "--tests: " + selection.error);
    }
    if (!options.gemm_shapes.empty()) {
        return rank_fail(ExitCode::bad_arguments,
                         "--gemm-shapes: the " + backend +
                             " backend has no gemm_shapes test (use --backend cpu or cuda)");
    }
    if (options.inject_fault) {
        const TestSelection target = select_tests(available, {*options.inject_fault});
        if (!target.error.empty()) {
            return rank_fail(ExitCode::bad_arguments, "--inject-fault: " + target.error);
        }
    }
    if (options.list) {
        list_tests(backend, available, sink);
        return static_cast<int>(ExitCode::ok);
    }
    // Before the ranks meet: a cluster without GPUs fails at once, not after the timeout.
    if (backend == "nccl") {
        if (const auto reason = nccl_unavailable_reason(placement.local_rank)) {
            return rank_fail(ExitCode::backend_unavailable, *reason);
        }
    }
    BootstrapAddress address;
    address.file = options.bootstrap_file;
    if (!options.bootstrap_address.empty()) {
        try {
            const BootstrapAddress parsed = parse_bootstrap_address(options.bootstrap_address);
            address.host = parsed.host;
            address.port = parsed.port;
        } catch (const std::invalid_argument& e) {
            return rank_fail(ExitCode::bad_arguments,
                             std::string("--bootstrap-address: ") + e.what());
        }
    }
    std::unique_ptr<ClusterBootstrap> bootstrap;
    std::unique_ptr<CollectiveEngine> engine;
    try {
        bootstrap =
            ClusterBootstrap::connect(placement, address, rank_host_name(process_environment()),
                                      std::chrono::duration<double>(options.bootstrap_timeout_s));
        engine = backend == "nccl" ? make_nccl_engine(*bootstrap, placement.local_rank)
                                   : make_tcp_engine(*bootstrap);
    } catch (const BackendUnavailable& e) {
        return rank_fail(ExitCode::backend_unavailable, e.what());
    } catch (const std::exception& e) {
        return rank_fail(
            ExitCode::test_failed,
            fmt::format("rank {} of {} ({}): {}", placement.rank, placement.size,
                        placement.launcher.empty() ? "no launcher" : placement.launcher, e.what()));
    }
    CollectiveBackend instance(backend, std::move(bootstrap), std::move(engine));
    return static_cast<int>(run_probe(instance, options, selection.tests, sink));
}

int run(const Options& options, EventSink& sink) {
    // Pick the backend: as asked, or CUDA when it is built in and a device answers.
    std::string backend = options.backend.value_or("");
    if (backend.empty()) {
        backend = cuda_backend_built() && !cuda_unavailable_reason(options.device) ? "cuda" : "cpu";
    }
    if (backend == "nccl" || backend == "tcp") {
        return run_cluster(options, backend, sink);
    }
    if (backend == "cuda" && !cuda_backend_built()) {
        return fail(sink, ExitCode::backend_unavailable, *cuda_unavailable_reason(options.device));
    }
    const std::vector<TestInfo> available = backend == "cuda" ? cuda_tests() : cpu_tests();
    const TestSelection selection = select_tests(available, options.tests);
    if (!selection.error.empty()) {
        return fail(sink, ExitCode::bad_arguments, "--tests: " + selection.error);
    }
    if (!options.gemm_shapes.empty() && std::find(selection.tests.begin(), selection.tests.end(),
                                                  "gemm_shapes") == selection.tests.end()) {
        return fail(sink, ExitCode::bad_arguments,
                    "--gemm-shapes: the selected tests do not include gemm_shapes (add it to "
                    "--tests)");
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
        std::printf("%s %s (protocol %d; backends: cpu%s, tcp%s)\n", kToolName.data(),
                    kToolVersion.data(), kProtocolVersion, cuda_backend_built() ? ", cuda" : "",
                    nccl_backend_built() ? ", nccl" : "");
        return static_cast<int>(ExitCode::ok);
    }
    try {
        return run(parsed.options, sink);
    } catch (const std::exception& e) {
        return fail(sink, ExitCode::test_failed, std::string("internal error: ") + e.what());
    }
}
