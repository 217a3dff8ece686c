#include "gpu_probe/probe_cluster.h"

#include <arpa/inet.h>
#include <fmt/core.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include "gpu_probe/probe_runner.h"

namespace tally::probe {

namespace {

using Clock = std::chrono::steady_clock;

// Every operation after the cluster formed waits this long at most for a peer: longer than any
// one measured case (--time-limit-s) plus NCCL's own set-up on many ranks.
constexpr std::chrono::seconds kOperationTimeout{600};

std::optional<int> to_int(const std::string& text) {
    int value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size()) {
        return std::nullopt;
    }
    return value;
}

int milliseconds_left(Clock::time_point deadline) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    return static_cast<int>(std::clamp<std::int64_t>(left.count(), 0, 1 << 30));
}

std::string system_error(const char* what) {
    return fmt::format("{}: {}", what, std::strerror(errno));
}

void wait_for(int fd, short events, Clock::time_point deadline, const std::string& doing) {
    for (;;) {
        pollfd p{fd, events, 0};
        const int ready = ::poll(&p, 1, milliseconds_left(deadline));
        if (ready > 0) {
            return;
        }
        if (ready == 0) {
            throw BootstrapError(doing + ": timed out");
        }
        if (errno != EINTR) {
            throw BootstrapError(doing + ": " + system_error("poll"));
        }
    }
}

void write_all(int fd, const char* data, std::size_t size, Clock::time_point deadline,
               const std::string& doing) {
    while (size > 0) {
        wait_for(fd, POLLOUT, deadline, doing);
        const ssize_t n = ::send(fd, data, size, MSG_NOSIGNAL);
        if (n < 0) {
            if (errno == EINTR || errno == EAGAIN) {
                continue;
            }
            throw BootstrapError(doing + ": " + system_error("send"));
        }
        data += n;
        size -= static_cast<std::size_t>(n);
    }
}

void read_all(int fd, char* data, std::size_t size, Clock::time_point deadline,
              const std::string& doing) {
    while (size > 0) {
        wait_for(fd, POLLIN, deadline, doing);
        const ssize_t n = ::recv(fd, data, size, 0);
        if (n == 0) {
            throw BootstrapError(doing + ": the other side closed the connection (did it fail?)");
        }
        if (n < 0) {
            if (errno == EINTR || errno == EAGAIN) {
                continue;
            }
            throw BootstrapError(doing + ": " + system_error("recv"));
        }
        data += n;
        size -= static_cast<std::size_t>(n);
    }
}

// A frame: the length as 8 bytes, least significant first, then the bytes.
void send_frame(int fd, const std::string& bytes, Clock::time_point deadline,
                const std::string& doing) {
    char header[8];
    std::uint64_t length = bytes.size();
    for (char& c : header) {
        c = static_cast<char>(length & 0xff);
        length >>= 8;
    }
    write_all(fd, header, sizeof header, deadline, doing);
    write_all(fd, bytes.data(), bytes.size(), deadline, doing);
}

std::string receive_frame(int fd, Clock::time_point deadline, const std::string& doing) {
    unsigned char header[8];
    read_all(fd, reinterpret_cast<char*>(header), sizeof header, deadline, doing);
    std::uint64_t length = 0;
    for (int i = 7; i >= 0; --i) {
        length = (length << 8) | header[i];
    }
    // A bootstrap message is a host list, a unique id, a timing, or a CPU rank's buffer.
    constexpr std::uint64_t kMaxFrameBytes = std::uint64_t{1} << 32;
    if (length > kMaxFrameBytes) {
        throw BootstrapError(doing + ": a message of " + std::to_string(length) +
                             " bytes (not a tally-probe rank on the other side?)");
    }
    std::string bytes(length, '\0');
    read_all(fd, bytes.data(), bytes.size(), deadline, doing);
    return bytes;
}

int listen_on(int port) {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        throw BootstrapError(system_error("rank 0: socket"));
    }
    const int yes = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_ANY);
    address.sin_port = htons(static_cast<std::uint16_t>(port));
    if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
        ::listen(fd, 1024) != 0) {
        const std::string error =
            system_error(fmt::format("rank 0: listening on port {}", port).c_str());
        ::close(fd);
        throw BootstrapError(error);
    }
    return fd;
}

int bound_port(int fd) {
    sockaddr_in address{};
    socklen_t length = sizeof address;
    if (::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
        throw BootstrapError(system_error("rank 0: getsockname"));
    }
    return ntohs(address.sin_port);
}

