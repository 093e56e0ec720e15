/* SPDX-License-Identifier: Apache-2.0 */
/* skif_handover: what a program hand-over costs on this machine, without the
 * simulator. skifsim runs the model only while every program waits, and
 * releases the waiting programs one at a time (sim/kernel/kernel.c); a
 * release is a futex wake-up of the program's process, the program's work,
 * and a futex wake-up back, two process switches on the one CPU of a pinned
 * run. This tool does the same with N plain processes, each touching P pages
 * of its own memory at each release, released in turn, all on one CPU, and
 * prints the wall time per release. `make bench-scale` runs it beside its
 * sustained rows (sw/bench/scale.sh), so a machine's share of their wall
 * clock is stated with them (docs/scale.md). With --chain K the processes
 * are released K at a time, each waking the next of its group itself and
 * the last waking the parent: K + 1 switches for K releases instead of 2K,
 * which tells the cost of entering a process from that of coming back. */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "skif_futex.h"

/* One mailbox per process, a cache line each: go is the round the parent
 * released, done the round the child finished. */
struct slot {
    uint32_t go, done;
    char pad[56];
};

static void usage(FILE *f)
{
    fprintf(f,
            "usage: skif_handover [--procs N] [--pages P] [--rounds R] [--cpu C] [--chain K] [-q]\n"
            "the wall time of a program hand-over on this machine without the simulator:\n"
            "N processes (default 512, 1..8192) released in turn R times (2..100000;\n"
            "default: enough for 10000 releases), each touching P pages of its own\n"
            "memory (default 16, 0..4096) at each release, all on CPU C (default 0);\n"
            "--chain K (1..64, default 1): released K at a time, each process waking\n"
            "the next of its group and the last one the parent (K + 1 switches for K);\n"
            "prints microseconds per release after the first round (-q: the number only)\n");
}

