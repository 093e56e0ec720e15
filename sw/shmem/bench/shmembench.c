/* SPDX-License-Identifier: Apache-2.0 */
/* shmembench: OpenSHMEM figures in simulated cycles (shmemx_cycle; us at
 * the adapter's clock, shmemx_clock_mhz), PE 0 against PE 1 (other PEs
 * wait in the barriers). OSU-style tables on stdout:
 *   rate [COUNT]    8-byte put rate from PE 0: COUNT (default 4000)
 *                   shmem_putmem, then shmem_long_p, back to back, then
 *                   shmem_quiet; puts per cycle issued (to the last put's
 *                   return) and completed (to the quiet's), and per second
 *   latency [ITER]  put 8 B + quiet, p + quiet, get 8 B, g, fetch-add 64,
 *                   compare-swap 32, each the mean of ITER (default 50)
 *   bw [MAX]        put bandwidth by size 1..MAX (default 65536, powers of
 *                   2): a window of puts to consecutive addresses, then
 *                   quiet, repeated; bytes per cycle, MB/s, and the size at
 *                   which half the peak is reached
 *   getbw [MAX]     the same for blocking gets
 * Run: oshrun -np 2 build/shmem/bench/shmembench MODE [ARG]
 * (sw/shmem/bench/bench.sh, make bench-shmem) */
#include <shmem.h>
#include <shmemx.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int me, npes;
static unsigned mhz;
static unsigned char *buf; /* symmetric, the target area */
static unsigned char *src; /* private source */
static long word;
static int word32[2];
#define BUFSIZE (1 << 20)

static double us(double cycles)
{
    return cycles / mhz;
}

static void conditions(const char *what)
{
    printf("# OpenSHMEM %s, PE 0 -> PE 1 of %d PEs, simulated time at %u MHz\n", what, npes, mhz);
}

static void rate(long count)
{
    shmem_barrier_all();
    if (me == 0) {
        conditions("8-byte put rate");
        printf("# %-14s %10s %12s %12s %12s %14s\n", "call", "puts", "issue cyc", "total cyc",
               "puts/cycle", "Mputs/s");
        for (int v = 0; v < 2; v++) {
            uint64_t t0 = shmemx_cycle(), t1;
            for (long k = 0; k < count; k++) {
                uint64_t x = (uint64_t)k;
                if (v == 0)
                    shmem_putmem(buf + 8 * (k % 4096), &x, 8, 1);
                else
                    shmem_long_p((long *)buf + k % 4096, (long)k, 1);
            }
            t1 = shmemx_cycle();
            shmem_quiet();
            uint64_t t2 = shmemx_cycle();
            double r = (double)count / (double)(t2 - t0);
            printf("  %-14s %10ld %12llu %12llu %12.4f %14.2f\n",
                   v == 0 ? "shmem_putmem" : "shmem_long_p", count, (unsigned long long)(t1 - t0),
                   (unsigned long long)(t2 - t0), r, r * mhz);
            if (v == 0)
                printf("rate: %ld puts of 8 bytes in %llu cycles: %.4f puts/cycle = %.2f Mputs/s "
                       "at %u MHz (issued at %.4f puts/cycle)\n",
                       count, (unsigned long long)(t2 - t0), r, r * mhz, mhz,
                       (double)count / (double)(t1 - t0));
        }
    }
    shmem_barrier_all();
    if (me == 1) { /* the last values arrived */
        long bad = 0;
        for (long k = count > 4096 ? count - 4096 : 0; k < count; k++)
            bad += ((long *)buf)[k % 4096] != k;
        if (bad)
            fprintf(stderr, "shmembench: rate: %ld of the last puts did not arrive\n", bad);
    }
}

