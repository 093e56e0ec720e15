/* SPDX-License-Identifier: Apache-2.0 */
/* t_conform: the API promises of sw/skifch.h that an outside conformance run
 * found broken (issue 16), on 2 nodes; every rank checks them, then rank 1
 * sends rank 0 one message on a channel reopened after the process had
 * closed its last one.
 *  - SkifCh_Channels() before the first Open, then Open works;
 *  - closing the last channel and opening again works (the device is opened
 *    anew), and the reopened channel receives;
 *  - a closed handle stays invalid (EBADF) when its channel is reopened,
 *    while the new handle works;
 *  - Send with iovec lengths whose sum overflows ssize_t, or one of 2^63
 *    bytes, fails with EINVAL as writev does, and sends nothing;
 *  - SkifCh_Addr(rank, SkifCh_Channels()) and SkifCh_Split of an address
 *    with that channel fail with EINVAL; the last channel is fine.
 * Prints "t_conform: node R: ok". */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "skifch_util.h"
#include "t_check.h"

#define CH 5

int main(void)
{
    t_name = "t_conform";
    t_rank = SkifCh_Rank();
    ASSERT_EQ(SkifCh_Size(), 2);

    /* the channel count before any Open, then Open */
    int n = SkifCh_Channels();
    ASSERT_EQ(n, 64);
    ASSERT_EQ(SkifCh_Channels(), n);
    SkifCh *a = SkifCh_Open(CH);
    ASSERT_TRUE(a != NULL);

    /* addresses: the adapter has n channels */
    int coord[4], c;
    ASSERT_TRUE(SkifCh_Addr(0, n) == (netaddr_t)-1 && errno == EINVAL);
    ASSERT_TRUE(SkifCh_Addr(1, n) == (netaddr_t)-1 && errno == EINVAL);
    ASSERT_TRUE(SkifCh_Addr(0, n - 1) != (netaddr_t)-1);
    ASSERT_TRUE(SkifCh_Coords(1, coord) == 0);
    ASSERT_TRUE(SkifCh_AddrAt(coord, n) == (netaddr_t)-1 && errno == EINVAL);
    netaddr_t last = SkifCh_Addr(1, n - 1);
    ASSERT_EQ(SkifCh_Split(last, coord, &c), 1);
    ASSERT_EQ(c, n - 1);
    ASSERT_TRUE(SkifCh_Split(last + 1, coord, &c) == -1 && errno == EINVAL);

    /* iovec lengths as writev: a sum beyond SSIZE_MAX, or one of 2^63 */
    static uint8_t buf[4096];
    netaddr_t me = SkifCh_MyAddr(a);
    struct iovec two[2] = {{buf, (size_t)SSIZE_MAX}, {buf, 2}};
    errno = 0;
    ASSERT_EQ(SkifCh_Send(a, me, two, 2), -1);
    ASSERT_EQ(errno, EINVAL);
    struct iovec wrap[3] = {{buf, 8}, {buf, SIZE_MAX - 4}, {buf, 8}};
    errno = 0;
    ASSERT_EQ(SkifCh_Send(a, me, wrap, 3), -1); /* the sum wraps to 11 */
    ASSERT_EQ(errno, EINVAL);
    struct iovec huge = {buf, (size_t)1 << 63};
    errno = 0;
    ASSERT_EQ(SkifCh_Send(a, me, &huge, 1), -1);
    ASSERT_EQ(errno, EINVAL);
    struct iovec big[2] = {{buf, 100}, {buf, (size_t)1 << 63}};
    errno = 0;
    ASSERT_EQ(SkifCh_Send(a, me, big, 2), -1);
    ASSERT_EQ(errno, EINVAL);
    /* nothing of those was sent: the channel is empty */
    struct iovec cont[SKIFCH_CONT_SIZE];
    int parts;
    ASSERT_TRUE(SkifCh_Recv(a, cont, &parts) == -1 && errno == EAGAIN);

    /* close the last channel, open again; the old handle stays invalid */
    ASSERT_EQ(SkifCh_Close(a), 0);
    SkifCh *b = SkifCh_Open(CH);
    ASSERT_TRUE(b != NULL);
    ASSERT_TRUE(b != a);
    struct iovec one = {buf, 1};
    ASSERT_TRUE(SkifCh_Recv(a, cont, &parts) == -1 && errno == EBADF);
    ASSERT_TRUE(SkifCh_RecvComp(a) == -1 && errno == EBADF);
    ASSERT_TRUE(SkifCh_Send(a, me, &one, 1) == -1 && errno == EBADF);
    ASSERT_TRUE(SkifCh_MyAddr(a) == (netaddr_t)-1 && errno == EBADF);
    ASSERT_TRUE(SkifCh_Close(a) == -1 && errno == EBADF);
    ASSERT_EQ(SkifCh_MyAddr(b), me);
    /* and again, several times: every old handle stays invalid */
    SkifCh *old[4] = {a, b, NULL, NULL};
    for (int k = 2; k < 4; k++) {
        ASSERT_EQ(SkifCh_Close(old[k - 1]), 0);
        ASSERT_TRUE((old[k] = SkifCh_Open(CH)) != NULL);
        for (int j = 0; j < k; j++)
            ASSERT_TRUE(old[j] != old[k] && SkifCh_Close(old[j]) == -1 && errno == EBADF);
    }
    b = old[3];

    /* the reopened channel works end to end */
    SkifCh *bar = SkifChU_BarrierOpen();
    ASSERT_TRUE(bar != NULL);
    ASSERT_EQ(SkifChU_Barrier(bar), 0);
    if (t_rank == 1) {
        uint32_t word = 0x5eed;
        ASSERT_EQ(SkifChU_Send(b, SkifCh_Addr(0, CH), &word, sizeof(word)), 0);
    } else {
        uint32_t word = 0;
        ASSERT_EQ(SkifChU_Recv(b, &word, sizeof(word)), sizeof(word));
        ASSERT_EQ(word, 0x5eed);
    }
    ASSERT_EQ(SkifChU_Barrier(bar), 0);
    ASSERT_EQ(SkifCh_Close(b), 0);
    ASSERT_EQ(SkifCh_Close(bar), 0);
    printf("t_conform: node %d: ok\n", t_rank);
    return 0;
}
