/* SPDX-License-Identifier: Apache-2.0 */
/* t_coll_hw: the hardware path of SkifColl (the adapter's collective
 * subnet) against a reference each node computes alone from the same seeds:
 * every op and type on the whole torus, on the odd ranks (stride tree 3)
 * and on random subgroups that need transit nodes; broadcasts from random
 * roots, several in flight; two overlapping trees used at the same time;
 * 32 reduces in flight on one tree (and a 33rd that must wait for the
 * oldest); BARRIERS back-to-back barriers; non-members refused. Where the
 * adapter has no collective subnet it prints "hardware path is not built"
 * and exits 3. Usage: t_coll_hw [seed] [groups] [barriers] */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "skifch_util.h"
#include "skifcoll.h"
#include "t_check.h"

static uint64_t g_seed;
static int g_size;
static long g_checks;

static uint64_t val(int c, int r, size_t i)
{
    uint64_t s = g_seed ^ ((uint64_t)c << 40) ^ ((uint64_t)r << 20) ^ i;
    SkifChU_Rand(&s);
    uint64_t v = SkifChU_Rand(&s);
    return (i % 5 == 0) ? v % 7 : v;
}

static void fill(void *buf, int c, int r, size_t count, int type)
{
    for (size_t i = 0; i < count; i++) {
        uint64_t v = val(c, r, i);
        if (SkifColl_TypeSize(type) == 4) {
            uint32_t w = (uint32_t)v;
            memcpy((uint8_t *)buf + 4 * i, &w, 4);
        } else {
            memcpy((uint8_t *)buf + 8 * i, &v, 8);
        }
    }
}

/* The reference, by plain C (not the library's SkifColl_Combine). */
static uint64_t ref(int c, const int *members, int n, size_t i, int type, int op)
{
    uint64_t acc = 0;
    for (int k = 0; k < n; k++) {
        uint64_t v = val(c, members[k], i);
        int less;
        if (k == 0) {
            acc = v;
            continue;
        }
        if (op == SKIFCOLL_SUM) {
            acc += v;
            continue;
        }
        switch (type) {
        case SKIFCOLL_U32:
            less = (uint32_t)v < (uint32_t)acc;
            break;
        case SKIFCOLL_S32:
            less = (int32_t)(uint32_t)v < (int32_t)(uint32_t)acc;
            break;
        case SKIFCOLL_U64:
            less = v < acc;
            break;
        default:
            less = (int64_t)v < (int64_t)acc;
            break;
        }
        if (op == SKIFCOLL_MIN ? less : (!less && v != acc))
            acc = v;
    }
    return SkifColl_TypeSize(type) == 4 ? (uint32_t)acc : acc;
}

static void check_vec(const void *got, int c, const int *members, int n, size_t count, int type,
                      int op)
{
    for (size_t i = 0; i < count; i++) {
        uint64_t g = 0;
        memcpy(&g, (const uint8_t *)got + i * SkifColl_TypeSize(type), SkifColl_TypeSize(type));
        uint64_t want = ref(c, members, n, i, type, op);
        if (g != want)
            fprintf(stderr,
                    "t_coll_hw: node %d: case %d type %d op %d element %zu: got %llx, "
                    "want %llx\n",
                    t_rank, c, type, op, i, (unsigned long long)g, (unsigned long long)want);
        ASSERT_TRUE(g == want);
        g_checks++;
    }
}

/* Every op and type on tree t, all reduces of one type posted before any
 * is waited for. */
