/* SPDX-License-Identifier: Apache-2.0 */
/* kernel.c: the simulator's lockstep loop. It starts one program process per
 * node, runs the model only while every program is blocked in a request, and
 * releases blocked programs one at a time in node order, so a run is
 * deterministic. It also watches for programs that fail, for a network that
 * stops moving (watchdog) and for --max-cycles, and prints the summary. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ranks.h"
#include "sim.h"
#include "skif_futex.h"
#include "skif_hw.h"

struct sim g_sim;
static volatile sig_atomic_t g_signal;

static double clock_s(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double sim_wall(void)
{
    return clock_s(CLOCK_MONOTONIC);
}

double sim_cpu(void)
{
    return clock_s(CLOCK_PROCESS_CPUTIME_ID);
}

static void on_signal(int sig)
{
    g_signal = sig;
}

/* ------------------------------------------------------------ processes */

static void kill_all(int sig)
{
    for (int i = g_sim.lo; i < g_sim.hi; i++) {
        struct node *nd = &g_sim.nodes[i];
        if (nd->pid > 0 && nd->state != NODE_EXITED)
            kill(nd->pid, sig);
    }
}

/* Stop every program that still runs and reap it. */
static void stop_all(void)
{
    kill_all(SIGTERM);
    double until = sim_wall() + 2.0;
    for (int i = g_sim.lo; i < g_sim.hi; i++) {
        struct node *nd = &g_sim.nodes[i];
        if (nd->pid <= 0 || nd->state == NODE_EXITED)
            continue;
        int st;
        while (waitpid(nd->pid, &st, WNOHANG) == 0) {
            if (sim_wall() > until) {
                kill(nd->pid, SIGKILL);
                waitpid(nd->pid, &st, 0);
                break;
            }
            usleep(2000);
        }
        nd->state = NODE_EXITED;
    }
}

extern char **environ;

static void free_env(char **env, size_t ours_from)
{
    for (size_t k = ours_from; env[k]; k++)
        free(env[k]);
    free(env);
}

/* The environment of node nd's program: the simulator's, with the SKIF_*
 * variables of the node in place of any it had (a run started from a
 * program of another run has them). The strings from *ours on are this
 * function's: free_env(). NULL when out of memory. */
static char **node_env(const struct node *nd, int sock_fd, size_t *ours)
{
    const struct skif_opts *o = &g_sim.opt;
    static const char *const names[] = {SKIF_ENV_SOCK_FD, SKIF_ENV_MEM_FD, SKIF_ENV_RANK,
                                        SKIF_ENV_SIZE, SKIF_ENV_DIMS};
    enum { N_OURS = sizeof(names) / sizeof(names[0]) };
    size_t n = 0;
    while (environ[n])
        n++;
    char **env = calloc(n + N_OURS + 1, sizeof(*env));
    if (!env)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        int mine = 0;
        for (int j = 0; j < N_OURS && !mine; j++) {
            size_t l = strlen(names[j]);
            mine = !strncmp(environ[i], names[j], l) && environ[i][l] == '=';
        }
        if (!mine)
            env[k++] = environ[i];
    }
    *ours = k;
    char dims[32];
    skif_opts_dims_str(o, dims, sizeof(dims));
    const long long val[N_OURS - 1] = {sock_fd, nd->memfd, nd->rank, o->progs};
    for (int j = 0; j < N_OURS; j++) {
        char buf[96];
        if (j < N_OURS - 1)
            snprintf(buf, sizeof(buf), "%s=%lld", names[j], val[j]);
        else
            snprintf(buf, sizeof(buf), "%s=%s", names[j], dims);
        if (!(env[k++] = strdup(buf))) {
            free_env(env, *ours);
            return NULL;
        }
    }
    return env;
}

/* Start node nd's program now, as its first release (posix_spawn: no copy
 * of the simulator's page tables, which at thousands of nodes made starting
 * the programs by fork take minutes). Its socket end and host memory are
 * inherited; the signals the simulator handles or ignores are default in it.
 * Returns 0, or -1 when it cannot be started (named on stderr). */
static int spawn_program(struct node *nd)
{
    const struct skif_opts *o = &g_sim.opt;
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0) {
        fprintf(stderr, "skifsim: socketpair: %s\n", strerror(errno));
        return -1;
    }
    size_t ours = 0;
    char **env = node_env(nd, sv[1], &ours);
    int rc = ENOMEM;
    if (env) {
        posix_spawnattr_t at;
        sigset_t def, none;
        sigemptyset(&none);
        sigemptyset(&def);
        sigaddset(&def, SIGINT);
        sigaddset(&def, SIGTERM);
        sigaddset(&def, SIGHUP);
        sigaddset(&def, SIGPIPE);
        posix_spawnattr_init(&at);
        posix_spawnattr_setsigdefault(&at, &def);
        posix_spawnattr_setsigmask(&at, &none);
        posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
        /* the two descriptors the program keeps: inheritable for the spawn
         * only (the simulator runs no other thread that starts processes) */
        fcntl(sv[1], F_SETFD, 0);
        fcntl(nd->memfd, F_SETFD, 0);
        fflush(NULL);
        pid_t pid;
        rc = posix_spawnp(&pid, o->prog_argv[0], NULL, &at, o->prog_argv, env);
        posix_spawnattr_destroy(&at);
        if (rc == 0) {
            nd->pid = pid;
            /* the program has its own; the simulator keeps its mapping. One
             * descriptor fewer per started node for every later spawn to
             * copy and close (at 4096 nodes that was a fifth of the start) */
            close(nd->memfd);
            nd->memfd = -1;
        } else {
            fcntl(nd->memfd, F_SETFD, FD_CLOEXEC);
        }
    }
    if (env)
        free_env(env, ours);
    close(sv[1]);
    if (rc) {
        close(sv[0]);
        fprintf(stderr, "skifsim: node %d: cannot run '%s': %s\n", nd->rank, o->prog_argv[0],
                strerror(rc));
        return -1;
    }
    nd->sock = sv[0];
    return 0;
}

