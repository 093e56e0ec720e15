`timescale 1ns/1ps
// SPDX-License-Identifier: Apache-2.0
// tb_torus_net: skif_torus_net (adapters on a torus) with a small host
// memory per node and register-port tasks.
//
// Checks: every adapter's NODE register is its packed coordinates; a message
// from node 0 to the last node arrives in that node's RX ring (entry header
// with src node and length, payload intact, CH_TAIL of channel 7); a message to a node id
// outside the torus is dropped by node 0's router and is visible to software:
// NET_DROPS = 1, STATUS.NET_DROP set (and cleared by writing 1), and
// net_drop_cnt_o; TX_HEAD moves past both messages.
`include "skif_defs.vh"

module tb_torus_net;
  parameter int NDIMS = 2;
  parameter int SX    = 2;
  parameter int SY    = 2;
  parameter int SZ    = 1;
  parameter int SW    = 1;

  localparam int N   = SX * SY * SZ * SW;
  localparam int MW  = 'h21000 / 8;   // host memory words per node
  localparam int TXB = 'h00000, RXB = 'h10000, STB = 'h20000;

  logic clk = 1'b0, rst_n = 1'b0;
  always #5 clk = ~clk;

  int errors = 0;
  `define CHECK(cond, msg) if (!(cond)) begin errors = errors + 1; $error msg; end

  function automatic logic [15:0] nid(input int r);
    int s; logic [15:0] id; s = 1; id = 0;
    for (int d = 0; d < 4; d++) begin
      int sz;
      sz = (d == 0) ? SX : (d == 1) ? SY : (d == 2) ? SZ : SW;
      id[4*d +: 4] = 4'((r / s) % sz);
      s = s * sz;
    end
    return id;
  endfunction

  // ---------------------------------------------------------------- DUT
  logic [N-1:0]    reg_req_valid = '0, reg_req_write = '0;
  logic [N*12-1:0] reg_req_addr = '0;
  logic [N*32-1:0] reg_req_wdata = '0;
  wire  [N-1:0]    reg_req_ready, reg_rsp_valid, reg_rsp_err;
  wire  [N*32-1:0] reg_rsp_rdata;
  wire  [N-1:0]    dma_req_valid, dma_req_write;
  wire  [N*64-1:0] dma_req_addr, dma_req_wdata;
  wire  [N*8-1:0]  dma_req_wstrb;
  logic [N-1:0]    dma_rsp_valid = '0;
  logic [N*64-1:0] dma_rsp_data = '0;
  wire  [N-1:0]    irq;
  wire  [N*32-1:0] net_drop_cnt;

  skif_torus_net #(
    .NDims (NDIMS), .SizeX (SX), .SizeY (SY), .SizeZ (SZ), .SizeW (SW)
  ) u_net (
    .clk_i (clk), .rst_ni (rst_n),
    .reg_req_valid_i (reg_req_valid), .reg_req_ready_o (reg_req_ready), .reg_req_write_i (reg_req_write),
    .reg_req_addr_i (reg_req_addr), .reg_req_wdata_i (reg_req_wdata), .reg_rsp_valid_o (reg_rsp_valid),
    .reg_rsp_rdata_o (reg_rsp_rdata), .reg_rsp_err_o (reg_rsp_err),
    .dma_req_valid_o (dma_req_valid), .dma_req_ready_i ({N{1'b1}}), .dma_req_write_o (dma_req_write),
    .dma_req_addr_o (dma_req_addr), .dma_req_wdata_o (dma_req_wdata), .dma_req_wstrb_o (dma_req_wstrb),
    .dma_rsp_valid_i (dma_rsp_valid), .dma_rsp_data_i (dma_rsp_data), .dma_rsp_err_i ({N{1'b0}}),
    .irq_o (irq), .net_drop_cnt_o (net_drop_cnt)
  );

  // ---------------------------------------------------------------- host memories (read latency 1)
  logic [63:0] mem [N*MW];
  always @(posedge clk) begin
    for (int n = 0; n < N; n++) begin
      dma_rsp_valid[n] <= 1'b0;
      if (rst_n && dma_req_valid[n]) begin
        int w;
        w = n * MW + int'(dma_req_addr[n*64 +: 64] >> 3) % MW;
        if (dma_req_write[n]) mem[w] <= dma_req_wdata[n*64 +: 64];
        else begin
          dma_rsp_valid[n] <= 1'b1;
          dma_rsp_data[n*64 +: 64] <= mem[w];
        end
      end
    end
  end

  // ---------------------------------------------------------------- register tasks
  // Whole vectors are written (not slices at a variable index): Verilator
  // 5.006 --timing misses slice writes made from a task.
  task automatic acc(input int n, input bit w, input logic [11:0] a, input logic [31:0] d, output logic [31:0] rd);
    logic [N-1:0]    v, wv;
    logic [N*12-1:0] av;
    logic [N*32-1:0] dv;
    v = '0; v[n] = 1'b1; wv = '0; wv[n] = w;
    av = '0; av[n*12 +: 12] = a;
    dv = '0; dv[n*32 +: 32] = d;
    @(negedge clk);
    reg_req_valid = v; reg_req_write = wv; reg_req_addr = av; reg_req_wdata = dv;
    @(negedge clk);
    reg_req_valid = '0;
    `CHECK(reg_rsp_valid[n] === 1'b1 && reg_rsp_err[n] === 1'b0, ("node %0d: access %h failed", n, a))
    rd = reg_rsp_rdata[n*32 +: 32];
  endtask
  task automatic wr(input int n, input logic [11:0] a, input logic [31:0] d);
    logic [31:0] r;
    acc(n, 1'b1, a, d, r);
  endtask
  task automatic expect_rd(input int n, input logic [11:0] a, input logic [31:0] exp);
    logic [31:0] r;
    acc(n, 1'b0, a, 0, r);
    `CHECK(r === exp, ("node %0d: read %h = %h, expected %h", n, a, r, exp))
  endtask

  reg [8*256-1:0] wave_file;
  logic [15:0] bad;
  int last;
  initial begin
    if ($value$plusargs("wave=%s", wave_file)) begin
      $dumpfile(wave_file);
      $dumpvars(0, tb_torus_net);
    end
    for (int w = 0; w < N * MW; w++) mem[w] = 64'h0;
    repeat (5) @(posedge clk);
    rst_n = 1'b1;
    repeat (2) @(posedge clk);
    last = N - 1;
    bad = nid(0);
    bad[3:0] = 4'(SX);   // x outside the torus

    for (int n = 0; n < N; n++) begin
      expect_rd(n, `SKIF_REG_NODE, {16'h0, nid(n)});
      expect_rd(n, `SKIF_REG_NET_DROPS, 0);
      wr(n, `SKIF_REG_TX_BASE_LO, TXB); wr(n, `SKIF_REG_TX_SIZE, 12);
      wr(n, `SKIF_REG_CH_SEL, 7); wr(n, `SKIF_REG_CH_BASE_LO, RXB);
      wr(n, `SKIF_REG_CH_CFG, `SKIF_CH_CFG_EN | 12);
      wr(n, `SKIF_REG_STAT_BASE_LO, STB);
      wr(n, `SKIF_REG_CTRL, `SKIF_CTRL_TX_EN | `SKIF_CTRL_RX_EN);
    end

    // node 0: one message to the last node (channel 7), one to a bad node id
    mem[0] = {20'h0, 12'd8, 8'h00, nid(last), 8'h07};
    mem[1] = 64'h1122_3344_5566_7788;
    mem[2] = {20'h0, 12'd8, 8'h00, bad, 8'h01};
    mem[3] = 64'hDEAD_BEEF_DEAD_BEEF;
    wr(0, `SKIF_REG_TX_TAIL, 32);
    repeat (300) @(posedge clk);

    expect_rd(0, `SKIF_REG_TX_HEAD, 32);
    expect_rd(last, `SKIF_REG_CH_TAIL, 16);
    `CHECK(mem[last * MW + RXB / 8] == {20'h0, 12'd8, 8'h00, nid(0), 8'h07},
           ("RX entry header %h", mem[last * MW + RXB / 8]))
    `CHECK(mem[last * MW + RXB / 8 + 1] == 64'h1122_3344_5566_7788, ("RX payload %h", mem[last * MW + RXB / 8 + 1]))
    expect_rd(last, `SKIF_REG_RX_PKTS, 1);
    expect_rd(0, `SKIF_REG_NET_DROPS, 1);
    expect_rd(0, `SKIF_REG_STATUS, `SKIF_STATUS_NET_DROP);
    `CHECK(net_drop_cnt[31:0] == 1, ("net_drop_cnt_o[0] = %0d", net_drop_cnt[31:0]))
    wr(0, `SKIF_REG_STATUS, `SKIF_STATUS_NET_DROP);
    expect_rd(0, `SKIF_REG_STATUS, 0);
    for (int n = 1; n < N; n++) begin
      expect_rd(n, `SKIF_REG_NET_DROPS, 0);
      `CHECK(net_drop_cnt[n*32 +: 32] == 0, ("net_drop_cnt_o[%0d] = %0d", n, net_drop_cnt[n*32 +: 32]))
    end

    if (errors > 0) $fatal(1, "tb_torus_net: %0d errors", errors);
    $display("tb_torus_net NDIMS=%0d %0dx%0dx%0dx%0d: 0 errors", NDIMS, SX, SY, SZ, SW);
    $display("PASS tb_torus_net");
    $finish;
  end
endmodule
