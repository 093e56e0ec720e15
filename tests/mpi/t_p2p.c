/* SPDX-License-Identifier: Apache-2.0 */
/* t_p2p: MPI point to point against what the standard says, on any number
 * of ranks >= 2 (run: mpirun -np N build/tests/mpi/t_p2p). Checks matching
 * with wildcards, order per source and tag, the unexpected queue, a flood
 * of short messages (in order, intact), every
 * size class from 0 bytes to 4 MiB (eager, rendezvous), nonblocking
 * completion in any order, MPI_PROC_NULL, Ssend, Probe/Iprobe, Get_count,
 * Waitany/Testall/Request_free and Sendrecv. Prints one line per part; any
 * mismatch prints what differs and exits 1. Plain MPI: it passes under MPICH
 * and Open MPI as well. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size, checks;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        checks++;                                                                                  \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "t_p2p: rank %d: line %d: ", rank, __LINE__);                          \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fprintf(stderr, "\n");                                                                 \
            MPI_Abort(MPI_COMM_WORLD, 1);                                                          \
        }                                                                                          \
    } while (0)

static unsigned char pat(size_t i, int seed)
{
    return (unsigned char)(i * 131u + (unsigned)seed * 7u + (i >> 9));
}

static void part(const char *name)
{
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("t_p2p: %s ok\n", name);
    fflush(stdout);
}

/* Wildcards: rank 0 receives size-1 messages from each rank with
 * MPI_ANY_SOURCE/MPI_ANY_TAG and must see every (source, tag) once. */
static void wildcards(void)
{
    if (rank == 0) {
        int *seen = calloc((size_t)size * 3, sizeof(int));
        for (int i = 0; i < (size - 1) * 3; i++) {
            int v;
            MPI_Status st;
            MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
            CHECK(st.MPI_SOURCE > 0 && st.MPI_SOURCE < size && st.MPI_TAG >= 10 && st.MPI_TAG < 13,
                  "source %d tag %d", st.MPI_SOURCE, st.MPI_TAG);
            CHECK(v == st.MPI_SOURCE * 100 + st.MPI_TAG, "value %d from %d tag %d", v,
                  st.MPI_SOURCE, st.MPI_TAG);
            seen[st.MPI_SOURCE * 3 + st.MPI_TAG - 10]++;
        }
        MPI_Barrier(MPI_COMM_WORLD); /* the next messages are sent after this */
        for (int i = 3; i < size * 3; i++)
            CHECK(seen[i] == 1, "message %d seen %d times", i, seen[i]);
        /* ANY_SOURCE with a given tag, a given source with ANY_TAG */
        for (int s = 1; s < size; s++) {
            int v;
            MPI_Status st;
            MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 20 + s, MPI_COMM_WORLD, &st);
            CHECK(st.MPI_SOURCE == s && v == s, "tag %d: source %d value %d", 20 + s, st.MPI_SOURCE,
                  v);
        }
        for (int s = size - 1; s >= 1; s--) {
            int v;
            MPI_Status st;
            MPI_Recv(&v, 1, MPI_INT, s, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
            CHECK(st.MPI_TAG == 20 + s + 100 && v == -s, "source %d: tag %d value %d", s,
                  st.MPI_TAG, v);
        }
        free(seen);
    } else {
        for (int t = 10; t < 13; t++) {
            int v = rank * 100 + t;
            MPI_Send(&v, 1, MPI_INT, 0, t, MPI_COMM_WORLD);
        }
        MPI_Barrier(MPI_COMM_WORLD);
        int v = rank;
        MPI_Send(&v, 1, MPI_INT, 0, 20 + rank, MPI_COMM_WORLD);
        v = -rank;
        MPI_Send(&v, 1, MPI_INT, 0, 20 + rank + 100, MPI_COMM_WORLD);
    }
    part("wildcards");
}

/* Order: messages of one source and tag arrive in the order sent, whatever
 * the sizes (eager and rendezvous mixed); receiving by tag out of send order
 * uses the unexpected queue. */
