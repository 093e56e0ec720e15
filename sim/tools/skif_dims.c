/* SPDX-License-Identifier: Apache-2.0 */
/* skif_dims: the torus shape of a build, read by the one --dims parser of
 * skifrun, skifsim, skifnet and the SystemC platform (skif_parse_dims), for
 * the build scripts, which name builds by the shape (t2x3-icarus, t2x2):
 *   skif_dims 2x3x4   prints "3 2 3 4 1": the number of dimensions, then the
 *                     four sizes (1 beyond the given ones)
 * A bad shape: the parser's message on stderr, exit status 2. */
#include <stdio.h>
#include <string.h>

#include "skif_opts.h"

int main(int argc, char **argv)
{
    if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        printf("usage: skif_dims X[xY[xZ[xW]]]\n"
               "prints the number of dimensions and the four sizes (1 beyond the given\n"
               "ones), e.g. \"3 2 3 4 1\" for 2x3x4; each size %d..%d\n",
               SKIF_DIM_MIN, SKIF_DIM_MAX);
        return 0;
    }
    if (argc != 2) {
        fprintf(stderr, "usage: skif_dims X[xY[xZ[xW]]] (see skif_dims --help)\n");
        return 2;
    }
    int d[4], n = 0;
    char err[160];
    if (skif_parse_dims(argv[1], d, &n, err, sizeof(err)) < 0) {
        fprintf(stderr, "skif_dims: %s\n", err);
        return 2;
    }
    printf("%d %d %d %d %d\n", n, d[0], d[1], d[2], d[3]);
    return 0;
}