static void run_tree(SkifCollTree *t, const int *mem, int n, int c0)
{
    static const size_t counts[] = {0, 1, 16, 17, 100};
    enum { NK = sizeof(counts) / sizeof(counts[0]) };
    uint64_t rs = g_seed + (uint64_t)c0;
    for (int type = 0; type < 4; type++) {
        SkifCollReq *req[3 * NK];
        uint8_t *send[3 * NK], *recv[3 * NK];
        int target[3 * NK], which[3 * NK], c[3 * NK];
        for (int op = 0, j = 0; op < 3; op++)
            for (int k = 0; k < NK; k++, j++) {
                size_t bytes = counts[k] * SkifColl_TypeSize(type);
                c[j] = c0 + 100 * type + j;
                send[j] = malloc(bytes + 8);
                recv[j] = malloc(bytes + 8);
                fill(send[j], c[j], t_rank, counts[k], type);
                memset(recv[j], 0xA5, bytes + 8);
                target[j] = mem[SkifChU_Rand(&rs) % (uint64_t)n];
                which[j] = (int)(SkifChU_Rand(&rs) % 2);
                if (which[j])
                    ASSERT_EQ(SkifColl_Reduce(t, target[j], send[j], recv[j], counts[k], type, op,
                                              &req[j]),
                              0);
                else
                    ASSERT_EQ(SkifColl_Allreduce(t, send[j], recv[j], counts[k], type, op, &req[j]),
                              0);
            }
        for (int op = 0, j = 0; op < 3; op++)
            for (int k = 0; k < NK; k++, j++) {
                size_t bytes = counts[k] * SkifColl_TypeSize(type);
                ASSERT_EQ(SkifColl_Wait(req[j]), 0);
                if (!which[j] || t_rank == target[j])
                    check_vec(recv[j], c[j], mem, n, counts[k], type, op);
                else
                    for (size_t i = 0; i < bytes; i++)
                        ASSERT_EQ(recv[j][i], 0xA5);
                ASSERT_EQ(recv[j][bytes], 0xA5);
                free(send[j]);
                free(recv[j]);
            }
    }
    /* broadcasts from random roots, all in flight at once */
    static const size_t lens[] = {0, 8, 2048, 2049, 5000};
    enum { NB = sizeof(lens) / sizeof(lens[0]) };
    uint8_t *buf[NB];
    int root[NB];
    SkifCollReq *breq[NB];
    for (int k = 0; k < NB; k++) {
        root[k] = mem[SkifChU_Rand(&rs) % (uint64_t)n];
        buf[k] = calloc(lens[k] + 1, 1);
        if (t_rank == root[k])
            fill(buf[k], c0 + 900 + k, root[k], lens[k] / 4, SKIFCOLL_U32);
        buf[k][lens[k]] = 0x5A;
        ASSERT_EQ(SkifColl_Bcast(t, root[k], buf[k], lens[k], &breq[k]), 0);
    }
    for (int k = 0; k < NB; k++) {
        ASSERT_EQ(SkifColl_Wait(breq[k]), 0);
        uint8_t *want = calloc(lens[k] + 1, 1);
        fill(want, c0 + 900 + k, root[k], lens[k] / 4, SKIFCOLL_U32);
        ASSERT_EQ(memcmp(buf[k], want, lens[k] / 4 * 4), 0);
        ASSERT_EQ(buf[k][lens[k]], 0x5A);
        g_checks++;
        free(want);
        free(buf[k]);
    }
    /* barrier: no member leaves before the last one entered */
    SkifCh *ch = SkifColl_Channel();
    for (int b = 0; b < 3; b++) {
        SkifCollReq *r;
        SkifCh_Wait(ch, 50 + (uint64_t)((t_rank * 37 + b * 11) % 7) * 200);
        uint64_t in = SkifCh_Cycle(ch), last;
        ASSERT_EQ(SkifColl_Barrier(t, &r), 0);
        ASSERT_EQ(SkifColl_Wait(r), 0);
        uint64_t out = SkifCh_Cycle(ch);
        ASSERT_EQ(SkifColl_Allreduce(t, &in, &last, 1, SKIFCOLL_U64, SKIFCOLL_MAX, &r), 0);
        ASSERT_EQ(SkifColl_Wait(r), 0);
        ASSERT_TRUE(out >= last);
        g_checks++;
    }
}

