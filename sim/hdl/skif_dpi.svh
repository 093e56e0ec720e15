// SPDX-License-Identifier: Apache-2.0
// skif_dpi.svh: the DPI imports of the simulation-only host shims, in one
// place. Implemented in C in sim/kernel/hostmem.c. Never include this in rtl/.
`ifndef SKIF_DPI_SVH
`define SKIF_DPI_SVH
// The adapter issued a DMA request (write: data/strb valid; read: answered later).
import "DPI-C" function void skif_dpi_dma_req(input int node, input bit write,
                                              input longint addr, input longint data,
                                              input int strb);
// The adapter raised its event line (delivered behind earlier DMA writes).
import "DPI-C" function void skif_dpi_irq(input int node);
// The next DMA read response, if one is due this cycle.
import "DPI-C" function void skif_dpi_dma_rsp(input int node, output bit valid,
                                              output longint data, output bit err);
// The next register access from the program, if one is due this cycle.
import "DPI-C" function void skif_dpi_mmio_poll(input int node, output bit valid,
                                                output bit write, output int addr,
                                                output int wdata);
// The adapter answered the oldest register access.
import "DPI-C" function void skif_dpi_mmio_rsp(input int node, input int rdata, input bit err);
`endif
