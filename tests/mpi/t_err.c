/* SPDX-License-Identifier: Apache-2.0 */
/* t_err: one bad input per run, chosen by the first argument; with a
 * second argument "return" MPI_COMM_WORLD (and the communicator used) gets
 * MPI_ERRORS_RETURN and the program prints the error class it got and
 * exits 0 when it is the standard one, 1 otherwise. Without it the default
 * handler must end the job (the test harness checks the message and the
 * exit status). Only rank 1 (or the last rank) makes the bad call, unless
 * the case says otherwise. Run: mpirun -np 2 build/tests/mpi/t_err CASE [return] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const cases[] = {"before-init", "after-finalize", "rank",        "tag",
                                    "count",       "datatype",       "op",          "root",
                                    "comm",        "truncate",       "no-finalize", "abort",
                                    "unsupported", "type-op",        NULL};

static int expect(int got, int want, const char *what)
{
    char s[MPI_MAX_ERROR_STRING];
    int len = 0;
    if (got != MPI_SUCCESS) /* implementations may return a code: compare its class */
        MPI_Error_class(got, &got);
    if (got >= 0 && got <= MPI_ERR_LASTCODE)
        MPI_Error_string(got, s, &len);
    s[len] = '\0';
    printf("t_err: %s returned %d (%s)\n", what, got, s);
    return got == want ? 0 : 1;
}

int main(int argc, char **argv)
{
    int c = -1;
    for (int i = 0; argc > 1 && cases[i]; i++)
        if (!strcmp(argv[1], cases[i]))
            c = i;
    if (c < 0 || argc > 3 || (argc == 3 && strcmp(argv[2], "return"))) {
        printf("usage: mpirun -np 2 %s CASE [return]\ncases:", argv[0]);
        for (int i = 0; cases[i]; i++)
            printf(" %s", cases[i]);
        printf("\n");
        return argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) ? 0 : 2;
    }
    int ret = argc == 3, rank, size, x[4] = {1, 2, 3, 4};
    const char *name = cases[c];
    if (!strcmp(name, "before-init")) {
        MPI_Send(x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD); /* always fatal */
        return 0;
    }
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (ret)
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int bad = rank == size - 1, rc = 0;
    if (!strcmp(name, "after-finalize")) {
        MPI_Finalize();
        if (bad)
            rc = expect(MPI_Send(x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD), MPI_ERR_OTHER,
                        "MPI_Send after MPI_Finalize");
        return rc;
    }
    if (!strcmp(name, "no-finalize")) {
        if (bad)
            return 0;                /* returns from main without MPI_Finalize */
        MPI_Barrier(MPI_COMM_WORLD); /* never completes: the other rank is gone */
        MPI_Finalize();
        return 0;
    }
    if (!strcmp(name, "abort")) {
        if (bad)
            MPI_Abort(MPI_COMM_WORLD, 7);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Finalize();
        return 0;
    }
    if (bad) {
        if (!strcmp(name, "rank"))
            rc = expect(MPI_Send(x, 1, MPI_INT, size, 0, MPI_COMM_WORLD), MPI_ERR_RANK,
                        "MPI_Send to rank size");
        else if (!strcmp(name, "tag"))
            rc = expect(MPI_Send(x, 1, MPI_INT, 0, -5, MPI_COMM_WORLD), MPI_ERR_TAG,
                        "MPI_Send with tag -5");
        else if (!strcmp(name, "count"))
            rc = expect(MPI_Send(x, -1, MPI_INT, 0, 0, MPI_COMM_WORLD), MPI_ERR_COUNT,
                        "MPI_Send with count -1");
        else if (!strcmp(name, "datatype"))
            rc = expect(MPI_Send(x, 1, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_WORLD), MPI_ERR_TYPE,
                        "MPI_Send with MPI_DATATYPE_NULL");
        else if (!strcmp(name, "comm"))
            rc = expect(MPI_Send(x, 1, MPI_INT, 0, 0, MPI_COMM_NULL), MPI_ERR_COMM,
                        "MPI_Send on MPI_COMM_NULL");
        else if (!strcmp(name, "unsupported"))
            rc = expect(MPI_Scan(x, x + 2, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_OTHER,
                        "MPI_Scan");
    }
    if (!strcmp(name, "op")) /* collective: every rank makes the call */
        rc = expect(MPI_Allreduce(x, x + 2, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD), MPI_ERR_OP,
                    "MPI_Allreduce with MPI_OP_NULL");
    if (!strcmp(name, "type-op")) { /* pairs MPI does not define */
        double d = 1, e = 0;
        rc = expect(MPI_Allreduce(x, x + 2, 1, MPI_CHAR, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_OP,
                    "MPI_Allreduce of MPI_CHAR with MPI_SUM");
        rc |= expect(MPI_Allreduce(&d, &e, 1, MPI_DOUBLE, MPI_BAND, MPI_COMM_WORLD), MPI_ERR_OP,
                     "MPI_Allreduce of MPI_DOUBLE with MPI_BAND");
        rc |= expect(MPI_Allreduce(x, x + 2, 1, MPI_BYTE, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_OP,
                     "MPI_Allreduce of MPI_BYTE with MPI_SUM");
        rc |= expect(MPI_Reduce(&d, &e, 1, MPI_FLOAT, MPI_LOR, 0, MPI_COMM_WORLD), MPI_ERR_OP,
                     "MPI_Reduce of MPI_FLOAT with MPI_LOR");
    }
    if (!strcmp(name, "root"))
        rc = expect(MPI_Bcast(x, 1, MPI_INT, size, MPI_COMM_WORLD), MPI_ERR_ROOT,
                    "MPI_Bcast with root size");
    if (!strcmp(name, "truncate")) {
        if (rank == 0)
            MPI_Send(x, 4, MPI_INT, size - 1, 9, MPI_COMM_WORLD);
        if (bad) {
            MPI_Status st;
            rc = expect(MPI_Recv(x, 2, MPI_INT, 0, 9, MPI_COMM_WORLD, &st), MPI_ERR_TRUNCATE,
                        "MPI_Recv of 4 ints into 2");
            rc |= expect(st.MPI_ERROR, MPI_ERR_TRUNCATE, "its status.MPI_ERROR");
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return rc;
}