static int start_programs(void)
{
    const struct skif_opts *o = &g_sim.opt;
    for (int i = g_sim.lo; i < g_sim.hi; i++) {
        struct node *nd = &g_sim.nodes[i];
        if (i >= o->progs) { /* -n 1: the ring's second node runs no program */
            nd->state = NODE_EXITED;
            continue;
        }
        if (!o->tag_output) { /* started at its first release (spawn_program) */
            nd->state = NODE_STARTING;
            continue;
        }
        /* --tag-output: forked now, each behind the helper that tags its
         * lines (sim_tag_output), waiting for its first release */
        int sv[2];
        if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0) {
            fprintf(stderr, "skifsim: socketpair: %s\n", strerror(errno));
            return -1;
        }
        fflush(NULL);
        pid_t pid = fork();
        if (pid < 0) {
            fprintf(stderr, "skifsim: fork: %s\n", strerror(errno));
            close(sv[0]);
            close(sv[1]);
            return -1;
        }
        if (pid == 0) {
            /* The child keeps its own socket end and memory; everything else
             * is close-on-exec. It waits for its first release before exec so
             * that programs start one at a time, in node order. */
            char buf[32];
            signal(SIGINT, SIG_DFL);
            signal(SIGTERM, SIG_DFL);
            signal(SIGPIPE, SIG_DFL);
            fcntl(sv[1], F_SETFD, 0);
            fcntl(nd->memfd, F_SETFD, 0);
            snprintf(buf, sizeof(buf), "%d", sv[1]);
            setenv(SKIF_ENV_SOCK_FD, buf, 1);
            snprintf(buf, sizeof(buf), "%d", nd->memfd);
            setenv(SKIF_ENV_MEM_FD, buf, 1);
            snprintf(buf, sizeof(buf), "%d", i);
            setenv(SKIF_ENV_RANK, buf, 1);
            snprintf(buf, sizeof(buf), "%d", o->progs);
            setenv(SKIF_ENV_SIZE, buf, 1);
            skif_opts_dims_str(o, buf, sizeof(buf));
            setenv(SKIF_ENV_DIMS, buf, 1);
            if (o->tag_output && sim_tag_output(i) < 0)
                fprintf(stderr, "skifsim: node %d: --tag-output: %s; output untagged\n", i,
                        strerror(errno));
            struct skif_rsp go;
            if (recv(sv[1], &go, sizeof(go), 0) != (ssize_t)sizeof(go))
                _exit(127);
            execvp(o->prog_argv[0], o->prog_argv);
            fprintf(stderr, "skifsim: node %d: cannot run '%s': %s\n", i, o->prog_argv[0],
                    strerror(errno));
            _exit(127);
        }
        close(sv[1]);
        close(nd->memfd); /* the child has its own (as in spawn_program) */
        nd->memfd = -1;
        nd->sock = sv[0];
        nd->pid = pid;
        nd->state = NODE_STARTING;
    }
    return 0;
}

static void describe_status(int st, char *buf, size_t len)
{
    if (WIFEXITED(st))
        snprintf(buf, len, "exited with status %d", WEXITSTATUS(st));
    else if (WIFSIGNALED(st))
        snprintf(buf, len, "was killed by signal %d (%s)", WTERMSIG(st), strsignal(WTERMSIG(st)));
    else
        snprintf(buf, len, "ended with wait status 0x%x", st);
}

/* ------------------------------------------------------------- releases */

static int send_rsp(struct node *nd, int32_t status, uint64_t value)
{
    struct skif_rsp r = {
        .type = nd->req.type, .status = status, .value = value, .cycle = g_sim.now};
    struct skif_ctrl_page *cp = nd->cp;
    cp->cycle = g_sim.now;
    fflush(stdout);
    if (nd->state == NODE_STARTING && nd->pid == 0) {
        if (spawn_program(nd) < 0)
            return -1;
    } else if (nd->state == NODE_STARTING) {
        /* the child waits for this before exec, on the socket; one that is
         * gone is seen at its end-of-file, as a running program would be */
        (void)!send(nd->sock, &r, sizeof(r), MSG_NOSIGNAL);
    } else {
        cp->rsp = r;
        __atomic_add_fetch(&cp->rsp_seq, 1, __ATOMIC_SEQ_CST);
        if (__atomic_load_n(&cp->prog_sleeping, __ATOMIC_SEQ_CST))
            skif_futex_wake(&cp->rsp_seq);
    }
    nd->state = NODE_RUNNING;
    g_sim.last_release = g_sim.now;
    g_sim.n_releases++;
    return 0;
}

static int node_ended(struct node *nd, int st);

/* Release node nd if its request is satisfied. Returns 1 if released, 0 if
 * not, or -(exit code) when its program could not be started. */
