/* SPDX-License-Identifier: Apache-2.0 */
/* t_coll_ref.h: the reference of the collective tests (t_coll_sw, t_coll_hw):
 * every node computes every member's vector from the same seeds and combines
 * them in plain C, independently of SkifColl. Include after t_check.h. */
#ifndef T_COLL_REF_H
#define T_COLL_REF_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "skifch_util.h"
#include "skifcoll.h"

static uint64_t g_seed;
static int g_size, g_checks;

/* The element i of rank r's vector in case c: the same at every node. */
static uint64_t val(int c, int r, size_t i)
{
    uint64_t s = g_seed ^ ((uint64_t)c << 40) ^ ((uint64_t)r << 20) ^ i;
    SkifChU_Rand(&s);
    uint64_t v = SkifChU_Rand(&s);
    /* small values now and then, so that sums and ties show */
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

/* The reference: element i combined over members[0..n) by plain C. */
static uint64_t ref(int c, const int *members, int n, size_t i, int type, int op)
{
    uint64_t acc = 0;
    for (int k = 0; k < n; k++) {
        uint64_t v = val(c, members[k], i);
        if (k == 0) {
            acc = v;
        } else if (op == SKIFCOLL_SUM) {
            acc += v;
        } else {
            int less;
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
                    "%s: node %d: case %d type %d op %d element %zu: got %llx, "
                    "want %llx\n",
                    t_name, t_rank, c, type, op, i, (unsigned long long)g,
                    (unsigned long long)want);
        ASSERT_TRUE(g == want);
        g_checks++;
    }
}

#endif
