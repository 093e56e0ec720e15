/* SPDX-License-Identifier: Apache-2.0 */
/* backend_sim.c: the driver's simulator backend. Host memory is the node's
 * shared-memory segment; register writes go into the control page's
 * posted-write FIFO; reads, flushes and waits are requests on the node's
 * socket, during which the simulator runs (skif_proto.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "skif_backend.h"
#include "skif_futex.h"
#include "skif_hw.h"
#include "skif_proto.h"

struct sim_backend {
    struct skif_backend b; /* first: the driver sees only this */
    struct skif_ctrl_page *cp;
    int sock;
    int dead;         /* the simulator went away */
    uint32_t db_fifo; /* the doorbell value last put into the FIFO */
};

/* The node's connection, kept for the life of the process: the mapping of
 * its host memory, its descriptor (close-on-exec; skif_dma_map_at maps
 * blocks of it again) and the socket. Closing the device says goodbye but
 * keeps them, so the process can open the device again. */
static struct {
    struct skif_ctrl_page *cp; /* NULL until the first open */
    int sock;
    int memfd;
    int bye;      /* the last request was BYE */
    int alive_ms; /* a sleeper looks at the socket this often (sim_alive) */
    int dead;     /* the simulator went away */
} g_conn;

static int fifo_put(struct sim_backend *sb, uint32_t off, uint32_t val);
static int backend_new(struct skif_ctrl_page *cp, int sock, struct skif_backend **bp);

static int env_int(const char *name, int *out)
{
    const char *s = getenv(name);
    char *end;
    if (!s || !*s)
        return -1;
    long v = strtol(s, &end, 10);
    if (*end || v < 0 || v > 1 << 20)
        return -1;
    *out = (int)v;
    return 0;
}

static int rsp_ready(const struct skif_ctrl_page *cp, uint32_t want)
{
    return __atomic_load_n(&cp->rsp_seq, __ATOMIC_SEQ_CST) == want;
}

/* After a sleep that ran out: is the simulator still there? Its end closes
 * the socket, which then reads end-of-file. */
static int sim_alive(struct sim_backend *sb)
{
    char buf[64];
    ssize_t r = recv(sb->sock, buf, sizeof(buf), MSG_DONTWAIT);
    return r > 0 || (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR));
}

static int request(struct sim_backend *sb, uint32_t type, uint32_t arg, uint64_t cycles,
                   struct skif_rsp *rsp)
{
    struct skif_ctrl_page *cp = sb->cp;
    if (sb->dead)
        return -EPIPE;
    /* Output written so far appears before the simulator runs on, so the
     * interleaving of all programs' output is deterministic. */
    fflush(stdout);
    fflush(stderr);
    /* Publish the request in the mailbox; wake the simulator if it sleeps. */
    uint32_t want = __atomic_load_n(&cp->rsp_seq, __ATOMIC_SEQ_CST) + 1;
    cp->req = (struct skif_req){.type = type, .arg = arg, .cycles = cycles};
    __atomic_add_fetch(&cp->req_seq, 1, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&cp->sim_sleeping, __ATOMIC_SEQ_CST))
        skif_futex_wake(&cp->req_seq);
    if (g_conn.bye) {
        /* Since its goodbye the simulator waits for this program's end on
         * the socket: a byte there makes it look at the mailbox again. */
        g_conn.bye = 0;
        if (send(sb->sock, "", 1, MSG_NOSIGNAL | MSG_DONTWAIT) < 0 && errno != EAGAIN)
            goto gone;
    }
    /* Wait for the answer: spin a while, then sleep on rsp_seq. */
    for (int i = 0; i < skif_spin_loops(); i++) {
        if (rsp_ready(cp, want))
            goto done;
        skif_cpu_relax();
    }
    for (;;) {
        __atomic_store_n(&cp->prog_sleeping, 1, __ATOMIC_SEQ_CST);
        uint32_t seen = __atomic_load_n(&cp->rsp_seq, __ATOMIC_SEQ_CST);
        if (seen == want)
            break;
        if (skif_futex_wait(&cp->rsp_seq, seen, g_conn.alive_ms) == -ETIMEDOUT && !sim_alive(sb)) {
            __atomic_store_n(&cp->prog_sleeping, 0, __ATOMIC_SEQ_CST);
            goto gone;
        }
    }
    __atomic_store_n(&cp->prog_sleeping, 0, __ATOMIC_SEQ_CST);
