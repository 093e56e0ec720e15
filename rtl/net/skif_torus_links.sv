`timescale 1ns/1ps
// SPDX-License-Identifier: Apache-2.0
// skif_torus_links: the wires of a 1..4-D torus between its nodes' link
// ports (skif_torus_node), with every dimension's wrap-around link; also the
// node ids and the ring sizes every node is strapped with. Pure wiring, no
// state: the links are the nodes' registered outputs.
//
// Vectors hold node i in slice i (rank i in X-fastest order, i = x +
// SizeX*(y + SizeY*(z + SizeZ*w))), and port j of a node in slice j of its
// part. In port j of node i is fed by the neighbour through port j, from that
// neighbour's out port j^1; the credits of node i's out port j come from that
// neighbour's in port j^1. A node id is its packed coordinates {w, z, y, x}.
// The simulator's one-node model (sim/hdl/skif_node_top.sv) does the same moves
// in C (sim/kernel/node_links.h), from the same rule.
`include "skif_defs.vh"

module skif_torus_links #(
  parameter int NDims = 2,  // torus dimensions used, 1..4 (X, Y, Z, W)
  parameter int SizeX = 4,  // ring size in X, 2..16
  parameter int SizeY = 4,  // ring size in Y, 2..16 if NDims >= 2, else 1
  parameter int SizeZ = 1,  // ring size in Z, 2..16 if NDims >= 3, else 1
  parameter int SizeW = 1,  // ring size in W, 2..16 if NDims == 4, else 1
  parameter int VcW   = 4,  // bits of a link's VC number
  localparam int Nodes = SizeX * SizeY * SizeZ * SizeW,
  localparam int Links = 2 * NDims
) (
  output logic [19:0]              sizes_o,  // ring sizes, 5 bits each, X lowest
  output logic [Nodes*16-1:0]      id_o,     // node ids
  // every node's out ports and in-port credits
  input  logic [Nodes*Links-1:0]      out_valid_i,
  input  logic [Nodes*Links*64-1:0]   out_data_i,
  input  logic [Nodes*Links-1:0]      out_last_i,
  input  logic [Nodes*Links*VcW-1:0]  out_vc_i,
  input  logic [Nodes*Links-1:0]      cr_valid_i,
  input  logic [Nodes*Links*VcW-1:0]  cr_vc_i,
  input  logic [Nodes*Links*2-1:0]    cc_i,
  // every node's in ports and out-port credits
  output logic [Nodes*Links-1:0]      in_valid_o,
  output logic [Nodes*Links*64-1:0]   in_data_o,
  output logic [Nodes*Links-1:0]      in_last_o,
  output logic [Nodes*Links*VcW-1:0]  in_vc_o,
  output logic [Nodes*Links-1:0]      oc_valid_o,
  output logic [Nodes*Links*VcW-1:0]  oc_vc_o,
  output logic [Nodes*Links*2-1:0]    occ_o
);
`ifndef SYNTHESIS
  if (NDims < 1 || NDims > 4) begin : g_bad_ndims
    `SKIF_BAD_PARAM("skif_torus NDims=%0d out of range 1..4", NDims)
  end
  if (SizeX < 2 || SizeX > 16) begin : g_bad_sx
    `SKIF_BAD_PARAM("skif_torus SizeX=%0d out of range 2..16", SizeX)
  end
  if ((NDims >= 2) ? (SizeY < 2 || SizeY > 16) : (SizeY != 1)) begin : g_bad_sy
    `SKIF_BAD_PARAM("skif_torus SizeY=%0d must be 2..16 if NDims >= 2, else 1", SizeY)
  end
  if ((NDims >= 3) ? (SizeZ < 2 || SizeZ > 16) : (SizeZ != 1)) begin : g_bad_sz
    `SKIF_BAD_PARAM("skif_torus SizeZ=%0d must be 2..16 if NDims >= 3, else 1", SizeZ)
  end
  if ((NDims >= 4) ? (SizeW < 2 || SizeW > 16) : (SizeW != 1)) begin : g_bad_sw
    `SKIF_BAD_PARAM("skif_torus SizeW=%0d must be 2..16 if NDims == 4, else 1", SizeW)
  end
`endif

  localparam int StrZ = SizeX * SizeY;
  localparam int StrW = SizeX * SizeY * SizeZ;

  assign sizes_o = {5'(SizeW), 5'(SizeZ), 5'(SizeY), 5'(SizeX)};

  for (genvar i = 0; i < Nodes; i++) begin : g_node
    assign id_o[i*16 +: 16] = {4'(i / StrW), 4'((i / StrZ) % SizeZ), 4'((i / SizeX) % SizeY),
                               4'(i % SizeX)};
    for (genvar j = 0; j < Links; j++) begin : g_port
      localparam int D   = j / 2;
      localparam int Sz  = (D == 0) ? SizeX : (D == 1) ? SizeY : (D == 2) ? SizeZ : SizeW;
      localparam int Str = (D == 0) ? 1 : (D == 1) ? SizeX : (D == 2) ? StrZ : StrW;
      localparam int C   = (i / Str) % Sz;                               // own coordinate
      localparam int Nc  = (j % 2 == 0) ? (C + 1) % Sz : (C + Sz - 1) % Sz; // neighbour's
      localparam int Nb  = i + (Nc - C) * Str;                           // neighbour's rank
      localparam int Src = Nb * Links + (j ^ 1);
      localparam int K   = i * Links + j;
      assign in_valid_o[K]             = out_valid_i[Src];
      assign in_last_o[K]              = out_last_i[Src];
      assign in_data_o[K*64 +: 64]     = out_data_i[Src*64 +: 64];
      assign in_vc_o[K*VcW +: VcW]     = out_vc_i[Src*VcW +: VcW];
      assign oc_valid_o[K]             = cr_valid_i[Src];
      assign oc_vc_o[K*VcW +: VcW]     = cr_vc_i[Src*VcW +: VcW];
      assign occ_o[K*2 +: 2]           = cc_i[Src*2 +: 2];
    end
  end
endmodule
