/* SPDX-License-Identifier: Apache-2.0 */
/* ranks_text.c: a rank's part of a text that rank 0 prints for all ranks in
 * rank order (sim/kernel/ranks.h), over either implementation of the ranks. */
#define _GNU_SOURCE
#include <stdlib.h>

#include "ranks.h"

FILE *skif_ranks_text_open(struct skif_ranks_text *t, FILE *to)
{
    t->buf = NULL;
    t->len = 0;
    t->f = open_memstream(&t->buf, &t->len);
    return t->f ? t->f : to;
}

void skif_ranks_text_print(struct skif_ranks_text *t, FILE *to)
{
    if (!t->f) { /* (written to `to` already; the turn is still taken) */
        skif_ranks_print(to, "", 0);
        return;
    }
    fclose(t->f);
    skif_ranks_print(to, t->buf, t->len);
    free(t->buf);
    t->f = NULL;
}
