/* SPDX-License-Identifier: Apache-2.0 */
/* hello: the classic OpenSHMEM hello world: every PE prints its number and
 * the number of PEs. Run: oshrun -np 4 build/shmem/examples/hello */
#include <shmem.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        printf("usage: oshrun -np N %s\nEvery PE prints \"Hello from PE i of N\".\n", argv[0]);
        return 0;
    }
    shmem_init();
    printf("Hello from PE %d of %d\n", shmem_my_pe(), shmem_n_pes());
    shmem_finalize();
    return 0;
}
