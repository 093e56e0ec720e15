// SPDX-License-Identifier: Apache-2.0
// skif_sim_top: simulation top: the adapter network (rtl/net/skif_torus_net,
// one adapter per node on a 1..4-D torus of routers) with a host shim per node.
// Only clock and reset come from C++; all host traffic goes through the shims'
// DPI calls (VPI under Icarus).
`include "skif_defs.vh"

module skif_sim_top #(
  parameter int NDims = 1,  // torus dimensions, 1..4
  parameter int SizeX = 2,  // ring size in X, 2..16
  parameter int SizeY = 1,  // ring size in Y (1 when NDims < 2)
  parameter int SizeZ = 1,  // ring size in Z (1 when NDims < 3)
  parameter int SizeW = 1,  // ring size in W (1 when NDims < 4)
  localparam int Nodes = SizeX * SizeY * SizeZ * SizeW,
  localparam int NetVcs = `SKIF_NUM_VCS,  // VCs per class of the routers (rtl/skif_defs.vh)
  localparam int Links  = 2 * NDims,
  localparam int SlotW  = $clog2(`SKIF_COLL_TREES) + 5
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  output logic [19:0] dims_o,  // {W, Z, Y, X} sizes, 5 bits each: what this model was built for
  output logic [15:0] dbgw_o,  // router debug bits per node (ports x VCs)
  // router debug of every node (skif_torus_net): for the watchdog's report
  output logic [Nodes*(2*NDims+1)*`SKIF_VC_CLASSES*NetVcs-1:0] dbg_busy_o,
  output logic [Nodes*(2*NDims+1)*`SKIF_VC_CLASSES*NetVcs-1:0] dbg_move_o,
  // collective engines: slot coll_sel_i (tree * 32 + reduce id) of every node
  // and the engines' states, for the watchdog's report
  input  logic [SlotW-1:0]           coll_sel_i,
  output logic [Nodes*(Links+1)-1:0] coll_got_o,
  output logic [Nodes*(Links+1)-1:0] coll_exp_o,
  output logic [Nodes*8-1:0]         coll_state_o
);
  assign dbgw_o = 16'((2 * NDims + 1) * `SKIF_VC_CLASSES * NetVcs);
  assign dims_o = {5'(SizeW), 5'(SizeZ), 5'(SizeY), 5'(SizeX)};

  logic [Nodes-1:0]    reg_req_valid, reg_req_ready, reg_req_write;
  logic [Nodes*12-1:0] reg_req_addr;
  logic [Nodes*32-1:0] reg_req_wdata, reg_rsp_rdata;
  logic [Nodes-1:0]    reg_rsp_valid, reg_rsp_err;
  logic [Nodes-1:0]    dma_req_valid, dma_req_ready, dma_req_write;
  logic [Nodes*64-1:0] dma_req_addr, dma_req_wdata, dma_rsp_data;
  logic [Nodes*8-1:0]  dma_req_wstrb;
  logic [Nodes-1:0]    dma_rsp_valid, dma_rsp_err, irq;
  logic [Nodes*32-1:0] net_drop_cnt;  // per node: packets its router dropped (bad destination)

  skif_torus_net #(
    .NDims(NDims), .SizeX(SizeX), .SizeY(SizeY), .SizeZ(SizeZ), .SizeW(SizeW), .NumVcs(NetVcs)
  ) u_net (
    .clk_i, .rst_ni,
    .reg_req_valid_i(reg_req_valid), .reg_req_ready_o(reg_req_ready),
    .reg_req_write_i(reg_req_write), .reg_req_addr_i(reg_req_addr),
    .reg_req_wdata_i(reg_req_wdata), .reg_rsp_valid_o(reg_rsp_valid),
    .reg_rsp_rdata_o(reg_rsp_rdata), .reg_rsp_err_o(reg_rsp_err),
    .dma_req_valid_o(dma_req_valid), .dma_req_ready_i(dma_req_ready),
    .dma_req_write_o(dma_req_write), .dma_req_addr_o(dma_req_addr),
    .dma_req_wdata_o(dma_req_wdata), .dma_req_wstrb_o(dma_req_wstrb),
    .dma_rsp_valid_i(dma_rsp_valid), .dma_rsp_data_i(dma_rsp_data),
    .dma_rsp_err_i(dma_rsp_err), .irq_o(irq), .net_drop_cnt_o(net_drop_cnt),
    .dbg_busy_o, .dbg_move_o,
    .coll_dbg_sel_i(coll_sel_i), .coll_dbg_got_o(coll_got_o), .coll_dbg_exp_o(coll_exp_o),
    .coll_dbg_state_o(coll_state_o)
  );

  for (genvar i = 0; i < Nodes; i++) begin : g_shim
    localparam int Idx = i;
    skif_host_shim u_shim (
      .clk_i, .rst_ni, .node_i(Idx),
      .reg_req_valid_o(reg_req_valid[i]), .reg_req_ready_i(reg_req_ready[i]),
      .reg_req_write_o(reg_req_write[i]), .reg_req_addr_o(reg_req_addr[i*12 +: 12]),
      .reg_req_wdata_o(reg_req_wdata[i*32 +: 32]),
      .reg_rsp_valid_i(reg_rsp_valid[i]), .reg_rsp_rdata_i(reg_rsp_rdata[i*32 +: 32]),
      .reg_rsp_err_i(reg_rsp_err[i]),
      .dma_req_valid_i(dma_req_valid[i]), .dma_req_ready_o(dma_req_ready[i]),
      .dma_req_write_i(dma_req_write[i]), .dma_req_addr_i(dma_req_addr[i*64 +: 64]),
      .dma_req_wdata_i(dma_req_wdata[i*64 +: 64]), .dma_req_wstrb_i(dma_req_wstrb[i*8 +: 8]),
      .dma_rsp_valid_o(dma_rsp_valid[i]), .dma_rsp_data_o(dma_rsp_data[i*64 +: 64]),
      .dma_rsp_err_o(dma_rsp_err[i]), .irq_i(irq[i])
    );
  end
endmodule