/* A number in [lo, hi], or -1 with a message naming the option. */
static long number(const char *opt, const char *s, long lo, long hi)
{
    char *end;
    errno = 0;
    long v = (s && *s >= '0' && *s <= '9') ? strtol(s, &end, 10) : -1;
    if (v < 0 || errno || *end || v < lo || v > hi) {
        fprintf(stderr, "skif_handover: %s '%s': expected a number from %ld to %ld\n", opt,
                s ? s : "", lo, hi);
        return -1;
    }
    return v;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The child process of slot s; next: the slot it releases when done (the
 * next of its chain), or NULL to answer the parent. */
static void child(struct slot *s, struct slot *next, long pages, long rounds, pid_t parent,
                  pid_t *pids)
{
    free(pids); /* (the parent's) */
    /* a parent that dies leaves no child behind */
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
        _exit(1);
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    char *m = pages ? malloc((size_t)pages * page) : NULL;
    if (pages && !m)
        _exit(1);
    if (m)
        memset(m, 0, (size_t)pages * page);
    for (long r = 0; r < rounds; r++) {
        /* (no timeout: N processes looking every few milliseconds would
         * be the load measured) */
        while (__atomic_load_n(&s->go, __ATOMIC_SEQ_CST) == (uint32_t)r)
            syscall(SYS_futex, &s->go, FUTEX_WAIT, (uint32_t)r, NULL, NULL, 0);
        for (long p = 0; p < pages; p++)
            m[(size_t)p * page]++;
        __atomic_store_n(&s->done, (uint32_t)(r + 1), __ATOMIC_SEQ_CST);
        if (next) {
            __atomic_store_n(&next->go, (uint32_t)(r + 1), __ATOMIC_SEQ_CST);
            skif_futex_wake(&next->go);
        } else {
            skif_futex_wake(&s->done);
        }
    }
    free(m);
    _exit(0);
}

/* Process i is the last of its group of `chain` (it answers the parent). */
static int last_of_group(long i, long procs, long chain)
{
    return (i + 1) % chain == 0 || i + 1 == procs;
}

/* Kill the first n processes and wait for them; returns 1 (the exit status). */
static int stop(const pid_t *pid, long n)
{
    for (long i = 0; i < n; i++)
        kill(pid[i], SIGKILL);
    while (wait(NULL) > 0)
        ;
    return 1;
}

int main(int argc, char **argv)
{
    long procs = 512, pages = 16, rounds = 0, cpu = 0, chain = 1;
    int quiet = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        long *dst = NULL, lo = 0, hi = 0;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "-q")) {
            quiet = 1;
            continue;
        } else if (!strcmp(a, "--procs")) {
            dst = &procs, lo = 1, hi = 8192;
        } else if (!strcmp(a, "--pages")) {
            dst = &pages, lo = 0, hi = 4096;
        } else if (!strcmp(a, "--rounds")) {
            dst = &rounds, lo = 2, hi = 100000;
        } else if (!strcmp(a, "--cpu")) {
            dst = &cpu, lo = 0, hi = CPU_SETSIZE - 1;
        } else if (!strcmp(a, "--chain")) {
            dst = &chain, lo = 1, hi = 64;
        } else {
            fprintf(stderr, "skif_handover: unknown option '%s' (see skif_handover --help)\n", a);
            return 2;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "skif_handover: %s needs a value (see skif_handover --help)\n", a);
            return 2;
        }
        if ((*dst = number(a, argv[++i], lo, hi)) < 0)
            return 2;
    }
    if (!rounds)
        rounds = 1 + (10000 + procs - 1) / procs;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET((int)cpu, &set);
    if (sched_setaffinity(0, sizeof(set), &set) < 0) {
        fprintf(stderr, "skif_handover: --cpu %ld: not a CPU this process may run on (%s)\n", cpu,
                strerror(errno));
        return 2;
    }
    struct slot *sl = mmap(NULL, sizeof(*sl) * (size_t)procs, PROT_READ | PROT_WRITE,
                           MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (sl == MAP_FAILED) {
        fprintf(stderr, "skif_handover: mmap: %s\n", strerror(errno));
        return 1;
    }
    pid_t parent = getpid(), *pid = calloc((size_t)procs, sizeof(*pid));
    if (!pid) {
        fprintf(stderr, "skif_handover: out of memory\n");
        return 1;
    }
    for (long i = 0; i < procs; i++) {
        pid[i] = fork();
        if (pid[i] == 0)
            child(&sl[i], last_of_group(i, procs, chain) ? NULL : &sl[i + 1], pages, rounds, parent,
                  pid);
        if (pid[i] < 0) {
            fprintf(stderr, "skif_handover: fork of process %ld of %ld: %s\n", i + 1, procs,
                    strerror(errno));
            return stop(pid, i);
        }
    }
    double t0 = 0;
    for (long r = 0; r < rounds; r++) {
        if (r == 1) /* (the first round starts the processes' memory and switches) */
            t0 = now_s();
        for (long i = 0; i < procs; i++) {
            if (i % chain == 0) { /* the first of a group; the others wake in turn */
                __atomic_store_n(&sl[i].go, (uint32_t)(r + 1), __ATOMIC_SEQ_CST);
                skif_futex_wake(&sl[i].go);
            }
            if (!last_of_group(i, procs, chain))
                continue;
            /* (a process that ended early never answers: noticed on a
             * timeout of the wait) */
            while (__atomic_load_n(&sl[i].done, __ATOMIC_SEQ_CST) == (uint32_t)r)
                if (skif_futex_wait(&sl[i].done, (uint32_t)r, SKIF_ALIVE_MS) == -ETIMEDOUT &&
                    waitpid(-1, NULL, WNOHANG) > 0) {
                    fprintf(stderr, "skif_handover: a process ended before its last round "
                                    "(out of memory?)\n");
                    return stop(pid, procs);
                }
            /* every process of the group ran its round, in turn */
            for (long j = i - i % chain; j <= i; j++)
                if (__atomic_load_n(&sl[j].done, __ATOMIC_SEQ_CST) != (uint32_t)(r + 1)) {
                    fprintf(stderr, "skif_handover: process %ld did not run round %ld\n", j, r + 1);
                    return stop(pid, procs);
                }
        }
    }
    free(pid);
    double us = (now_s() - t0) * 1e6 / ((double)procs * (double)(rounds - 1));
    int bad = 0, st;
    while (wait(&st) > 0)
        bad |= !WIFEXITED(st) || WEXITSTATUS(st) != 0;
    if (bad) {
        fprintf(stderr, "skif_handover: a process failed (out of memory?)\n");
        return 1;
    }
    if (quiet)
        printf("%.1f\n", us);
    else {
        char how[48] = "";
        if (chain > 1)
            snprintf(how, sizeof(how), ", in chains of %ld", chain);
        printf("hand-over: %ld processes, %ld pages each, %ld rounds on CPU %ld%s: %.1f us a "
               "release\n",
               procs, pages, rounds, cpu, how, us);
    }
    return 0;
}