static void order(void)
{
    enum { N = 40 };
    static const int lens[] = {0, 4, 500, 504, 505, 3000, 20000, 8};
    if (rank == 1) {
        /* nonblocking sends: a blocking send of a long message may wait for
         * its receive, which here comes after the other tag's */
        char *buf = malloc(20000 * N);
        MPI_Request rq[N];
        for (int i = 0; i < N; i++) {
            int len = lens[i % 8];
            char *b = buf + 20000 * i;
            memset(b, i, (size_t)len);
            if (len >= 4)
                memcpy(b, &i, 4);
            MPI_Isend(b, len, MPI_BYTE, 0, i % 2, MPI_COMM_WORLD, &rq[i]);
        }
        MPI_Waitall(N, rq, MPI_STATUSES_IGNORE);
        free(buf);
    } else if (rank == 0) {
        char *buf = malloc(20000);
        /* all tag 1 first (the tag 0 ones wait in the unexpected queue or
         * as rendezvous requests), then tag 0 */
        for (int tag = 1; tag >= 0; tag--)
            for (int i = tag; i < N; i += 2) {
                MPI_Status st;
                int len = lens[i % 8], n, first = -1;
                MPI_Recv(buf, 20000, MPI_BYTE, 1, tag, MPI_COMM_WORLD, &st);
                MPI_Get_count(&st, MPI_BYTE, &n);
                CHECK(n == len, "message %d: %d bytes, expected %d", i, n, len);
                if (len >= 4)
                    memcpy(&first, buf, 4);
                CHECK(len < 4 || first == i, "message %d came as %d", i, first);
                for (int k = 4; k < len; k++)
                    CHECK((unsigned char)buf[k] == (unsigned char)i, "message %d byte %d", i, k);
            }
        free(buf);
    }
    part("order per source and tag, unexpected queue");
}

/* A flood: every other rank sends rank 0 thousands of short messages back
 * to back (faster than the link drains them, so a library may buffer or
 * pack them), with a medium and a long message now and then and a barrier
 * right after the last send; rank 0 receives them with MPI_ANY_TAG per
 * source and must see each source's messages in the order sent, intact. */
static int flood_len(int i)
{
    static const int lens[] = {8, 0, 1, 7, 8, 9, 16, 100, 248, 249, 8, 8};
    return i % 2000 == 1000 ? 3000 : i % 2000 == 1999 ? 20000 : lens[i % 12];
}

