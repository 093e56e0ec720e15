/* SPDX-License-Identifier: Apache-2.0 */
/* skifch_util.c: helpers over the public SkifCh API (see skifch_util.h). */
#include "skifch_util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int SkifChU_Send(SkifCh *ch, netaddr_t dst, const void *buf, size_t len)
{
    if (len > SKIFCH_MAX_MSG) {
        errno = EINVAL;
        return -1;
    }
    struct iovec iov = {(void *)(uintptr_t)buf, len};
    for (;;) {
        ssize_t r = SkifCh_Send(ch, dst, &iov, 1);
        if (r == (ssize_t)iov.iov_len)
            return 0;
        if (r > 0) { /* a first part went: the rest follows */
            iov.iov_base = (uint8_t *)iov.iov_base + r;
            iov.iov_len -= (size_t)r;
        } else if (r < 0 && errno != EAGAIN) {
            return -1;
        }
    }
}

ssize_t SkifChU_Recv(SkifCh *ch, void *buf, size_t cap)
{
    struct iovec cont[SKIFCH_CONT_SIZE];
    int parts;
    ssize_t r;
    while ((r = SkifCh_Recv(ch, cont, &parts)) < 0)
        if (errno != EAGAIN)
            return -1;
    size_t at = 0;
    for (int p = 0; p < parts; p++) {
        size_t n = cont[p].iov_len;
        if (n > cap - at)
            n = cap - at;
        if (n)
            memcpy((uint8_t *)buf + at, cont[p].iov_base, n);
        at += n;
    }
    if (SkifCh_RecvComp(ch) < 0)
        return -1;
    return r;
}

SkifCh *SkifChU_BarrierOpen(void)
{
    return SkifCh_Open(SKIFCHU_BARRIER_CHAN);
}

int SkifChU_Barrier(SkifCh *bar)
{
    int rank = SkifCh_Rank(), size = SkifCh_Size();
    uint8_t b;
    if (rank < 0 || size < 0)
        return -1;
    if (rank != 0) {
        if (SkifChU_Send(bar, SkifCh_Addr(0, SKIFCHU_BARRIER_CHAN), NULL, 0) < 0)
            return -1;
        return SkifChU_Recv(bar, &b, 0) < 0 ? -1 : 0;
    }
    for (int i = 1; i < size; i++)
        if (SkifChU_Recv(bar, &b, 0) < 0)
            return -1;
    for (int i = 1; i < size; i++)
        if (SkifChU_Send(bar, SkifCh_Addr(i, SKIFCHU_BARRIER_CHAN), NULL, 0) < 0)
            return -1;
    return 0;
}

int SkifChU_WantsHelp(int argc, char **argv)
{
    return argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"));
}

int SkifChU_Num(const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (!*s || *end || errno || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

int SkifChU_Rank(const char *prog)
{
    int rank = SkifCh_Rank();
    if (rank < 0)
        fprintf(stderr, "%s: %s (run it under skifrun)\n", prog, strerror(errno));
    return rank;
}
