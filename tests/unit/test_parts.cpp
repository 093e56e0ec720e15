// SPDX-License-Identifier: Apache-2.0
// test_parts.cpp: skif::Parts (sim/kernel/parts.h), the threads of skifsim's
// and skifnet's --threads, built with ThreadSanitizer: every node is visited
// exactly once a cycle whatever the cuts do; a step after wait() sees every
// part's writes of the step before it (no data race); the cuts move towards
// the part whose nodes are cheaper; one part runs without threads; more
// threads than nodes give one part per node; threads that wait for the next
// cycle sleep (they take no CPU while the calling thread is away, as skifsim's
// is during a hand-over to a program), and wake for it; where the threads
// cannot pay (a cycle's work is nothing), the calling thread runs the nodes
// alone most of the time, and every node is still visited once a cycle.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <thread>
#include <vector>

#include "parts.h"

namespace
{
int g_fail;
#define CHECK(c, ...)                                                                              \
    do {                                                                                           \
        if (!(c)) {                                                                                \
            std::fprintf(stderr, "test_parts: %s:%d: ", __FILE__, __LINE__);                       \
            std::fprintf(stderr, __VA_ARGS__);                                                     \
            std::fprintf(stderr, "\n");                                                            \
            g_fail++;                                                                              \
        }                                                                                          \
    } while (0)

void spin_us(int us)
{
    const auto end = std::chrono::steady_clock::now() + std::chrono::microseconds(us);
    while (std::chrono::steady_clock::now() < end) {
    }
}

// n nodes in t threads for `cycles` cycles; the nodes from `heavy` on cost
// `us` microseconds each. Each cycle: every node counts its visit and writes
// its value; after the barrier every node reads its two neighbours' values
// (written by any part). Every `pause_every` cycles (0: never) the calling
// thread is away for 200 us between two cycles. A waiting thread spins
// `wait_us` before it sleeps; adapt: the threads used only while they pay.
// Returns the first part's size at the end; *parallel: the cycles run in
// parts.
std::size_t run(std::size_t n, int t, int cycles, std::size_t heavy, int us, std::size_t *parts,
                int wait_us = skif::Parts::kSpinUs, int pause_every = 0, bool adapt = false,
                uint64_t *parallel = nullptr)
{
    std::vector<int> visits(n, 0), value(n, 0), seen(n, 0);
    std::unique_ptr<skif::Parts> p;
    int cycle = 0;
    p = std::make_unique<skif::Parts>(
        std::size_t{0}, n, t,
        [&](std::size_t k) {
            const skif::Parts::Range r = p->range(k);
            for (std::size_t i = r.lo; i < r.hi; i++) {
                visits[i]++;
                value[i] = cycle;
                if (i >= heavy)
                    spin_us(us);
            }
            p->wait();
            for (std::size_t i = r.lo; i < r.hi; i++)
                seen[i] += value[(i + 1) % n] == cycle && value[(i + n - 1) % n] == cycle;
        },
        wait_us, adapt);
    for (cycle = 1; cycle <= cycles; cycle++) {
        if (pause_every && cycle % pause_every == 0)
            std::this_thread::sleep_for(std::chrono::microseconds(200));
        p->run();
        std::size_t covered = 0;
        for (std::size_t k = 0; k < (p->solo() ? 1 : p->count()); k++) {
            CHECK(p->range(k).lo == covered, "cycle %d: part %zu starts at %zu, not %zu", cycle, k,
                  p->range(k).lo, covered);
            CHECK(p->range(k).hi > p->range(k).lo, "cycle %d: part %zu is empty", cycle, k);
            covered = p->range(k).hi;
        }
        CHECK(covered == n, "cycle %d: the parts end at %zu, not %zu", cycle, covered, n);
    }
    for (std::size_t i = 0; i < n; i++) {
        CHECK(visits[i] == cycles, "node %zu visited %d times in %d cycles", i, visits[i], cycles);
        CHECK(seen[i] == cycles, "node %zu saw its neighbours' values of the cycle %d times of %d",
              i, seen[i], cycles);
    }
    *parts = p->count();
    if (parallel)
        *parallel = p->parallel_cycles();
    CHECK(p->cycles() == static_cast<uint64_t>(cycles), "%llu cycles counted of %d",
          static_cast<unsigned long long>(p->cycles()), cycles);
    return p->range(0).hi;
}
double cpu_ms()
{
    timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

// The process's CPU time while the calling thread sleeps 100 ms between two
// cycles of t threads: the waiting threads' cost.
double away_cpu_ms(int t)
{
    std::vector<int> v(8, 0);
    skif::Parts p(0, v.size(), t, [&](std::size_t k) { v[k % v.size()]++; });
    for (int c = 0; c < 5; c++)
        p.run();
    const double before = cpu_ms();
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    const double spent = cpu_ms() - before;
    for (int c = 0; c < 5; c++)
        p.run();
    return spent;
}
} // namespace

int main()
{
    std::size_t parts = 0, first;
    first = run(10, 1, 50, 10, 0, &parts);
    CHECK(parts == 1 && first == 10, "one thread: %zu parts, the first of %zu nodes", parts, first);
    first = run(2, 3, 50, 2, 0, &parts);
    CHECK(parts == 2 && first == 1, "3 threads on 2 nodes: %zu parts, the first of %zu", parts,
          first);
    // 40 nodes, the upper half 30 times dearer: the first part (the cheap
    // nodes) must grow well past its 20 nodes
    first = run(40, 2, 3000, 20, 30, &parts);
    CHECK(parts == 2 && first >= 26,
          "2 threads, dear upper half: the first part has %zu nodes of 40", first);
    // the waiting threads sleep at once and are woken every cycle, some
    // cycles after the calling thread was away
    run(30, 3, 2000, 30, 0, &parts, 0, 7);
    CHECK(parts == 3, "3 threads on 30 nodes: %zu parts", parts);
    // nothing to do in a cycle: the threads cannot pay, the calling thread
    // runs the nodes itself most of the time (tries of the parts included),
    // and every node is still visited once a cycle, through the changes
    uint64_t par = 0;
    run(30, 2, 20000, 30, 0, &parts, skif::Parts::kSpinUs, 50, true, &par);
    CHECK(par < 6000, "no work: %llu of 20000 cycles in parts",
          static_cast<unsigned long long>(par));
    // ... and after their spins: 2 waiting threads that only yielded took
    // about 100 ms each here
    const double away = away_cpu_ms(3);
    CHECK(away < 30, "2 threads waiting 100 ms for the next cycle took %.1f ms of CPU", away);
    std::printf(
        "test_parts: cuts balanced (the cheap part grew from 20 to %zu of 40 nodes); waiting "
        "threads took %.1f ms of CPU in 100 ms; no work: %llu of 20000 cycles in parts; %s\n",
        first, away, static_cast<unsigned long long>(par), g_fail ? "FAILED" : "all checks passed");
    return g_fail ? 1 : 0;
}