done:
    *rsp = cp->rsp;
    return 0;
gone:
    if (!sb->dead)
        fprintf(stderr, "skif: node %d: lost the connection to the simulator\n", sb->b.rank);
    sb->dead = 1;
    g_conn.dead = 1;
    return -EPIPE;
}

static int sim_reg_read(struct skif_backend *b, uint32_t off, uint32_t *val)
{
    struct skif_rsp rsp;
    int rc = request((struct sim_backend *)b, SKIF_REQ_READ, off, 0, &rsp);
    if (rc < 0)
        return rc;
    if (rsp.status < 0)
        return rsp.status;
    *val = (uint32_t)rsp.value;
    return 0;
}

static int sim_flush(struct skif_backend *b)
{
    struct skif_rsp rsp;
    int rc = request((struct sim_backend *)b, SKIF_REQ_FLUSH, 0, 0, &rsp);
    return rc < 0 ? rc : rsp.status;
}

/* Append a write to the posted-write FIFO (combining ring-pointer writes). */
static int fifo_put(struct sim_backend *sb, uint32_t off, uint32_t val)
{
    struct skif_ctrl_page *cp = sb->cp;
    uint32_t tail = cp->pw_tail;
    /* Write combining for the ring pointers, whose last value is all that
     * counts: if the newest queued write, not yet taken by the simulator, is
     * to the same pointer register, update it in place. (The simulator takes
     * queued writes only while the program is blocked, so nothing races.) */
    if ((off == SKIF_REG_TX_TAIL || off >= SKIF_REG_CH_HEAD) && tail != cp->pw_head) {
        struct skif_pw *last = &cp->pw[(tail - 1) & (SKIF_PW_ENTRIES - 1)];
        if (last->off == off) {
            last->val = val;
            return 0;
        }
    }
    if (tail - cp->pw_head >= SKIF_PW_ENTRIES) {
        /* FIFO full: let the simulator take what is there (it keeps any
         * rejection count for the next flush). */
        int rc = sim_flush(&sb->b);
        if (rc == -EPIPE)
            return rc;
    }
    struct skif_pw *w = &cp->pw[tail & (SKIF_PW_ENTRIES - 1)];
    w->off = off;
    w->val = val;
    cp->pw_tail = tail + 1;
    return 0;
}

static int sim_reg_write(struct skif_backend *b, uint32_t off, uint32_t val)
{
    struct sim_backend *sb = (struct sim_backend *)b;
    if (sb->dead)
        return -EPIPE;
    /* a doorbell stored since the last FIFO write goes first (program order) */
    uint32_t db = sb->cp->db_tx_tail;
    if (db != sb->db_fifo) {
        sb->db_fifo = db;
        int rc = fifo_put(sb, SKIF_REG_TX_TAIL, db);
        if (rc < 0)
            return rc;
    }
    return fifo_put(sb, off, val);
}

static int sim_wait(struct skif_backend *b, uint64_t max_cycles)
{
    struct skif_rsp rsp;
    int rc = request((struct sim_backend *)b, SKIF_REQ_WAIT, 0, max_cycles, &rsp);
    return rc < 0 ? rc : (int)rsp.value;
}

static void sim_close(struct skif_backend *b)
{
    struct sim_backend *sb = (struct sim_backend *)b;
    struct skif_rsp rsp;
    if (request(sb, SKIF_REQ_BYE, 0, 0, &rsp) == 0)
        g_conn.bye = 1;
    free(sb); /* the mapping and the socket stay (g_conn) */
}

