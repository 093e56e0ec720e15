/* SPDX-License-Identifier: Apache-2.0 */
/* t_bad: OpenSHMEM's answers to bad requests, one mode per run (run:
 * oshrun -np 2 build/tests/shmem/t_bad MODE; tests/shmem.sh checks the
 * exit status and the message). Errors are fatal (shmem.h): one line on
 * stderr naming the call, the address and the PE, exit status 1.
 *   nonsym   PE 0 puts 8 bytes to an address on its stack (not symmetric)
 *            at PE 1; it prints the address first: the error must name it
 *   pe       PE 0 puts to PE n (out of range)
 *   before   shmem_putmem before shmem_init
 *   align    PE 0 does a 64-bit fetch-add on an address 4 bytes off
 *   set      a barrier whose active set does not fit in the PEs
 *   malloc   shmem_malloc of 1 TiB: NULL and a message, then the heap still
 *            works (a put into a fresh block checked); exits 0
 *   forged   raw requests through the driver (shmemx_rma_handle,
 *            driver/skif_rma.h) from PE 0 to PE 1 outside PE 1's
 *            symmetric heap: 8 bytes at its end (crossing it), 8 bytes
 *            just past it, 8 bytes just before it. Each must be refused:
 *            skif_rma_quiet gives -EIO after each and skif_rma_last_error
 *            names PE 1's node and the address; PE 1's refused count grows
 *            by exactly 3 and its bytes around the heap are unchanged;
 *            exits 0 (build with -I driver)
 * With MODE --help: this text. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <shmem.h>
#include <shmemx.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "skif_hw.h"
#include "skif_rma.h"

static long sym[4];
static long psync[SHMEM_BARRIER_SYNC_SIZE];

static int usage(const char *cmd, int rc)
{
    fprintf(rc ? stderr : stdout,
            "usage: oshrun -np 2 %s MODE\n"
            "modes: nonsym | pe | before | align | set | malloc | forged\n"
            "Each mode makes one bad request; all but malloc and forged end with status 1 and\n"
            "the library's message.\n",
            cmd);
    return rc;
}

static int me;
static void die(const char *what)
{
    fprintf(stderr, "t_bad: PE %d: %s\n", me, what);
    fflush(stderr);
    _exit(1);
}

/* The forged requests: offsets from PE 1's heap bus address and lengths */
static void forged(void)
{
    struct skif_rma *r = shmemx_rma_handle();
    void *base;
    size_t size;
    uint64_t bus;
    shmemx_heap_bounds(1, &base, &size, &bus);
    const uint64_t addr[3] = {bus + size - 4, bus + size, bus - 8};
    const char *what[3] = {"crossing the heap's end", "just past the heap", "just before the heap"};
    /* PE 1: the bytes around its heap (16 each side), its refused count */
    /* the bytes PE 1 watches: 32 around its heap's end, 32 before it */
    const uint64_t area[2] = {bus + size - 16, bus - 32};
    unsigned char before[2][32] = {{0}};
    uint32_t served0 = 0, refused0 = 0, served1 = 0, refused1 = 0, info = 0;
    int bad = 0;
    if (me == 1) {
        for (int k = 0; k < 2; k++)
            memcpy(before[k], (unsigned char *)base + (area[k] - bus), 32);
        if (skif_rma_target_info(r, &served0, &refused0, &info) < 0)
            die("skif_rma_target_info failed");
    }
    shmem_barrier_all();
    if (me == 0) {
        uint32_t node = shmemx_pe_node(1);
        unsigned char junk[8] = {0xEE, 0xEE, 0xEE, 0xEE, 0xEE, 0xEE, 0xEE, 0xEE};
        for (int k = 0; k < 3; k++) {
            int rc;
            while ((rc = skif_rma_put(r, node, addr[k], junk, 8)) == -EAGAIN)
                skif_dev_wait(shmemx_dev_handle(), 100);
            if (rc < 0) {
                fprintf(stderr, "t_bad: forged: skif_rma_put %s: %s\n", what[k], strerror(-rc));
                _exit(1);
            }
            rc = skif_rma_quiet(r, 0);
            struct skif_rma_error e;
            memset(&e, 0, sizeof e);
            int le = skif_rma_last_error(r, &e);
            printf("t_bad: forged put %s (0x%llx): quiet %d, last error %d: node %u, address "
                   "0x%llx, %zu bytes, code %u\n",
                   what[k], (unsigned long long)addr[k], rc, le, e.node,
                   (unsigned long long)e.raddr, e.len, e.code);
            fflush(stdout);
            if (rc != -EIO) {
                fprintf(stderr,
                        "t_bad: PE 0: check 'forged put %s refused' failed: skif_rma_quiet "
                        "returned %d, expected -EIO (%d)\n",
                        what[k], rc, -EIO);
                bad++;
                continue;
            }
            if (le != 0 || e.raddr != addr[k] || e.node != node || e.len != 8 ||
                e.code != SKIF_RMA_ERR_WIN || e.kind != SKIF_KIND_RMA_PUT) {
                fprintf(stderr,
                        "t_bad: PE 0: check 'forged put %s named' failed: skif_rma_last_error "
                        "gave %d, node %u (PE 1 is node %u), address 0x%llx (sent 0x%llx), "
                        "%zu bytes, code %u, kind %u\n",
                        what[k], le, e.node, node, (unsigned long long)e.raddr,
                        (unsigned long long)addr[k], e.len, e.code, e.kind);
                bad++;
            }
        }
    }
    shmem_barrier_all();
    if (me == 1) {
        if (skif_rma_target_info(r, &served1, &refused1, &info) < 0)
            die("skif_rma_target_info failed");
        printf("t_bad: forged: PE 1 refused %u requests (before %u), RMA_ERR_INFO 0x%08x\n",
               refused1, refused0, info);
        for (int k = 0; k < 2; k++)
            for (int i = 0; i < 32; i++) {
                unsigned char now = ((unsigned char *)base + (area[k] - bus))[i];
                if (now != before[k][i]) {
                    fprintf(stderr,
                            "t_bad: PE 1: check 'forged puts wrote nothing' failed: the byte at "
                            "bus address 0x%llx (heap %s %lld) changed from 0x%02x to 0x%02x\n",
                            (unsigned long long)area[k] + (unsigned)i, k ? "start" : "end",
                            (long long)(area[k] + (unsigned)i - (k ? bus : bus + size)),
                            before[k][i], now);
                    bad++;
                }
            }
        if (refused1 - refused0 != 3) {
            fprintf(stderr,
                    "t_bad: PE 1: check 'forged puts counted' failed: the refused count grew by "
                    "%u, expected 3\n",
                    refused1 - refused0);
            bad++;
        }
        if ((info >> 16) != shmemx_pe_node(0) || (info >> 4 & 0xf) != SKIF_KIND_RMA_PUT ||
            (info & 0xf) != SKIF_RMA_ERR_WIN) {
            fprintf(stderr,
                    "t_bad: PE 1: check 'forged puts recorded' failed: RMA_ERR_INFO 0x%08x does "
                    "not name node %u, a put, code WIN\n",
                    info, shmemx_pe_node(0));
            bad++;
        }
    }
    /* every check above reported; a failure ends the run here */
    shmem_barrier_all();
    if (bad) {
        fflush(stdout);
        fprintf(stderr, "t_bad: forged: PE %d: %d checks failed\n", me, bad);
        fflush(stderr);
        _exit(1);
    }
    /* the library still works after the refusals */
    shmem_long_p(&sym[0], 42 + me, (me + 1) % shmem_n_pes());
    shmem_barrier_all();
    if (sym[0] != 42 + (me + shmem_n_pes() - 1) % shmem_n_pes())
        die("check 'a put after the forged ones' failed");
    printf("t_bad: forged: PE %d: all checks passed\n", me);
}

