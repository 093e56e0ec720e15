// SPDX-License-Identifier: Apache-2.0
// skif_host_shim: simulation-only bridge between one adapter's host ports and
// the simulator's host model (sim/kernel/hostmem.c): DPI calls under Verilator, the
// same calls as VPI system tasks under Icarus (SKIF_VPI, sim/kernel/vpi_main.c,
// which also rejects X/Z in any value that reaches the host). Register port: valid/ready
// request, one response per request. DMA port: always ready; read responses in
// order, timed by the C model. Not synthesizable: a PCIe core takes its place
// on a board.
module skif_host_shim (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  int          node_i,  // node index passed to every host call (a strap)
  // register port, towards the adapter
  output logic        reg_req_valid_o,
  input  logic        reg_req_ready_i,
  output logic        reg_req_write_o,
  output logic [11:0] reg_req_addr_o,
  output logic [31:0] reg_req_wdata_o,
  input  logic        reg_rsp_valid_i,
  input  logic [31:0] reg_rsp_rdata_i,
  input  logic        reg_rsp_err_i,
  // DMA port, from the adapter
  input  logic        dma_req_valid_i,
  output logic        dma_req_ready_o,
  input  logic        dma_req_write_i,
  input  logic [63:0] dma_req_addr_i,
  input  logic [63:0] dma_req_wdata_i,
  input  logic [7:0]  dma_req_wstrb_i,
  output logic        dma_rsp_valid_o,
  output logic [63:0] dma_rsp_data_o,
  output logic        dma_rsp_err_o,
  input  logic        irq_i
);
`ifndef SKIF_VPI
`include "skif_dpi.svh"
`endif

  assign dma_req_ready_o = 1'b1;

  // values returned by the host model (2-state)
  bit          v, w, e;
  int          a, d;
  longint      rd;
  logic        unused_a;  // the host's register offset is an int; the port takes 12 bits
  assign unused_a = ^a[31:12];

  always @(posedge clk_i) begin  // a process with host calls, not synthesizable
    if (!rst_ni) begin
      reg_req_valid_o <= 1'b0;
      reg_req_write_o <= 1'b0;
      reg_req_addr_o  <= '0;
      reg_req_wdata_o <= '0;
      dma_rsp_valid_o <= 1'b0;
      dma_rsp_data_o  <= '0;
      dma_rsp_err_o   <= 1'b0;
    end else begin
`ifdef SKIF_VPI
      if (dma_req_valid_i !== 1'b0)
        $skif_dma_req(node_i, dma_req_valid_i, dma_req_write_i, dma_req_addr_i, dma_req_wdata_i,
                      dma_req_wstrb_i);
      if (irq_i !== 1'b0) $skif_irq(node_i, irq_i);
      $skif_dma_rsp(node_i, v, rd, e);
`else
      // DMA requests and the event line, in issue order.
      if (dma_req_valid_i)
        skif_dpi_dma_req(node_i, dma_req_write_i, dma_req_addr_i, dma_req_wdata_i,
                         {24'd0, dma_req_wstrb_i});
      if (irq_i) skif_dpi_irq(node_i);
      // Read responses due this cycle.
      skif_dpi_dma_rsp(node_i, v, rd, e);
`endif
      dma_rsp_valid_o <= v;
      dma_rsp_data_o  <= rd;
      dma_rsp_err_o   <= e;
      // Register responses, then the next request.
`ifdef SKIF_VPI
      if (reg_rsp_valid_i !== 1'b0) $skif_mmio_rsp(node_i, reg_rsp_valid_i, reg_rsp_rdata_i, reg_rsp_err_i);
      if (!reg_req_valid_o || reg_req_ready_i) begin
        $skif_mmio_poll(node_i, v, w, a, d);
`else
      if (reg_rsp_valid_i) skif_dpi_mmio_rsp(node_i, reg_rsp_rdata_i, reg_rsp_err_i);
      if (!reg_req_valid_o || reg_req_ready_i) begin
        skif_dpi_mmio_poll(node_i, v, w, a, d);
`endif
        reg_req_valid_o <= v;
        reg_req_write_o <= w;
        reg_req_addr_o  <= a[11:0];
        reg_req_wdata_o <= d;
      end
    end
  end
endmodule
