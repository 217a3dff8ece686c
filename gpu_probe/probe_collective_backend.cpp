#include "gpu_probe/probe_collective_backend.h"

#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <numeric>
#include <set>

#include "gpu_probe/probe_collective_pattern.h"

namespace tally::probe {

namespace {

using Clock = std::chrono::steady_clock;

constexpr std::int64_t KiB = 1024;
constexpr std::int64_t MiB = 1024 * KiB;
constexpr std::int64_t GiB = 1024 * MiB;

// Small operations are timed in batches: one NCCL launch takes microseconds, near the resolution
// of the timers (nccl-tests likewise averages each figure over its iterations).
int repetitions_for(std::int64_t bytes) {
    return bytes <= MiB ? 10 : 1;
}

std::vector<int> group_of(const ClusterBootstrap& b, CollectiveScope scope, int rank) {
    if (scope == CollectiveScope::node) {
        return b.ranks_on_host_of(rank);
    }
    std::vector<int> all(static_cast<std::size_t>(b.size()));
    std::iota(all.begin(), all.end(), 0);
    return all;
}

}  // namespace

std::vector<TestInfo> collective_tests() {
    return {
        {"all_reduce", "all-reduce (sum) bus bandwidth, 2(n-1)/n of the algorithm bandwidth"},
        {"all_gather", "all-gather bus bandwidth, (n-1)/n of the algorithm bandwidth"},
        {"reduce_scatter",
         "reduce-scatter (sum) bus bandwidth, (n-1)/n of the algorithm bandwidth"},
        {"alltoall", "all-to-all bus bandwidth, (n-1)/n of the algorithm bandwidth"},
        {"sendrecv",
         "send/receive around a ring of the ranks, bus bandwidth = algorithm bandwidth"},
    };
}

std::vector<std::int64_t> collective_sizes(bool quick, std::int64_t max_bytes) {
    std::vector<std::int64_t> sizes;
    if (quick) {
        sizes = {KiB, MiB, 64 * MiB};
    } else {
        for (std::int64_t s = KiB; s <= GiB; s *= 4) {
            sizes.push_back(s);
        }
    }
    std::erase_if(sizes, [max_bytes](std::int64_t s) { return s > max_bytes; });
    return sizes;
}

std::int64_t collective_count(std::int64_t bytes, const std::vector<int>& group_sizes) {
    std::int64_t multiple = 1;
    for (int n : group_sizes) {
        multiple = std::lcm(multiple, static_cast<std::int64_t>(std::max(n, 1)));
    }
    const std::int64_t count = bytes / 4 / multiple * multiple;
    return std::max(count, multiple);
}

double merged_sample_s(const std::vector<double>& per_rank_s) {
    return per_rank_s.empty() ? 0.0 : *std::max_element(per_rank_s.begin(), per_rank_s.end());
}

CollectiveBackend::CollectiveBackend(std::string name, std::unique_ptr<ClusterBootstrap> bootstrap,
                                     std::unique_ptr<CollectiveEngine> engine)
    : m_name(std::move(name)), m_bootstrap(std::move(bootstrap)), m_engine(std::move(engine)) {}

DeviceEvent CollectiveBackend::describe() {
    DeviceEvent d;
    d.backend = m_name;
    d.name = m_engine->device_name();
    d.memory_bytes = m_engine->device_memory_bytes();
    d.ranks = m_bootstrap->size();
    d.nodes = m_bootstrap->node_count();
    // Every rank's device: one name when they agree, else each with its count.
    const std::vector<std::string> names = m_bootstrap->gather(d.name);
    if (m_bootstrap->rank() == 0) {
        std::vector<std::pair<std::string, int>> counted;
        for (const std::string& n : names) {
            auto it = std::find_if(counted.begin(), counted.end(),
                                   [&](const auto& c) { return c.first == n; });
            if (it == counted.end()) {
                counted.emplace_back(n, 1);
            } else {
                ++it->second;
            }
        }
        if (counted.size() > 1) {
            d.name.clear();
            for (const auto& [n, k] : counted) {
                d.name += fmt::format("{}{} x {}", d.name.empty() ? "" : ", ", k, n);
            }
        }
    }
    return d;
}

void CollectiveBackend::run(std::string_view test, TestContext& ctx) {
    const std::optional<Collective> collective = collective_from_string(test);
    if (!collective) {
        throw std::invalid_argument("not a collective: " + std::string(test));
    }
    std::vector<CollectiveScope> scopes = {CollectiveScope::world};
    // Several hosts, and some host with two ranks or more: its ranks measure the node's own
    // fabric (NVLink, PCIe) while the world measures the network between the hosts.
    bool shared_host = false;
    for (int r = 0; r < m_bootstrap->size(); ++r) {
        shared_host = shared_host || m_bootstrap->ranks_on_host_of(r).size() > 1;
    }
    if (m_bootstrap->node_count() > 1 && shared_host) {
        scopes.push_back(CollectiveScope::node);
    }
    for (CollectiveScope scope : scopes) {
        for (std::int64_t bytes :
             collective_sizes(ctx.settings().quick, m_engine->max_bytes(ctx.settings().quick))) {
            run_case(*collective, scope, bytes, ctx);
        }
    }
}

void CollectiveBackend::run_case(Collective collective, CollectiveScope scope, std::int64_t bytes,
                                 TestContext& ctx) {
    ClusterBootstrap& b = *m_bootstrap;
    std::vector<int> group_sizes;
    for (int r = 0; r < b.size(); ++r) {
        group_sizes.push_back(static_cast<int>(group_of(b, scope, r).size()));
    }
    const std::int64_t count = collective_count(bytes, group_sizes);
    const std::int64_t size_bytes = count * 4;
    // Rank 0 reports its own group: every rank in the world, or the ranks on its host.
    const std::vector<int> reported = group_of(b, scope, 0);
    const int ranks = static_cast<int>(reported.size());
    std::set<std::string> hosts;
    for (int r : reported) {
        hosts.insert(b.hosts()[static_cast<std::size_t>(r)]);
    }
    const int nodes = static_cast<int>(hosts.size());
    CaseLabel label;
    label.variant = "out_of_place";
    label.dtype = "fp32";
    label.sizes = {{"bytes", size_bytes}, {"count", count}, {"ranks", ranks}, {"nodes", nodes}};
    ctx.progress(fmt::format("{} fp32 {} bytes, {} ranks on {} host{}{}", to_string(collective),
                             size_bytes, ranks, nodes, nodes == 1 ? "" : "s",
                             scope == CollectiveScope::node ? " (each host's ranks at once)" : ""));

    m_engine->prepare(collective, scope, count);
    const int repetitions = repetitions_for(size_bytes);
    const StopCriterion& criterion = ctx.criterion();
    const Clock::time_point began = Clock::now();
    for (int w = 0; w < criterion.warmup_runs; ++w) {
        m_engine->timed(repetitions);
    }
    Measurement m;
    for (;;) {
        const double mine = m_engine->timed(repetitions);
        const std::vector<double> all = b.gather_number(mine);
        double stop = 0.0;
        if (b.rank() == 0) {
            m.samples_s.push_back(merged_sample_s(all));
            const double elapsed = std::chrono::duration<double>(Clock::now() - began).count();
            if (const auto reason = should_stop(m.samples_s, elapsed, criterion)) {
                m.stop_reason = *reason;
                m.elapsed_s = elapsed;
                stop = 1.0;
            }
        }
        if (b.broadcast_number(stop) != 0.0) {
            break;
        }
    }
    const std::int64_t wrong = m_engine->count_wrong(ctx.inject_fault() && b.rank() == 0);
    const std::vector<double> wrongs = b.gather_number(static_cast<double>(wrong));
    double total_wrong = 0.0;
    int ranks_wrong = 0;
    for (double w : wrongs) {
        total_wrong += w;
        ranks_wrong += w > 0.0 ? 1 : 0;
    }
    // Every rank learns the verdict, so that every rank's run ends (and exits) as rank 0's does;
    // only rank 0's events are written.
    total_wrong = b.broadcast_number(total_wrong);
    ranks_wrong = static_cast<int>(b.broadcast_number(ranks_wrong));
    m.summary = summarize(m.samples_s);
    const Validation validation =
        total_wrong == 0.0 ? Validation::ok()
                           : Validation::fail(fmt::format(
                                 "{} elements differ from the expected values on {} of {} ranks",
                                 total_wrong, ranks_wrong, b.size()));
    ResultEvent r =
        measured_result(label, m, std::nullopt, static_cast<double>(size_bytes), validation);
    if (r.bytes_per_s) {
        // nccl-tests doc/PERFORMANCE.md: busbw = algbw * the collective's factor.
        r.bus_bytes_per_s = *r.bytes_per_s * bus_bandwidth_factor(collective, ranks);
    }
    r.note = fmt::format("time of the slowest of {} ranks per sample; {} per sample", b.size(),
                         repetitions == 1 ? std::string("one operation")
                                          : fmt::format("mean of {} operations", repetitions));
    ctx.report(std::move(r));
}

// ---- tcp ----------------------------------------------------------------------------------------

namespace {

class TcpEngine : public CollectiveEngine {
public:
    explicit TcpEngine(ClusterBootstrap& bootstrap) : m_b(bootstrap) {}

