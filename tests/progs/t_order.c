/* SPDX-License-Identifier: Apache-2.0 */
/* t_order: every rank but 0 sends M messages (its rank, a sequence number and
 * a length that varies) to rank 0, which checks that each sender's messages
 * arrive complete and in order while senders interleave.
 * Usage: t_order [M] */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "skifch.h"
#include "t_check.h"

int main(int argc, char **argv)
{
    int m = argc > 1 ? atoi(argv[1]) : 200;
    t_name = "t_order";
    t_rank = SkifCh_Rank();
    int size = SkifCh_Size();
    SkifCh *ch = SkifCh_Open(0);
    ASSERT_TRUE(ch != NULL);
    if (t_rank != 0) {
        uint32_t msg[64];
        for (int k = 0; k < m; k++) {
            size_t words = 2 + (size_t)((k * 7 + t_rank) % 60);
            msg[0] = (uint32_t)t_rank;
            msg[1] = (uint32_t)k;
            for (size_t w = 2; w < words; w++)
                msg[w] = (uint32_t)(t_rank * 100000 + k * 64 + (int)w);
            struct iovec iov = {msg, words * 4};
            ssize_t n;
            while ((n = SkifCh_Send(ch, SkifCh_Addr(0, 0), &iov, 1)) < 0)
                ASSERT_EQ(errno, EAGAIN);
            ASSERT_EQ(n, words * 4); /* short messages always fit whole */
        }
    } else {
        int *next = calloc((size_t)size, sizeof(int));
        int total = 0, switches = 0, last = -1;
        while (total < m * (size - 1)) {
            struct iovec cont[SKIFCH_CONT_SIZE];
            int parts;
            ssize_t n = SkifCh_Recv(ch, cont, &parts);
            if (n < 0) {
                ASSERT_EQ(errno, EAGAIN);
                continue;
            }
            uint32_t msg[64];
            size_t at = 0;
            for (int p = 0; p < parts; p++) {
                memcpy((uint8_t *)msg + at, cont[p].iov_base, cont[p].iov_len);
                at += cont[p].iov_len;
            }
            ASSERT_EQ(SkifCh_RecvComp(ch), 0);
            int src = (int)msg[0], k = (int)msg[1];
            ASSERT_TRUE(src > 0 && src < size);
            ASSERT_EQ(k, next[src]);
            ASSERT_EQ(n, (2 + (k * 7 + src) % 60) * 4);
            for (size_t w = 2; w < (size_t)n / 4; w++)
                ASSERT_EQ(msg[w], (uint32_t)(src * 100000 + k * 64 + (int)w));
            next[src]++;
            switches += last != -1 && last != src;
            last = src;
            total++;
        }
        printf("t_order: node 0 got %d messages from %d senders in order (%d sender switches)\n",
               total, size - 1, switches);
        free(next);
    }
    SkifCh_Close(ch);
    return 0;
}
