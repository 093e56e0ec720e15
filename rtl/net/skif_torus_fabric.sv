`timescale 1ns/1ps
// SPDX-License-Identifier: Apache-2.0
// skif_torus_fabric: the network side of a whole 1..4-D torus: every node's
// router and collective engine (skif_torus_node), wired together.
//
// Handshake: per node, the router's local port (inj_* valid/ready, ej_*
// valid/ready, data held while valid && !ready, `last` on the final flit),
// flattened with node i in slice i; ans_inj_*/ans_ej_* the same for its
// answer lanes (RMA answers only, docs/router.md). Node i is rank i in X-fastest order
// (i = x + SizeX*(y + SizeY*(z + SizeZ*w))) and its node id is its packed
// coordinates {w, z, y, x} (4 bits each). Router links use per-VC credits
// (see skif_torus_router); every dimension has its wrap-around links.
// drop_o/drop_cnt_o: packets dropped at injection for a bad dst.
// dbg_busy_o/dbg_move_o: node i's router in slice i (Ports*TotalVcs bits).
`include "skif_defs.vh"

module skif_torus_fabric #(
  parameter int NDims    = 2,  // torus dimensions used, 1..4 (X, Y, Z, W)
  parameter int SizeX    = 4,  // ring size in X, 2..16
  parameter int SizeY    = 4,  // ring size in Y, 2..16 if NDims >= 2, else 1
  parameter int SizeZ    = 1,  // ring size in Z, 2..16 if NDims >= 3, else 1
  parameter int SizeW    = 1,  // ring size in W, 2..16 if NDims == 4, else 1
  parameter int VcDepth  = `SKIF_VC_DEPTH, // flits per input VC buffer, 2..64
  parameter int NumVcs   = `SKIF_NUM_VCS,  // VCs per class, 1..4
  parameter int Dateline = 1,  // 1: dateline VC classes; 0 only to demonstrate the deadlock
  parameter int Trees    = 32, // collective engine: tree table entries (power of two, 2..256)
  parameter int NumChans = 64, // adapter channels (the engine checks result channels against it)
  localparam int Nodes    = SizeX * SizeY * SizeZ * SizeW,
  localparam int SlotW    = $clog2(Trees) + 5,
  localparam int Links    = 2 * NDims,
  localparam int Ports    = Links + 1,
  localparam int TotalVcs = `SKIF_VC_CLASSES * NumVcs,
  localparam int VcW      = $clog2(TotalVcs),
  localparam int DbgW     = Ports * TotalVcs
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic [Nodes-1:0]      inj_valid_i,
  output logic [Nodes-1:0]      inj_ready_o,
  input  logic [Nodes*64-1:0]   inj_data_i,
  input  logic [Nodes-1:0]      inj_last_i,
  output logic [Nodes-1:0]      ej_valid_o,
  input  logic [Nodes-1:0]      ej_ready_i,
  output logic [Nodes*64-1:0]   ej_data_o,
  output logic [Nodes-1:0]      ej_last_o,
  input  logic [Nodes-1:0]      ans_inj_valid_i,
  output logic [Nodes-1:0]      ans_inj_ready_o,
  input  logic [Nodes*64-1:0]   ans_inj_data_i,
  input  logic [Nodes-1:0]      ans_inj_last_i,
  output logic [Nodes-1:0]      ans_ej_valid_o,
  input  logic [Nodes-1:0]      ans_ej_ready_i,
  output logic [Nodes*64-1:0]   ans_ej_data_o,
  output logic [Nodes-1:0]      ans_ej_last_o,
  output logic [Nodes-1:0]      drop_o,
  output logic [Nodes*32-1:0]   drop_cnt_o,
  output logic [Nodes*DbgW-1:0] dbg_busy_o,
  output logic [Nodes*DbgW-1:0] dbg_move_o,
  // collective engines' host side, node i in slice i (skif_coll); inputs
  // left at 0 (as skifnet does) leave the engines idle
  input  logic [Nodes-1:0]      coll_in_valid_i,
  output logic [Nodes-1:0]      coll_in_ready_o,
  input  logic [Nodes*64-1:0]   coll_in_data_i,
  input  logic [Nodes-1:0]      coll_in_last_i,
  output logic [Nodes-1:0]      coll_out_valid_o,
  input  logic [Nodes-1:0]      coll_out_ready_i,
  output logic [Nodes*64-1:0]   coll_out_data_o,
  output logic [Nodes-1:0]      coll_out_last_o,
  output logic [Nodes*8-1:0]    coll_out_chan_o,
  input  logic [Nodes-1:0]      coll_tab_we_i,
  input  logic [Nodes*8-1:0]    coll_tab_sel_i,
  input  logic [Nodes*32-1:0]   coll_tab_wdata_i,
  output logic [Nodes-1:0]      coll_tab_err_o,
  output logic [Nodes*32-1:0]   coll_tab_rdata_o,
  output logic [Nodes*2-1:0]    coll_drop_o,
  output logic [Nodes*32-1:0]   coll_drop_info_o,
  output logic [Nodes-1:0]      coll_err_o,
  output logic [Nodes*32-1:0]   coll_err_info_o,
  input  logic [SlotW-1:0]      coll_dbg_sel_i,       // the slot every engine shows
  output logic [Nodes*(Links+1)-1:0] coll_dbg_got_o,
  output logic [Nodes*(Links+1)-1:0] coll_dbg_exp_o,
  output logic [Nodes*8-1:0]    coll_dbg_state_o
);
  // Links, indexed by node and port: lk_*[i*Links + j] is router i's out
  // port j, cr_*/cc[i*Links + j] its credit outputs for its in port j; in_*,
  // oc_*, occ the same ports' inputs (skif_torus_links).
  logic [Nodes*Links-1:0]     lk_valid, lk_last, cr_valid, in_valid, in_last, oc_valid;
  logic [Nodes*Links*64-1:0]  lk_data, in_data;
  logic [Nodes*Links*VcW-1:0] lk_vc, cr_vc, in_vc, oc_vc;
  logic [Nodes*Links*2-1:0]   cc, occ;  // collective engine credits {dn, up}, like cr_*
  logic [19:0]                sizes;
  logic [Nodes*16-1:0]        id;

  skif_torus_links #(
    .NDims (NDims), .SizeX (SizeX), .SizeY (SizeY), .SizeZ (SizeZ), .SizeW (SizeW), .VcW (VcW)
  ) u_links (
    .sizes_o     (sizes),
    .id_o        (id),
    .out_valid_i (lk_valid),
    .out_data_i  (lk_data),
    .out_last_i  (lk_last),
    .out_vc_i    (lk_vc),
    .cr_valid_i  (cr_valid),
    .cr_vc_i     (cr_vc),
    .cc_i        (cc),
    .in_valid_o  (in_valid),
    .in_data_o   (in_data),
    .in_last_o   (in_last),
    .in_vc_o     (in_vc),
    .oc_valid_o  (oc_valid),
    .oc_vc_o     (oc_vc),
    .occ_o       (occ)
  );

  for (genvar i = 0; i < Nodes; i++) begin : g_node
    // the link registers' next values: for a one-node simulator only
    logic [Links-1:0]     unused_nx_valid, unused_nx_last, unused_nx_cr_valid;
    logic [Links*64-1:0]  unused_nx_data;
    logic [Links*VcW-1:0] unused_nx_vc, unused_nx_cr_vc;
    logic [Links*2-1:0]   unused_nx_cc;
    logic                 unused_wake;  // the engine's clock is not gated here
    skif_torus_node #(
      .NDims    (NDims),
      .VcDepth  (VcDepth),
      .NumVcs   (NumVcs),
      .Dateline (Dateline),
      .Trees    (Trees),
      .NumChans (NumChans)
    ) u_node (
      .clk_i              (clk_i),
      .eng_clk_i          (clk_i),
      .rst_ni             (rst_ni),
      .node_id_i          (id[i*16 +: 16]),
      .sizes_i            (sizes),
      .out_valid_o        (lk_valid[i*Links +: Links]),
      .out_data_o         (lk_data[i*Links*64 +: Links*64]),
      .out_last_o         (lk_last[i*Links +: Links]),
      .out_vc_o           (lk_vc[i*Links*VcW +: Links*VcW]),
      .out_credit_valid_i (oc_valid[i*Links +: Links]),
      .out_credit_vc_i    (oc_vc[i*Links*VcW +: Links*VcW]),
      .out_cc_i           (occ[i*Links*2 +: Links*2]),
      .in_valid_i         (in_valid[i*Links +: Links]),
      .in_data_i          (in_data[i*Links*64 +: Links*64]),
      .in_last_i          (in_last[i*Links +: Links]),
      .in_vc_i            (in_vc[i*Links*VcW +: Links*VcW]),
      .in_credit_valid_o  (cr_valid[i*Links +: Links]),
      .in_credit_vc_o     (cr_vc[i*Links*VcW +: Links*VcW]),
      .in_cc_o            (cc[i*Links*2 +: Links*2]),
      .nx_out_valid_o     (unused_nx_valid),
      .nx_out_data_o      (unused_nx_data),
      .nx_out_last_o      (unused_nx_last),
      .nx_out_vc_o        (unused_nx_vc),
      .nx_in_credit_valid_o (unused_nx_cr_valid),
      .nx_in_credit_vc_o  (unused_nx_cr_vc),
      .nx_in_cc_o         (unused_nx_cc),
      .inj_valid_i        (inj_valid_i[i]),
      .inj_ready_o        (inj_ready_o[i]),
      .inj_data_i         (inj_data_i[i*64 +: 64]),
      .inj_last_i         (inj_last_i[i]),
      .ej_valid_o         (ej_valid_o[i]),
      .ej_ready_i         (ej_ready_i[i]),
      .ej_data_o          (ej_data_o[i*64 +: 64]),
      .ej_last_o          (ej_last_o[i]),
      .ans_inj_valid_i    (ans_inj_valid_i[i]),
      .ans_inj_ready_o    (ans_inj_ready_o[i]),
      .ans_inj_data_i     (ans_inj_data_i[i*64 +: 64]),
      .ans_inj_last_i     (ans_inj_last_i[i]),
      .ans_ej_valid_o     (ans_ej_valid_o[i]),
      .ans_ej_ready_i     (ans_ej_ready_i[i]),
      .ans_ej_data_o      (ans_ej_data_o[i*64 +: 64]),
      .ans_ej_last_o      (ans_ej_last_o[i]),
      .drop_o             (drop_o[i]),
      .drop_cnt_o         (drop_cnt_o[i*32 +: 32]),
      .dbg_busy_o         (dbg_busy_o[i*DbgW +: DbgW]),
      .dbg_move_o         (dbg_move_o[i*DbgW +: DbgW]),
      .coll_in_valid_i    (coll_in_valid_i[i]),
      .coll_in_ready_o    (coll_in_ready_o[i]),
      .coll_in_data_i     (coll_in_data_i[i*64 +: 64]),
      .coll_in_last_i     (coll_in_last_i[i]),
      .coll_out_valid_o   (coll_out_valid_o[i]),
      .coll_out_ready_i   (coll_out_ready_i[i]),
      .coll_out_data_o    (coll_out_data_o[i*64 +: 64]),
      .coll_out_last_o    (coll_out_last_o[i]),
      .coll_out_chan_o    (coll_out_chan_o[i*8 +: 8]),
      .coll_tab_we_i      (coll_tab_we_i[i]),
      .coll_tab_sel_i     (coll_tab_sel_i[i*8 +: 8]),
      .coll_tab_wdata_i   (coll_tab_wdata_i[i*32 +: 32]),
      .coll_tab_err_o     (coll_tab_err_o[i]),
      .coll_tab_rdata_o   (coll_tab_rdata_o[i*32 +: 32]),
      .coll_drop_o        (coll_drop_o[i*2 +: 2]),
      .coll_drop_info_o   (coll_drop_info_o[i*32 +: 32]),
      .coll_err_o         (coll_err_o[i]),
      .coll_err_info_o    (coll_err_info_o[i*32 +: 32]),
      .coll_dbg_sel_i     (coll_dbg_sel_i),
      .coll_dbg_got_o     (coll_dbg_got_o[i*(Links+1) +: Links+1]),
      .coll_dbg_exp_o     (coll_dbg_exp_o[i*(Links+1) +: Links+1]),
      .coll_dbg_state_o   (coll_dbg_state_o[i*8 +: 8]),
      .coll_wake_o        (unused_wake)
    );
  end
endmodule
