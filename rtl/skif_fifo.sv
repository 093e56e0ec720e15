`timescale 1ns/1ps
// SPDX-License-Identifier: Apache-2.0
// skif_fifo: synchronous first-word-fall-through FIFO of any depth >= 2.
//
// Handshake: push side valid/ready (ready = not full, registered); pop side
// valid/ready, data held while valid && !ready. Push and pop may both fire in
// one cycle (also when full: then only the pop fires). Data enters the array
// at the clock edge and is visible on pop_data_o the next cycle (1 cycle
// latency, one entry per cycle throughput). Only the pointers are reset.
`include "skif_defs.vh"

module skif_fifo #(
  parameter int Width = 64,  // entry width, bits
  parameter int Depth = 4    // number of entries, >= 2 (need not be a power of two)
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             push_valid_i,
  output logic             push_ready_o,
  input  logic [Width-1:0] push_data_i,
  output logic             pop_valid_o,
  input  logic             pop_ready_i,
  output logic [Width-1:0] pop_data_o
);
  localparam int AddrW = $clog2(Depth);
  localparam int CntW  = $clog2(Depth + 1);
  localparam logic [AddrW-1:0] LastAddr = AddrW'(Depth - 1);
  localparam logic [CntW-1:0]  DepthC   = CntW'(Depth);

`ifndef SYNTHESIS
  if (Depth < 2) begin : g_bad_depth
    `SKIF_BAD_PARAM("skif_fifo Depth=%0d must be >= 2", Depth)
  end
`endif

  logic [Width-1:0] mem_q [Depth];
  logic [AddrW-1:0] wr_ptr_q, rd_ptr_q;
  logic [CntW-1:0]  cnt_q;
  logic             push, pop;

  assign push_ready_o = (cnt_q != DepthC);
  assign pop_valid_o  = (cnt_q != '0);
  assign pop_data_o   = mem_q[rd_ptr_q];
  assign push         = push_valid_i && push_ready_o;
  assign pop          = pop_valid_o && pop_ready_i;

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      wr_ptr_q <= '0;
      rd_ptr_q <= '0;
      cnt_q    <= '0;
    end else begin
      if (push) wr_ptr_q <= (wr_ptr_q == LastAddr) ? '0 : wr_ptr_q + 1'b1;
      if (pop)  rd_ptr_q <= (rd_ptr_q == LastAddr) ? '0 : rd_ptr_q + 1'b1;
      if (push && !pop)      cnt_q <= cnt_q + 1'b1;
      else if (pop && !push) cnt_q <= cnt_q - 1'b1;
    end
  end

  // Storage: not reset (datapath).
  always @(posedge clk_i) begin
    if (push) mem_q[wr_ptr_q] <= push_data_i;
  end
endmodule
