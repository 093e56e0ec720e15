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
// wait() is timed, and every 128 cycles (a period) the cuts move halfway
// towards the sizes at which the parts would have taken the same time (the
// cores of a shared machine differ in speed, and so do the nodes under
// traffic). And the threads are used only while they pay: where a cycle's
// work is a few microseconds (quiet nodes asleep), meeting at the barriers
// costs more than the second core saves, so the calling thread then runs
// every node itself ("solo": one part, the others' threads asleep). A period
// in the other way is tried now and then, and kept if its cycles took less
// time than this way's recent periods (a moving mean; by 5%); the tries grow rarer
// while they lose clearly (every 4 to 64 periods, and not before 32 times
// what the last try lost has passed); SKIF_THREADS_ADAPT=0 in
// the environment keeps the threads in use every cycle (tests of the threads' results). Which
// thread evaluates a node, and whether the threads are used, change nothing of the results.
#ifndef SKIF_PARTS_H
#define SKIF_PARTS_H

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <thread>
#include <utility>
#include <vector>

#include <linux/futex.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace skif
{
// All n threads wait until the last one comes. A waiting thread spins for
// a few microseconds, then yields its core in a loop for up to `spin_us`
// (a cycle's wait is usually tens of microseconds), then sleeps on a futex
// until the last one wakes it (with a system call only when one sleeps).
// - A sleeper costs its wake-up, tens of microseconds on a virtual machine:
//   where it slept after 4000 turns (about 10 us here), skifnet's worker
//   slept through each one-thread step between two cycles and was woken
//   every cycle, a quarter slower.
// - Yielding gives the core to a thread that needs it: the one waited for,
//   where the threads outnumber the free cores (a thread that only spun for
//   a millisecond held that core: skifnet in 3 threads on 2 cores took 12 ms
//   a cycle), or a simulated program.
// - Sleeping after `spin_us`: a thread that only yielded stayed runnable
//   and took turns from the programs (skifsim ran slower in two threads
//   than in one), and from other runs.
class Barrier
{
  public:
    Barrier(int n, int spin_us) : n_(n), max_ns_(int64_t{1000} * spin_us) {}
    void wait()
    {
        const unsigned g = gen_.load(std::memory_order_acquire);
        if (count_.fetch_add(1, std::memory_order_acq_rel) == n_ - 1) {
            count_.store(0, std::memory_order_relaxed);
            // (sequentially consistent: a thread that counts itself a sleeper
            // after this load sees the new generation before it sleeps)
            gen_.store(g + 1, std::memory_order_seq_cst);
            if (sleepers_.load(std::memory_order_seq_cst) > 0)
                futex(FUTEX_WAKE_PRIVATE, INT32_MAX);
            return;
        }
        const auto t0 = std::chrono::steady_clock::now();
        bool yield = false;
        for (unsigned turn = 1; max_ns_ > 0; turn++) {
            if (gen_.load(std::memory_order_acquire) != g)
                return;
            if (turn % 8 == 0) {
                const int64_t t = std::chrono::duration_cast<std::chrono::nanoseconds>(
                                      std::chrono::steady_clock::now() - t0)
                                      .count();
                if (t >= max_ns_)
                    break;
                yield = t >= kSpinNs;
            }
            if (yield)
                sched_yield();
#if defined(__x86_64__)
            else
                __builtin_ia32_pause(); // (kinder to the other hardware thread of the core)
#endif
        }
        sleepers_.fetch_add(1, std::memory_order_seq_cst);
        while (gen_.load(std::memory_order_seq_cst) == g)
            futex(FUTEX_WAIT_PRIVATE, g); // (returns at once once gen_ moved on)
        sleepers_.fetch_sub(1, std::memory_order_relaxed);
    }

  private:
    static_assert(sizeof(std::atomic<unsigned>) == sizeof(uint32_t) &&
                      std::atomic<unsigned>::is_always_lock_free,
                  "the generation word is a futex");
    static constexpr int64_t kSpinNs = 5000; // spinning before yielding
    void futex(int op, unsigned val)
    {
        syscall(SYS_futex, reinterpret_cast<uint32_t *>(&gen_), op, val, nullptr, nullptr, 0);
    }
    const int n_;
    const int64_t max_ns_;
    std::atomic<int> count_{0}, sleepers_{0};
    std::atomic<unsigned> gen_{0};
};

class Parts
{
  public:
    struct Range {
        std::size_t lo, hi;
    };
    // How long a waiting thread spins and yields by default before it
    // sleeps, in microseconds: longer than a cycle's one-thread step of a
    // big torus, far shorter than a pause of the calling thread.
    static constexpr int kSpinUs = 1000;
    // t parts of [lo, hi) (fewer if there are fewer nodes; at least one);
    // spin_us: how long a waiting thread spins and yields before it sleeps; adapt: false keeps the
    // threads in use whether they pay or not (the balancing's test); start:
    // what each thread of parts 1..T-1 calls first (e.g. to pick its CPU).
    Parts(std::size_t lo, std::size_t hi, int t, std::function<void(std::size_t)> body,
          int spin_us = kSpinUs, bool adapt = true, void (*start)() = nullptr)
        : body_(std::move(body)), bar_(clamp(hi - lo, t), spin_us),
          adapt_(adapt && !env_off("SKIF_THREADS_ADAPT"))
    {
        const std::size_t n = hi - lo, k = static_cast<std::size_t>(clamp(n, t));
        whole_ = {lo, hi};
        for (std::size_t p = 0; p < k; p++)
            ranges_.push_back({lo + n * p / k, lo + n * (p + 1) / k});
        clocks_.resize(k);
        for (std::size_t p = 1; p < k; p++)
            workers_.emplace_back([this, p, start] {
                if (start)
                    start();
                work(p);
            });
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
    // The calling thread runs every node (part 0) for now.
    bool solo() const { return solo_; }
    // Part k's nodes this cycle (solo: part 0 has them all).
    const Range &range(std::size_t k) const { return solo_ ? whole_ : ranges_[k]; }
    // Cycles run so far, and of them those run on more than one thread.
    uint64_t cycles() const { return cycles_; }
    uint64_t parallel_cycles() const { return parallel_; }
    // Their share in millionths (0 before the first cycle).
    uint64_t in_parts_ppm() const { return cycles_ ? parallel_ * 1000000 / cycles_ : 0; }
    // Inside body: meet every other part.
    void wait()
    {
        if (workers_.empty() || solo_)
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
        cycles_++;
        if (workers_.empty()) {
            body_(0);
            return;
        }
        const int64_t t0 = ticks();
        if (solo_) {
            body_(0);
        } else {
            parallel_++;
            bar_.wait(); // start
            timed(0);
            bar_.wait(); // end
        }
        span_ += ticks() - t0;
        if (cycles_ % kEvery == 0)
            period();
    }

  private:
    static int clamp(std::size_t n, int t)
    {
        return t < 1 ? 1 : static_cast<std::size_t>(t) > n ? static_cast<int>(n ? n : 1) : t;
    }
    // The environment variable name is set to "0".
    static bool env_off(const char *name)
    {
        const char *v = std::getenv(name);
        return v && std::strcmp(v, "0") == 0;
    }
    static constexpr uint64_t kEvery = 128;           // cycles of a period
    static constexpr int kStayMin = 4, kStayMax = 64; // periods between two tries
    // and at least this many times what the last try lost (where a cycle in
    // parts costs a thread's wake-up, tens of microseconds, and one alone a
    // microsecond, a try costs as much as thousands of cycles)
    static constexpr int64_t kTryShare = 32;
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
    // a clock for run()'s time, read twice a cycle: the time-stamp counter
    // where there is one (about 10 ns here, against 28 for now())
    static int64_t ticks()
    {
#if defined(__x86_64__)
        return static_cast<int64_t>(__builtin_ia32_rdtsc());
#else
        return now();
#endif
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
    // At the end of a period (every worker waits at the start): balance the
    // cuts; try the other way (solo or in parts) when it is time, and keep
    // it if its period was 5% faster than this way's moving mean (less may
    // be noise).
    void period()
    {
        if (!solo_)
            balance();
        const int64_t span = span_;
        span_ = 0;
        if (!adapt_)
            return;
        if (trying_) {
            trying_ = false;
            if (20 * span < 19 * before_) { // the other way is faster: keep it
                stay_ = kStayMin;
                lost_ = before_ - span; // (what trying back may cost)
                avg_ = span;
            } else { // back; soon again if it was close, later if it lost clearly
                solo_ = !solo_;
                stay_ = 4 * span > 5 * before_ ? std::min(2 * stay_, kStayMax) : kStayMin;
                lost_ = span - before_;
            }
            left_ = stay_;
            since_ = 0;
            return;
        }
        avg_ = avg_ ? (3 * avg_ + span) / 4 : span;
        since_ += span;
        if (--left_ <= 0 && since_ >= kTryShare * lost_) {
            before_ = avg_;
            trying_ = true;
            solo_ = !solo_;
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
    uint64_t cycles_ = 0, parallel_ = 0;
    // (all below: the calling thread's, read by the workers only after a barrier)
    const bool adapt_;
    bool solo_ = false, trying_ = false;
    Range whole_;
    int stay_ = kStayMin, left_ = 2; // (the first try after two periods)
    // run()'s time in this period, and in the one before a try, in ticks()
    // (not the caller's time between the cycles: skifsim's hand-overs to the
    // programs vary from period to period more than the ways differ)
    int64_t span_ = 0, before_ = 0;
    // the mean period of this way (a moving mean), what the last try lost,
    // the time since it
    int64_t avg_ = 0, lost_ = 0, since_ = 0;
};
} // namespace skif

#endif
