`timescale 1ns/1ps
// SPDX-License-Identifier: Apache-2.0
// skif_torus_check: simulation-only protocol checks of one skif_torus_router.
//
// Handshake: none (sampled at each clock edge out of reset). Reports with
// $error a flit that arrived on a link input VC whose buffer was full (the
// sender broke the credit protocol) and a credit counter leaving 0..VcDepth.
// It is a module of its own, kept out of line in Verilator, because a message
// naming its instance (%m) makes the simulator's code differ per instance: so
// only this small module is compiled once per router, the router once per
// torus. Not instantiated under SYNTHESIS.
`include "skif_defs.vh"

module skif_torus_check #(
  parameter int Ports    = 5,  // router ports (2*NDims + 1)
  parameter int TotalVcs = 4   // VCs per port
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,
  input  logic [Ports*TotalVcs-1:0] ovf_i,  // bit p*TotalVcs+u: flit on link port p VC u, buffer full
  input  logic [Ports*TotalVcs-1:0] cred_i  // bit o*TotalVcs+v: credit counter of port o VC v out of range
);
  /*verilator no_inline_module*/

  localparam int N = Ports * TotalVcs;

  // While loops over the set bits (not unrolled by the simulator: one copy
  // of each message). Nothing runs while all is well.
  always @(posedge clk_i) begin : p_check
    logic [N-1:0] ovf, cred;  // process-local scratch
    int           i, j;
    if (rst_ni) begin
      ovf = ovf_i;
      i   = 0;
      while (ovf != '0) begin
        if (ovf[0])
          $error("%m: flit on port %0d VC %0d with a full buffer (credit protocol broken)",
                 i / TotalVcs, i % TotalVcs);
        ovf = ovf >> 1;
        i   = i + 1;
      end
      cred = cred_i;
      j    = 0;
      while (cred != '0) begin
        if (cred[0])
          $error("%m: credit counter of port %0d VC %0d out of 0..VcDepth", j / TotalVcs, j % TotalVcs);
        cred = cred >> 1;
        j    = j + 1;
      end
    end
  end
endmodule