int main(int argc, char **argv)
{
    if (argc != 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
        return usage(argv[0], argc != 2);
    const char *m = argv[1];
    long v = 7;
    if (!strcmp(m, "before")) {
        printf("t_bad: shmem_putmem before shmem_init\n");
        fflush(stdout);
        shmem_putmem(sym, &v, sizeof v, 1);
        die("shmem_putmem before shmem_init returned");
    }
    if (strcmp(m, "nonsym") && strcmp(m, "pe") && strcmp(m, "align") && strcmp(m, "set") &&
        strcmp(m, "malloc") && strcmp(m, "forged"))
        return usage(argv[0], 2);
    shmem_init();
    me = shmem_my_pe();
    int n = shmem_n_pes();
    if (n < 2) {
        fprintf(stderr, "t_bad: needs 2 PEs or more\n");
        return 2;
    }
    shmem_barrier_all();
    if (!strcmp(m, "nonsym")) {
        long local[2] = {1, 2};
        if (me == 0) {
            printf("t_bad: PE 0 puts to its stack address %p at PE 1\n", (void *)&local[0]);
            fflush(stdout);
            shmem_putmem(&local[0], &v, sizeof v, 1);
            die("a put to a stack address returned");
        }
        shmem_barrier_all(); /* PE 0 ends the run first */
        die("PE 0's bad put did not end the run");
    } else if (!strcmp(m, "pe")) {
        if (me == 0) {
            printf("t_bad: PE 0 puts to PE %d\n", n);
            fflush(stdout);
            shmem_putmem(sym, &v, sizeof v, n);
            die("a put to PE n returned");
        }
        shmem_barrier_all();
        die("PE 0's bad put did not end the run");
    } else if (!strcmp(m, "align")) {
        if (me == 0) {
            long *p = (long *)((char *)&sym[1] + 4);
            printf("t_bad: PE 0 fetch-adds at %p at PE 1\n", (void *)p);
            fflush(stdout);
            shmem_long_atomic_fetch_add(p, 1, 1);
            die("an unaligned atomic returned");
        }
        shmem_barrier_all();
        die("PE 0's bad atomic did not end the run");
    } else if (!strcmp(m, "set")) {
        printf("t_bad: PE %d: barrier on PE_start 0, logPE_stride 0, PE_size %d\n", me, n + 1);
        fflush(stdout);
        shmem_barrier(0, 0, n + 1, psync);
        die("a barrier with an active set beyond the PEs returned");
    } else if (!strcmp(m, "malloc")) {
        void *p = shmem_malloc((size_t)1 << 40);
        if (p)
            die("check 'shmem_malloc beyond the heap' failed: not NULL");
        long *q = shmem_malloc(64 * sizeof(long));
        if (!q)
            die("check 'shmem_malloc after a failed one' failed: NULL");
        for (int i = 0; i < 64; i++)
            q[i] = -1;
        shmem_barrier_all();
        long src[64];
        for (int i = 0; i < 64; i++)
            src[i] = me * 100 + i;
        shmem_long_put(q, src, 64, (me + 1) % n);
        shmem_barrier_all();
        int from = (me + n - 1) % n;
        for (int i = 0; i < 64; i++)
            if (q[i] != from * 100 + i)
                die("check 'the heap after a failed shmem_malloc' failed: a put did not arrive");
        shmem_free(q);
        printf("t_bad: malloc: PE %d: NULL beyond the heap, the heap still works\n", me);
    } else {
        forged();
    }
    shmem_finalize();
    return 0;
}
