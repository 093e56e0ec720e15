/* SPDX-License-Identifier: Apache-2.0 */
/* ring: rank 0 sends a token around the ring N times; each rank adds one.
 * Run: mpirun -np 4 build/mpi/examples/ring [LAPS] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        printf("usage: mpirun -np N %s [LAPS]\nPasses a token around the ring of ranks LAPS "
               "times (default 3); every rank adds 1.\nRank 0 prints the token: LAPS * N.\n",
               argv[0]);
        return 0;
    }
    MPI_Init(&argc, &argv);
    int rank, size, laps = argc > 1 ? atoi(argv[1]) : 3;
    if (laps < 1) {
        fprintf(stderr, "ring: LAPS must be a positive number, not '%s'\n", argv[1]);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int next = (rank + 1) % size, prev = (rank + size - 1) % size, token = 0;
    double t0 = MPI_Wtime();
    for (int lap = 0; lap < laps; lap++) {
        if (rank == 0) {
            token++;
            MPI_Send(&token, 1, MPI_INT, next, 7, MPI_COMM_WORLD);
            MPI_Recv(&token, 1, MPI_INT, prev, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(&token, 1, MPI_INT, prev, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            token++;
            MPI_Send(&token, 1, MPI_INT, next, 7, MPI_COMM_WORLD);
        }
    }
    if (rank == 0)
        printf("ring: token %d after %d laps of %d ranks (%s), %.2f us per hop\n", token, laps,
               size, token == laps * size ? "correct" : "WRONG",
               (MPI_Wtime() - t0) * 1e6 / (laps * size));
    MPI_Finalize();
    return token == laps * size || rank != 0 ? 0 : 1;
}
