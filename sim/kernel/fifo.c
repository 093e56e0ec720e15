/* SPDX-License-Identifier: Apache-2.0 */
/* fifo.c: growable FIFO (see fifo.h). */
#include "fifo.h"

#include <stdlib.h>
#include <string.h>

void fifo_init(struct fifo *f, size_t esz)
{
    memset(f, 0, sizeof(*f));
    f->esz = esz;
}

void fifo_free(struct fifo *f)
{
    free(f->buf);
    f->buf = NULL;
    f->cap = f->head = f->tail = 0;
}

static int fifo_grow(struct fifo *f)
{
    size_t ncap = f->cap ? f->cap * 2 : 64;
    unsigned char *nb = malloc(ncap * f->esz);
    if (!nb)
        return -1;
    for (size_t i = f->head; i != f->tail; i++)
        memcpy(nb + (i - f->head) * f->esz, f->buf + (i & (f->cap - 1)) * f->esz, f->esz);
    f->tail -= f->head;
    f->head = 0;
    free(f->buf);
    f->buf = nb;
    f->cap = ncap;
    return 0;
}

int fifo_push(struct fifo *f, const void *e)
{
    if (fifo_len(f) == f->cap && fifo_grow(f) < 0)
        return -1;
    memcpy(f->buf + (f->tail & (f->cap - 1)) * f->esz, e, f->esz);
    f->tail++;
    return 0;
}

void *fifo_peek(const struct fifo *f)
{
    if (f->head == f->tail)
        return NULL;
    return f->buf + (f->head & (f->cap - 1)) * f->esz;
}

void fifo_pop(struct fifo *f)
{
    f->head++;
}