static int try_release(struct node *nd)
{
    if (nd->state == NODE_STARTING) {
        nd->req.type = 0;
        if (send_rsp(nd, 0, 0) < 0) /* as a child that could not exec */
            return -node_ended(nd, 127 << 8);
        return 1;
    }
    if (nd->state != NODE_BLOCKED)
        return 0;
    switch (nd->req.type) {
    case SKIF_REQ_WAIT:
        if (nd->evt_pending) {
            nd->evt_pending = false;
            send_rsp(nd, 0, 1);
            return 1;
        }
        if (nd->deadline && g_sim.now >= nd->deadline) {
            /* a wait that ran out is not progress (the watchdog still sees
             * programs that only poll) */
            uint64_t last = g_sim.last_release;
            send_rsp(nd, 0, 0);
            g_sim.last_release = last;
            return 1;
        }
        return 0;
    case SKIF_REQ_READ:
        if (nd->read_done && g_sim.now >= nd->read_due) {
            nd->read_done = false;
            send_rsp(nd, nd->read_err ? -EIO : 0, nd->read_val);
            return 1;
        }
        return 0;
    case SKIF_REQ_FLUSH:
        if (fifo_len(&nd->mmio_q) == 0 && fifo_len(&nd->mmio_fly) == 0) {
            uint32_t rej = nd->wr_rejects;
            nd->wr_rejects = 0;
            send_rsp(nd, rej ? -EIO : 0, rej);
            return 1;
        }
        return 0;
    case SKIF_REQ_BYE:
        send_rsp(nd, 0, 0);
        return 1;
    default:
        return 0;
    }
}

/* Handle a message (or EOF) from the running node. Returns 0, or an exit code. */
/* The program published a request in the mailbox. */
static int on_request(struct node *nd)
{
    struct skif_req req = nd->cp->req;
    nd->req_seen++;
    {
        hostmem_drain_posted(nd, g_sim.now);
        nd->req = req;
        nd->blocked_at = g_sim.now;
        nd->state = NODE_BLOCKED;
        switch (req.type) {
        case SKIF_REQ_WAIT:
            nd->deadline = req.cycles ? g_sim.now + req.cycles : 0;
            break;
        case SKIF_REQ_READ:
            nd->read_done = false;
            hostmem_mmio_push(nd, g_sim.now, req.arg, 0, 0, 0);
            break;
        case SKIF_REQ_FLUSH:
        case SKIF_REQ_BYE:
            break;
        default:
            fprintf(stderr, "skifsim: node %d: unknown request type %u; stopping the run\n",
                    nd->rank, req.type);
            return SKIF_EXIT_PROGRAM;
        }
        return 0;
    }
}

/* The program of `nd` ended with wait status `st`. Returns 0, or an exit
 * code (the first failing program's status is kept for the exit). */
static int node_ended(struct node *nd, int st)
{
    close(nd->sock);
    nd->sock = -1;
    nd->state = NODE_EXITED;
    nd->exit_status = st;
    /* Register writes and the doorbell it made before it ended still reach
     * the adapter, as they would on a real device. */
    hostmem_drain_posted(nd, g_sim.now);
    if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
        return 0;
    if (!g_sim.prog_status)
        g_sim.prog_status = WIFEXITED(st)     ? WEXITSTATUS(st)
                            : WIFSIGNALED(st) ? 128 + WTERMSIG(st)
                                              : SKIF_EXIT_PROGRAM;
    char why[96];
    describe_status(st, why, sizeof(why));
    fprintf(stderr,
            "skifsim: node %d (pid %d, %s) %s at cycle %" PRIu64 "; stopping the other programs\n",
            nd->rank, (int)nd->pid, g_sim.opt.prog_argv[0], why, g_sim.now);
    return SKIF_EXIT_PROGRAM;
}

/* The program's socket is readable: end-of-file, the program ended (the
 * socket carries no wake-ups since the hand-over sleeps on futexes; any
 * byte is ignored, the mailbox says what is new). */
static int on_socket(struct node *nd)
{
    char buf[64];
    ssize_t r = recv(nd->sock, buf, sizeof(buf), MSG_DONTWAIT);
    if (r > 0 || (r < 0 && (errno == EINTR || errno == EAGAIN)))
        return 0;
    /* EOF: the program ended (or closed its socket). */
    int st = 0;
    while (waitpid(nd->pid, &st, 0) < 0 && errno == EINTR)
        ;
    return node_ended(nd, st);
}

/* Wait for the running node to block or end. Returns 0, or an exit code. */
#define SIM_SPIN_S 200e-6 /* how long the simulator polls for a request */

static int request_ready(const struct node *nd)
{
    return __atomic_load_n(&nd->cp->req_seq, __ATOMIC_SEQ_CST) != nd->req_seen;
}

static int wait_running(struct node *nd)
{
    double start = sim_wall();
    int warned = 0;
    struct skif_ctrl_page *cp = nd->cp;
    /* Unpinned (--cpu any), the simulator polls the mailbox for up to
     * SIM_SPIN_S before it sleeps, which saves a wake-up across CPUs (tens of
     * microseconds on an idle machine) on most releases. Pinned, the program
     * runs on this CPU, so the simulator sleeps at once. */
    for (int i = 0; i < skif_spin_loops(); i++) {
        if (request_ready(nd))
            return on_request(nd);
        skif_cpu_relax();
    }
    double spin_s = g_sim.pinned ? 0 : SIM_SPIN_S;
    for (double until = sim_wall() + spin_s; sim_wall() < until;) {
        for (int i = 0; i < 64; i++) {
            if (request_ready(nd))
                return on_request(nd);
            skif_cpu_relax();
        }
    }
    for (;;) {
        __atomic_store_n(&cp->sim_sleeping, 1, __ATOMIC_SEQ_CST);
        uint32_t seen = __atomic_load_n(&cp->req_seq, __ATOMIC_SEQ_CST);
        if (seen != nd->req_seen) {
            __atomic_store_n(&cp->sim_sleeping, 0, __ATOMIC_SEQ_CST);
            return on_request(nd);
        }
        /* Sleep on the mailbox; each SKIF_ALIVE_MS look at the socket,
         * whose end-of-file says the program ended. A program that said
         * goodbye is about to end: wait for that on the socket itself. */
        int bye = nd->req.type == SKIF_REQ_BYE;
        int fr = bye ? -ETIMEDOUT : skif_futex_wait(&cp->req_seq, seen, SKIF_ALIVE_MS);
        __atomic_store_n(&cp->sim_sleeping, 0, __ATOMIC_SEQ_CST);
        if (request_ready(nd))
            return on_request(nd);
        int r = 0;
        if (fr == -ETIMEDOUT) {
            struct pollfd p = {.fd = nd->sock, .events = POLLIN};
            r = poll(&p, 1, bye ? 1000 : 0);
        }
        if (g_signal) {
            fprintf(stderr, "skifsim: stopped by signal %d (%s) at cycle %" PRIu64 "\n",
                    (int)g_signal, strsignal(g_signal), g_sim.now);
            return SKIF_EXIT_SIM;
        }
        if (r > 0) {
            int rc = on_socket(nd);
            if (rc || nd->state == NODE_EXITED)
                return rc;
            continue;
        }
        /* A child the program forked may hold its socket open after the
         * program ended: look at the process itself too. */
        int st;
        if (r == 0 && fr == -ETIMEDOUT && waitpid(nd->pid, &st, WNOHANG) == nd->pid)
            return node_ended(nd, st);
        if (r < 0 && errno != EINTR) {
            fprintf(stderr, "skifsim: poll: %s\n", strerror(errno));
            return SKIF_EXIT_SIM;
        }
        if (!warned && sim_wall() - start > g_sim.opt.stall_warn) {
            warned = 1;
            fprintf(stderr,
                    "skifsim: notice: node %d (pid %d) has run for %u s of wall time without "
                    "entering the driver; simulated time cannot advance until it does "
                    "(a program must wait through the library, not spin on memory)\n",
                    nd->rank, (int)nd->pid, g_sim.opt.stall_warn);
        }
    }
}

