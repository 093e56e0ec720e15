`timescale 1ns/1ps
// SPDX-License-Identifier: Apache-2.0
// tb_skif_rma_net: remote memory access end to end: adapters on a ring
// (skif_torus_net), requests posted in the TX ring (descriptor kind 2), the
// RMA engine of the target answering through its router.
//
// Node A (0) and node B (the last node). B opens a target window (R/W/A)
// and a result window (W); A a result window. Host memories answer the DMA
// port with random ready and a fixed read latency. A posts, in one TX ring
// and mixed with messages to B, puts of many sizes and alignments, gets of
// what it put, atomics of both widths and every op on words of its own,
// 64-bit fetch-adds of 1 on one shared word, and a put that crosses the
// end of B's window; B posts messages to A mixed with fetch-adds of 1 on the
// same word (to itself: its adapter passes them to its engine directly,
// never through its router). Then the self phase: B posts, all at once,
// requests to itself (fetch-adds of 1 and adds of 2^32 on the shared word,
// puts, gets of up to 1024 bytes, atomics of both widths and every op, a put
// refused for its window, a get whose answer B refuses) while its engine
// answers A's gets of 600..2048 bytes and every other node fetch-adds the
// shared word. Every header's src field in the rings is a forged id: the
// adapter must put its own.
//
// Checks: B's memory (the window and beyond it) against a reference built
// in issue order (A's requests are performed in order at B); A's result
// window against the reference's values at each request (get data, old
// values); the shared word's final value is exact and the old values the
// fetch-adds returned are each value from the start to the end once; A's
// completion counters and status words (puts, gets, atomics, one error);
// B's RMA_REFUSED = 1 and RMA_SERVED; every message arrives intact and in
// order in the other node's channel ring; nothing dropped. Self phase: the
// shared word is exact (start + fetch-adds + 2^32 x adds) and the fetch-adds'
// old values (low 32 bits) are each count from the start once, over all
// nodes; B's target range and result window against references built in
// B's issue order; every node's counters and status words; B's REFUSED,
// ERRS, ERR_INFO, ACKS, SERVED; the refused get's answer address untouched.
// Then the two-way storm: A and B each post NSTORM requests to the other at
// once (8-byte puts, puts of 1..512 bytes, gets of 600..1024 bytes), so
// both engines answer while both routers' request buffers are full of the
// other's requests: with answers in the request classes this deadlocked;
// with the answer network it completes. Checked: both target ranges and
// both result windows byte by byte against references built in each
// initiator's issue order, and each node's completion count.
// Prints the
// latency of single requests (doorbell write to A's status words written).
`include "skif_defs.vh"

module tb_skif_rma_net;
  parameter int SX      = 2;    // ring of SX nodes (A = node 0, B = node SX-1)
  parameter int DMA_PCT = 100;  // DMA port ready, percent of cycles
  parameter int LAT     = 2;    // DMA read latency, cycles (>= 1)
  parameter int SEED    = 1;
  parameter int NOPS    = 60;   // A's random requests in the mixed phase
  parameter int NFA     = 24;   // fetch-adds on the shared word from each node
  parameter int NSELF   = 96;   // B's requests to itself in the self phase
  parameter int NFA2    = 32;   // self phase: fetch-adds from each node but B
  parameter int NBG     = 12;   // self phase: A's gets of 600..2048 bytes from B
  parameter int NSTORM  = 96;   // two-way storm: requests A posts to B and B to A, all at once

