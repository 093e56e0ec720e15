/* SPDX-License-Identifier: Apache-2.0 */
/* pi: pi by integrating 4 / (1 + x^2) over [0, 1] with the midpoint rule,
 * the intervals dealt round-robin to the ranks, summed by MPI_Reduce.
 * Run: mpirun -np 4 build/mpi/examples/pi [INTERVALS] */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        printf("usage: mpirun -np N %s [INTERVALS]\nComputes pi by the midpoint rule over "
               "INTERVALS (default 100000) intervals\nand prints it with its error.\n",
               argv[0]);
        return 0;
    }
    MPI_Init(&argc, &argv);
    int rank, size, n = 100000;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0 && argc > 1)
        n = atoi(argv[1]);
    MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (n < 1) {
        if (rank == 0)
            fprintf(stderr, "pi: INTERVALS must be a positive number\n");
        MPI_Finalize();
        return 2;
    }
    double h = 1.0 / n, sum = 0.0, pi = 0.0;
    for (int i = rank; i < n; i += size) {
        double x = h * (i + 0.5);
        sum += 4.0 / (1.0 + x * x);
    }
    double mine = h * sum;
    MPI_Reduce(&mine, &pi, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("pi is approximately %.16f, error %.3e (%d intervals, %d ranks)\n", pi,
               fabs(pi - 3.141592653589793238), n, size);
    MPI_Finalize();
    return 0;
}
