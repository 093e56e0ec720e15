/* SPDX-License-Identifier: Apache-2.0 */
/* fifo.h: a growable FIFO of fixed-size elements, for the simulator's queues. */
#ifndef SKIF_FIFO_H
#define SKIF_FIFO_H

#include <stddef.h>

struct fifo {
    unsigned char *buf;
    size_t esz;  /* element size, bytes */
    size_t cap;  /* capacity, elements (power of two) */
    size_t head; /* free-running index of the oldest element */
    size_t tail; /* free-running index one past the newest element */
};

/* Set up an empty FIFO of elements of `esz` bytes. */
void fifo_init(struct fifo *f, size_t esz);
/* Free the FIFO's storage. */
void fifo_free(struct fifo *f);
/* Append a copy of *e; grows as needed. Returns 0, or -1 when out of memory. */
int fifo_push(struct fifo *f, const void *e);
/* The oldest element, or NULL when empty. */
void *fifo_peek(const struct fifo *f);
/* Drop the oldest element (the FIFO must not be empty). */
void fifo_pop(struct fifo *f);

static inline size_t fifo_len(const struct fifo *f)
{
    return f->tail - f->head;
}

#endif /* SKIF_FIFO_H */
