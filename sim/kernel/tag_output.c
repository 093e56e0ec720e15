/* SPDX-License-Identifier: Apache-2.0 */
/* tag_output.c: --tag-output, the simulator's helpers that put "[rank] " in
 * front of every line a program prints (declared in sim.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "sim.h"

/* Held by every --tag-output helper until it has written out its program's
 * last line: the simulator reads [0] to its end before it exits. Both ends are
 * close-on-exec, so that programs never hold it. */
static int tag_alive[2] = {-1, -1};

int sim_tag_begin(void)
{
    return pipe2(tag_alive, O_CLOEXEC);
}

void sim_tag_started(void)
{
    if (tag_alive[1] >= 0)
        close(tag_alive[1]);
    tag_alive[1] = -1;
}

void sim_tag_drain(int timeout_ms)
{
    sim_tag_started();
    if (tag_alive[0] < 0)
        return;
    struct pollfd p = {.fd = tag_alive[0], .events = POLLIN};
    char c;
    while (poll(&p, 1, timeout_ms) > 0 && read(tag_alive[0], &c, 1) != 0)
        ;
    close(tag_alive[0]);
    tag_alive[0] = -1;
}

/* The helper of --tag-output: read the program's two pipes, write each
 * complete line to the matching original stream behind "[rank] ". */
static void tag_pump(int rank, int fds[2], int outs[2])
{
    char buf[2][4096];
    size_t have[2] = {0, 0};
    int open_n = 2;
    char pre[24];
    int pl = snprintf(pre, sizeof(pre), "[%d] ", rank);
    while (open_n) {
        struct pollfd p[2];
        for (int s = 0; s < 2; s++)
            p[s] = (struct pollfd){.fd = fds[s], .events = POLLIN};
        if (poll(p, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        for (int s = 0; s < 2; s++) {
            if (fds[s] < 0 || !(p[s].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            ssize_t r = read(fds[s], buf[s] + have[s], sizeof(buf[s]) - have[s]);
            if (r <= 0 && !(r < 0 && errno == EINTR)) {
                close(fds[s]);
                fds[s] = -1;
                open_n--;
            }
            if (r > 0)
                have[s] += (size_t)r;
            /* write out complete lines; a full buffer or the end of the stream
             * ends a line too */
            size_t start = 0;
            for (size_t k = 0; k < have[s]; k++) {
                int last = k + 1 == have[s] && (fds[s] < 0 || have[s] == sizeof(buf[s]));
                if (buf[s][k] != '\n' && !last)
                    continue;
                struct iovec iov[3] = {{pre, (size_t)pl},
                                       {buf[s] + start, k + 1 - start},
                                       {"\n", buf[s][k] == '\n' ? 0 : 1}};
                if (writev(outs[s], iov, 3) < 0)
                    _exit(1);
                start = k + 1;
            }
            memmove(buf[s], buf[s] + start, have[s] - start);
            have[s] -= start;
        }
    }
    _exit(0);
}

int sim_tag_output(int rank)
{
    int po[2], pe[2];
    if (pipe(po) < 0)
        return -1;
    if (pipe(pe) < 0) {
        close(po[0]);
        close(po[1]);
        return -1;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(po[0]);
        close(po[1]);
        close(pe[0]);
        close(pe[1]);
        return -1;
    }
    if (pid == 0) {
        /* the helper keeps only the read ends and the original streams: it
         * must not hold the program's socket or memory, or the simulator
         * would not see the program end */
        int outs[2] = {dup(1), dup(2)}, fds[2] = {po[0], pe[0]};
        long max = sysconf(_SC_OPEN_MAX);
        for (int fd = 3; fd < (max > 0 && max < 65536 ? max : 65536); fd++)
            if (fd != outs[0] && fd != outs[1] && fd != fds[0] && fd != fds[1] &&
                fd != tag_alive[1])
                close(fd);
        signal(SIGTERM, SIG_IGN); /* drain what the program wrote */
        signal(SIGINT, SIG_IGN);
        tag_pump(rank, fds, outs);
    }
    if (dup2(po[1], 1) < 0 || dup2(pe[1], 2) < 0)
        return -1;
    close(po[0]);
    close(po[1]);
    close(pe[0]);
    close(pe[1]);
    return 0;
}
