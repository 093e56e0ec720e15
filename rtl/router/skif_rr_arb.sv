`timescale 1ns/1ps
// SPDX-License-Identifier: Apache-2.0
// skif_rr_arb: round-robin arbiter over N requesters (one-hot grant).
//
// Handshake: none (combinational grant). gnt_o is one-hot (or zero when
// req_i is zero) and depends only on req_i and the pointer. When update_i is
// high in a cycle with a grant, the requester after the granted one gets the
// highest priority from the next cycle on (the pointer moves past the
// winner); with update_i low the priority order is kept. So a requester that
// keeps requesting is granted within N updating grants.
`include "skif_defs.vh"

module skif_rr_arb #(
  parameter int N = 4  // number of requesters, >= 1
) (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic [N-1:0] req_i,
  input  logic         update_i,  // the grant of this cycle was used: move the pointer
  output logic [N-1:0] gnt_o
);
`ifndef SYNTHESIS
  if (N < 1) begin : g_bad_n
    `SKIF_BAD_PARAM("skif_rr_arb N=%0d must be >= 1", N)
  end
`endif

  // mask_q: requesters at or after the pointer (thermometer code).
  logic [N-1:0] mask_q, masked, pick_hi, pick_lo;

  assign masked  = req_i & mask_q;
  assign pick_hi = masked & (~masked + 1'b1);  // lowest set bit at or after the pointer
  assign pick_lo = req_i & (~req_i + 1'b1);    // lowest set bit overall (wrap-around)
  assign gnt_o   = (masked != '0) ? pick_hi : pick_lo;

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      mask_q <= '1;
    end else if (update_i && gnt_o != '0) begin
      // strictly above the winner; all-zero after the top one means "wrap"
      mask_q <= ~((gnt_o - 1'b1) | gnt_o);
    end
  end
endmodule
