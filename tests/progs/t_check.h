/* SPDX-License-Identifier: Apache-2.0 */
/* t_check.h: assertion macros for the test programs run under skifrun. Each
 * failure prints where, what was expected and what came, and exits 1. */
#ifndef T_CHECK_H
#define T_CHECK_H

#include <stdio.h>
#include <stdlib.h>

static const char *t_name = "test";
static int t_rank = -1;

#define ASSERT_TRUE(c)                                                                             \
    do {                                                                                           \
        if (!(c)) {                                                                                \
            fprintf(stderr, "%s: node %d: %s:%d: assertion failed: %s\n", t_name, t_rank,          \
                    __FILE__, __LINE__, #c);                                                       \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

#define ASSERT_EQ(a, b)                                                                            \
    do {                                                                                           \
        long long a_ = (long long)(a), b_ = (long long)(b);                                        \
        if (a_ != b_) {                                                                            \
            fprintf(stderr, "%s: node %d: %s:%d: %s == %s failed: %lld != %lld\n", t_name, t_rank, \
                    __FILE__, __LINE__, #a, #b, a_, b_);                                           \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

#endif