/* ------------------------------------------------------------- the model */

void sim_tick_host(void)
{
    for (int i = g_sim.lo; i < g_sim.hi; i++)
        hostmem_tick(&g_sim.nodes[i], g_sim.now);
}

void sim_cycle_done(void)
{
    g_sim.now++;
}

/* Adapter registers read at the end of a run, for the report and summary. */
static const struct {
    uint32_t off;
    const char *name;
} snap_regs[SKIF_SNAP_REGS] = {
    {SKIF_REG_STATUS, "STATUS"},       {SKIF_REG_TX_HEAD, "TX_HEAD"},
    {SKIF_REG_TX_TAIL, "TX_TAIL"},     {SKIF_REG_CH_DROPS, "CH_DROPS"},
    {SKIF_REG_NET_DROPS, "NET_DROPS"}, {SKIF_REG_TX_PKTS, "TX_PKTS"},
    {SKIF_REG_RX_PKTS, "RX_PKTS"},     {SKIF_REG_RX_DROPS, "RX_DROPS"},
    {SKIF_REG_TX_FLITS, "TX_FLITS"},
};
enum {
    SNAP_STATUS,
    SNAP_CH_DROPS = 3,
    SNAP_NET_DROPS,
    SNAP_TX_PKTS,
    SNAP_RX_DROPS = 7,
    SNAP_TX_FLITS
};

static const char *req_name(uint32_t t)
{
    switch (t) {
    case SKIF_REQ_WAIT:
        return "waiting for a device event";
    case SKIF_REQ_READ:
        return "reading a register";
    case SKIF_REQ_FLUSH:
        return "flushing register writes";
    case SKIF_REQ_BYE:
        return "closing";
    default:
        return "starting";
    }
}

static void report_node(FILE *f, struct node *nd)
{
    if (nd->end_state == NODE_EXITED)
        fprintf(f, "  node %d: program exited\n", nd->rank);
    else
        fprintf(f, "  node %d: %s since cycle %" PRIu64 "\n", nd->rank, req_name(nd->req.type),
                nd->blocked_at);
    fprintf(f, "    adapter:");
    for (int i = 0; i < SKIF_SNAP_REGS; i++) {
        if (nd->snap_ok[i])
            fprintf(f, " %s=0x%x", snap_regs[i].name, nd->snap[i]);
        else
            fprintf(f, " %s=?", snap_regs[i].name);
    }
    fprintf(f, "\n");
    uint32_t status = nd->snap_ok[SNAP_STATUS] ? nd->snap[SNAP_STATUS] : 0;
    if (status & SKIF_STATUS_TX_BUSY)
        fprintf(f, "    TX engine busy: a packet is stuck on its way into the network\n");
    if (status & SKIF_STATUS_RX_STALL)
        fprintf(f, "    RX ring full: the link into this node is back-pressured until "
                   "the program consumes messages\n");
    if (status & SKIF_STATUS_TX_ERR)
        fprintf(f, "    TX halted on a bad descriptor\n");
    if (status & SKIF_STATUS_DMA_ERR)
        fprintf(f, "    a DMA read failed\n");
    fprintf(f, "    host queues: %zu DMA ops, %zu read responses, %zu register accesses\n",
            fifo_len(&nd->dma_ops), fifo_len(&nd->dma_rsps),
            fifo_len(&nd->mmio_q) + fifo_len(&nd->mmio_fly));
}

/* ------------------------------------------------------------- summary */

static uint64_t snap_sum(int idx)
{
    uint64_t s = 0;
    for (int i = g_sim.lo; i < g_sim.hi; i++)
        if (g_sim.nodes[i].snap_ok[idx])
            s += g_sim.nodes[i].snap[idx];
    return s;
}

/* The exit status of the run: a failed program's own status (the first to
 * fail), like mpirun; otherwise the simulator's code. */
static int sim_exit_code(void)
{
    return g_sim.rc == SKIF_EXIT_PROGRAM && g_sim.prog_status ? g_sim.prog_status : g_sim.rc;
}

/* The simulator's peak resident memory (models, host memory it touched). */
static long max_rss_kb(void)
{
    struct rusage ru;
    return getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_maxrss : 0;
}

