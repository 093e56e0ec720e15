/* SPDX-License-Identifier: Apache-2.0 */
/* hello: the classic MPI hello world. Run: mpirun -np 4 build/mpi/examples/hello */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        printf("usage: mpirun -np N %s\nEvery rank prints its rank, the size and its processor "
               "name.\n",
               argv[0]);
        return 0;
    }
    MPI_Init(&argc, &argv);
    int rank, size, len;
    char name[MPI_MAX_PROCESSOR_NAME];
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Get_processor_name(name, &len);
    printf("Hello from rank %d of %d on %s\n", rank, size, name);
    MPI_Finalize();
    return 0;
}
