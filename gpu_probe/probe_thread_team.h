#pragma once
// A fixed team of threads that runs one function on every member and waits for all of them:
// the CPU kernels' "all cores" without the cost of creating threads inside a timed sample.

#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace tally::probe {

class ThreadTeam {
public:
    // `size` members: the calling thread is member 0, size - 1 worker threads are started.
    explicit ThreadTeam(unsigned size);
    ~ThreadTeam();
    ThreadTeam(const ThreadTeam&) = delete;
    ThreadTeam& operator=(const ThreadTeam&) = delete;

    unsigned size() const { return m_size; }

    // Runs fn(member, size) on every member and returns when all are done; rethrows the first
    // exception a member threw.
    void run(const std::function<void(unsigned member, unsigned size)>& fn);

    // The part of [0, n) that `member` of `size` handles: contiguous, boundaries rounded to
    // multiples of `align` so that vector blocks are never split.
    static std::pair<std::size_t, std::size_t> share(std::size_t n, unsigned member, unsigned size,
                                                     std::size_t align = 1);

private:
    void work(unsigned member);
    void call(unsigned member);

    unsigned m_size;
    std::vector<std::thread> m_threads;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::condition_variable m_finished;
    const std::function<void(unsigned, unsigned)>* m_fn = nullptr;
    unsigned long m_generation = 0;
    unsigned m_running = 0;
    bool m_stop = false;
    std::exception_ptr m_error;
};

// The number of CPUs this process may run on (its affinity mask), at least 1.
unsigned usable_cpu_count();

}  // namespace tally::probe
