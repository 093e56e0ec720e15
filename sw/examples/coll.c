/* SPDX-License-Identifier: Apache-2.0 */
/* coll: SkifColl on the whole torus: node 0 broadcasts a line of text, then
 * every node takes part in allreduces of its rank (sum, min, max and the
 * sum of squares), and prints both. With --sw the software collectives over
 * SkifCh do it; without, the adapter's collective subnet.
 * Run: build/bin/skifrun --dims 3x3 build/bin/coll [--sw] */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "skifch_util.h"
#include "skifcoll.h"

/* Broadcast len bytes from rank 0 over tree t (hardware or software). */
static int bcast(SkifCollTree *t, int sw, void *buf, size_t len)
{
    SkifCollReq *req;
    if (sw)
        return SkifCollSw_Bcast(t, 0, buf, len);
    return SkifColl_Bcast(t, 0, buf, len, &req) < 0 ? -1 : SkifColl_Wait(req);
}

static int allreduce(SkifCollTree *t, int sw, const void *in, void *out, size_t n, int type, int op)
{
    SkifCollReq *req;
    if (sw)
        return SkifCollSw_Allreduce(t, in, out, n, type, op);
    return SkifColl_Allreduce(t, in, out, n, type, op, &req) < 0 ? -1 : SkifColl_Wait(req);
}

int main(int argc, char **argv)
{
    int sw = 0;
    if (SkifChU_WantsHelp(argc, argv)) {
        printf("usage: skifrun --dims 3x3 %s [--sw]\n"
               "Node 0 broadcasts a line of text; then all nodes allreduce their ranks\n"
               "(sum, min, max, sum of squares); each node prints what it got. --sw: the\n"
               "software collectives over SkifCh instead of the adapter's collective subnet.\n",
               argv[0]);
        return 0;
    }
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--sw")) {
            sw = 1;
        } else {
            fprintf(stderr, "coll: unknown argument '%s' (usage: coll [--sw])\n", argv[i]);
            return 2;
        }
    }
    int rank = SkifChU_Rank("coll");
    if (rank < 0)
        return 1;
    if (SkifColl_Init(sw ? SKIFCOLL_NO_HW : 0) < 0) {
        if (errno == ENOSYS)
            fprintf(stderr, "coll: the hardware path is not built (no collective subnet in "
                            "this adapter); run with --sw\n");
        else
            fprintf(stderr, "coll: node %d: SkifColl_Init: %s\n", rank, strerror(errno));
        return 1;
    }
    SkifCollTree *all = SkifColl_Stride(0, 0); /* every node, root 0 */
    int dims[4], nd = SkifCh_Dims(dims);
    char text[64] = "";
    if (rank == 0) {
        int n = snprintf(text, sizeof(text), "SkifColl on a ");
        for (int d = 0; d < nd; d++)
            n += snprintf(text + n, sizeof(text) - (size_t)n, "%s%d", d ? "x" : "", dims[d]);
        snprintf(text + n, sizeof(text) - (size_t)n, " torus");
    }
    uint64_t sums[2] = {(uint64_t)rank, (uint64_t)rank * (uint64_t)rank}, sum[2];
    int32_t me = rank, min;
    uint32_t ume = (uint32_t)rank, max;
    if (bcast(all, sw, text, sizeof(text)) < 0 ||
        allreduce(all, sw, sums, sum, 2, SKIFCOLL_U64, SKIFCOLL_SUM) < 0 ||
        allreduce(all, sw, &me, &min, 1, SKIFCOLL_S32, SKIFCOLL_MIN) < 0 ||
        allreduce(all, sw, &ume, &max, 1, SKIFCOLL_U32, SKIFCOLL_MAX) < 0) {
        fprintf(stderr, "coll: node %d: %s\n", rank, strerror(errno));
        return 1;
    }
    text[sizeof(text) - 1] = 0;
    printf("node %d: broadcast from node 0: \"%s\"\n", rank, text);
    printf("node %d: allreduce: sum of ranks %llu, min %d, max %u, sum of squares %llu\n", rank,
           (unsigned long long)sum[0], min, max, (unsigned long long)sum[1]);
    return SkifColl_Finalize() < 0 ? 1 : 0;
}