static void summary(void)
{
    const struct skif_opts *o = &g_sim.opt;
    /* under --ranks: the sums over all ranks, the last rank's start, the
     * memory of all simulator processes; rank 0 tells */
    enum {
        S_PKTS,
        S_FLITS,
        S_DROPS,
        S_CH,
        S_NET,
        S_REL,
        S_SKIP,
        S_GATE,
        S_RSS,
        S_CPU_US,
        S_PAR,
        S_N
    };
    uint64_t sum[S_N] = {
        snap_sum(SNAP_TX_PKTS),   snap_sum(SNAP_TX_FLITS),
        snap_sum(SNAP_RX_DROPS),  snap_sum(SNAP_CH_DROPS),
        snap_sum(SNAP_NET_DROPS), g_sim.n_releases,
        skif_model_skipped(),     skif_model_gated(),
        (uint64_t)max_rss_kb(),   (uint64_t)((g_sim.cpu_end - g_sim.cpu_started) * 1e6),
        skif_model_in_parts_ppm()};
    uint64_t started_ns = (uint64_t)((g_sim.t_started - g_sim.t0) * 1e9);
    skif_ranks_sum(sum, S_N);
    skif_ranks_max(&started_ns, 1);
    if (g_sim.me != 0)
        return;
    uint64_t pkts = sum[S_PKTS], flits = sum[S_FLITS], drops = sum[S_DROPS], ch_drops = sum[S_CH];
    uint64_t net_drops = sum[S_NET];
    g_sim.t_started = g_sim.t0 + (double)started_ns * 1e-9;
    double wall = g_sim.t_end - g_sim.t0;
    double run = g_sim.t_end - g_sim.t_started;
    double us = (double)g_sim.end_cycle / o->clock_mhz;
    double cps = run > 0 ? (double)g_sim.end_cycle / run : 0.0;
    double run_cpu = (double)sum[S_CPU_US] * 1e-6;
    uint64_t node_cycles = g_sim.end_cycle * (uint64_t)g_sim.n;
    double skipped = node_cycles ? (double)sum[S_SKIP] / (double)node_cycles : 0.0;
    double gated = node_cycles ? (double)sum[S_GATE] / (double)node_cycles : 0.0;
    /* (the share of the cycles the threads were used, the mean of the ranks) */
    double in_parts = (double)sum[S_PAR] * 1e-6 / g_sim.ranks;
    char thr[80] = "";
    if (o->threads > 1)
        snprintf(thr, sizeof(thr), "; %d threads, used in %.0f%% of the cycles", o->threads,
                 100.0 * in_parts);
    char cut[96] = "";
    if (g_sim.ranks > 1)
        snprintf(cut, sizeof(cut), "; %d MPI ranks, %d-cycle links across slabs", g_sim.ranks,
                 o->cut_latency ? o->cut_latency : 1);
    char dims[32];
    skif_opts_dims_str(o, dims, sizeof(dims));
    if (!o->quiet) {
        fprintf(stderr,
                "skifsim: %d nodes (torus %s), %" PRIu64 " cycles = %.3f us at %u MHz, "
                "%" PRIu64 " packets, %" PRIu64 " flits; wall %.3f s "
                "(start-up %.3f s), %.0f cycles/s, %.0f%% of node-cycles skipped, %.0f%% with the "
                "collective engine's clock gated%s%s\n",
                g_sim.n, dims, g_sim.end_cycle, us, o->clock_mhz, pkts, flits, wall,
                g_sim.t_started - g_sim.t0, cps, 100.0 * skipped, 100.0 * gated, thr, cut);
        if (drops || ch_drops || net_drops)
            fprintf(stderr,
                    "skifsim: dropped: %" PRIu64 " malformed packets, %" PRIu64
                    " messages to closed channels, %" PRIu64 " to nodes outside the torus\n",
                    drops, ch_drops, net_drops);
    }
    if (o->stats) {
        FILE *f = fopen(o->stats, "w");
        if (!f) {
            fprintf(stderr, "skifsim: cannot write --stats '%s': %s\n", o->stats, strerror(errno));
            return;
        }
        int wr = fprintf(f,
                         "{\"nodes\": %d, \"dims\": \"%s\", \"exit\": %d, \"cycles\": %" PRIu64
                         ", \"clock_mhz\": %u, \"host_latency\": %u, \"sim_time_us\": %.3f, "
                         "\"packets\": %" PRIu64 ", \"flits\": %" PRIu64 ", \"dropped\": %" PRIu64
                         ", \"closed_drops\": %" PRIu64 ", \"net_drops\": %" PRIu64
                         ", \"releases\": %" PRIu64 ", \"wall_s\": %.6f, \"startup_s\": %.6f, "
                         "\"run_s\": %.6f, \"run_cpu_s\": %.6f, \"cycles_per_s\": %.1f, "
                         "\"threads\": %d, \"in_parts\": %.4f, "
                         "\"skipped\": %.4f, \"gated\": %.4f, \"max_rss_kb\": %" PRIu64
                         ", \"ranks\": %d, \"cut_latency\": %d}\n",
                         g_sim.n, dims, sim_exit_code(), g_sim.end_cycle, o->clock_mhz,
                         o->host_latency, us, pkts, flits, drops, ch_drops, net_drops, sum[S_REL],
                         wall, g_sim.t_started - g_sim.t0, run, run_cpu, cps,
                         o->threads > 1 ? o->threads : 1, in_parts, skipped, gated, sum[S_RSS],
                         g_sim.ranks, o->cut_latency ? o->cut_latency : 1);
        int werr = wr < 0 || fflush(f) != 0 || ferror(f) ? (errno ? errno : EIO) : 0;
        if (fclose(f) != 0 && !werr)
            werr = errno;
        if (werr) {
            fprintf(stderr, "skifsim: writing --stats '%s' failed: %s\n", o->stats, strerror(werr));
            if (g_sim.rc == 0)
                g_sim.rc = SKIF_EXIT_SIM;
        }
    }
}