static const struct skif_backend_ops sim_ops = {
    .reg_read = sim_reg_read,
    .reg_write = sim_reg_write,
    .flush = sim_flush,
    .wait = sim_wait,
    .close = sim_close,
};

int skif_backend_sim_open(struct skif_backend **bp)
{
    int sock, memfd, rank, size;
    if (g_conn.cp)
        return backend_new(g_conn.cp, g_conn.sock, bp);
    if (env_int(SKIF_ENV_SOCK_FD, &sock) || env_int(SKIF_ENV_MEM_FD, &memfd) ||
        env_int(SKIF_ENV_RANK, &rank) || env_int(SKIF_ENV_SIZE, &size)) {
        fprintf(stderr, "skif: this program must be started by skifrun (no simulated node "
                        "in the environment)\n");
        return -ENODEV;
    }
    struct stat st;
    if (fstat(memfd, &st) < 0 || (size_t)st.st_size < sizeof(struct skif_ctrl_page)) {
        fprintf(stderr, "skif: %s=%d is not a node's host memory\n", SKIF_ENV_MEM_FD, memfd);
        return -EPROTO;
    }
    void *mem = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, memfd, 0);
    if (mem == MAP_FAILED)
        return -errno;
    struct skif_ctrl_page *cp = mem;
    if (cp->magic != SKIF_PROTO_MAGIC || cp->version != SKIF_PROTO_VERSION ||
        cp->mem_size != (uint64_t)st.st_size || (int)cp->rank != rank) {
        fprintf(stderr,
                "skif: host memory of node %d has a bad control page (magic 0x%x, "
                "version %u)\n",
                rank, cp->magic, cp->version);
        munmap(mem, (size_t)st.st_size);
        return -EPROTO;
    }
    fcntl(memfd, F_SETFD, FD_CLOEXEC); /* kept, not handed to programs it runs */
    g_conn.memfd = memfd;
    g_conn.cp = cp;
    /* Every sleeping program looks at its socket once per alive_ms: the
     * sleepers of a torus of N nodes together wake at most 8 times per 20 ms
     * (400 a second), whatever N; more would take the simulator's CPU (512
     * programs at 20 ms are 25,000 wake-ups a second, 4096 at a second
     * still took half of a core). A program notices that the simulator is
     * gone within that time: 20 ms up to 8 nodes, 1.3 s on 8x8x8, 10 s on
     * 16x16x16, at most SKIF_ALIVE_MAX_MS. */
    g_conn.alive_ms = SKIF_ALIVE_MS * (size > 8 ? size / 8 : 1);
    if (g_conn.alive_ms > SKIF_ALIVE_MAX_MS)
        g_conn.alive_ms = SKIF_ALIVE_MAX_MS;
    g_conn.sock = sock;
    return backend_new(cp, sock, bp);
}

/* A backend over the node's connection. */
static int backend_new(struct skif_ctrl_page *cp, int sock, struct skif_backend **bp)
{
    struct sim_backend *sb = calloc(1, sizeof(*sb));
    if (!sb)
        return -ENOMEM;
    void *mem = cp;
    int rank = (int)cp->rank, size = (int)cp->size;
    sb->dead = g_conn.dead;
    sb->cp = cp;
    sb->sock = sock;
    sb->b.ops = &sim_ops;
    sb->b.mem = mem;
    sb->b.mem_size = (size_t)cp->mem_size;
    sb->b.mem_fd = g_conn.memfd;
    sb->b.bus_base = cp->bus_base;
    sb->b.heap_offset = (size_t)cp->heap_offset;
    sb->b.rank = rank;
    sb->b.size = size;
    sb->b.node_id = cp->node_id;
    sb->b.ndims = (int)cp->ndims;
    for (int d = 0; d < 4; d++)
        sb->b.dims[d] = (int)cp->dims[d];
    sb->b.clock_mhz = cp->clock_mhz;
    sb->b.cycle = &cp->cycle;
    sb->b.tx_doorbell = &cp->db_tx_tail;
    sb->db_fifo = cp->db_tx_tail;
    *bp = &sb->b;
    return 0;
}
