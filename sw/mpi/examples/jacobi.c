/* SPDX-License-Identifier: Apache-2.0 */
/* jacobi: 2-D Jacobi iteration for Laplace's equation on an N x N grid
 * (top edge 1, other edges 0), the rows split into blocks over the ranks,
 * halo rows exchanged with MPI_Sendrecv each step, the residual by
 * MPI_Allreduce. Rank 0 prints the residual and a checksum, which do not
 * depend on the number of ranks. Run: mpirun -np 4 build/mpi/examples/jacobi [N] [STEPS] */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        printf("usage: mpirun -np N %s [GRID] [STEPS]\nJacobi iteration on a GRID x GRID "
               "plate (default 64, 100 steps), rows split\nover the ranks, halo exchange by "
               "MPI_Sendrecv; prints the residual and a checksum.\n",
               argv[0]);
        return 0;
    }
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int n = argc > 1 ? atoi(argv[1]) : 64, steps = argc > 2 ? atoi(argv[2]) : 100;
    if (n < size || n < 3 || steps < 1) {
        if (rank == 0)
            fprintf(stderr, "jacobi: GRID must be at least 3 and the number of ranks, STEPS "
                            "at least 1\n");
        MPI_Finalize();
        return 2;
    }
    /* interior rows 1..n-2 split over ranks; each holds rows lo..hi-1 plus halos */
    int inner = n - 2, lo = 1 + inner * rank / size, hi = 1 + inner * (rank + 1) / size;
    int rows = hi - lo;
    double *u = calloc((size_t)(rows + 2) * (size_t)n, sizeof(double));
    double *v = calloc((size_t)(rows + 2) * (size_t)n, sizeof(double));
#define U(a, r, c) (a)[(size_t)(r) * (size_t)n + (size_t)(c)]
    if (lo == 1) /* the halo above the first interior row is the hot top edge */
        for (int c = 0; c < n; c++)
            U(u, 0, c) = U(v, 0, c) = 1.0;
    int up = rank > 0 ? rank - 1 : MPI_PROC_NULL, down = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
    double res = 0.0;
    for (int s = 0; s < steps; s++) {
        MPI_Sendrecv(&U(u, 1, 0), n, MPI_DOUBLE, up, 0, &U(u, rows + 1, 0), n, MPI_DOUBLE, down, 0,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Sendrecv(&U(u, rows, 0), n, MPI_DOUBLE, down, 1, &U(u, 0, 0), n, MPI_DOUBLE, up, 1,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        double local = 0.0;
        for (int r = 1; r <= rows; r++)
            for (int c = 1; c < n - 1; c++) {
                U(v, r, c) =
                    0.25 * (U(u, r - 1, c) + U(u, r + 1, c) + U(u, r, c - 1) + U(u, r, c + 1));
                double d = U(v, r, c) - U(u, r, c);
                local += d * d;
            }
        double *t = u;
        u = v;
        v = t;
        MPI_Allreduce(&local, &res, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    }
    double sum = 0.0, total = 0.0;
    for (int r = 1; r <= rows; r++)
        for (int c = 1; c < n - 1; c++)
            sum += U(u, r, c) * (lo + r - 1 + 1) * (c + 1);
    MPI_Reduce(&sum, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("jacobi: %dx%d grid, %d steps on %d ranks: residual %.6e checksum %.6f\n", n, n,
               steps, size, sqrt(res), total);
    free(u);
    free(v);
    MPI_Finalize();
    return 0;
}