static void latency(long iter)
{
    shmem_barrier_all();
    if (me == 0) {
        conditions("latency (mean of each operation alone)");
        printf("# %-22s %12s %12s\n", "operation", "cycles", "us");
        const char *names[6] = {"put 8 B + quiet", "shmem_long_p + quiet", "get 8 B",
                                "shmem_long_g",    "fetch-add 64",         "compare-swap 32"};
        for (int op = 0; op < 6; op++) {
            uint64_t sum = 0;
            for (long k = 0; k < iter; k++) {
                uint64_t x = (uint64_t)k, y;
                uint64_t t0 = shmemx_cycle();
                switch (op) {
                case 0:
                    shmem_putmem(buf, &x, 8, 1);
                    shmem_quiet();
                    break;
                case 1:
                    shmem_long_p((long *)buf, (long)k, 1);
                    shmem_quiet();
                    break;
                case 2:
                    shmem_getmem(&y, buf, 8, 1);
                    break;
                case 3:
                    y = (uint64_t)shmem_long_g((long *)buf, 1);
                    break;
                case 4:
                    y = (uint64_t)shmem_long_atomic_fetch_add(&word, 1, 1);
                    break;
                default:
                    y = (uint64_t)shmem_int_atomic_compare_swap(&word32[1], 0, 1, 1);
                    break;
                }
                sum += shmemx_cycle() - t0;
                (void)y;
            }
            double c = (double)sum / (double)iter;
            printf("  %-22s %12.1f %12.3f\n", names[op], c, us(c));
        }
    }
    shmem_barrier_all();
}

static void bw(long max, int get)
{
    shmem_barrier_all();
    double peak = 0, *res = calloc(64, sizeof(double));
    int nres = 0;
    if (me == 0) {
        conditions(get ? "blocking get bandwidth" : "put bandwidth (a window of puts, then quiet)");
        printf("# %-10s %8s %12s %14s %12s\n", "size", "ops", "cycles", "bytes/cycle", "MB/s");
        for (long size = 1; size <= max; size *= 2, nres++) {
            long n = 65536 / size;
            if (n < 16)
                n = 16;
            if (n > 400)
                n = 400;
            long win = BUFSIZE / size; /* consecutive targets, wrapping */
            uint64_t t0 = shmemx_cycle();
            for (long k = 0; k < n; k++) {
                unsigned char *t = buf + (size_t)((k % win) * size);
                if (get)
                    shmem_getmem(src, t, (size_t)size, 1);
                else
                    shmem_putmem(t, src, (size_t)size, 1);
            }
            shmem_quiet();
            double cyc = (double)(shmemx_cycle() - t0), b = (double)(n * size) / cyc;
            res[nres] = b;
            if (b > peak)
                peak = b;
            printf("  %-10ld %8ld %12.0f %14.4f %12.2f\n", size, n, cyc, b, b * mhz);
        }
        long half = -1, size = 1;
        for (int i = 0; i < nres; i++, size *= 2)
            if (half < 0 && res[i] >= peak / 2)
                half = size;
        printf("%s: peak %.4f bytes/cycle = %.1f MB/s at %u MHz; half the peak (%.4f) at %ld "
               "bytes\n",
               get ? "getbw" : "bw", peak, peak * mhz, mhz, peak / 2, half);
    }
    free(res);
    shmem_barrier_all();
}

static int usage(const char *cmd, int rc)
{
    fprintf(rc ? stderr : stdout,
            "usage: oshrun -np 2 %s MODE [ARG]\n"
            "modes: rate [COUNT] | latency [ITER] | bw [MAX] | getbw [MAX]\n"
            "OpenSHMEM figures of PE 0 against PE 1 in simulated cycles (shmemx_cycle).\n",
            cmd);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
        return usage(argv[0], argc < 2 ? 2 : 0);
    const char *m = argv[1];
    long a = argc > 2 ? atol(argv[2]) : 0;
    int known =
        !strcmp(m, "rate") || !strcmp(m, "latency") || !strcmp(m, "bw") || !strcmp(m, "getbw");
    if (!known || argc > 3 || (argc == 3 && (a < 1 || a > BUFSIZE)))
        return usage(argv[0], 2);
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    mhz = shmemx_clock_mhz();
    if (npes < 2) {
        fprintf(stderr, "shmembench: needs 2 PEs or more\n");
        shmem_global_exit(2);
    }
    buf = shmem_malloc(BUFSIZE);
    src = malloc(BUFSIZE);
    if (!buf || !src) {
        fprintf(stderr, "shmembench: no memory\n");
        shmem_global_exit(2);
    }
    for (size_t i = 0; i < BUFSIZE; i++)
        src[i] = (unsigned char)(i * 7 + 1);
    if (!strcmp(m, "rate"))
        rate(a ? a : 4000);
    else if (!strcmp(m, "latency"))
        latency(a ? a : 50);
    else
        bw(a ? a : 65536, !strcmp(m, "getbw"));
    shmem_free(buf);
    free(src);
    shmem_finalize();
    return 0;
}