/* ------------------------------------------------------------- main loop */

/* The run is over (rc 0: every program exited): stop what still runs and
 * start reading the adapters' registers for the summary. */
static void end_run(int rc, int report)
{
    g_sim.rc = rc;
    g_sim.report = report;
    g_sim.end_cycle = g_sim.now;
    g_sim.t_end = sim_wall();
    g_sim.cpu_end = sim_cpu();
    if (!g_sim.t_started) {
        g_sim.t_started = g_sim.t_end;
        g_sim.cpu_started = g_sim.cpu_end;
    }
    for (int i = g_sim.lo; i < g_sim.hi; i++)
        g_sim.nodes[i].end_state = g_sim.nodes[i].state;
    if (rc != 0)
        stop_all();
    for (int i = g_sim.lo; i < g_sim.hi; i++) {
        struct node *nd = &g_sim.nodes[i];
        nd->snap_left = SKIF_SNAP_REGS;
        for (int r = 0; r < SKIF_SNAP_REGS; r++)
            hostmem_mmio_push(nd, g_sim.now, snap_regs[r].off, (uint32_t)r, 0, 1);
    }
    g_sim.snap_deadline = g_sim.now + 4ull * g_sim.opt.host_latency + 1000;
    if (report)
        skif_model_dbg_begin();
    g_sim.phase = PHASE_SNAP;
}

void sim_fail(int rc)
{
    if (g_sim.phase == PHASE_RUN)
        end_run(rc, 1);
}

/* ------------------------------------------------------------- progress */

/* --progress S: a line on stderr every S wall seconds (rank 0 only): while
 * the programs start, how many have; then the cycle and the speed since the
 * last line. On a fast run the wall clock is read only about a thousand
 * times a second (a read costs about as much as a cycle of 2 nodes). */
static struct {
    double every, next, t; /* seconds between lines (0: none); when the next is due; the last */
    uint64_t cyc, skip;    /* the cycle of the last line; cycles before the clock is read again */
} g_prog;

static void progress_init(void)
{
    int s = g_sim.opt.progress;
    if (s == SKIF_PROGRESS_TTY)
        s = isatty(STDERR_FILENO) ? SKIF_PROGRESS_DEFAULT : 0;
    g_prog.every = g_sim.me == 0 ? s : 0;
    g_prog.t = sim_wall();
    g_prog.next = g_prog.t + g_prog.every;
}

/* A line is written: the next is due in g_prog.every seconds. */
static void progress_said(double now)
{
    g_prog.t = now;
    g_prog.cyc = g_sim.now;
    g_prog.next = now + g_prog.every;
}

void sim_progress_setup(const char *what, int done, int total)
{
    double now;
    if (!g_prog.every || (now = sim_wall()) < g_prog.next)
        return;
    fprintf(stderr, "skifsim: %s: %d of %d (%.0f s)\n", what, done, total, now - g_sim.t0);
    progress_said(now);
}

/* live: the programs of this process not yet ended (-1 while they start) */
static void progress(int live)
{
    if (!g_prog.every)
        return;
    if (g_prog.skip) {
        g_prog.skip--;
        return;
    }
    double now = sim_wall(), dt = now - g_prog.t;
    double rate = dt > 0 ? (double)(g_sim.now - g_prog.cyc) / dt : 0;
    if (now < g_prog.next) {
        g_prog.skip = (uint64_t)(rate / 1000);
        return;
    }
    /* this process's programs (-n 1: node 1 has none) */
    int mine = (g_sim.opt.progs < g_sim.hi ? g_sim.opt.progs : g_sim.hi) - g_sim.lo;
    mine = mine > 0 ? mine : 0;
    const char *where = g_sim.ranks > 1 ? " on rank 0" : "";
    if (live < 0) {
        int started = 0;
        for (int i = g_sim.lo; i < g_sim.hi; i++)
            started += g_sim.nodes[i].state != NODE_STARTING;
        fprintf(stderr, "skifsim: starting the programs: %d of %d started%s (%.0f s)\n", started,
                mine, where, now - g_sim.t0);
    } else {
        char max[48] = "";
        if (g_sim.opt.max_cycles)
            snprintf(max, sizeof(max), " of at most %" PRIu64, g_sim.opt.max_cycles);
        fprintf(stderr,
                "skifsim: cycle %" PRIu64 "%s: %.0f cycles/s (%.3g M node-cycles/s) since the "
                "last line; %d of %d programs running%s (%.0f s)\n",
                g_sim.now, max, rate, rate * g_sim.n / 1e6, live, mine, where, now - g_sim.t0);
    }
    progress_said(now);
}

/* Run this process's programs until none can go on without the model.
 * Returns 0, or the exit code of a failure (a program failed, a system call,
 * a signal) that ends the run. */
static int run_programs(void)
{
    /* Node order: a release can only make its own node releasable again (a
     * request the program makes at once); what the others wait for comes
     * from the model, which does not move meanwhile. So the scan goes on
     * from the node just run, not from the first (which at thousands of
     * nodes, most of them released in a cycle, cost a scan per release). */
    for (int i = g_sim.lo; i < g_sim.hi;) {
        struct node *nd = &g_sim.nodes[i];
        int released = try_release(nd);
        if (released < 0)
            return -released;
        if (!released) {
            i++;
            continue;
        }
        while (nd->state == NODE_RUNNING) {
            int rc = wait_running(nd);
            if (rc)
                return rc;
        }
        if (!g_sim.t_started)
            progress(-1);
    }
    return 0;
}

