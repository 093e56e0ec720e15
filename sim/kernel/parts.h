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
// The parts are balanced as the run goes: each part's work until its first
// wait() is timed, and every 128 cycles the cuts move halfway towards the
// sizes at which the parts would have taken the same time (the cores of a
// shared machine differ in speed, and so do the nodes under traffic). Which
// thread evaluates a node changes nothing of the results.
#ifndef SKIF_PARTS_H
#define SKIF_PARTS_H

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
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
        clocks_.resize(k);
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
    void wait()
    {
        if (workers_.empty())
            return;
        Clock &c = clocks_[t_part];
        if (!c.waited) {
            c.busy += now() - c.start;
            c.waited = true;
        }
        bar_.wait();
    }
    // One cycle of every part.
    void run()
    {
        if (workers_.empty()) {
            body_(0);
            return;
        }
        bar_.wait(); // start
        timed(0);
        bar_.wait(); // end
        if (++cycles_ % kEvery == 0)
            balance();
    }

  private:
    static int clamp(std::size_t n, int t)
    {
        return t < 1 ? 1 : static_cast<std::size_t>(t) > n ? static_cast<int>(n ? n : 1) : t;
    }
    static constexpr uint64_t kEvery = 128; // cycles between two balancings
    // A part's time: one cache line each, written by its own thread only.
    struct alignas(64) Clock {
        int64_t start = 0, busy = 0;
        bool waited = false;
    };
    static int64_t now()
    {
        return std::chrono::duration_cast<std::chrono::nanoseconds>(
                   std::chrono::steady_clock::now().time_since_epoch())
            .count();
    }
    void timed(std::size_t k)
    {
        t_part = k;
        Clock &c = clocks_[k];
        c.waited = false;
        c.start = now();
        body_(k);
        if (!c.waited)
            c.busy += now() - c.start;
    }
    void work(std::size_t k)
    {
        for (;;) {
            bar_.wait(); // start
            if (quit_.load(std::memory_order_acquire))
                return;
            timed(k);
            bar_.wait(); // end
        }
    }
    // Between cycles (every worker waits at the start): each part's speed in
    // nodes per nanosecond of its work; the sizes that speed asks for; the
    // cuts halfway there, every part keeping a node at least.
    void balance()
    {
        const std::size_t k = ranges_.size(), lo = ranges_[0].lo, n = ranges_[k - 1].hi - lo;
        std::vector<double> rate(k);
        double sum = 0;
        for (std::size_t p = 0; p < k; p++) {
            if (clocks_[p].busy <= 0)
                return;
            rate[p] = static_cast<double>(ranges_[p].hi - ranges_[p].lo) /
                      static_cast<double>(clocks_[p].busy);
            sum += rate[p];
        }
        double want = 0;
        for (std::size_t p = 0; p + 1 < k; p++) {
            want += static_cast<double>(n) * rate[p] / sum;
            const double now_at = static_cast<double>(ranges_[p].hi - lo);
            std::size_t cut = lo + static_cast<std::size_t>((now_at + want) / 2 + 0.5);
            cut = std::max(cut, ranges_[p].lo + 1);
            cut = std::min(cut, lo + n - (k - 1 - p)); // a node for each part after it
            ranges_[p].hi = ranges_[p + 1].lo = cut;
        }
        for (Clock &c : clocks_)
            c.busy = 0;
    }
    static inline thread_local std::size_t t_part = 0;
    std::function<void(std::size_t)> body_;
    Barrier bar_;
    std::vector<Range> ranges_;
    std::vector<Clock> clocks_;
    std::vector<std::thread> workers_;
    std::atomic<bool> quit_{false};
    uint64_t cycles_ = 0;
};
} // namespace skif

#endif