`define SKIF_TB_XORSHIFT
`include "skif_tb.svh"

  localparam int N   = SX;
  localparam int A   = 0, B = SX - 1;
  localparam int MW  = 'h2C000 / 8;   // host memory words per node
  localparam int TXB = 'h00000, RXB = 'h10000, STB = 'h18000, RST = 'h18800;
  localparam int TW  = 'h20000, TWS = 'h4000;   // B's target window
  localparam int RW  = 'h28000, RWS = 'h4000;   // result windows (A and B)
  localparam int SHW = TW + TWS - 8;             // the shared fetch-add word
  localparam logic [15:0] FORGED = 16'hBEEF;

  // ---------------------------------------------------------------- DUT
  logic [N-1:0]    reg_req_valid = '0, reg_req_write = '0;
  logic [N*12-1:0] reg_req_addr = '0;
  logic [N*32-1:0] reg_req_wdata = '0;
  wire  [N-1:0]    reg_req_ready, reg_rsp_valid, reg_rsp_err;
  wire  [N*32-1:0] reg_rsp_rdata;
  wire  [N-1:0]    dma_req_valid, dma_req_write;
  wire  [N*64-1:0] dma_req_addr, dma_req_wdata;
  wire  [N*8-1:0]  dma_req_wstrb;
  logic [N-1:0]    dma_req_ready = '0;
  logic [N-1:0]    dma_rsp_valid = '0;
  logic [N*64-1:0] dma_rsp_data = '0;
  wire  [N-1:0]    irq;
  wire  [N*32-1:0] net_drop_cnt;

  skif_torus_net #(
    .NDims (1), .SizeX (SX), .SizeY (1)
  ) u_net (
    .clk_i (clk), .rst_ni (rst_n),
    .reg_req_valid_i (reg_req_valid), .reg_req_ready_o (reg_req_ready), .reg_req_write_i (reg_req_write),
    .reg_req_addr_i (reg_req_addr), .reg_req_wdata_i (reg_req_wdata), .reg_rsp_valid_o (reg_rsp_valid),
    .reg_rsp_rdata_o (reg_rsp_rdata), .reg_rsp_err_o (reg_rsp_err),
    .dma_req_valid_o (dma_req_valid), .dma_req_ready_i (dma_req_ready), .dma_req_write_o (dma_req_write),
    .dma_req_addr_o (dma_req_addr), .dma_req_wdata_o (dma_req_wdata), .dma_req_wstrb_o (dma_req_wstrb),
    .dma_rsp_valid_i (dma_rsp_valid), .dma_rsp_data_i (dma_rsp_data), .dma_rsp_err_i ({N{1'b0}}),
    .irq_o (irq), .net_drop_cnt_o (net_drop_cnt), .coll_dbg_sel_i (10'h0)
  );

  // ---------------------------------------------------------------- host memories
  // Random ready; reads answered in order LAT cycles after acceptance.
  logic [63:0] mem [N*MW];
  logic [N-1:0]    pv [LAT];
  logic [N*64-1:0] pd [LAT];
  logic [31:0] rng_d = 32'h1;
  function automatic int rnd_d(input int n);
    rng_d = rng_d ^ (rng_d << 13);
    rng_d = rng_d ^ (rng_d >> 17);
    rng_d = rng_d ^ (rng_d << 5);
    return int'(rng_d % 32'(n));
  endfunction
  initial for (int l = 0; l < LAT; l++) begin pv[l] = '0; pd[l] = '0; end
  always @(posedge clk) begin
    logic [N-1:0]    v;
    logic [N*64-1:0] d;
    v = '0; d = '0;
    for (int n = 0; n < N; n++) begin
      if (rst_n && dma_req_valid[n] && dma_req_ready[n]) begin
        int w;
        w = n * MW + int'(dma_req_addr[n*64 +: 64] >> 3);
        `CHECK(int'(dma_req_addr[n*64 +: 64] >> 3) < MW && dma_req_addr[n*64 +: 3] == 3'd0,
               ("node %0d: DMA address %h", n, dma_req_addr[n*64 +: 64]))
        if (dma_req_write[n]) begin
          `CHECK(dma_req_wstrb[n*8 +: 8] == 8'hFF, ("node %0d: strobe %h", n, dma_req_wstrb[n*8 +: 8]))
          mem[w] <= dma_req_wdata[n*64 +: 64];
        end else begin
          v[n] = 1'b1;
          d[n*64 +: 64] = mem[w];
        end
      end
    end
    for (int l = LAT - 1; l > 0; l--) begin pv[l] <= pv[l-1]; pd[l] <= pd[l-1]; end
    pv[0] <= v; pd[0] <= d;
    dma_rsp_valid <= (LAT == 1) ? v : pv[LAT-2 < 0 ? 0 : LAT-2];
    dma_rsp_data  <= (LAT == 1) ? d : pd[LAT-2 < 0 ? 0 : LAT-2];
  end
  always @(negedge clk) begin
    logic [N-1:0] r;
    for (int n = 0; n < N; n++) r[n] = (rnd_d(100) < DMA_PCT);
    dma_req_ready = r;
  end

  function automatic logic [7:0] mbyte(input int n, input int a);
    return mem[n * MW + a / 8][8 * (a % 8) +: 8];
  endfunction

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
  task automatic win(input int n, input int sel, input int base, input int size, input int perm);
    wr(n, `SKIF_REG_RMA_WIN_SEL, sel);
    wr(n, `SKIF_REG_RMA_WIN_BASE_LO, base); wr(n, `SKIF_REG_RMA_WIN_BASE_HI, 0);
    wr(n, `SKIF_REG_RMA_WIN_SIZE_LO, size); wr(n, `SKIF_REG_RMA_WIN_SIZE_HI, 0);
    wr(n, `SKIF_REG_RMA_WIN_CFG, perm);
  endtask

  // ---------------------------------------------------------------- TX rings
  int tail [N];           // software's producer pointer (bytes, no wrap: the ring is large)
  function automatic void put_word(input int n, input logic [63:0] w);
    mem[n * MW + (TXB + tail[n]) / 8] = w;
    tail[n] += 8;
  endfunction
  function automatic logic [63:0] rhdr(input logic [3:0] kind, input int dst, input logic [3:0] op,
                                       input int len, input int tag);
    return {kind, 16'(dst), FORGED, op, 4'h0, 12'(len), 8'(tag)};
  endfunction
  function automatic logic [63:0] rdesc(input int flits);
    return {4'(`SKIF_DESC_KIND_RMA), 16'h0, 12'(8 * flits), 32'h0};
  endfunction

  // references: B's memory (bytes of [TW, TW + TWS + 0x100)) and A's result window
  logic [7:0] refb [TWS + 'h100];
  logic [7:0] refa [RWS];
  bit         refa_shared [RWS];  // bytes of A's result window written by shared fetch-adds
  logic [7:0] refr [RWS];         // B's result window (the self phase)
  bit         refr_shared [RWS];

  function automatic logic [7:0] pat(input int n, input int a, input int salt);
    logic [31:0] h;
    h = 32'(a) * 32'h9E37_79B1 ^ 32'(n * 7 + salt) * 32'h85EB_CA6B;
    return h[23:16] ^ h[7:0];
  endfunction

  // PUT of len bytes at B's address ta, data from pat(..salt); the reference
  // changes if the whole range lies in the window.
  task automatic post_put(input int dst, input int ta, input int len, input int salt, input int tag);
    int nf;
    logic [63:0] w;
    nf = (len + 7) / 8;
    put_word(A, rdesc(2 + nf));
    put_word(A, rhdr(`SKIF_KIND_RMA_PUT, dst, 4'h0, len, tag));
    put_word(A, 64'(ta));
    for (int f = 0; f < nf; f++) begin
      w = '0;
      for (int b = 0; b < 8; b++) if (8 * f + b < len) w[8*b +: 8] = pat(9, 8 * f + b, salt);
      put_word(A, w);
    end
    if (ta >= TW && ta + len <= TW + TWS)
      for (int b = 0; b < len; b++) refb[ta - TW + b] = pat(9, b, salt);
  endtask
  task automatic post_get(input int dst, input int ta, input int len, input int ra, input int tag);
    put_word(A, rdesc(3));
    put_word(A, rhdr(`SKIF_KIND_RMA_GET, dst, 4'h0, len, tag));
    put_word(A, 64'(ta));
    put_word(A, 64'(ra));
    for (int b = 0; b < len; b++) refa[ra - RW + b] = refb[ta - TW + b];
  endtask
  // An atomic on a word of B only A touches: the reference computes the old
  // value and the new one now.
  task automatic post_atomic(input int dst, input logic [3:0] op, input int width, input int ta,
                             input int ra, input logic [63:0] opnd, input logic [63:0] cmp, input int tag);
    atomic_from(A, dst, op, width, ta, ra, opnd, cmp, tag);
  endtask
  // The same from node `from` (A, or B to itself): the old value's reference
  // is A's result window (refa) or B's (refr).
  task automatic atomic_from(input int from, input int dst, input logic [3:0] op, input int width,
                             input int ta, input int ra, input logic [63:0] opnd,
                             input logic [63:0] cmp, input int tag);
    logic [63:0] old, nw, m;
    put_word(from, rdesc(5));
    put_word(from, rhdr(`SKIF_KIND_RMA_ATOMIC, dst, op, width, tag));
    put_word(from, 64'(ta)); put_word(from, 64'(ra)); put_word(from, opnd); put_word(from, cmp);
    old = '0;
    for (int b = 0; b < width; b++) old[8*b +: 8] = refb[ta - TW + b];
    m = (width == 8) ? '1 : 64'hFFFF_FFFF;
    case (op)
      `SKIF_RMA_OP_FADD, `SKIF_RMA_OP_ADD: nw = (old + opnd) & m;
      `SKIF_RMA_OP_SWAP:                    nw = opnd & m;
      `SKIF_RMA_OP_CSWAP:                   nw = (old == (cmp & m)) ? (opnd & m) : old;
      default:                              nw = old;
    endcase
    for (int b = 0; b < width; b++) refb[ta - TW + b] = nw[8*b +: 8];
    if (op != `SKIF_RMA_OP_ADD)
      for (int b = 0; b < width; b++)
        if (from == A) refa[ra - RW + b] = old[8*b +: 8];
        else           refr[ra - RW + b] = old[8*b +: 8];
  endtask
  // the shared word: 64-bit fetch-add of 1 from node n, old value to ra (in n's result window)
  task automatic post_fa(input int n, input int ra, input int tag);
    put_word(n, rdesc(5));
    put_word(n, rhdr(`SKIF_KIND_RMA_ATOMIC, B, `SKIF_RMA_OP_FADD, 8, tag));
    put_word(n, 64'(SHW)); put_word(n, 64'(ra)); put_word(n, 64'd1); put_word(n, 64'd0);
    if (n == A) for (int b = 0; b < 8; b++) refa_shared[ra - RW + b] = 1'b1;
  endtask

  // ---- B's requests to itself (the self phase), references in B's issue
  // order: B performs its own requests in the order its TX sends them
  task automatic self_put(input int ta, input int len, input int salt, input int tag);
    int nf;
    logic [63:0] w;
    nf = (len + 7) / 8;
    put_word(B, rdesc(2 + nf));
    put_word(B, rhdr(`SKIF_KIND_RMA_PUT, B, 4'h0, len, tag));
    put_word(B, 64'(ta));
    for (int f = 0; f < nf; f++) begin
      w = '0;
      for (int b = 0; b < 8; b++) if (8 * f + b < len) w[8*b +: 8] = pat(11, 8 * f + b, salt);
      put_word(B, w);
    end
    if (ta >= TW && ta + len <= TW + TWS)
      for (int b = 0; b < len; b++) refb[ta - TW + b] = pat(11, b, salt);
  endtask
  task automatic self_get(input int ta, input int len, input int ra, input int tag);
    put_word(B, rdesc(3));
    put_word(B, rhdr(`SKIF_KIND_RMA_GET, B, 4'h0, len, tag));
    put_word(B, 64'(ta));
    put_word(B, 64'(ra));
    if (ra >= RW && ra + len <= RW + RWS)
      for (int b = 0; b < len; b++) refr[ra - RW + b] = refb[ta - TW + b];
  endtask
  task automatic self_atomic(input logic [3:0] op, input int width, input int ta, input int ra,
                             input logic [63:0] opnd, input logic [63:0] cmp, input int tag);
    atomic_from(B, B, op, width, ta, ra, opnd, cmp, tag);
  endtask
  // ---- the two-way storm: node `from` (A or B) to the other; the target
  // range is the other's [TW, TW + 0x3000) (reference refb at B, refta at
  // A), get data lands in from's result window (refa at A, refr at B)
  logic [7:0] refta [TWS];
  task automatic storm_put(input int from, input int ta, input int len, input int salt, input int tag);
    int nf;
    logic [63:0] w;
    nf = (len + 7) / 8;
    put_word(from, rdesc(2 + nf));
    put_word(from, rhdr(`SKIF_KIND_RMA_PUT, (from == A) ? B : A, 4'h0, len, tag));
    put_word(from, 64'(ta));
    for (int f = 0; f < nf; f++) begin
      w = '0;
      for (int b = 0; b < 8; b++) if (8 * f + b < len) w[8*b +: 8] = pat(13 + from, 8 * f + b, salt);
      put_word(from, w);
    end
    for (int b = 0; b < len; b++)
      if (from == A) refb[ta - TW + b] = pat(13 + from, b, salt);
      else           refta[ta - TW + b] = pat(13 + from, b, salt);
  endtask
  task automatic storm_get(input int from, input int ta, input int len, input int ra, input int tag);
    put_word(from, rdesc(3));
    put_word(from, rhdr(`SKIF_KIND_RMA_GET, (from == A) ? B : A, 4'h0, len, tag));
    put_word(from, 64'(ta));
    put_word(from, 64'(ra));
    for (int b = 0; b < len; b++)
      if (from == A) refa[ra - RW + b] = refb[ta - TW + b];
      else           refr[ra - RW + b] = refta[ta - TW + b];
  endtask

  // an op on the shared word from node n (FADD 1, or ADD of 2^32: the low
  // half counts the fetch-adds, the high half the adds)
  task automatic post_sh(input int n, input logic [3:0] op, input int ra, input int tag);
    put_word(n, rdesc(5));
    put_word(n, rhdr(`SKIF_KIND_RMA_ATOMIC, B, op, 8, tag));
    put_word(n, 64'(SHW)); put_word(n, 64'(ra));
    put_word(n, (op == `SKIF_RMA_OP_ADD) ? 64'h1_0000_0000 : 64'd1); put_word(n, 64'd0);
    if (n == A) for (int b = 0; b < 8; b++) refa_shared[ra - RW + b] = 1'b1;
    if (n == B) for (int b = 0; b < 8; b++) refr_shared[ra - RW + b] = 1'b1;
  endtask

  // messages: node n to the other end, channel 7, payload from pat
  int msent [N];
  function automatic int mlen(input int n, input int k);
    return 1 + (k * 37 + n * 11) % 64;
  endfunction
  task automatic post_msg(input int n);
    int len, k, dst;
    logic [63:0] w;
    k = msent[n];
    len = mlen(n, k);
    dst = (n == A) ? B : A;
    put_word(n, {20'h0, 12'(len), 8'h00, 16'(dst), 8'h07});
    for (int f = 0; f < (len + 7) / 8; f++) begin
      w = '0;
      for (int b = 0; b < 8; b++) if (8 * f + b < len) w[8*b +: 8] = pat(n, 8 * f + b, 1000 + k);
      put_word(n, w);
    end
    msent[n] = k + 1;
  endtask

  // A's completions as its status words show them
  function automatic int a_done();
    logic [63:0] w0, w1;
    w0 = mem[A * MW + RST / 8];
    w1 = mem[A * MW + RST / 8 + 1];
    return int'(w0[31:0]) + int'(w0[63:32]) + int'(w1[31:0]) + int'(w1[63:32]);
  endfunction
  function automatic int n_done(input int n);
    logic [63:0] w0, w1;
    w0 = mem[n * MW + RST / 8];
    w1 = mem[n * MW + RST / 8 + 1];
    return int'(w0[31:0]) + int'(w0[63:32]) + int'(w1[31:0]) + int'(w1[63:32]);
  endfunction
  function automatic int b_done();
    logic [63:0] w1;
    w1 = mem[B * MW + RST / 8 + 1];
    return int'(w1[31:0]);
  endfunction
  // until A's and B's completions reach na and nb (-1: any), or limit
  // cycles after c0 (the condition in variables: Verilator 5.006 --timing
  // cannot call a function in a loop condition)
  task automatic until_done(input int na, input int nb, input int c0, input int limit);
    bit go;
    go = 1'b1;
    while (go) begin
      go = ((na >= 0 && a_done() != na) || (nb >= 0 && b_done() != nb)) && cycle - c0 < limit;
      if (go) @(posedge clk);
    end
  endtask
  task automatic doorbell(input int n);
    wr(n, `SKIF_REG_TX_TAIL, tail[n]);
  endtask
  // one request alone: cycles from the doorbell write to the status words
  task automatic measure(input string what);
    int d0, c0;
    d0 = a_done();
    c0 = cycle;
    doorbell(A);
    until_done(d0 + 1, -1, c0, 20000);
    `CHECK(a_done() == d0 + 1, ("%s: no completion", what))
    $display("MEASURE %s: %0d cycles from doorbell to A's status words", what, cycle - c0);
  endtask

  task automatic stuck(input string what);
    if (cycle - wait0 >= 400000) begin
      errors += 1;
      $error("%s: no progress: B's RMA engine in state %0d (answer header %h), A's in %0d, B's TX in %0d",
             what, u_net.g_node[B].u_node.u_adapter.u_rma.state_q, u_net.g_node[B].u_node.u_adapter.u_rma.ohdr_q,
             u_net.g_node[A].u_node.u_adapter.u_rma.state_q, u_net.g_node[B].u_node.u_adapter.u_tx.state_q);
    end
  endtask

  reg [8*256-1:0] wave_file;
  int n_put, n_get, n_atom, n_req_b, tag, bad_tag, ta, len, ra, wait0;
  logic [63:0] v64;
  initial begin
    if ($value$plusargs("wave=%s", wave_file)) begin
      $dumpfile(wave_file);
      $dumpvars(0, tb_skif_rma_net);
    end
    rng = 32'(SEED) * 32'h2545_F491 + 32'h1;
    rng_d = rng ^ 32'h5A5A_1234;
    for (int w = 0; w < N * MW; w++) mem[w] = 64'h0;
    for (int n = 0; n < N; n++) begin
      for (int a = TW; a < TW + TWS + 'h100; a++) mem[n * MW + a / 8][8 * (a % 8) +: 8] = pat(n, a, 7);
      for (int a = RW; a < RW + RWS; a++) mem[n * MW + a / 8][8 * (a % 8) +: 8] = pat(n, a, 8);
      tail[n] = 0;
      msent[n] = 0;
    end
    for (int a = 0; a < TWS + 'h100; a++) refb[a] = pat(B, TW + a, 7);
    for (int a = 0; a < RWS; a++) refa[a] = pat(A, RW + a, 8);
    for (int a = 0; a < RWS; a++) refa_shared[a] = 1'b0;
    repeat (5) @(posedge clk);
    rst_n = 1'b1;
    repeat (2) @(posedge clk);

    for (int n = 0; n < N; n++) begin
      expect_rd(n, `SKIF_REG_RMA_WINDOWS, 8);
      expect_rd(n, `SKIF_REG_RMA_STATUS, 0);
      wr(n, `SKIF_REG_TX_BASE_LO, TXB); wr(n, `SKIF_REG_TX_SIZE, 16);
      wr(n, `SKIF_REG_CH_SEL, 7); wr(n, `SKIF_REG_CH_BASE_LO, RXB);
      wr(n, `SKIF_REG_CH_CFG, `SKIF_CH_CFG_EN | 14);
      wr(n, `SKIF_REG_STAT_BASE_LO, STB);
      wr(n, `SKIF_REG_RMA_STAT_LO, RST);
      expect_rd(n, `SKIF_REG_RMA_STAT_LO, RST);
      win(n, 1, RW, RWS, `SKIF_RMA_PERM_W);
      wr(n, `SKIF_REG_CTRL, `SKIF_CTRL_TX_EN | `SKIF_CTRL_RX_EN);
    end
    win(B, 0, TW, TWS, `SKIF_RMA_PERM_R | `SKIF_RMA_PERM_W | `SKIF_RMA_PERM_A);
    expect_rd(B, `SKIF_REG_RMA_WIN_RBASE_LO, TW);
    expect_rd(B, `SKIF_REG_RMA_WIN_RSIZE_LO, TWS);
    expect_rd(B, `SKIF_REG_RMA_WIN_CFG, 7);
    // read-only RMA registers refuse writes through the register block
    begin
      logic [31:0] r;
      acc(B, 1'b0, `SKIF_REG_RMA_PUTS, 0, r);
      `CHECK(r == 0, ("RMA_PUTS %0d", r))
    end

    // ---- latency of single requests, A alone
    n_put = 0; n_get = 0; n_atom = 0; tag = 0;
    post_put(B, TW, 8, 1, tag++); n_put++;      measure("put 8 B aligned");
    post_put(B, TW + 3, 5, 2, tag++); n_put++;  measure("put 5 B unaligned");
    post_put(B, TW + 8, 2048, 3, tag++); n_put++; measure("put 2048 B aligned");
    post_get(B, TW, 8, RW, tag++); n_get++;     measure("get 8 B");
    post_get(B, TW + 8, 2048, RW + 8, tag++); n_get++; measure("get 2048 B");
    post_atomic(B, `SKIF_RMA_OP_FADD, 8, TW + 'h3000, RW + 'h3000, 64'd5, 64'd0, tag++); n_atom++;
    measure("fetch-add 64");

    // ---- mixed phase: A's requests and messages to B, B's messages to A
    for (int i = 0; i < NOPS; i++) begin
      int r;
      r = rnd(10);
      if (r < 4) begin
        // puts of every kind of size and alignment
        case (rnd(4))
          0: len = 1 + rnd(17);
          1: len = 1 + rnd(300);
          2: len = 1 + rnd(2048);
          default: len = 8 * (1 + rnd(32));
        endcase
        ta = TW + rnd(TWS - 'h200 - len);
        post_put(B, ta, len, 100 + i, tag++); n_put++;
      end else if (r < 6) begin
        len = 1 + rnd(r == 4 ? 40 : 1024);
        ta = TW + rnd(TWS - 'h200 - len);
        ra = RW + 'h1000 + rnd('h2000 - len);   // later gets overwrite earlier ones, in order
        post_get(B, ta, len, ra, tag++); n_get++;
      end else if (r < 8) begin
        logic [3:0] op;
        int wd;
        op = 4'(rnd(5));
        wd = rnd(2) ? 8 : 4;
        ta = TW + 'h3F00 + 8 * rnd(8) + ((wd == 4) ? 4 * rnd(2) : 0);
        ra = RW + 'h3C00 + 8 * i;
        v64 = {32'(rnd(1 << 30)), 32'(rnd(1 << 30))};
        post_atomic(B, op, wd, ta, ra, v64, rnd(2) ? {refb[ta - TW + 7], refb[ta - TW + 6],
                    refb[ta - TW + 5], refb[ta - TW + 4], refb[ta - TW + 3], refb[ta - TW + 2],
                    refb[ta - TW + 1], refb[ta - TW]} : v64, tag++);
        n_atom++;
      end else begin
        post_msg(A);
      end
    end
    // the out-of-window put (crosses the window's end): refused at B
    bad_tag = tag;
    post_put(B, TW + TWS - 8, 16, 999, tag++);
    for (int i = 0; i < NOPS / 2; i++) post_msg(B);
    `CHECK(tail[A] < 'h8000, ("TX ring overflow: %h", tail[A]))
    wait0 = cycle;
    wr(A, `SKIF_REG_TX_TAIL, tail[A]);
    wr(B, `SKIF_REG_TX_TAIL, tail[B]);
    until_done(n_put + n_get + n_atom + 1, -1, wait0, 400000);
    stuck("mixed phase");
    $display("mixed phase: A %0d puts, %0d gets, %0d atomics, 1 refused put, %0d messages; B %0d messages: %0d cycles",
             n_put, n_get, n_atom, msent[A], msent[B], cycle - wait0);

    // ---- the shared word: fetch-adds from A and from B to itself, each
    // node's whole ring at once, with messages
    for (int i = 0; i < NFA; i++) begin
      post_fa(A, RW + 'h3800 + 8 * i, tag++);
      post_msg(A);
      post_msg(B);
      post_msg(B);
      post_fa(B, RW + 'h3800 + 8 * i, i);
    end
    n_atom += NFA;
    n_req_b = NFA;
    wait0 = cycle;
    wr(A, `SKIF_REG_TX_TAIL, tail[A]);
    wr(B, `SKIF_REG_TX_TAIL, tail[B]);
    until_done(n_put + n_get + n_atom + 1, n_req_b, wait0, 400000);
    stuck("fetch-add phase");
    $display("fetch-add phase: %0d from A, %0d from B: %0d cycles", NFA, NFA, cycle - wait0);
    `CHECK(tail[A] < 'h10000 && tail[B] < 'h10000, ("TX ring overflow: %h %h", tail[A], tail[B]))
    repeat (3000) @(posedge clk);   // the messages' last status writes

    // ---- A's completions
    expect_rd(A, `SKIF_REG_RMA_PUTS, n_put);
    expect_rd(A, `SKIF_REG_RMA_GETS, n_get);
    expect_rd(A, `SKIF_REG_RMA_ATOMS, n_atom);
    expect_rd(A, `SKIF_REG_RMA_ERRS, 1);
    expect_rd(A, `SKIF_REG_RMA_ACKS, n_put + n_atom + 1);
    expect_rd(A, `SKIF_REG_RMA_STATUS, `SKIF_RMA_STATUS_RSP_ERR);
    v64 = mem[A * MW + RST / 8];
    `CHECK(v64 == {32'(n_get), 32'(n_put)}, ("A status word 0 %h", v64))
    v64 = mem[A * MW + RST / 8 + 1];
    `CHECK(v64 == {32'd1, 32'(n_atom)}, ("A status word 1 %h", v64))
    expect_rd(A, `SKIF_REG_RMA_ERR_INFO, {16'(B), 8'(bad_tag), 4'(`SKIF_KIND_RMA_ACK), 4'(`SKIF_RMA_ERR_WIN)});
    expect_rd(A, `SKIF_REG_RMA_REFUSED, 0);
    // ---- B's side
    expect_rd(B, `SKIF_REG_RMA_REFUSED, 1);
    // (src as the adapter filled it in, not the forged one of the ring)
    expect_rd(B, `SKIF_REG_RMA_ERR_INFO, {16'(A), 8'(bad_tag), 4'(`SKIF_KIND_RMA_PUT), 4'(`SKIF_RMA_ERR_WIN)});
    expect_rd(B, `SKIF_REG_RMA_STATUS, `SKIF_RMA_STATUS_REFUSED);
    expect_rd(B, `SKIF_REG_RMA_SERVED, n_put + n_get + n_atom + NFA);
    expect_rd(B, `SKIF_REG_RMA_ATOMS, NFA);
    expect_rd(B, `SKIF_REG_RMA_ERRS, 0);
    wr(B, `SKIF_REG_RMA_STATUS, `SKIF_RMA_STATUS_REFUSED);
    expect_rd(B, `SKIF_REG_RMA_STATUS, 0);
    for (int n = 0; n < N; n++) begin
      expect_rd(n, `SKIF_REG_NET_DROPS, 0);
      expect_rd(n, `SKIF_REG_RX_DROPS, 0);
      expect_rd(n, `SKIF_REG_STATUS, 0);
      expect_rd(n, `SKIF_REG_TX_HEAD, tail[n]);
    end

    // ---- B's memory: the window and the bytes after it
    begin
      int bad;
      bad = 0;
      for (int a = 0; a < TWS + 'h100; a++) begin
        if (!(TW + a >= SHW && TW + a < SHW + 8) && mbyte(B, TW + a) !== refb[a]) begin
          if (bad < 8) $error("B byte %h = %h, expected %h", TW + a, mbyte(B, TW + a), refb[a]);
          bad++;
        end
      end
      if (bad > 0) errors += 1;
      $display("B's memory: %0d bytes against the reference, %0d differ", TWS + 'h100 - 8, bad);
    end
    // ---- A's result window
    begin
      int bad;
      bad = 0;
      for (int a = 0; a < RWS; a++) begin
        if (!refa_shared[a] && mbyte(A, RW + a) !== refa[a]) begin
          if (bad < 8) $error("A result byte %h = %h, expected %h", RW + a, mbyte(A, RW + a), refa[a]);
          bad++;
        end
      end
      if (bad > 0) errors += 1;
    end
    // ---- the shared word: exact, and every old value returned once
    begin
      logic [63:0] init, fin;
      bit seen [2 * NFA];
      for (int b = 0; b < 8; b++) init[8*b +: 8] = refb[SHW - TW + b];
      fin = mem[B * MW + SHW / 8];
      `CHECK(fin == init + 64'(2 * NFA), ("shared word %h, expected %h", fin, init + 64'(2 * NFA)))
      for (int i = 0; i < 2 * NFA; i++) seen[i] = 0;
      for (int n = 0; n < 2; n++)
        for (int i = 0; i < NFA; i++) begin
          logic [63:0] o;
          o = mem[(n == 0 ? A : B) * MW + (RW + 'h3800) / 8 + i] - init;
          `CHECK(o < 64'(2 * NFA) && !seen[int'(o)], ("node %0d fetch-add %0d returned %h", n, i, o + init))
          if (o < 64'(2 * NFA)) seen[int'(o)] = 1;
        end
    end
    // ---- messages, both ways, in their rings in order
    for (int n = 0; n < 2; n++) begin
      int src, dst, p, bad;
      src = (n == 0) ? A : B;
      dst = (n == 0) ? B : A;
      p = 0; bad = 0;
      expect_rd(dst, `SKIF_REG_RX_PKTS, msent[src]);
      for (int k = 0; k < msent[src]; k++) begin
        logic [63:0] h;
        len = mlen(src, k);
        h = mem[dst * MW + (RXB + p) / 8];
        if (h != {20'h0, 12'(len), 8'h0, 16'(src), 8'h07}) bad++;
        for (int b = 0; b < len; b++) if (mbyte(dst, RXB + p + 8 + b) != pat(src, b, 1000 + k)) bad++;
        p += 8 + 8 * ((len + 7) / 8);
      end
      `CHECK(bad == 0, ("messages %0d -> %0d: %0d bad bytes or headers", src, dst, bad))
      $display("messages %0d -> %0d: %0d intact, in order", src, dst, msent[src]);
    end

    // ---- the self phase: B's requests to itself while it answers A's long
    // gets and every other node's fetch-adds on the shared word
    begin
      logic [63:0] sh0, fin, m;
      int nfa_b, nadd_b, nsp, nsg, nsa, bad_get_tag, bad_put_tag, fa_i, c0, go, b_acks0, b_srv0;
      int ndone [N];
      int nexp [N];
      bit seen [NFA2 * 8 + NSELF];
      int nfa_all;
      for (int a = 0; a < RWS; a++) begin
        refr[a] = mbyte(B, RW + a);
        refr_shared[a] = 1'b0;
      end
      for (int b = 0; b < 8; b++) sh0[8*b +: 8] = mbyte(B, SHW + b);
      begin
        logic [31:0] r;
        acc(B, 1'b0, `SKIF_REG_RMA_ACKS, 0, r);    b_acks0 = int'(r);
        acc(B, 1'b0, `SKIF_REG_RMA_SERVED, 0, r);  b_srv0 = int'(r);
      end
      for (int n = 0; n < N; n++) ndone[n] = n_done(n);
      // the others: A gets 600..2048 bytes from [TW, TW + 0x2000) (nobody
      // writes there now) and fetch-adds; the middle node (ring of 3)
      // fetch-adds
      for (int i = 0; i < NFA2; i++) begin
        if (i < NBG) begin
          len = 600 + rnd(2048 - 600 + 1);
          ta = TW + rnd('h2000 - len);
          ra = RW + 'h1000 + rnd('h2000 - len);
          post_get(B, ta, len, ra, tag++); n_get++;
        end
        post_sh(A, `SKIF_RMA_OP_FADD, RW + 'h3900 + 8 * i, tag++); n_atom++;
        for (int n = 1; n < N - 1; n++) post_sh(n, `SKIF_RMA_OP_FADD, RW + 'h3900 + 8 * i, i);
      end
      // B to itself: fetch-adds and adds on the shared word, puts and gets
      // in [TW + 0x2000, TW + 0x3000) at any alignment, atomics on words at
      // TW + 0x3E00 (results at RW + 0x3C00), one refused put (crosses the
      // window's end) and one get whose answer B refuses (its address in no
      // window)
      nfa_b = 0; nadd_b = 0; nsp = 0; nsg = 0; nsa = 0; fa_i = 0;
      for (int i = 0; i < NSELF; i++) begin
        if (i % 3 == 0) begin
          post_sh(B, `SKIF_RMA_OP_FADD, RW + 'h3900 + 8 * fa_i, i); fa_i++; nfa_b++;
        end else if (i % 3 == 1 && rnd(3) == 0) begin
          post_sh(B, `SKIF_RMA_OP_ADD, RW + 'h3B00, i); nadd_b++;
        end else begin
          case (rnd(3))
            0: begin
              len = rnd(2) ? 1 + rnd(64) : 1 + rnd(512);
              ta = TW + 'h2000 + rnd('h1000 - len);
              self_put(ta, len, 300 + i, i); nsp++;
            end
            1: begin
              len = rnd(2) ? 1 + rnd(64) : 1 + rnd(1024);
              ta = TW + 'h2000 + rnd('h1000 - len);
              ra = RW + 'h1000 + rnd('h2000 - len);
              self_get(ta, len, ra, i); nsg++;
            end
            default: begin
              logic [3:0] op;
              int wd;
              op = 4'(rnd(5));
              wd = rnd(2) ? 8 : 4;
              ta = TW + 'h3E00 + 8 * rnd(8) + ((wd == 4) ? 4 * rnd(2) : 0);
              ra = RW + 'h3C00 + 8 * nsa + ((wd == 4) ? 4 * rnd(2) : 0);
              v64 = {32'(rnd(1 << 30)), 32'(rnd(1 << 30))};
              self_atomic(op, wd, ta, ra, v64, rnd(2) ? {refb[ta - TW + 7], refb[ta - TW + 6],
                          refb[ta - TW + 5], refb[ta - TW + 4], refb[ta - TW + 3], refb[ta - TW + 2],
                          refb[ta - TW + 1], refb[ta - TW]} : v64, i);
              nsa++;
            end
          endcase
        end
        if (i == NSELF / 2) begin
          bad_put_tag = 200;
          self_put(TW + TWS - 4, 16, 299, bad_put_tag);
        end
      end
      bad_get_tag = 201;
      self_get(TW + 'h2000, 64, RST + 'h100, bad_get_tag);
      `CHECK(tail[A] < 'h10000 && tail[B] < 'h10000, ("TX ring overflow: %h %h", tail[A], tail[B]))
      for (int n = 0; n < N; n++) begin
        nexp[n] = ndone[n] + ((n == B) ? NSELF + 2 : (n == A) ? NFA2 + NBG : NFA2);
        wr(n, `SKIF_REG_TX_TAIL, tail[n]);
      end
      c0 = cycle;
      wait0 = cycle;
      go = 1;
      while (go) begin
        go = 0;
        for (int n = 0; n < N; n++) if (n_done(n) != nexp[n]) go = 1;
        if (cycle - c0 >= 400000) go = 0;
        if (go) @(posedge clk);
      end
      stuck("self phase");
      for (int n = 0; n < N; n++)
        `CHECK(n_done(n) == nexp[n], ("self phase: node %0d %0d completions, expected %0d", n, n_done(n), nexp[n]))
      $display("self phase: B to itself %0d fetch-adds, %0d adds, %0d puts, %0d gets, %0d atomics, 2 in error; A %0d gets of 600..2048 B; %0d fetch-adds from each other node: %0d cycles",
               nfa_b, nadd_b, nsp, nsg, nsa, NBG, NFA2, cycle - c0);
      // the shared word: exact; every fetch-add's old value once
      nfa_all = NFA2 * (N - 1) + nfa_b;
      fin = mem[B * MW + SHW / 8];
      `CHECK(fin == sh0 + 64'(nfa_all) + {32'(nadd_b), 32'h0},
             ("self phase: shared word %h, expected %h", fin, sh0 + 64'(nfa_all) + {32'(nadd_b), 32'h0}))
      for (int i = 0; i < nfa_all; i++) seen[i] = 0;
      for (int n = 0; n < N; n++)
        for (int i = 0; i < ((n == B) ? nfa_b : NFA2); i++) begin
          logic [63:0] o;
          o = mem[n * MW + (RW + 'h3900) / 8 + i] - sh0;
          `CHECK(o[31:0] < 32'(nfa_all) && o[63:32] <= 32'(nadd_b) && !seen[int'(o[31:0])],
                 ("self phase: node %0d fetch-add %0d returned %h (start %h)", n, i, o + sh0, sh0))
          if (o[31:0] < 32'(nfa_all)) seen[int'(o[31:0])] = 1;
        end
      // B's memory (its target window and after) and result window
      begin
        int bad;
        bad = 0;
        for (int a = 0; a < TWS + 'h100; a++)
          if (!(TW + a >= SHW && TW + a < SHW + 8) && mbyte(B, TW + a) !== refb[a]) begin
            if (bad < 8) $error("self phase: B byte %h = %h, expected %h", TW + a, mbyte(B, TW + a), refb[a]);
            bad++;
          end
        for (int a = 0; a < RWS; a++)
          if (!refr_shared[a] && mbyte(B, RW + a) !== refr[a]) begin
            if (bad < 8) $error("self phase: B result byte %h = %h, expected %h", RW + a, mbyte(B, RW + a), refr[a]);
            bad++;
          end
        `CHECK(mem[B * MW + (RST + 'h100) / 8] == 64'h0 && mem[B * MW + (RST + 'h108) / 8] == 64'h0,
               ("self phase: the refused answer was written"))
        if (bad > 0) errors += 1;
        $display("self phase: B's memory and result window: %0d bytes differ", bad);
      end
      // A's result window (its long gets)
      begin
        int bad;
        bad = 0;
        for (int a = 0; a < RWS; a++)
          if (!refa_shared[a] && mbyte(A, RW + a) !== refa[a]) bad++;
        `CHECK(bad == 0, ("self phase: A's result window: %0d bytes differ", bad))
      end
      // counters: B's own completions, its refusals, ACKs, served
      expect_rd(A, `SKIF_REG_RMA_GETS, n_get);
      expect_rd(A, `SKIF_REG_RMA_ATOMS, n_atom);
      expect_rd(A, `SKIF_REG_RMA_ERRS, 1);
      expect_rd(B, `SKIF_REG_RMA_PUTS, nsp);
      expect_rd(B, `SKIF_REG_RMA_GETS, nsg);
      expect_rd(B, `SKIF_REG_RMA_ATOMS, NFA + nfa_b + nadd_b + nsa);
      expect_rd(B, `SKIF_REG_RMA_ERRS, 2);
      v64 = mem[B * MW + RST / 8];
      `CHECK(v64 == {32'(nsg), 32'(nsp)}, ("B status word 0 %h", v64))
      v64 = mem[B * MW + RST / 8 + 1];
      `CHECK(v64 == {32'd2, 32'(NFA + nfa_b + nadd_b + nsa)}, ("B status word 1 %h", v64))
      expect_rd(B, `SKIF_REG_RMA_REFUSED, 2);
      expect_rd(B, `SKIF_REG_RMA_STATUS, `SKIF_RMA_STATUS_REFUSED | `SKIF_RMA_STATUS_RSP_ERR);
      expect_rd(B, `SKIF_REG_RMA_ERR_INFO, {16'(B), 8'(bad_get_tag), 4'(`SKIF_KIND_RMA_GET_RESP), 4'(`SKIF_RMA_ERR_WIN)});
      // ACKs: B's puts (the refused one's error ACK too) and atomics
      expect_rd(B, `SKIF_REG_RMA_ACKS, b_acks0 + nsp + 1 + nfa_b + nadd_b + nsa);
      // served: every request B performed with code OK (the get whose
      // answer B refused was served)
      expect_rd(B, `SKIF_REG_RMA_SERVED, b_srv0 + NBG + NFA2 * (N - 1) + nfa_b + nadd_b + nsp + nsg + nsa + 1);
      for (int n = 0; n < N; n++) begin
        expect_rd(n, `SKIF_REG_NET_DROPS, 0);
        expect_rd(n, `SKIF_REG_STATUS, 0);
      end
      wr(B, `SKIF_REG_RMA_STATUS, `SKIF_RMA_STATUS_REFUSED | `SKIF_RMA_STATUS_RSP_ERR);
    end

    // ---- the two-way storm: A and B post NSTORM requests each to the
    // other at once (ring of 2: through both directions of the same links;
    // ring of 3: A and B are neighbours through the wrap link)
    begin
      int ndone [N];
      int nexp [N];
      int go, c0, bad, k;
      win(A, 0, TW, TWS, `SKIF_RMA_PERM_R | `SKIF_RMA_PERM_W);
      for (int a = 0; a < TWS; a++) refta[a] = mbyte(A, TW + a);
      for (int n = 0; n < N; n++) ndone[n] = n_done(n);
      k = 0;
      for (int i = 0; i < NSTORM; i++) begin
        for (int from = 0; from < 2; from++) begin
          int f;
          f = (from == 0) ? A : B;
          case (i % 8)
            0, 2, 4, 6, 7: begin  // 8-byte aligned puts: the engine's fast path, 1-flit ACKs
              ta = TW + 8 * rnd('h3000 / 8);
              storm_put(f, ta, 8, 500 + k, 100 + i);
            end
            1, 5: begin           // gets of 600..1024 bytes: long GET_RESPs
              len = 600 + rnd(425);
              ta = TW + rnd('h3000 - len);
              ra = RW + 'h1000 + rnd('h2000 - len);
              storm_get(f, ta, len, ra, 100 + i);
            end
            default: begin        // puts of 1..512 bytes at any alignment
              len = 1 + rnd(512);
              ta = TW + rnd('h3000 - len);
              storm_put(f, ta, len, 500 + k, 100 + i);
            end
          endcase
          k++;
        end
      end
      `CHECK(tail[A] < 'h10000 && tail[B] < 'h10000, ("TX ring overflow: %h %h", tail[A], tail[B]))
      for (int n = 0; n < N; n++) nexp[n] = ndone[n] + ((n == A || n == B) ? NSTORM : 0);
      wr(A, `SKIF_REG_TX_TAIL, tail[A]);
      wr(B, `SKIF_REG_TX_TAIL, tail[B]);
      c0 = cycle;
      wait0 = cycle - 200000;  // stuck() reports after 200000 cycles
      go = 1;
      while (go) begin
        go = 0;
        for (int n = 0; n < N; n++) if (n_done(n) != nexp[n]) go = 1;
        if (cycle - c0 >= 200000) go = 0;
        if (go) @(posedge clk);
      end
      stuck("two-way storm");
      for (int n = 0; n < N; n++)
        `CHECK(n_done(n) == nexp[n], ("storm: node %0d %0d completions, expected %0d", n, n_done(n), nexp[n]))
      bad = 0;
      for (int a = 0; a < 'h3000; a++) begin
        if (mbyte(B, TW + a) !== refb[a]) begin
          if (bad < 8) $error("storm: B byte %h = %h, expected %h", TW + a, mbyte(B, TW + a), refb[a]);
          bad++;
        end
        if (mbyte(A, TW + a) !== refta[a]) begin
          if (bad < 8) $error("storm: A byte %h = %h, expected %h", TW + a, mbyte(A, TW + a), refta[a]);
          bad++;
        end
      end
      for (int a = 0; a < RWS; a++) begin
        if (!refa_shared[a] && mbyte(A, RW + a) !== refa[a]) begin
          if (bad < 8) $error("storm: A result byte %h = %h, expected %h", RW + a, mbyte(A, RW + a), refa[a]);
          bad++;
        end
        if (!refr_shared[a] && mbyte(B, RW + a) !== refr[a]) begin
          if (bad < 8) $error("storm: B result byte %h = %h, expected %h", RW + a, mbyte(B, RW + a), refr[a]);
          bad++;
        end
      end
      if (bad > 0) errors += 1;
      for (int n = 0; n < N; n++) expect_rd(n, `SKIF_REG_NET_DROPS, 0);
      $display("two-way storm: %0d requests each way at once (8-byte puts, puts to 512 B, gets of 600..1024 B): %0d cycles, %0d bytes differ; TX rings used %0d and %0d bytes",
               NSTORM, cycle - c0, bad, tail[A], tail[B]);
    end

    // ---- software may not send answers: a kind-2 entry whose header is an
    // ACK halts TX with nothing sent (TX_ERR, ERR_INFO = its head)
    begin
      int h;
      h = tail[A];
      put_word(A, rdesc(1));
      put_word(A, rhdr(`SKIF_KIND_RMA_ACK, B, 4'h0, 0, 0));
      doorbell(A);
      repeat (200) @(posedge clk);
      expect_rd(A, `SKIF_REG_STATUS, `SKIF_STATUS_TX_ERR);
      expect_rd(A, `SKIF_REG_ERR_INFO, h);
      expect_rd(A, `SKIF_REG_TX_HEAD, h);
      expect_rd(B, `SKIF_REG_RMA_REFUSED, 2);
      expect_rd(B, `SKIF_REG_RMA_STATUS, 0);
    end

    if (errors > 0) $fatal(1, "tb_skif_rma_net: %0d errors", errors);
    $display("tb_skif_rma_net SX=%0d DMA_PCT=%0d LAT=%0d SEED=%0d: %0d cycles, 0 errors", SX, DMA_PCT, LAT, SEED, cycle);
    $display("PASS tb_skif_rma_net");
    $finish;
  end
endmodule