/* Run the programs until none can go on without the model, and decide
 * whether the run goes on. Under --ranks every rank decides the same, from
 * what all of them saw (the failure of the lowest rank that had one, the
 * last progress anywhere), so all of them end at the same cycle. */
static void sync_run(void)
{
    /* With --cut-latency C the ranks decide together only every C cycles,
     * after their exchange (sim/kernel/sim_main.cpp): in between each runs on, and
     * a failure waits for the next decision with no program released. */
    static int pending;
    int rc = pending ? pending : run_programs();
    const uint64_t cut = g_sim.opt.cut_latency > 1 ? (uint64_t)g_sim.opt.cut_latency : 1;
    if (g_sim.ranks > 1 && g_sim.now % cut != 0) {
        pending = rc;
        return;
    }
    pending = 0;
    int live = 0, starting = 0;
    for (int i = g_sim.lo; i < g_sim.hi; i++) {
        enum node_state st = g_sim.nodes[i].state;
        live += st != NODE_EXITED;
        starting += st == NODE_STARTING;
    }
    enum { C_LIVE, C_STARTING, C_LAST, C_FAIL, C_SIGNAL, C_N };
    uint64_t c[C_N] = {(uint64_t)live, (uint64_t)starting, g_sim.last_release, 0,
                       (uint64_t)g_signal};
    if (rc) /* the lowest failing rank's code and first failed program's status */
        c[C_FAIL] = (uint64_t)(g_sim.ranks - g_sim.me) << 32 | (uint64_t)rc << 16 |
                    (uint64_t)(g_sim.prog_status & 0xffff);
    skif_ranks_max(c, C_N);
    g_sim.last_release = c[C_LAST];
    if (c[C_FAIL]) {
        g_sim.prog_status = (int)(c[C_FAIL] & 0xffff);
        end_run((int)(c[C_FAIL] >> 16 & 0xffff), 0);
        return;
    }
    if (!c[C_STARTING] && !g_sim.t_started) {
        g_sim.t_started = sim_wall();
        g_sim.cpu_started = sim_cpu();
    }
    if (!c[C_LIVE]) {
        end_run(0, 0);
        return;
    }
    const struct skif_opts *o = &g_sim.opt;
    const int say = g_sim.me == 0;
    if (o->max_cycles && g_sim.now >= o->max_cycles) {
        if (say)
            fprintf(stderr,
                    "skifsim: --max-cycles reached at cycle %" PRIu64
                    " (last progress at cycle %" PRIu64 ")\n",
                    g_sim.now, g_sim.last_release);
        end_run(SKIF_EXIT_MAXCYC, 1);
        return;
    }
    if (g_sim.now - g_sim.last_release >= o->watchdog) {
        if (say)
            fprintf(stderr,
                    "skifsim: watchdog: no program progressed for %" PRIu64
                    " cycles at cycle %" PRIu64 " (last progress at cycle %" PRIu64 ")\n",
                    o->watchdog, g_sim.now, g_sim.last_release);
        end_run(SKIF_EXIT_WATCHDOG, 1);
        return;
    }
    if (c[C_SIGNAL]) {
        if (say)
            fprintf(stderr, "skifsim: stopped by signal %d (%s) at cycle %" PRIu64 "\n",
                    (int)c[C_SIGNAL], strsignal((int)c[C_SIGNAL]), g_sim.now);
        end_run(SKIF_EXIT_SIM, 0);
        return;
    }
    progress(live);
    /* the model must run */
}

int sim_sync(void)
{
    if (g_sim.phase == PHASE_RUN)
        sync_run();
    if (g_sim.phase == PHASE_SNAP) {
        uint64_t left = 0; /* (every rank steps until all of them are done) */
        for (int i = g_sim.lo; i < g_sim.hi; i++)
            left += (uint64_t)g_sim.nodes[i].snap_left;
        left = left && g_sim.now < g_sim.snap_deadline;
        skif_ranks_max(&left, 1);
        if (left)
            return SIM_STEP;
        if (g_sim.report) {
            struct skif_ranks_text t;
            FILE *f = skif_ranks_text_open(&t, stderr);
            for (int i = g_sim.lo; i < g_sim.hi; i++)
                report_node(f, &g_sim.nodes[i]);
            skif_ranks_text_print(&t, stderr); /* every rank's, in node order */
            skif_model_dbg_report();
        }
        uint64_t faults = (uint64_t)g_sim.dma_faults;
        skif_ranks_sum(&faults, 1);
        if (faults && g_sim.rc == 0) {
            if (g_sim.me == 0)
                fprintf(stderr,
                        "skifsim: %" PRIu64 " DMA accesses fell outside host memory; failing the "
                        "run\n",
                        faults);
            g_sim.rc = SKIF_EXIT_SIM;
        }
        summary();
        g_sim.phase = PHASE_DONE;
    }
    return g_sim.phase == PHASE_DONE ? SIM_DONE : SIM_STEP;
}

/* Only one process of a run works at a time (the simulator, or the one
 * program it released), so the run loses nothing on one CPU and gains the
 * cheapest hand-overs: a wake-up on the same CPU is a direct switch, while
 * one across CPUs costs tens of microseconds on an idle virtual machine
 * (docs/architecture.md). The programs inherit the mask. A multi-threaded
 * model (--threads) pins its main thread and the programs the same way and
 * runs its worker threads on the other CPUs the run was allowed
 * (sim_pin_worker): a hand-over is still a switch on one CPU, and a worker
 * never takes that CPU from a program. */
static cpu_set_t g_worker_cpus; /* the workers' CPUs, when pinned */