static void flood(void)
{
    enum { N = 12000 }; /* more than a 64 KiB TX ring holds */
    if (rank != 0) {
        char *big = malloc(20000);
        unsigned char b[300];
        MPI_Request rq[N / 2000 + 1];
        int nrq = 0;
        for (int i = 0; i < N; i++) {
            int len = flood_len(i);
            unsigned char *m = len > 300 ? (unsigned char *)big : b;
            for (int k = 0; k < len; k++)
                m[k] = pat((size_t)k, i + rank);
            if (len >= 4)
                memcpy(m, &i, 4);
            if (len == 20000) {
                MPI_Isend(m, len, MPI_BYTE, 0, i % 3, MPI_COMM_WORLD, &rq[nrq++]);
                MPI_Wait(&rq[nrq - 1], MPI_STATUS_IGNORE);
            } else {
                MPI_Send(m, len, MPI_BYTE, 0, i % 3, MPI_COMM_WORLD);
            }
        }
        free(big);
    } else {
        unsigned char *buf = malloc(20000);
        for (int src = 1; src < size; src++)
            for (int i = 0; i < N; i++) {
                int len = flood_len(i), n, first;
                MPI_Status st;
                MPI_Recv(buf, 20000, MPI_BYTE, src, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
                MPI_Get_count(&st, MPI_BYTE, &n);
                CHECK(n == len && st.MPI_TAG == i % 3,
                      "source %d message %d: %d bytes tag %d, expected %d tag %d", src, i, n,
                      st.MPI_TAG, len, i % 3);
                if (len >= 4) {
                    memcpy(&first, buf, 4);
                    CHECK(first == i, "source %d message %d came as %d", src, i, first);
                }
                for (int k = 4; k < len; k++)
                    if (buf[k] != pat((size_t)k, i + src)) {
                        CHECK(0, "source %d message %d byte %d", src, i, k);
                        break;
                    }
            }
        free(buf);
    }
    part("a flood of short messages, in order");
}

/* Every size class: 0..4 MiB, blocking and nonblocking, checked byte by byte. */
static void sizes(void)
{
    static const size_t sz[] = {0,    1,     7,     8,      9,       255,    504,  505,
                                511,  512,   1024,  2040,   2041,    2048,   4096, 8192,
                                8193, 65536, 65537, 262144, 1048576, 4194304};
    int n = (int)(sizeof(sz) / sizeof(sz[0]));
    unsigned char *buf = malloc(4194304 + 16);
    int peer = rank == 0 ? size - 1 : 0;
    if (rank == 0 || rank == size - 1) {
        for (int i = 0; i < n; i++) {
            size_t len = sz[i];
            if (rank == 0) {
                for (size_t k = 0; k < len; k++)
                    buf[k] = pat(k, i);
                if (i % 2)
                    MPI_Send(buf, (int)len, MPI_BYTE, peer, i, MPI_COMM_WORLD);
                else
                    MPI_Ssend(buf, (int)len, MPI_BYTE, peer, i, MPI_COMM_WORLD);
                /* and back, nonblocking */
                MPI_Request rq;
                memset(buf, 0, len + 16);
                MPI_Irecv(buf, (int)len + 16, MPI_BYTE, peer, i, MPI_COMM_WORLD, &rq);
                MPI_Status st;
                MPI_Wait(&rq, &st);
                int cnt;
                MPI_Get_count(&st, MPI_BYTE, &cnt);
                CHECK(cnt == (int)len && st.MPI_SOURCE == peer && st.MPI_TAG == i,
                      "size %zu back: count %d source %d tag %d", len, cnt, st.MPI_SOURCE,
                      st.MPI_TAG);
                for (size_t k = 0; k < len; k++)
                    CHECK(buf[k] == (unsigned char)~pat(k, i), "size %zu back: byte %zu", len, k);
            } else {
                MPI_Status st;
                memset(buf, 0, len);
                MPI_Recv(buf, (int)len, MPI_BYTE, 0, i, MPI_COMM_WORLD, &st);
                int cnt;
                MPI_Get_count(&st, MPI_BYTE, &cnt);
                CHECK(cnt == (int)len, "size %zu: count %d", len, cnt);
                for (size_t k = 0; k < len; k++)
                    CHECK(buf[k] == pat(k, i), "size %zu: byte %zu is %d", len, k, buf[k]);
                for (size_t k = 0; k < len; k++)
                    buf[k] = (unsigned char)~buf[k];
                MPI_Request rq;
                MPI_Isend(buf, (int)len, MPI_BYTE, 0, i, MPI_COMM_WORLD, &rq);
                MPI_Wait(&rq, MPI_STATUS_IGNORE);
            }
        }
    }
    free(buf);
    part("sizes 0 B .. 4 MiB (eager, rendezvous, Ssend, Isend/Irecv)");
}

/* Nonblocking: rank 0 posts receives for messages of all sizes from all
 * ranks and completes them in reverse, by Waitany, by Testall. */
static void nonblocking(void)
{
    enum { M = 6 };
    static const int lens[M] = {3, 600, 5000, 0, 70000, 100};
    int peers = size - 1;
    if (rank == 0) {
        int n = peers * M;
        MPI_Request *rq = malloc(sizeof(*rq) * (size_t)n);
        int **bufs = malloc(sizeof(*bufs) * (size_t)n);
        for (int p = 0; p < peers; p++)
            for (int m = 0; m < M; m++) {
                int i = p * M + m;
                bufs[i] = malloc(sizeof(int) * (size_t)lens[m] + 4);
                MPI_Irecv(bufs[i], lens[m], MPI_INT, p + 1, m, MPI_COMM_WORLD, &rq[i]);
            }
        int done = 0;
        /* the last third in reverse with Wait, the middle with Waitany,
         * the first with Testall loops */
        for (int i = n - 1; i >= 2 * n / 3; i--, done++) {
            MPI_Status st;
            MPI_Wait(&rq[i], &st);
            CHECK(rq[i] == MPI_REQUEST_NULL && st.MPI_SOURCE == i / M + 1 && st.MPI_TAG == i % M,
                  "wait %d", i);
        }
        for (int k = n / 3; k < 2 * n / 3; k++, done++) {
            int idx;
            MPI_Status st;
            MPI_Waitany(2 * n / 3 - n / 3, rq + n / 3, &idx, &st);
            CHECK(idx != MPI_UNDEFINED && st.MPI_TAG == (n / 3 + idx) % M, "waitany");
        }
        int idx;
        MPI_Waitany(2 * n / 3 - n / 3, rq + n / 3, &idx, MPI_STATUS_IGNORE);
        CHECK(idx == MPI_UNDEFINED, "waitany on no active request gives %d", idx);
        int flag = 0;
        while (!flag)
            MPI_Testall(n / 3, rq, &flag, MPI_STATUSES_IGNORE);
        for (int i = 0; i < n; i++) {
            CHECK(rq[i] == MPI_REQUEST_NULL, "request %d not null", i);
            for (int k = 0; k < lens[i % M]; k++)
                CHECK(bufs[i][k] == (i / M + 1) * 1000000 + (i % M) * 100000 + k,
                      "message %d element %d", i, k);
            free(bufs[i]);
        }
        free(bufs);
        free(rq);
    } else {
        MPI_Request rq[M];
        int *bufs[M];
        for (int m = M - 1; m >= 0; m--) {
            bufs[m] = malloc(sizeof(int) * (size_t)lens[m] + 4);
            for (int k = 0; k < lens[m]; k++)
                bufs[m][k] = rank * 1000000 + m * 100000 + k;
        }
        for (int m = 0; m < M; m++)
            MPI_Isend(bufs[m], lens[m], MPI_INT, 0, m, MPI_COMM_WORLD, &rq[m]);
        int flag = 0;
        MPI_Test(&rq[0], &flag, MPI_STATUS_IGNORE); /* may or may not be done */
        MPI_Waitall(M, rq, MPI_STATUSES_IGNORE);
        for (int m = 0; m < M; m++)
            free(bufs[m]);
    }
    part("nonblocking completion in any order (Wait, Waitany, Testall)");
}

static void misc(void)
{
    /* MPI_PROC_NULL: returns at once, status source PROC_NULL, count 0 */
    int v = 5;
    MPI_Status st;
    MPI_Send(&v, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
    MPI_Recv(&v, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &st);
    int cnt = -1;
    MPI_Get_count(&st, MPI_INT, &cnt);
    CHECK(v == 5 && st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG && cnt == 0,
          "PROC_NULL: v %d source %d tag %d count %d", v, st.MPI_SOURCE, st.MPI_TAG, cnt);
    MPI_Request rq;
    MPI_Irecv(&v, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &rq);
    v = 5;
    MPI_Wait(&rq, MPI_STATUS_IGNORE); /* (MPICH 4.0.2 leaves this status's source unset) */
    CHECK(v == 5 && rq == MPI_REQUEST_NULL, "Irecv from PROC_NULL changed the buffer");
    /* Sendrecv around the ring (with PROC_NULL at the ends of a chain) */
    int right = rank + 1 < size ? rank + 1 : MPI_PROC_NULL;
    int left = rank > 0 ? rank - 1 : MPI_PROC_NULL, got = -7;
    MPI_Sendrecv(&rank, 1, MPI_INT, right, 3, &got, 1, MPI_INT, left, 3, MPI_COMM_WORLD, &st);
    CHECK(got == (rank > 0 ? rank - 1 : -7), "sendrecv chain got %d", got);
    /* Probe and Iprobe see a message without receiving it; Get_count */
    if (rank == 1) {
        double d[3] = {1.5, 2.5, 3.5};
        MPI_Send(d, 3, MPI_DOUBLE, 0, 44, MPI_COMM_WORLD);
        char big[3001];
        memset(big, 9, sizeof(big));
        MPI_Send(big, 3001, MPI_CHAR, 0, 45, MPI_COMM_WORLD);
    } else if (rank == 0) {
        MPI_Probe(1, 44, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_DOUBLE, &cnt);
        CHECK(cnt == 3 && st.MPI_SOURCE == 1 && st.MPI_TAG == 44, "probe count %d", cnt);
        MPI_Get_count(&st, MPI_INT, &cnt);
        CHECK(cnt == 6, "24 bytes are 6 ints, got %d", cnt);
        MPI_Get_count(&st, MPI_LONG_LONG, &cnt);
        CHECK(cnt == 3, "24 bytes are 3 long longs, got %d", cnt);
        int flag = 0;
        while (!flag)
            MPI_Iprobe(MPI_ANY_SOURCE, 45, MPI_COMM_WORLD, &flag, &st);
        MPI_Get_count(&st, MPI_CHAR, &cnt);
        CHECK(cnt == 3001 && st.MPI_SOURCE == 1, "iprobe long count %d", cnt);
        MPI_Get_count(&st, MPI_DOUBLE, &cnt);
        CHECK(cnt == MPI_UNDEFINED, "3001 bytes are not whole doubles: %d", cnt);
        MPI_Iprobe(1, 46, MPI_COMM_WORLD, &flag, &st);
        CHECK(!flag, "iprobe found a message never sent");
        char big[3001];
        MPI_Recv(big, 3001, MPI_CHAR, 1, 45, MPI_COMM_WORLD, &st);
        CHECK(big[0] == 9 && big[3000] == 9, "long after iprobe");
        double d[3];
        MPI_Recv(d, 3, MPI_DOUBLE, 1, 44, MPI_COMM_WORLD, &st);
        CHECK(d[0] == 1.5 && d[2] == 3.5, "doubles after probe");
    }
    /* Request_free on a send: the message still arrives */
    if (rank == 1) {
        static int x = 77;
        MPI_Isend(&x, 1, MPI_INT, 0, 50, MPI_COMM_WORLD, &rq);
        MPI_Request_free(&rq);
        CHECK(rq == MPI_REQUEST_NULL, "request_free leaves the handle");
    } else if (rank == 0) {
        MPI_Recv(&v, 1, MPI_INT, 1, 50, MPI_COMM_WORLD, &st);
        CHECK(v == 77, "freed send delivered %d", v);
    }
    /* a message to oneself */
    int me = -1, out = rank + 1000;
    MPI_Sendrecv(&out, 1, MPI_INT, rank, 60, &me, 1, MPI_INT, rank, 60, MPI_COMM_WORLD, &st);
    CHECK(me == rank + 1000, "self sendrecv got %d", me);
    MPI_Sendrecv(&out, 1, MPI_INT, 0, 61, &me, 1, MPI_INT, 0, 61, MPI_COMM_SELF, &st);
    CHECK(me == rank + 1000, "COMM_SELF sendrecv got %d", me);
    part("PROC_NULL, Sendrecv, Probe/Iprobe, Get_count, Request_free, self");
}

int main(int argc, char **argv)
{
    if (argc > 1) {
        printf("usage: mpirun -np N %s   (N >= 2)\nMPI point-to-point checks; prints one line "
               "per part, exits 1 on the first mismatch.\n",
               argv[0]);
        return strcmp(argv[1], "--help") && strcmp(argv[1], "-h") ? 2 : 0;
    }
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2) {
        fprintf(stderr, "t_p2p: needs at least 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    wildcards();
    order();
    flood();
    sizes();
    nonblocking();
    misc();
    int all = 0;
    MPI_Reduce(&checks, &all, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("t_p2p: all %d checks passed on %d ranks\n", all, size);
    MPI_Finalize();
    return 0;
}
