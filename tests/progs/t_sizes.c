/* SPDX-License-Identifier: Apache-2.0 */
/* t_sizes: rank 0 sends one message of every size from 0 to SKIFCH_MAX_MSG to
 * rank 1 (as a writev-like stream: a partial send is followed by the rest),
 * over a 3-part iovec; rank 1 checks every byte against the pattern and that
 * the RX ring's wrap-around gave two-part messages. Other ranks idle.
 * Usage: t_sizes [MAX] */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "skifch.h"
#include "t_check.h"

static uint8_t pattern(size_t size, size_t i)
{
    return (uint8_t)(size * 131u + i * 7u + 1u);
}

int main(int argc, char **argv)
{
    size_t max = argc > 1 ? (size_t)atoi(argv[1]) : SKIFCH_MAX_MSG;
    t_name = "t_sizes";
    t_rank = SkifCh_Rank();
    SkifCh *ch = SkifCh_Open(0);
    ASSERT_TRUE(ch != NULL);
    static uint8_t buf[SKIFCH_MAX_MSG];
    if (t_rank == 0) {
        netaddr_t to = SkifCh_Addr(1, 0);
        unsigned partial = 0;
        for (size_t s = 0; s <= max; s++) {
            for (size_t i = 0; i < s; i++)
                buf[i] = pattern(s, i);
            size_t done = 0;
            do {
                /* three pieces: 1/3, 1/3, the rest */
                size_t left = s - done, a = left / 3, b = left / 3;
                struct iovec iov[3] = {
                    {buf + done, a}, {buf + done + a, b}, {buf + done + a + b, left - a - b}};
                ssize_t n = SkifCh_Send(ch, to, iov, 3);
                if (n < 0) {
                    ASSERT_EQ(errno, EAGAIN);
                    continue;
                }
                if ((size_t)n < left)
                    partial++;
                done += (size_t)n;
            } while (done < s);
        }
        printf("t_sizes: node 0 sent sizes 0..%zu (%u partial sends)\n", max, partial);
    } else if (t_rank == 1) {
        unsigned wrapped = 0, msgs = 0;
        for (size_t s = 0; s <= max; s++) {
            size_t got = 0;
            do {
                struct iovec cont[SKIFCH_CONT_SIZE];
                int parts = -1;
                ssize_t n;
                while ((n = SkifCh_Recv(ch, cont, &parts)) < 0)
                    ASSERT_EQ(errno, EAGAIN);
                ASSERT_TRUE(parts >= 1 && parts <= 2);
                ASSERT_TRUE((size_t)n <= s - got);
                ASSERT_TRUE(s == 0 || n > 0);
                size_t sum = 0;
                for (int p = 0; p < parts; p++) {
                    const uint8_t *d = cont[p].iov_base;
                    for (size_t i = 0; i < cont[p].iov_len; i++)
                        if (d[i] != pattern(s, got + sum + i)) {
                            fprintf(stderr, "t_sizes: size %zu byte %zu: got 0x%02x want 0x%02x\n",
                                    s, got + sum + i, d[i], pattern(s, got + sum + i));
                            exit(1);
                        }
                    sum += cont[p].iov_len;
                }
                ASSERT_EQ(sum, n);
                wrapped += parts == 2;
                msgs++;
                got += (size_t)n;
                ASSERT_EQ(SkifCh_RecvComp(ch), 0);
            } while (got < s);
        }
        ASSERT_EQ(SkifCh_RecvComp(ch), -1);
        ASSERT_EQ(errno, ENOENT);
        if (max >= 1024)
            ASSERT_TRUE(wrapped > 0);
        printf("t_sizes: node 1 received sizes 0..%zu intact in %u messages, %u wrapped\n", max,
               msgs, wrapped);
    }
    SkifCh_Close(ch);
    return 0;
}