static void pin_cpu(void)
{
    int cpu = g_sim.opt.cpu;
    if (cpu == SKIF_CPU_ANY || (cpu == SKIF_CPU_HERE && g_sim.ranks > 1))
        return;
    if (cpu == SKIF_CPU_HERE)
        cpu = sched_getcpu();
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof(g_worker_cpus), &g_worker_cpus) < 0)
        CPU_ZERO(&g_worker_cpus);
    CPU_ZERO(&set);
    if (cpu >= 0 && cpu < CPU_SETSIZE)
        CPU_SET(cpu, &set);
    if (cpu < 0 || sched_setaffinity(0, sizeof(set), &set) < 0) {
        fprintf(stderr, "skifsim: notice: cannot run on CPU %d (%s); running unpinned\n", cpu,
                strerror(errno));
        return;
    }
    g_sim.pinned = 1;
    CPU_CLR(cpu, &g_worker_cpus);
    if (CPU_COUNT(&g_worker_cpus) == 0)
        g_worker_cpus = set;
}

void sim_pin_worker(void)
{
    if (g_sim.pinned)
        sched_setaffinity(0, sizeof(g_worker_cpus), &g_worker_cpus);
}

int sim_init(int argc, char **argv)
{
    char err[256];
    /* under MPI (sim/kernel/ranks.h) every rank reads the same command line; rank
     * 0 tells what is wrong with it */
    g_sim.ranks = skif_ranks_count();
    g_sim.me = skif_ranks_me();
    const int say = g_sim.me == 0;
    int rc = skif_opts_parse(&g_sim.opt, argc, argv, err, sizeof(err));
    if (rc == 1)
        return SIM_HELP;
    if (rc < 0) {
        if (say)
            fprintf(stderr, "skifsim: %s (see skifsim --help)\n", err);
        return -SKIF_EXIT_USAGE;
    }
    /* --ranks: this process's slab */
    if (g_sim.ranks == 1 && g_sim.opt.ranks > 1) {
        fprintf(stderr,
                "skifsim: --ranks %d: this simulator is one process; run it as skifrun --ranks "
                "%d (or mpirun -np %d skifsim-mpi)\n",
                g_sim.opt.ranks, g_sim.opt.ranks, g_sim.opt.ranks);
        return -SKIF_EXIT_USAGE;
    }
    if (g_sim.ranks > 1 && g_sim.opt.ranks && g_sim.opt.ranks != g_sim.ranks) {
        if (say)
            fprintf(stderr, "skifsim: --ranks %d, but the MPI job has %d processes\n",
                    g_sim.opt.ranks, g_sim.ranks);
        return -SKIF_EXIT_USAGE;
    }
    if (g_sim.ranks > 1 && g_sim.opt.icarus) {
        if (say)
            fprintf(stderr, "skifsim: MPI ranks need the Verilator model, not --sim icarus\n");
        return -SKIF_EXIT_USAGE;
    }
    if (skif_opts_check_ranks(&g_sim.opt, g_sim.ranks, err, sizeof(err)) < 0) {
        if (say)
            fprintf(stderr, "skifsim: %s (see skifsim --help)\n", err);
        return -SKIF_EXIT_USAGE;
    }
    g_sim.lo = skif_opts_slab_lo(&g_sim.opt, g_sim.ranks, g_sim.me);
    g_sim.hi = skif_opts_slab_lo(&g_sim.opt, g_sim.ranks, g_sim.me + 1);
    const char *t0 = getenv("SKIF_T0");
    g_sim.t0 = t0 ? strtod(t0, NULL) : sim_wall();
    g_sim.n = g_sim.opt.nodes;
    g_sim.half_lat = g_sim.opt.host_latency / 2;
    g_sim.nodes = calloc((size_t)g_sim.n, sizeof(*g_sim.nodes));
    if (!g_sim.nodes)
        return -SKIF_EXIT_SIM;
    for (int i = 0; i < g_sim.n; i++) {
        g_sim.nodes[i].memfd = -1;
        g_sim.nodes[i].sock = -1;
    }

    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);

    progress_init();
    uint64_t bad = 0;
    for (int i = g_sim.lo; i < g_sim.hi && !bad; i++) {
        bad = hostmem_init(&g_sim.nodes[i], &g_sim.opt, i) < 0;
        sim_progress_setup("setting up host memory", i + 1 - g_sim.lo, g_sim.hi - g_sim.lo);
    }
    skif_ranks_max(&bad, 1); /* (every rank stops when one cannot go on) */
    if (bad)
        return -SKIF_EXIT_SIM;
    pin_cpu();
    return 0;
}

int sim_start(void)
{
    /* Every adapter accepts packets from the start, with every channel
     * closed: a message to a node whose program has not (or never) set up
     * its device is discarded and counted (CH_DROPS), like one to a closed
     * channel, instead of holding up the link into the node (the driver
     * leaves RX on in the same way when a program closes its device). */
    for (int i = g_sim.lo; i < g_sim.hi; i++)
        hostmem_mmio_push(&g_sim.nodes[i], g_sim.now, SKIF_REG_CTRL, SKIF_CTRL_RX_EN, 1, 0);
    if (g_sim.opt.tag_output && sim_tag_begin() < 0)
        fprintf(stderr, "skifsim: --tag-output: %s; not waiting for the last lines\n",
                strerror(errno));
    int started = start_programs();
    sim_tag_started();
    if (started < 0) {
        stop_all();
        sim_tag_drain(1000);
        return -SKIF_EXIT_SIM;
    }
    g_sim.phase = PHASE_RUN;
    return 0;
}

int sim_fini(void)
{
    sim_tag_drain(2000);
    for (int i = g_sim.lo; g_sim.nodes && i < g_sim.hi; i++) {
        if (g_sim.nodes[i].sock >= 0)
            close(g_sim.nodes[i].sock);
        hostmem_fini(&g_sim.nodes[i]);
    }
    free(g_sim.nodes);
    g_sim.nodes = NULL;
    return sim_exit_code();
}