    std::string device_name() override { return "CPU ranks over TCP, relayed by rank 0"; }
    std::optional<std::int64_t> device_memory_bytes() override { return std::nullopt; }
    // Rank 0 holds every rank's buffer at once.
    std::int64_t max_bytes(bool quick) const override { return quick ? MiB : 16 * MiB; }

    void prepare(Collective collective, CollectiveScope scope, std::int64_t count) override {
        m_collective = collective;
        m_scope = scope;
        m_count = count;
        const std::vector<int> group = group_of(m_b, scope, m_b.rank());
        m_ranks = static_cast<int>(group.size());
        m_me = static_cast<int>(std::find(group.begin(), group.end(), m_b.rank()) - group.begin());
        m_send.resize(static_cast<std::size_t>(collective_send_count(collective, count, m_ranks)));
        for (std::size_t i = 0; i < m_send.size(); ++i) {
            m_send[i] = collective_input(m_me, static_cast<std::int64_t>(i));
        }
        m_recv.assign(static_cast<std::size_t>(collective_recv_count(collective, count, m_ranks)),
                      0.0f);
    }

    double timed(int repetitions) override {
        const Clock::time_point t0 = Clock::now();
        for (int i = 0; i < repetitions; ++i) {
            exchange();
        }
        return std::chrono::duration<double>(Clock::now() - t0).count() / repetitions;
    }

