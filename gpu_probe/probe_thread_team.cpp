#include "gpu_probe/probe_thread_team.h"

#include <sched.h>

#include <algorithm>

namespace tally::probe {

ThreadTeam::ThreadTeam(unsigned size) : m_size(std::max(size, 1u)) {
    m_threads.reserve(m_size - 1);
    for (unsigned member = 1; member < m_size; ++member) {
        m_threads.emplace_back([this, member] { work(member); });
    }
}

ThreadTeam::~ThreadTeam() {
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
    for (auto& thread : m_threads) {
        thread.join();
    }
}

void ThreadTeam::call(unsigned member) {
    try {
        (*m_fn)(member, m_size);
    } catch (...) {
        std::lock_guard lock(m_mutex);
        if (!m_error) {
            m_error = std::current_exception();
        }
    }
}

void ThreadTeam::work(unsigned member) {
    unsigned long seen = 0;
    for (;;) {
        {
            std::unique_lock lock(m_mutex);
            m_wake.wait(lock, [&] { return m_stop || m_generation != seen; });
            if (m_stop) {
                return;
            }
            seen = m_generation;
        }
        call(member);
        {
            std::lock_guard lock(m_mutex);
            if (--m_running == 0) {
                m_finished.notify_one();
            }
        }
    }
}

void ThreadTeam::run(const std::function<void(unsigned, unsigned)>& fn) {
    {
        std::lock_guard lock(m_mutex);
        m_fn = &fn;
        m_error = nullptr;
        m_running = m_size - 1;
        ++m_generation;
    }
    m_wake.notify_all();
    call(0);
    std::exception_ptr error;
    {
        std::unique_lock lock(m_mutex);
        m_finished.wait(lock, [&] { return m_running == 0; });
        m_fn = nullptr;
        error = std::exchange(m_error, nullptr);
    }
    if (error) {
        std::rethrow_exception(error);
    }
}

std::pair<std::size_t, std::size_t> ThreadTeam::share(std::size_t n, unsigned member, unsigned size,
                                                      std::size_t align) {
    const std::size_t blocks = (n + align - 1) / align;
    const std::size_t begin_block = blocks * member / size;
    const std::size_t end_block = blocks * (member + 1) / size;
    return {std::min(n, begin_block * align), std::min(n, end_block * align)};
}

unsigned usable_cpu_count() {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        const int count = CPU_COUNT(&set);
        if (count > 0) {
            return static_cast<unsigned>(count);
        }
    }
    return std::max(1u, std::thread::hardware_concurrency());
}

}  // namespace tally::probe
