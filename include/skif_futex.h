/* SPDX-License-Identifier: Apache-2.0 */
/* skif_futex.h: the hand-over between the simulator and a program sleeps on
 * the mailbox's sequence words themselves (Linux futexes on the shared
 * control page, include/skif_proto.h), which costs less than a wake-up byte
 * through a socket. Include after defining _GNU_SOURCE. */
#ifndef SKIF_FUTEX_H
#define SKIF_FUTEX_H

#include <errno.h>
#include <linux/futex.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* How long either side sleeps at most before it checks that the other is
 * still there (a process that ends wakes nobody; its socket's end-of-file
 * tells). */
#define SKIF_ALIVE_MS 20
#define SKIF_ALIVE_MAX_MS 30000 /* a sleeping program's longest look (backend_sim.c) */

/* Sleep while *word == val, at most ms milliseconds: 0 woken (or the word
 * had already changed), -ETIMEDOUT, -EINTR. The word is in shared memory,
 * so the futex is not process-private. */
static inline int skif_futex_wait(uint32_t *word, uint32_t val, int ms)
{
    struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L};
    if (syscall(SYS_futex, word, FUTEX_WAIT, val, &ts, NULL, 0) == 0)
        return 0;
    return errno == EAGAIN ? 0 : -errno;
}

/* Wake the side sleeping on word, if any. */
static inline void skif_futex_wake(uint32_t *word)
{
    syscall(SYS_futex, word, FUTEX_WAKE, 1, NULL, NULL, 0);
}

#endif /* SKIF_FUTEX_H */
