`timescale 1ns/1ps
// SPDX-License-Identifier: Apache-2.0
// skif_gap: the pacing of status-block writes, shared by skif_tx and skif_rx.
//
// Counts the cycles since the last restart_i (a status write accepted),
// saturating at Gap; open_o is 1 once Gap cycles have passed, so the next
// write may go. Out of reset it is open. Gap = 1: always open (no pacing).
// No handshake: restart_i is sampled at every rising edge.
`include "skif_defs.vh"

module skif_gap #(
  parameter int Gap = 1  // cycles from one write to the next at least, >= 1
) (
  input  logic clk_i,
  input  logic rst_ni,
  input  logic restart_i,  // a write was accepted this cycle
  output logic open_o      // Gap cycles have passed since the last one
);
  localparam int W = $clog2(Gap + 1);
  localparam logic [W-1:0] GapC = W'(Gap);

`ifndef SYNTHESIS
  if (Gap < 1) begin : g_bad_gap
    `SKIF_BAD_PARAM("StatGap=%0d must be >= 1", Gap)
  end
`endif

  logic [W-1:0] since_q;  // cycles since the last restart, up to Gap
  always @(posedge clk_i) begin
    if (!rst_ni)              since_q <= GapC;
    else if (restart_i)       since_q <= W'(1);
    else if (since_q != GapC) since_q <= since_q + 1'b1;
  end
  assign open_o = (since_q == GapC);
endmodule
