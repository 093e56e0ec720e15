/* SPDX-License-Identifier: Apache-2.0 */
/* t_fail: programs that go wrong, for the simulator's error handling.
 * Usage: t_fail MODE [RANK]
 *   crash RANK   rank RANK dies of SIGSEGV after opening; the others wait
 *   exit RANK    rank RANK exits with status 3; the others wait
 *   stuck        every rank waits for a message that never comes (watchdog)
 *   spin RANK    rank RANK spins outside the library for 2-3 s (until time()
 *                moved on by 3), then exits 0
 *   wait         every rank waits; for the test that kills the simulator
 *   sleep        every rank sleeps in SkifCh_Wait (no polling: the simulator
 *                runs on without its program; make bench-scale's evaluate)
 *   flood        rank 0 sends to rank 1 forever; rank 1 never receives, so its
 *                RX ring fills and packets back up into the routers */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "skifch.h"
#include "t_check.h"

int main(int argc, char **argv)
{
    t_name = "t_fail";
    if (argc < 2 || !strcmp(argv[1], "--help")) {
        printf("usage: t_fail crash|exit|spin RANK | stuck | wait | sleep | flood\n");
        return argc < 2 ? 2 : 0;
    }
    t_rank = SkifCh_Rank();
    int who = argc > 2 ? atoi(argv[2]) : -1;
    SkifCh *ch = SkifCh_Open(0);
    ASSERT_TRUE(ch != NULL);
    if (!strcmp(argv[1], "crash") && t_rank == who)
        raise(SIGSEGV);
    if (!strcmp(argv[1], "exit") && t_rank == who)
        exit(3);
    if (!strcmp(argv[1], "flood")) {
        uint64_t word = 0;
        struct iovec iov = {&word, sizeof(word)};
        for (;;) {
            if (t_rank == 0) {
                if (SkifCh_Send(ch, SkifCh_Addr(1, 0), &iov, 1) < 0 && errno != EAGAIN)
                    return 1;
            } else if (SkifCh_Wait(ch, 0) < 0) {
                return 1;
            }
        }
    }
    if (!strcmp(argv[1], "spin")) {
        if (t_rank == who) {
            time_t t0 = time(NULL);
            while (time(NULL) - t0 < 3)
                ;
        }
        SkifCh_Close(ch);
        return 0;
    }
    if (!strcmp(argv[1], "sleep"))
        for (;;)
            if (SkifCh_Wait(ch, (uint64_t)1 << 40) < 0) {
                fprintf(stderr, "t_fail: node %d: SkifCh_Wait: %s\n", t_rank, strerror(errno));
                return 1;
            }
    struct iovec cont[SKIFCH_CONT_SIZE];
    int parts;
    for (;;) {
        ssize_t n = SkifCh_Recv(ch, cont, &parts);
        if (n < 0 && errno != EAGAIN) {
            fprintf(stderr, "t_fail: node %d: SkifCh_Recv: %s\n", t_rank, strerror(errno));
            return 1;
        }
    }
}
