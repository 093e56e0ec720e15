// SPDX-License-Identifier: Apache-2.0
// parts.h: a cycle's node evaluations on T threads (`--threads T` of skifsim
// and of skifnet). The nodes [lo, hi) are cut into T contiguous parts; part 0
// runs on the calling thread, parts 1..T-1 on threads of their own that wait
// at a barrier for the next cycle. run() is one cycle: every part runs
// body(k), and body may meet the other parts at wait() between its steps
// (e.g. after the clock edges, before the link moves that read the other
// parts' outputs); run() returns when every part has ended the cycle. With
// one part there is no thread and wait() returns at once, so the same body
// serves one thread and many.
#ifndef SKIF_PARTS_H
#define SKIF_PARTS_H

#include <atomic>
#include <cstddef>
#include <functional>
#include <thread>
#include <utility>
#include <vector>

#include <sched.h>

namespace skif
{
// All n threads wait until the last one comes. It spins (a cycle's wait is
// microseconds), yielding the core after `spins` turns: the simulated
// programs or another run may need it (each yield is a system call, so a
// bench without programs spins longer).
class Barrier
{
  public:
    Barrier(int n, int spins) : n_(n), spins_(spins) {}
    void wait()
    {
        const unsigned g = gen_.load(std::memory_order_acquire);
        if (count_.fetch_add(1, std::memory_order_acq_rel) == n_ - 1) {
            count_.store(0, std::memory_order_relaxed);
            gen_.store(g + 1, std::memory_order_release);
            return;
        }
        for (int spins = 0; gen_.load(std::memory_order_acquire) == g; spins++)
            if (spins > spins_)
                sched_yield();
    }

  private:
    const int n_, spins_;
    std::atomic<int> count_{0};
    std::atomic<unsigned> gen_{0};
};

class Parts
{
  public:
    struct Range {
        std::size_t lo, hi;
    };
    // t parts of [lo, hi) (fewer if there are fewer nodes; at least one);
    // spins: the barrier's turns before it yields the core.
    Parts(std::size_t lo, std::size_t hi, int t, std::function<void(std::size_t)> body,
          int spins = 4000)
        : body_(std::move(body)), bar_(clamp(hi - lo, t), spins)
    {
        const std::size_t n = hi - lo, k = static_cast<std::size_t>(clamp(n, t));
        for (std::size_t p = 0; p < k; p++)
            ranges_.push_back({lo + n * p / k, lo + n * (p + 1) / k});
        for (std::size_t p = 1; p < k; p++)
            workers_.emplace_back([this, p] { work(p); });
    }
    ~Parts()
    {
        if (workers_.empty())
            return;
        quit_.store(true, std::memory_order_release);
        bar_.wait();
        for (std::thread &w : workers_)
            w.join();
    }
    Parts(const Parts &) = delete;
    Parts &operator=(const Parts &) = delete;

    std::size_t count() const { return ranges_.size(); }
    const Range &range(std::size_t k) const { return ranges_[k]; }
    // Inside body: meet every other part.
    void wait() { bar_.wait(); }
    // One cycle of every part.
    void run()
    {
        bar_.wait(); // start
        body_(0);
        bar_.wait(); // end
    }

  private:
    static int clamp(std::size_t n, int t)
    {
        return t < 1 ? 1 : static_cast<std::size_t>(t) > n ? static_cast<int>(n ? n : 1) : t;
    }
    void work(std::size_t k)
    {
        for (;;) {
            bar_.wait(); // start
            if (quit_.load(std::memory_order_acquire))
                return;
            body_(k);
            bar_.wait(); // end
        }
    }
    std::function<void(std::size_t)> body_;
    Barrier bar_;
    std::vector<Range> ranges_;
    std::vector<std::thread> workers_;
    std::atomic<bool> quit_{false};
};
} // namespace skif

#endif
