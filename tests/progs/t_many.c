/* SPDX-License-Identifier: Apache-2.0 */
/* t_many: many senders to one receiver. Every rank but 0 sends M messages
 * (8..200 bytes, numbered) to each of rank 0's channels 1..K, in turn,
 * skipping a channel that refuses (EAGAIN) for that round; rank 0 has 4 KiB
 * rings and reads its channels in turn, checking every message's sender,
 * number (in order per sender and channel) and bytes. With credits (the
 * default) the (size - 1) * K flows share the rings through the
 * senders' shares and the pool. Prints
 *   t_many: node 0: got S x K x M messages from S senders on K channels, in order, at cycle C
 * Usage: skifrun ... t_many [M [K]] (default 100 4). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "skifch_util.h"
#include "t_check.h"

static size_t len_of(int src, int ch, long k)
{
    return 8 + (size_t)((src * 13 + ch * 7 + k * 29) % 193);
}

static uint8_t pat(int src, int ch, long k, size_t i)
{
    return (uint8_t)(src * 5 + ch * 3 + k * 11 + (long)i);
}

int main(int argc, char **argv)
{
    t_name = "t_many";
    long m = 100, k = 4;
    if (argc > 1 && !strcmp(argv[1], "--help")) {
        printf("usage: skifrun ... t_many [M [K]]\n");
        return 0;
    }
    if (argc > 3 || (argc > 1 && SkifChU_Num(argv[1], 1, 100000, &m)) ||
        (argc > 2 && SkifChU_Num(argv[2], 1, 8, &k))) {
        fprintf(stderr, "t_many: bad arguments\n");
        return 2;
    }
    t_rank = SkifCh_Rank();
    int size = SkifCh_Size();
    SkifCh *bar = SkifChU_BarrierOpen(), *ch[9] = {0};
    ASSERT_TRUE(bar != NULL);
    if (t_rank == 0) {
        setenv("SKIFCH_RING_LOG2", "12", 1);
        for (int c = 1; c <= k; c++)
            ASSERT_TRUE((ch[c] = SkifCh_Open(c)) != NULL);
        unsetenv("SKIFCH_RING_LOG2");
    } else {
        ASSERT_TRUE((ch[1] = SkifCh_Open(1)) != NULL);
    }
    ASSERT_EQ(SkifChU_Barrier(bar), 0);
    static uint8_t buf[256];
    if (t_rank != 0) {
        long next[9] = {0};
        long left = m * k;
        while (left > 0)
            for (int c = 1; c <= k; c++) {
                if (next[c] >= m)
                    continue;
                size_t len = len_of(t_rank, c, next[c]);
                uint32_t hdr[2] = {(uint32_t)t_rank, (uint32_t)next[c]};
                memcpy(buf, hdr, sizeof(hdr));
                for (size_t i = sizeof(hdr); i < len; i++)
                    buf[i] = pat(t_rank, c, next[c], i);
                struct iovec iov = {buf, len};
                ssize_t r = SkifCh_Send(ch[1], SkifCh_Addr(0, c), &iov, 1);
                if (r == (ssize_t)len) {
                    next[c]++;
                    left--;
                } else {
                    ASSERT_EQ(r, -1);
                    ASSERT_EQ(errno, EAGAIN);
                }
            }
    } else {
        long *got = calloc((size_t)size * 9, sizeof(long)), total = 0;
        ASSERT_TRUE(got != NULL);
        while (total < (size - 1) * k * m)
            for (int c = 1; c <= k; c++) {
                struct iovec cont[SKIFCH_CONT_SIZE];
                int parts;
                ssize_t r = SkifCh_Recv(ch[c], cont, &parts);
                if (r < 0) {
                    ASSERT_EQ(errno, EAGAIN);
                    continue;
                }
                size_t at = 0;
                for (int p = 0; p < parts; p++) {
                    memcpy(buf + at, cont[p].iov_base, cont[p].iov_len);
                    at += cont[p].iov_len;
                }
                ASSERT_EQ(SkifCh_RecvComp(ch[c]), 0);
                uint32_t hdr[2];
                memcpy(hdr, buf, sizeof(hdr));
                ASSERT_TRUE(hdr[0] >= 1 && (int)hdr[0] < size);
                long *g = &got[hdr[0] * 9 + (uint32_t)c];
                ASSERT_EQ(hdr[1], *g);
                ASSERT_EQ(at, len_of((int)hdr[0], c, *g));
                for (size_t i = sizeof(hdr); i < at; i++)
                    ASSERT_EQ(buf[i], pat((int)hdr[0], c, *g, i));
                (*g)++;
                total++;
            }
        printf("t_many: node 0: got %d x %ld x %ld messages from %d senders on %ld channels, in "
               "order, at cycle %llu\n",
               size - 1, k, m, size - 1, k, (unsigned long long)SkifCh_Cycle(bar));
        free(got);
    }
    ASSERT_EQ(SkifChU_Barrier(bar), 0);
    return 0;
}
