/* SPDX-License-Identifier: Apache-2.0 */
/* shmemx.h: skifsim's extensions to OpenSHMEM (libskifshmem.a), for tests
 * and tools that look beneath the library: the RMA handle it drives and
 * where its symmetric regions lie. Valid between shmem_init and
 * shmem_finalize. */
#ifndef SKIF_SHMEMX_H
#define SKIF_SHMEMX_H

#include <stddef.h>
#include <stdint.h>

#include "shmem.h"

#ifdef __cplusplus
extern "C" {
#endif

struct skif_rma;
struct skif_dev;

/* The driver handles under the library (driver/skif_rma.h, skif_dev.h). */
struct skif_rma *shmemx_rma_handle(void);
struct skif_dev *shmemx_dev_handle(void);

/* The symmetric heap of this PE: its address here, its size, and the bus
 * address (the adapter's) of its first byte at PE `pe`. */
void shmemx_heap_bounds(int pe, void **base, size_t *size, uint64_t *bus);

/* The node of PE `pe` (its network id), as the driver names it. */
uint32_t shmemx_pe_node(int pe);

/* Simulated cycles since the start (the adapter's clock), and its MHz. */
uint64_t shmemx_cycle(void);
unsigned shmemx_clock_mhz(void);

#ifdef __cplusplus
}
#endif

#endif /* SKIF_SHMEMX_H */