// Connects to one of `hosts` (tried in turn) at port, trying again until the deadline (rank 0
// may not listen yet).
int connect_to(const std::vector<std::string>& hosts, int port, Clock::time_point deadline) {
    std::string last_error = "no address";
    while (Clock::now() < deadline) {
        for (const std::string& host : hosts) {
            addrinfo hints{};
            hints.ai_family = AF_UNSPEC;
            hints.ai_socktype = SOCK_STREAM;
            addrinfo* found = nullptr;
            const std::string service = std::to_string(port);
            const int status = ::getaddrinfo(host.c_str(), service.c_str(), &hints, &found);
            if (status != 0) {
                last_error = fmt::format("cannot resolve {}: {}", host, ::gai_strerror(status));
            } else {
                for (addrinfo* a = found; a != nullptr; a = a->ai_next) {
                    const int fd =
                        ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
                    if (fd < 0) {
                        continue;
                    }
                    if (::connect(fd, a->ai_addr, a->ai_addrlen) == 0) {
                        ::freeaddrinfo(found);
                        const int yes = 1;
                        ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
                        return fd;
                    }
                    last_error = system_error(fmt::format("connect to {}:{}", host, port).c_str());
                    ::close(fd);
                }
                ::freeaddrinfo(found);
            }
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    std::string names;
    for (const std::string& host : hosts) {
        names += (names.empty() ? "" : " or ") + host;
    }
    throw BootstrapError(
        fmt::format("could not reach rank 0 at {} port {} ({})", names, port, last_error));
}

// Where the other ranks may reach this host: its name, then its IPv4 addresses (a cluster's
// host names do not always resolve on every node), loopback last (ranks on this host).
std::vector<std::string> reachable_names() {
    std::vector<std::string> names = {host_name()};
    std::vector<std::string> loopback;
    ifaddrs* interfaces = nullptr;
    if (::getifaddrs(&interfaces) == 0) {
        for (ifaddrs* i = interfaces; i != nullptr; i = i->ifa_next) {
            if (i->ifa_addr == nullptr || i->ifa_addr->sa_family != AF_INET) {
                continue;
            }
            char text[INET_ADDRSTRLEN] = {};
            const auto* address = reinterpret_cast<const sockaddr_in*>(i->ifa_addr);
            if (::inet_ntop(AF_INET, &address->sin_addr, text, sizeof text) == nullptr) {
                continue;
            }
            ((i->ifa_flags & IFF_LOOPBACK) != 0 ? loopback : names).emplace_back(text);
        }
        ::freeifaddrs(interfaces);
    }
    names.insert(names.end(), loopback.begin(), loopback.end());
    return names;
}

// Waits for rank 0's "PORT NAME..." in `path`.
std::pair<std::vector<std::string>, int> read_address_file(const std::string& path,
                                                           Clock::time_point deadline) {
    while (Clock::now() < deadline) {
        std::ifstream in(path);
        int port = 0;
        std::vector<std::string> hosts;
        std::string host;
        if (in >> port) {
            while (in >> host) {
                hosts.push_back(host);
            }
        }
        if (port > 0 && !hosts.empty()) {
            return {hosts, port};
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    throw BootstrapError("rank 0 did not write its address into " + path +
                         " in time (is the file on a filesystem every node shares? did rank 0 "
                         "start?)");
}

void write_address_file(const std::string& path, const std::vector<std::string>& hosts, int port) {
    const std::string temporary = path + ".tmp." + std::to_string(::getpid());
    {
        std::ofstream out(temporary, std::ios::trunc);
        out << port;
        for (const std::string& h : hosts) {
            out << ' ' << h;
        }
        out << '\n';
        out.flush();
        if (!out) {
            throw BootstrapError("rank 0 cannot write " + temporary);
        }
    }
    if (std::rename(temporary.c_str(), path.c_str()) != 0) {
        const std::string error = system_error(("rank 0: renaming it to " + path).c_str());
        std::remove(temporary.c_str());
        throw BootstrapError(error);
    }
}

}  // namespace

EnvironmentLookup process_environment() {
    return [](std::string_view name) -> std::optional<std::string> {
        const char* value = std::getenv(std::string(name).c_str());
        if (value == nullptr) {
            return std::nullopt;
        }
        return std::string(value);
    };
}

RankPlacement rank_placement(const EnvironmentLookup& environment) {
    struct Source {
        const char* launcher;
        const char* rank;
        std::vector<const char*> size;  // the first one set
        const char* local_rank;
    };
    // Slurm: SLURM_STEP_NUM_TASKS is the job step's task count (srun's), SLURM_NTASKS the
    // allocation's; inside srun both agree, in a batch script only the second is set.
    const Source sources[] = {
        {"slurm", "SLURM_PROCID", {"SLURM_STEP_NUM_TASKS", "SLURM_NTASKS"}, "SLURM_LOCALID"},
        {"open-mpi",
         "OMPI_COMM_WORLD_RANK",
         {"OMPI_COMM_WORLD_SIZE"},
         "OMPI_COMM_WORLD_LOCAL_RANK"},
        {"pmi", "PMI_RANK", {"PMI_SIZE"}, "MPI_LOCALRANKID"},
    };
    const auto number = [&](const char* name) -> std::optional<int> {
        const std::optional<std::string> text = environment(name);
        if (!text) {
            return std::nullopt;
        }
        const std::optional<int> value = to_int(*text);
        if (!value || *value < 0) {
            throw std::invalid_argument(fmt::format("{}={} is not a rank number", name, *text));
        }
        return value;
    };
    for (const Source& s : sources) {
        const std::optional<int> rank = number(s.rank);
        if (!rank) {
            continue;
        }
        std::optional<int> size;
        for (const char* name : s.size) {
            if (!size) {
                size = number(name);
            }
        }
        RankPlacement p;
        p.launcher = s.launcher;
        p.rank = *rank;
        p.size = size.value_or(1);
        p.local_rank = number(s.local_rank).value_or(0);
        if (p.size < 1 || p.rank >= p.size) {
            throw std::invalid_argument(
                fmt::format("{}={} is not below the number of ranks {}", s.rank, p.rank, p.size));
        }
        return p;
    }
    return {};
}

BootstrapAddress parse_bootstrap_address(std::string_view text) {
    const std::size_t colon = text.rfind(':');
    if (colon == std::string_view::npos || colon == 0) {
        throw std::invalid_argument(fmt::format("'{}' is not HOST:PORT", text));
    }
    const std::optional<int> port = to_int(std::string(text.substr(colon + 1)));
    if (!port || *port < 1 || *port > 65535) {
        throw std::invalid_argument(
            fmt::format("'{}': the port must be a number from 1 to 65535", text));
    }
    BootstrapAddress a;
    a.host = std::string(text.substr(0, colon));
    a.port = *port;
    return a;
}

std::string rank_host_name(const EnvironmentLookup& environment) {
    if (const std::optional<std::string> host = environment("TALLY_PROBE_HOST");
        host && !host->empty()) {
        return *host;
    }
    return host_name();
}

std::unique_ptr<ClusterBootstrap> ClusterBootstrap::connect(const RankPlacement& placement,
                                                            const BootstrapAddress& address,
                                                            const std::string& host,
                                                            std::chrono::duration<double> timeout) {
    std::unique_ptr<ClusterBootstrap> b(new ClusterBootstrap());
    b->m_rank = placement.rank;
    b->m_size = placement.size;
    b->m_timeout = timeout;
    b->m_hosts.assign(static_cast<std::size_t>(placement.size), std::string());
    b->m_hosts[static_cast<std::size_t>(placement.rank)] = host;
    if (placement.size == 1) {
        return b;
    }
    if (address.file.empty() && address.host.empty()) {
        throw BootstrapError(
            fmt::format("{} ranks need a way to meet: --bootstrap-file PATH (on a filesystem "
                        "every node shares) or --bootstrap-address HOST:PORT (rank 0's host)",
                        placement.size));
    }
    const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(timeout);
    if (placement.rank == 0) {
        const int listener = listen_on(address.file.empty() ? address.port : 0);
        try {
            if (!address.file.empty()) {
                write_address_file(address.file, reachable_names(), bound_port(listener));
                b->m_file = address.file;
            }
            b->m_sockets.assign(static_cast<std::size_t>(placement.size), -1);
            for (int joined = 1; joined < placement.size; ++joined) {
                wait_for(listener, POLLIN, deadline,
                         fmt::format("rank 0 waited for the other ranks ({} of {} came; were they "
                                     "all started, by srun or mpirun?)",
                                     joined - 1, placement.size - 1));
                const int fd = ::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
                if (fd < 0) {
                    throw BootstrapError(system_error("rank 0: accept"));
                }
                const int yes = 1;
                ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
                const std::string hello = receive_frame(fd, deadline, "rank 0: a rank's hello");
                std::istringstream in(hello);
                int rank = -1;
                std::string rank_host;
                in >> rank >> rank_host;
                if (rank < 1 || rank >= placement.size || b->m_sockets[rank] != -1) {
                    ::close(fd);
                    throw BootstrapError(fmt::format(
                        "rank 0: a peer said it is rank {} (expected 1 to {}, each once)", rank,
                        placement.size - 1));
                }
                b->m_sockets[static_cast<std::size_t>(rank)] = fd;
                b->m_hosts[static_cast<std::size_t>(rank)] = rank_host;
            }
        } catch (...) {
            ::close(listener);
            throw;
        }
        ::close(listener);
        if (!b->m_file.empty()) {
            std::remove(b->m_file.c_str());  // everyone has read it
            b->m_file.clear();
        }
        std::string list;
        for (const std::string& h : b->m_hosts) {
            list += h + '\n';
        }
        b->broadcast(list);
    } else {
        std::vector<std::string> rank0_hosts = {address.host};
        int port = address.port;
        if (!address.file.empty()) {
            std::tie(rank0_hosts, port) = read_address_file(address.file, deadline);
        }
        const int fd = connect_to(rank0_hosts, port, deadline);
        b->m_sockets = {fd};
        send_frame(fd, fmt::format("{} {}", placement.rank, host), deadline,
                   fmt::format("rank {}: hello to rank 0", placement.rank));
        const std::string list = b->broadcast({});
        std::istringstream in(list);
        for (std::string& h : b->m_hosts) {
            std::getline(in, h);
        }
    }
    return b;
}

ClusterBootstrap::~ClusterBootstrap() {
    for (int fd : m_sockets) {
        if (fd >= 0) {
            ::close(fd);
        }
    }
    if (!m_file.empty()) {
        std::remove(m_file.c_str());
    }
}

int ClusterBootstrap::node_count() const {
    return static_cast<int>(std::set<std::string>(m_hosts.begin(), m_hosts.end()).size());
}

std::vector<int> ClusterBootstrap::ranks_on_host_of(int rank) const {
    std::vector<int> out;
    for (int r = 0; r < m_size; ++r) {
        if (m_hosts[static_cast<std::size_t>(r)] == m_hosts[static_cast<std::size_t>(rank)]) {
            out.push_back(r);
        }
    }
    return out;
}

void ClusterBootstrap::send_to(int peer, const std::string& bytes) {
    const int fd = m_rank == 0 ? m_sockets[static_cast<std::size_t>(peer)] : m_sockets[0];
    send_frame(fd, bytes, Clock::now() + kOperationTimeout,
               fmt::format("rank {}: sending to rank {}", m_rank, peer));
}

std::string ClusterBootstrap::receive_from(int peer) {
    const int fd = m_rank == 0 ? m_sockets[static_cast<std::size_t>(peer)] : m_sockets[0];
    return receive_frame(fd, Clock::now() + kOperationTimeout,
                         fmt::format("rank {}: waiting for rank {}", m_rank, peer));
}

std::string ClusterBootstrap::broadcast(const std::string& bytes) {
    if (m_size == 1) {
        return bytes;
    }
    if (m_rank == 0) {
        for (int r = 1; r < m_size; ++r) {
            send_to(r, bytes);
        }
        return bytes;
    }
    return receive_from(0);
}

std::vector<std::string> ClusterBootstrap::gather(const std::string& bytes) {
    if (m_rank != 0) {
        send_to(0, bytes);
        return {};
    }
    std::vector<std::string> out(static_cast<std::size_t>(m_size));
    out[0] = bytes;
    for (int r = 1; r < m_size; ++r) {
        out[static_cast<std::size_t>(r)] = receive_from(r);
    }
    return out;
}

std::string ClusterBootstrap::scatter(const std::vector<std::string>& per_rank) {
    if (m_rank != 0) {
        return receive_from(0);
    }
    for (int r = 1; r < m_size; ++r) {
        send_to(r, per_rank.at(static_cast<std::size_t>(r)));
    }
    return per_rank.at(0);
}

namespace {
std::string encode(double value) {
    std::string bytes(sizeof value, '\0');
    std::memcpy(bytes.data(), &value, sizeof value);
    return bytes;
}
double decode(const std::string& bytes) {
    double value = 0.0;
    if (bytes.size() != sizeof value) {
        throw BootstrapError("a number of " + std::to_string(bytes.size()) + " bytes");
    }
    std::memcpy(&value, bytes.data(), sizeof value);
    return value;
}
}  // namespace

std::vector<double> ClusterBootstrap::gather_number(double value) {
    std::vector<double> out;
    for (const std::string& bytes : gather(encode(value))) {
        out.push_back(decode(bytes));
    }
    return out;
}

double ClusterBootstrap::broadcast_number(double value) {
    return decode(broadcast(encode(value)));
}

}  // namespace tally::probe
