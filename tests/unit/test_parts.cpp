// SPDX-License-Identifier: Apache-2.0
// test_parts.cpp: skif::Parts (sim/kernel/parts.h), the threads of skifsim's
// and skifnet's --threads, built with ThreadSanitizer: every node is visited
// exactly once a cycle whatever the cuts do; a step after wait() sees every
// part's writes of the step before it (no data race); the cuts move towards
// the part whose nodes are cheaper; one part runs without threads; more
// threads than nodes give one part per node.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
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
// (written by any part). Returns the first part's size at the end.
std::size_t run(std::size_t n, int t, int cycles, std::size_t heavy, int us, std::size_t *parts)
{
    std::vector<int> visits(n, 0), value(n, 0), seen(n, 0);
    std::unique_ptr<skif::Parts> p;
    int cycle = 0;
    p = std::make_unique<skif::Parts>(std::size_t{0}, n, t, [&](std::size_t k) {
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
    });
    for (cycle = 1; cycle <= cycles; cycle++) {
        p->run();
        std::size_t covered = 0;
        for (std::size_t k = 0; k < p->count(); k++) {
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
    return p->range(0).hi;
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
    std::printf("test_parts: cuts balanced (the cheap part grew from 20 to %zu of 40 nodes); %s\n",
                first, g_fail ? "FAILED" : "all checks passed");
    return g_fail ? 1 : 0;
}
