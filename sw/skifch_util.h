/* SPDX-License-Identifier: Apache-2.0 */
/* skifch_util.h: small helpers over SkifCh for programs and benchmarks:
 * blocking whole-message send and copying receive, a barrier over all ranks,
 * and a deterministic random generator. Everything here uses only the
 * public SkifCh API (skifch.h); errors are -1 with errno, like SkifCh. */
#ifndef SKIFCH_UTIL_H
#define SKIFCH_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "skifch.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The channel SkifChU_BarrierOpen() uses on every node. */
#define SKIFCHU_BARRIER_CHAN 63

/* Send len (<= SKIFCH_MAX_MSG) bytes from buf to dst, retrying while the
 * TX ring is full (simulated time advances meanwhile). Up to 512 bytes go as
 * one message; a longer one may go as several when SkifCh_Send sends only a
 * first part (TX ring nearly full): the receiver gets the bytes in order,
 * possibly split. 0, or -1 with errno from SkifCh_Send (never EAGAIN). */
int SkifChU_Send(SkifCh *ch, netaddr_t dst, const void *buf, size_t len);

/* Wait for the channel's next message, copy up to cap bytes of it into buf,
 * complete it, and return its full length (which may exceed cap). SkifCh
 * does not say who sent a message: put that into the payload. -1 with errno
 * from SkifCh_Recv/RecvComp (never EAGAIN). */
ssize_t SkifChU_Recv(SkifCh *ch, void *buf, size_t cap);

/* Open this node's barrier channel (SKIFCHU_BARRIER_CHAN). NULL with errno. */
SkifCh *SkifChU_BarrierOpen(void);

/* Barrier over all ranks on the barrier channel: every rank sends an empty
 * message to rank 0, which answers each once all have arrived. 0, or -1
 * with errno. */
int SkifChU_Barrier(SkifCh *bar);

/* Command-line helpers of the programs in sw/: true if argv[1] asks for
 * help (-h, --help); parse s as a whole decimal number in lo..hi into *out
 * (0, or -1 when it is not one); this process's rank, or -1 after printing
 * "PROG: <why> (run it under skifrun)". */
int SkifChU_WantsHelp(int argc, char **argv);
int SkifChU_Num(const char *s, long lo, long hi, long *out);
int SkifChU_Rank(const char *prog);

/* xorshift64* generator: the same sequence on every machine for a seed. */
static inline uint64_t SkifChU_Rand(uint64_t *state)
{
    uint64_t x = *state ? *state : 0x9E3779B97F4A7C15ull;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return x * 0x2545F4914F6CDD1Dull;
}

#ifdef __cplusplus
}
#endif

#endif /* SKIFCH_UTIL_H */