    std::int64_t count_wrong(bool corrupt) override {
        if (corrupt && !m_recv.empty()) {
            m_recv[0] += 1e9f * (1.0f + std::fabs(m_recv[0]));
        }
        std::int64_t wrong = 0;
        for (std::size_t i = 0; i < m_recv.size(); ++i) {
            const float want = collective_expected(m_collective, m_ranks, m_me, m_count,
                                                   static_cast<std::int64_t>(i));
            wrong += m_recv[i] == want ? 0 : 1;
        }
        return wrong;
    }

private:
    static std::string bytes_of(const std::vector<float>& v) {
        return std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(float));
    }
    static std::vector<float> floats_of(const std::string& s) {
        std::vector<float> v(s.size() / sizeof(float));
        std::memcpy(v.data(), s.data(), v.size() * sizeof(float));
        return v;
    }

    // Every rank's input to rank 0; rank 0 works out each rank's output from the inputs of its
    // group (the collective's definition, not the closed form validation checks against).
    void exchange() {
        const std::vector<std::string> inputs = m_b.gather(bytes_of(m_send));
        std::vector<std::string> outputs;
        if (m_b.rank() == 0) {
            outputs.resize(static_cast<std::size_t>(m_b.size()));
            std::vector<bool> done(static_cast<std::size_t>(m_b.size()), false);
            for (int r = 0; r < m_b.size(); ++r) {
                if (done[static_cast<std::size_t>(r)]) {
                    continue;
                }
                const std::vector<int> group = group_of(m_b, m_scope, r);
                std::vector<std::vector<float>> sends;
                for (int g : group) {
                    sends.push_back(floats_of(inputs[static_cast<std::size_t>(g)]));
                    done[static_cast<std::size_t>(g)] = true;
                }
                const std::vector<std::vector<float>> recvs = reference(sends);
                for (std::size_t k = 0; k < group.size(); ++k) {
                    outputs[static_cast<std::size_t>(group[k])] = bytes_of(recvs[k]);
                }
            }
        }
        m_recv = floats_of(m_b.scatter(outputs));
    }

    std::vector<std::vector<float>> reference(const std::vector<std::vector<float>>& sends) const {
        const std::size_t n = sends.size();
        const std::size_t count = static_cast<std::size_t>(m_count);
        const std::size_t block = count / n;
        std::vector<std::vector<float>> out(n);
        std::vector<float> sum;
        if (m_collective == Collective::all_reduce || m_collective == Collective::reduce_scatter) {
            sum.assign(count, 0.0f);
            for (const auto& s : sends) {
                for (std::size_t i = 0; i < count; ++i) {
                    sum[i] += s[i];
                }
            }
        }
        for (std::size_t j = 0; j < n; ++j) {
            switch (m_collective) {
                case Collective::all_reduce:
                    out[j] = sum;
                    break;
                case Collective::reduce_scatter:
                    out[j].assign(sum.begin() + static_cast<std::ptrdiff_t>(j * block),
                                  sum.begin() + static_cast<std::ptrdiff_t>((j + 1) * block));
                    break;
                case Collective::all_gather:
                    for (const auto& s : sends) {
                        out[j].insert(out[j].end(), s.begin(), s.end());
                    }
                    break;
                case Collective::alltoall:
                    for (std::size_t k = 0; k < n; ++k) {
                        const auto from = sends[k].begin() + static_cast<std::ptrdiff_t>(j * block);
                        out[j].insert(out[j].end(), from,
                                      from + static_cast<std::ptrdiff_t>(block));
                    }
                    break;
                case Collective::sendrecv:
                    out[j] = sends[(j + n - 1) % n];
                    break;
            }
        }
        return out;
    }

    ClusterBootstrap& m_b;
    Collective m_collective = Collective::all_reduce;
    CollectiveScope m_scope = CollectiveScope::world;
    std::int64_t m_count = 0;
    int m_ranks = 1;
    int m_me = 0;
    std::vector<float> m_send;
    std::vector<float> m_recv;
};

}  // namespace

std::unique_ptr<CollectiveEngine> make_tcp_engine(ClusterBootstrap& bootstrap) {
    return std::make_unique<TcpEngine>(bootstrap);
}

}  // namespace tally::probe