int main(int argc, char **argv)
{
    t_name = "t_coll_hw";
    if (SkifChU_WantsHelp(argc, argv)) {
        printf("usage: t_coll_hw [seed] [groups] [barriers]: hardware collectives against a "
               "reference\n");
        return 0;
    }
    long seed = 1, groups = 3, barriers = 1000;
    if ((argc > 1 && SkifChU_Num(argv[1], 0, 1L << 30, &seed)) ||
        (argc > 2 && SkifChU_Num(argv[2], 0, 100, &groups)) ||
        (argc > 3 && SkifChU_Num(argv[3], 0, 1000000, &barriers))) {
        fprintf(stderr, "t_coll_hw: bad argument (usage: t_coll_hw [seed] [groups] [barriers])\n");
        return 2;
    }
    if ((t_rank = SkifChU_Rank("t_coll_hw")) < 0)
        return 2;
    g_seed = (uint64_t)seed * 0x9E3779B97F4A7C15ull;
    g_size = SkifCh_Size();
    if (SkifColl_Init(0) < 0) {
        if (errno == ENOSYS) {
            fprintf(stderr, "t_coll_hw: the hardware path is not built\n");
            return 3;
        }
        ASSERT_TRUE(!"SkifColl_Init failed");
    }
    ASSERT_EQ(SkifColl_HwUp(), 1);
    int *all = malloc((size_t)g_size * sizeof(int));
    for (int r = 0; r < g_size; r++)
        all[r] = r;
    SkifCollTree *t0 = SkifColl_Stride(0, 0);
    ASSERT_EQ(SkifColl_Id(t0), 0);
    run_tree(t0, all, g_size, 0);

    /* odd ranks: stride tree 3 (logPE_stride 1, PE_start 1) */
    SkifCollTree *t3 = SkifColl_Stride(1, 1);
    int nodd = 0, *odd = malloc((size_t)g_size * sizeof(int));
    for (int r = 1; r < g_size; r += 2)
        odd[nodd++] = r;
    if (t_rank % 2) {
        run_tree(t3, odd, nodd, 10000);
    } else {
        uint32_t x = 1, y;
        SkifCollReq *r;
        ASSERT_EQ(SkifColl_Allreduce(t3, &x, &y, 1, SKIFCOLL_U32, SKIFCOLL_SUM, &r), -1);
        ASSERT_EQ(errno, EPERM);
    }

    /* 32 reduces in flight on tree 0, then a 33rd that waits for the oldest
     * id; every result checked */
    {
        SkifCollReq *r[33];
        uint64_t in[33], out[33];
        for (int k = 0; k < 33; k++) {
            in[k] = (uint64_t)(t_rank + 1) * (uint64_t)(k + 1);
            ASSERT_EQ(SkifColl_Allreduce(t0, &in[k], &out[k], 1, SKIFCOLL_U64, SKIFCOLL_SUM, &r[k]),
                      0);
        }
        for (int k = 0; k < 33; k++) {
            ASSERT_EQ(SkifColl_Wait(r[k]), 0);
            ASSERT_EQ(out[k], (uint64_t)g_size * (uint64_t)(g_size + 1) / 2 * (uint64_t)(k + 1));
            g_checks++;
        }
    }

    /* random subgroups (transit nodes where they are not connected), used
     * at the same time as tree 0: two overlapping trees */
    uint64_t rs = g_seed ^ 0xC0FFEE;
    for (long k = 0; k < groups; k++) {
        int *mem = malloc((size_t)g_size * sizeof(int)), n = 0;
        unsigned pct = 20 + (unsigned)(SkifChU_Rand(&rs) % 60);
        for (int r = 0; r < g_size; r++)
            if (SkifChU_Rand(&rs) % 100 < pct)
                mem[n++] = r;
        if (n == 0)
            mem[n++] = (int)(SkifChU_Rand(&rs) % (uint64_t)g_size);
        int root = mem[SkifChU_Rand(&rs) % (uint64_t)n];
        SkifCollTree *t = SkifColl_Create(mem, n, root);
        ASSERT_TRUE(t != NULL);
        ASSERT_TRUE(SkifColl_Id(t) >= SKIFCOLL_STRIDE_TREES);
        int member = 0;
        for (int i = 0; i < n; i++)
            member |= mem[i] == t_rank;
        ASSERT_EQ(SkifColl_IsMember(t), member);
        /* tree 0 busy meanwhile */
        uint64_t one = 1, cnt = 0;
        SkifCollReq *r0;
        ASSERT_EQ(SkifColl_Allreduce(t0, &one, &cnt, 1, SKIFCOLL_U64, SKIFCOLL_SUM, &r0), 0);
        if (member) {
            run_tree(t, mem, n, 20000 + 1000 * (int)k);
        } else {
            uint8_t b[8];
            SkifCollReq *r;
            ASSERT_EQ(SkifColl_Bcast(t, root, b, 8, &r), -1);
            ASSERT_EQ(errno, EPERM);
        }
        ASSERT_EQ(SkifColl_Wait(r0), 0);
        ASSERT_EQ(cnt, (uint64_t)g_size);
        ASSERT_EQ(SkifColl_Free(t), 0);
        free(mem);
    }

    /* back-to-back barriers */
    for (long b = 0; b < barriers; b++) {
        SkifCollReq *r;
        ASSERT_EQ(SkifColl_Barrier(t0, &r), 0);
        ASSERT_EQ(SkifColl_Wait(r), 0);
    }
    g_checks += barriers;

    /* bad input: unknown type or op refused by the library */
    uint32_t x = 0, y = 0;
    SkifCollReq *r;
    ASSERT_EQ(SkifColl_Allreduce(t0, &x, &y, 1, 4, SKIFCOLL_SUM, &r), -1);
    ASSERT_EQ(errno, EINVAL);
    ASSERT_EQ(SkifColl_Allreduce(t0, &x, &y, 1, SKIFCOLL_U32, 3, &r), -1);
    ASSERT_EQ(errno, EINVAL);
    ASSERT_EQ(SkifColl_Reduce(t0, g_size, &x, &y, 1, SKIFCOLL_U32, 0, &r), -1);
    ASSERT_EQ(errno, EINVAL);

    uint64_t mine = (uint64_t)g_checks, total = 0;
    ASSERT_EQ(SkifColl_Allreduce(t0, &mine, &total, 1, SKIFCOLL_U64, SKIFCOLL_SUM, &r), 0);
    ASSERT_EQ(SkifColl_Wait(r), 0);
    if (t_rank == 0)
        printf("t_coll_hw: %d nodes, %llu checks passed\n", g_size, (unsigned long long)total);
    ASSERT_EQ(SkifColl_Finalize(), 0);
    free(all);
    free(odd);
    return 0;
}
