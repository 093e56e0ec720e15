/* SPDX-License-Identifier: Apache-2.0 */
/* shmem_check.h: the check macro of the SHMEM test programs. Define
 * TEST_NAME (the program's name) before including it. CHECK(cond, check,
 * fmt, ...) counts a check; a failed one prints "NAME: PE i: check 'check'
 * failed: ..." on stderr and exits 1 at once. */
#ifndef SHMEM_CHECK_H
#define SHMEM_CHECK_H

#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

static int me;      /* this PE, set by the program after shmem_init */
static long checks; /* checks made so far */

static void failf(const char *check, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void failf(const char *check, const char *fmt, ...)
{
    va_list ap;
    fflush(stdout);
    fprintf(stderr, TEST_NAME ": PE %d: check '%s' failed: ", me, check);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n");
    fflush(stderr);
    _exit(1);
}
#define CHECK(cond, check, ...)                                                                    \
    do {                                                                                           \
        checks++;                                                                                  \
        if (!(cond))                                                                               \
            failf(check, __VA_ARGS__);                                                             \
    } while (0)

#endif /* SHMEM_CHECK_H */
