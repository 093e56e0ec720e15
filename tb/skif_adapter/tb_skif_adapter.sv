`timescale 1ns/1ps
// SPDX-License-Identifier: Apache-2.0
// tb_skif_adapter: NODES adapters on a 1-D torus (skif_torus_net) with
// behavioural host memories; software-like tasks drive the register ports.
// Every node opens two channels (0 and CH1) with a ring each.
//
// Checks: register map and error responses; every message lands intact in the
// ring of its destination channel, in order per (source, channel), with the
// right header and zeroed tail bytes; TX_HEAD and each channel's tail are
// published in the status block; a full ring back-pressures without loss; a
// message to a closed channel is discarded and counted (CH_DROPS,
// STATUS.CH_DROP, ERR_INFO = channel); a bad TX descriptor sets TX_ERR and TX
// resumes after repair; counters; irq; DMA and link protocol; the COLL_PIO
// window (write-only, bad descriptors refused, launches held while the
// engine does not take them, each launch handed to the collective engine
// whole: COLL_SENT, and for a tree not programmed COLL_DROPS). Also measures
// doorbell-to-first-flit latency and 8-byte message throughput.
`include "skif_defs.vh"

module tb_skif_adapter;
  parameter int NODES = 3;        // ring size
  parameter int LAT   = 20;       // host memory read latency, cycles
  parameter int TXL   = 13;       // log2 TX ring bytes (<= 16)
  parameter int RXL   = 12;       // log2 RX ring bytes (<= 16)
  parameter int NMSG  = 24;       // random messages per node
  parameter int SEED  = 1;        // random seed
  parameter int MAXRD = 128;      // DmaMaxReads
  parameter int TIMEOUT_NS = 20_000_000;  // global watchdog

  localparam int CH1  = 3;            // the second open channel
  localparam int MW   = ('h30000 + 'h100 + 8 * 64) / 8;  // host memory words per node
  localparam int TXB  = 'h00000;      // TX ring base
  localparam int RXB  = 'h10000;      // channel 0's ring
  localparam int RXB1 = 'h20000;      // channel CH1's ring
  localparam int STB  = 'h30000;      // status block
  localparam int MAXQ = 1024;         // messages per (src,dst) pair tracked

  `define SKIF_TB_XORSHIFT
  `include "skif_tb.svh"  // clk, rst_n, cycle, errors, `CHECK, rnd

  // ---------------------------------------------------------------- DUT
  logic [NODES-1:0]    reg_req_valid = '0, reg_req_write = '0;
  logic [NODES*12-1:0] reg_req_addr = '0;
  logic [NODES*32-1:0] reg_req_wdata = '0;
  wire  [NODES-1:0]    reg_req_ready, reg_rsp_valid, reg_rsp_err;
  wire  [NODES*32-1:0] reg_rsp_rdata;
  wire  [NODES-1:0]    dma_req_valid, dma_req_write;
  logic [NODES-1:0]    dma_req_ready = '0;
  wire  [NODES*64-1:0] dma_req_addr, dma_req_wdata;
  wire  [NODES*8-1:0]  dma_req_wstrb;
  wire  [NODES-1:0]    dma_rsp_valid, dma_rsp_err;
  wire  [NODES*64-1:0] dma_rsp_data;
  wire  [NODES-1:0]    irq;
  wire  [NODES*32-1:0] net_drop_cnt;

  skif_torus_net #(
    .NDims       (1),
    .SizeX       (NODES),
    .SizeY       (1),
    .DmaMaxReads (MAXRD)
  ) u_net (
    .clk_i           (clk),
    .rst_ni          (rst_n),
    .reg_req_valid_i (reg_req_valid),
    .reg_req_ready_o (reg_req_ready),
    .reg_req_write_i (reg_req_write),
    .reg_req_addr_i  (reg_req_addr),
    .reg_req_wdata_i (reg_req_wdata),
    .reg_rsp_valid_o (reg_rsp_valid),
    .reg_rsp_rdata_o (reg_rsp_rdata),
    .reg_rsp_err_o   (reg_rsp_err),
    .dma_req_valid_o (dma_req_valid),
    .dma_req_ready_i (dma_req_ready),
    .dma_req_write_o (dma_req_write),
    .dma_req_addr_o  (dma_req_addr),
    .dma_req_wdata_o (dma_req_wdata),
    .dma_req_wstrb_o (dma_req_wstrb),
    .dma_rsp_valid_i (dma_rsp_valid),
    .dma_rsp_data_i  (dma_rsp_data),
    .dma_rsp_err_i   (dma_rsp_err),
    .irq_o           (irq),
    .net_drop_cnt_o  (net_drop_cnt),
    .dbg_busy_o      (),
    .dbg_move_o      (),
    .coll_dbg_sel_i  ('0),
    .coll_dbg_got_o  (),
    .coll_dbg_exp_o  (),
    .coll_dbg_state_o()
  );

  // ---------------------------------------------------------------- bookkeeping

  int stall_pct = 20;             // % of cycles the host refuses a DMA request
  int irq_cnt [NODES];
  int reg_reqs [NODES], reg_rsps [NODES];


  // ---------------------------------------------------------------- host memories
  logic [63:0] mem [NODES*MW];

  always @(negedge clk) begin
    for (int n = 0; n < NODES; n++) dma_req_ready[n] <= (rnd(100)) >= stall_pct;
  end

  for (genvar i = 0; i < NODES; i++) begin : g_mem
    logic [LAT-1:0] pv, pe;
    logic [LAT-1:0][63:0] pd;
    logic [63:0]    rdata;
    logic [63:0]    addr, wdata;
    logic [7:0]     wstrb;
    logic           valid_prev, accepted_prev;
    logic [63:0]    addr_prev;
    assign addr  = dma_req_addr[i*64 +: 64];
    assign wdata = dma_req_wdata[i*64 +: 64];
    assign wstrb = dma_req_wstrb[i*8 +: 8];
    assign rdata = (addr < MW * 8) ? mem[i*MW + addr[31:3]] : 64'h0;
    assign dma_rsp_valid[i]          = pv[LAT-1];
    assign dma_rsp_err[i]            = pe[LAT-1];
    assign dma_rsp_data[i*64 +: 64]  = pd[LAT-1];

    initial begin irq_cnt[i] = 0; reg_reqs[i] = 0; reg_rsps[i] = 0; end

    always @(posedge clk) begin
      if (!rst_n) begin
        pv <= '0; pe <= '0; valid_prev <= 1'b0; accepted_prev <= 1'b0;
      end else begin
        pv <= {pv[LAT-2:0], dma_req_valid[i] && dma_req_ready[i] && !dma_req_write[i]};
        pe <= {pe[LAT-2:0], 1'b0};
        pd <= {pd[LAT-2:0], rdata};
        // protocol: a request not accepted stays and keeps its address
        if (valid_prev && !accepted_prev) begin
          `CHECK(dma_req_valid[i] && addr == addr_prev, ("node %0d: DMA request withdrawn or changed", i))
        end
        valid_prev    <= dma_req_valid[i];
        accepted_prev <= dma_req_ready[i];
        addr_prev     <= addr;
        if (dma_req_valid[i] && dma_req_ready[i]) begin
          `CHECK(addr[2:0] == 3'b0 && addr < MW * 8, ("node %0d: bad DMA address %h", i, addr))
          if (dma_req_write[i]) begin
            `CHECK(wstrb == 8'hFF, ("node %0d: wstrb %h", i, wstrb))
            `CHECK((addr >= RXB && addr < RXB + (1 << RXL)) || (addr >= RXB1 && addr < RXB1 + (1 << RXL)) ||
                   addr == STB + `SKIF_STAT_TX_HEAD || addr == STB + `SKIF_STAT_CH_TAIL ||
                   addr == STB + `SKIF_STAT_COLL ||
                   addr == STB + `SKIF_STAT_CH_TAIL + 8 * CH1,
                   ("node %0d: DMA write outside the rings/status block: %h", i, addr))
            if (addr < MW * 8) mem[i*MW + addr[31:3]] <= wdata;
          end else begin
            `CHECK(addr >= TXB && addr < TXB + (1 << TXL), ("node %0d: DMA read outside TX ring: %h", i, addr))
          end
        end
        if (irq[i]) irq_cnt[i] <= irq_cnt[i] + 1;
        if (reg_req_valid[i] && reg_req_ready[i]) reg_reqs[i] <= reg_reqs[i] + 1;
        if (reg_rsp_valid[i]) reg_rsps[i] <= reg_rsps[i] + 1;
      end
    end
  end

  // ---------------------------------------------------------------- register access
  task automatic reg_acc(input int n, input bit wr, input logic [11:0] a, input logic [31:0] wd,
                         output logic [31:0] rd, output logic err);
    // drive after the falling edge, sample just after the rising edge that
    // took the request (the response register is set on that edge); the #1
    // keeps both simulators' event orders out of it
    // Whole vectors are assigned (Verilator 5.006 --timing does not see a
    // part-select write to a module vector from this task); drive after the
    // falling edge, sample just after the rising edge that took the request.
    logic [NODES-1:0]    v, w;
    logic [NODES*12-1:0] ad;
    logic [NODES*32-1:0] wdv;
    @(negedge clk);
    #1;
    v = reg_req_valid; w = reg_req_write; ad = reg_req_addr; wdv = reg_req_wdata;
    v[n] = 1'b1; w[n] = wr; ad[n*12 +: 12] = a; wdv[n*32 +: 32] = wd;
    reg_req_valid = v; reg_req_write = w; reg_req_addr = ad; reg_req_wdata = wdv;
    @(posedge clk);
    #1;
    v = reg_req_valid;
    v[n] = 1'b0;
    reg_req_valid = v;
    `CHECK(reg_rsp_valid[n] === 1'b1, ("node %0d: no register response the cycle after the request (addr %h)", n, a))
    rd  = reg_rsp_rdata[n*32 +: 32];
    err = reg_rsp_err[n];
  endtask

  task automatic wr(input int n, input logic [11:0] a, input logic [31:0] d);
    logic [31:0] rd; logic err;
    reg_acc(n, 1'b1, a, d, rd, err);
    `CHECK(err === 1'b0, ("node %0d: write %h -> err", n, a))
  endtask

  task automatic rd(input int n, input logic [11:0] a, output logic [31:0] d);
    logic err;
    reg_acc(n, 1'b0, a, 32'h0, d, err);
    `CHECK(err === 1'b0, ("node %0d: read %h -> err", n, a))
  endtask

  task automatic expect_rd(input int n, input logic [11:0] a, input logic [31:0] exp);
    logic [31:0] d;
    rd(n, a, d);
    `CHECK(d === exp, ("node %0d: reg %h = %h, expected %h", n, a, d, exp))
  endtask

  // A write that may be held (ready low): waits for acceptance; `waited`
  // counts the cycles it was held.
  task automatic wr_wait(input int n, input logic [11:0] a, input logic [31:0] d, inout int waited);
    logic [NODES-1:0]    v, w;
    logic [NODES*12-1:0] ad;
    logic [NODES*32-1:0] wdv;
    logic                took;
    @(negedge clk);
    #1;
    v = reg_req_valid; w = reg_req_write; ad = reg_req_addr; wdv = reg_req_wdata;
    v[n] = 1'b1; w[n] = 1'b1; ad[n*12 +: 12] = a; wdv[n*32 +: 32] = d;
    reg_req_valid = v; reg_req_write = w; reg_req_addr = ad; reg_req_wdata = wdv;
    took = 1'b0;
    while (!took) begin
      @(posedge clk);
      took = reg_req_ready[n];
      if (!took) waited = waited + 1;
      #1;
    end
    v = reg_req_valid;
    v[n] = 1'b0;
    reg_req_valid = v;
    `CHECK(reg_rsp_valid[n] === 1'b1 && reg_rsp_err[n] === 1'b0,
           ("node %0d: held write %h: no good response", n, a))
  endtask

  // An illegal access: err=1, STATUS.REG_ERR and ERR_INFO = offset, then W1C.
  task automatic expect_bad(input int n, input bit w, input logic [11:0] a, input logic [31:0] wd);
    logic [31:0] d; logic err;
    reg_acc(n, w, a, wd, d, err);
    `CHECK(err === 1'b1, ("node %0d: %s %h: expected err", n, w ? "write" : "read", a))
    rd(n, `SKIF_REG_STATUS, d);
    `CHECK((d & `SKIF_STATUS_REG_ERR) != 0, ("node %0d: REG_ERR not set after bad access %h", n, a))
    expect_rd(n, `SKIF_REG_ERR_INFO, {20'h0, a});
    wr(n, `SKIF_REG_STATUS, `SKIF_STATUS_REG_ERR);
    rd(n, `SKIF_REG_STATUS, d);
    `CHECK((d & `SKIF_STATUS_REG_ERR) == 0, ("node %0d: REG_ERR not cleared by W1C", n))
  endtask

  // ---------------------------------------------------------------- software model
  logic [31:0] tx_tail [NODES];
  logic [31:0] rx_head [NODES*2];          // [node*2+ci], ci 0: channel 0, 1: channel CH1
  bit          consume_en [NODES];
  int          sent_cnt [NODES*16*2];      // [pq(src,dst,ci)]
  int          recv_cnt [NODES*16*2];      // [pq(src,dst,ci)] = next expected seq
  int          msg_len  [NODES*16*2*MAXQ];
  int          total_sent = 0, total_recv = 0;
  int          node_tx [NODES], node_rx [NODES];

  // queue of the messages from src to channel ci of dst
  function automatic int pq(input int src, input int dst, input int ci);
    return (src * 16 + dst) * 2 + ci;
  endfunction
  function automatic int chan_of(input int ci);
    return ci ? CH1 : 0;
  endfunction
  function automatic int rxb_of(input int ci);
    return ci ? RXB1 : RXB;
  endfunction

  function automatic int widx(input int n, input logic [31:0] byte_addr);
    return n * MW + int'(byte_addr >> 3);
  endfunction

  function automatic logic [7:0] pat(input int src, input int seq, input int b);
    return 8'((src * 37 + seq * 11 + b * 3 + (b >> 8)) & 255);
  endfunction

  function automatic int entry_bytes(input int len);
    return 8 + ((len + 7) & ~7);
  endfunction

  function automatic logic [31:0] stat_tx_head(input int n);
    return mem[widx(n, STB + `SKIF_STAT_TX_HEAD)][31:0];
  endfunction

  function automatic logic [31:0] stat_rx_tail(input int n, input int ci);
    return mem[widx(n, STB + `SKIF_STAT_CH_TAIL + 8 * chan_of(ci))][31:0];
  endfunction

  function automatic int tx_free(input int n);
    return (1 << TXL) - int'(tx_tail[n] - stat_tx_head(n));
  endfunction

  // Write one message into src's TX ring (no doorbell). Tail bytes of the last
  // word are filled with garbage: the adapter must send zeros there.
  task automatic put_msg(input int src, input int dst, input int ci, input int len,
                         input logic [63:0] desc_override);
    int seq, k, b, q;
    logic [63:0] w;
    logic [31:0] mask;
    mask = (32'h1 << TXL) - 1;
    q = pq(src, dst, ci);
    seq = sent_cnt[q];
    if (seq >= MAXQ) $fatal(1, "MAXQ exceeded");
    msg_len[q*MAXQ + seq] = len;
    sent_cnt[q] = seq + 1;
    total_sent = total_sent + 1;
    node_tx[src] = node_tx[src] + 1;
    w = {20'h0, 12'(len), 8'h00, 16'(dst), 8'(chan_of(ci))};
    if (desc_override !== 64'h0) w = desc_override;
    mem[widx(src, TXB + (tx_tail[src] & mask))] = w;
    for (k = 0; k < (len + 7) / 8; k++) begin
      for (b = 0; b < 8; b++) w[b*8 +: 8] = (k*8 + b < len) ? pat(src, seq * 2 + ci, k*8 + b) : 8'hEE;
      mem[widx(src, TXB + ((tx_tail[src] + 8 + 32'(k*8)) & mask))] = w;
    end
    tx_tail[src] = tx_tail[src] + 32'(entry_bytes(len));
  endtask

  task automatic doorbell(input int src);
    wr(src, `SKIF_REG_TX_TAIL, tx_tail[src]);
  endtask

  // Consume every published entry of the ring of dst's channel ci and check it.
  task automatic consume_ch(input int dst, input int ci);
    logic [31:0] tail, mask, p;
    logic [63:0] h, w;
    int src, len, seq, k, b, moved, q, hi;
    logic [7:0] exp_b;
    mask = (32'h1 << RXL) - 1;
    hi = dst * 2 + ci;
    tail = stat_rx_tail(dst, ci);
    `CHECK(tail - rx_head[hi] <= (32'h1 << RXL), ("node %0d ch %0d: tail %h overruns head %h", dst,
           chan_of(ci), tail, rx_head[hi]))
    moved = 0;
    while (rx_head[hi] != tail) begin
      p = rx_head[hi];
      h = mem[widx(dst, rxb_of(ci) + (p & mask))];
      src = int'(h[23:8]);
      len = int'(h[43:32]);
      `CHECK(h[63:44] == 0 && h[31:24] == 0, ("node %0d: RX entry header reserved bits %h", dst, h))
      `CHECK(h[7:0] == 8'(chan_of(ci)), ("node %0d: entry for channel %0d in channel %0d's ring",
             dst, h[7:0], chan_of(ci)))
      if (src >= NODES) begin
        errors++; $error("node %0d: RX entry from bad src %0d (hdr %h)", dst, src, h);
        $fatal(1, "cannot continue");
      end
      q = pq(src, dst, ci);
      seq = recv_cnt[q];
      if (seq >= sent_cnt[q]) begin
        errors++; $error("node %0d ch %0d: unexpected message from %0d seq %0d (hdr %h)", dst,
                         chan_of(ci), src, seq, h);
        $fatal(1, "cannot continue");
      end
      `CHECK(len == msg_len[q*MAXQ + seq], ("node %0d ch %0d: from %0d seq %0d: len %0d expected %0d (lost or reordered)",
             dst, chan_of(ci), src, seq, len, msg_len[q*MAXQ + seq]))
      for (k = 0; k < (len + 7) / 8; k++) begin
        w = mem[widx(dst, rxb_of(ci) + ((p + 8 + 32'(k*8)) & mask))];
        for (b = 0; b < 8; b++) begin
          exp_b = (k*8 + b < len) ? pat(src, seq * 2 + ci, k*8 + b) : 8'h00;
          if (w[b*8 +: 8] !== exp_b) begin
            errors++;
            $error("node %0d ch %0d: from %0d seq %0d len %0d byte %0d = %h expected %h", dst,
                   chan_of(ci), src, seq, len, k*8 + b, w[b*8 +: 8], exp_b);
          end
        end
      end
      recv_cnt[q] = seq + 1;
      total_recv++;
      node_rx[dst]++;
      rx_head[hi] = p + 32'(entry_bytes(len));
      moved = 1;
    end
    if (moved) wr(dst, 12'(`SKIF_REG_CH_HEAD + 4 * chan_of(ci)), rx_head[hi]);
  endtask

  task automatic consume(input int dst);
    consume_ch(dst, 0);
    consume_ch(dst, 1);
  endtask

  task automatic consume_all;
    for (int n = 0; n < NODES; n++) if (consume_en[n]) consume(n);
  endtask

  // Wait (consuming) until every sent message is received and TX heads published.
  task automatic drain(input int limit);
    int t0, busy;
    t0 = cycle;
    busy = 1;
    while (busy) begin
      consume_all();
      repeat (10) @(negedge clk);
      busy = (total_recv != total_sent);
      for (int n = 0; n < NODES; n++) if (stat_tx_head(n) != tx_tail[n]) busy = 1;
      if (cycle - t0 > limit) begin
        errors++;
        $error("drain timeout: sent %0d received %0d", total_sent, total_recv);
        for (int n = 0; n < NODES; n++)
          $display("  node %0d: tx_tail %h stat head %h rx_head %h/%h stat tail %h/%h", n, tx_tail[n],
                   stat_tx_head(n), rx_head[2*n], rx_head[2*n+1], stat_rx_tail(n, 0), stat_rx_tail(n, 1));
        $fatal(1, "giving up");
      end
    end
  endtask

  // ---------------------------------------------------------------- random traffic
  int plan_dst [NODES*256], plan_len [NODES*256], plan_ci [NODES*256], plan_n [NODES], plan_i [NODES];

  function automatic int rand_len();
    int r;
    r = rnd(16);
    case (r)
      0: return 0;
      1: return 1;
      2: return 7;
      3: return 8;
      4: return 9;
      5: return `SKIF_MAX_MSG;
      6, 7, 8: return rnd(64);
      default: return rnd(`SKIF_MAX_MSG + 1);
    endcase
  endfunction

  task automatic run_plan(input int limit);
    int t0, more, put;
    bit fits;
    t0 = cycle;
    more = 1;
    while (more) begin
      more = 0;
      for (int s = 0; s < NODES; s++) begin
        put = 0;
        // (no function call in the loop condition: Verilator 5.006 rejects it)
        fits = plan_i[s] < plan_n[s];
        if (fits) fits = tx_free(s) >= entry_bytes(plan_len[s*256 + plan_i[s]]);
        while (fits) begin
          put_msg(s, plan_dst[s*256 + plan_i[s]], plan_ci[s*256 + plan_i[s]],
                  plan_len[s*256 + plan_i[s]], 64'h0);
          plan_i[s]++;
          put = 1;
          fits = plan_i[s] < plan_n[s];
          if (fits) fits = tx_free(s) >= entry_bytes(plan_len[s*256 + plan_i[s]]);
        end
        if (put) doorbell(s);
        if (plan_i[s] < plan_n[s]) more = 1;
      end
      consume_all();
      repeat (5) @(negedge clk);
      if (cycle - t0 > limit) $fatal(1, "run_plan timeout");
    end
  endtask

  // ---------------------------------------------------------------- test
  // flit monitor for the throughput measurement (a process of its own rather
  // than a fork: both simulators agree on it)
  // (its variables have this one writer; it clears them while off)
  bit meas_on = 1'b0;
  int mon_first = -1, mon_last = -1, mon_n = 0;
  always @(negedge clk) begin
    if (!meas_on) begin
      mon_first <= -1;
      mon_n     <= 0;
    end else if (u_net.g_node[0].u_node.u_adapter.net_tx_valid_o && u_net.g_node[0].u_node.u_adapter.net_tx_ready_i) begin
      if (mon_first < 0) mon_first <= cycle;
      mon_last <= cycle;
      mon_n    <= mon_n + 1;
    end
  end

  logic [31:0] d, d2;
  logic        e;
  int          t_bell, t_first, t_last, nflits, n_meas, n_bp;
  real         cyc_per_msg;
  reg [8*256-1:0] wave_file;

  initial begin
    if ($value$plusargs("wave=%s", wave_file)) begin
      $dumpfile(wave_file);
      $dumpvars(0, tb_skif_adapter);
    end
    rng = 32'(SEED) * 32'h9E3779B9 + 32'h1;
    for (int n = 0; n < NODES*MW; n++) mem[n] = 64'h0;
    for (int n = 0; n < NODES; n++) begin
      tx_tail[n] = 0; rx_head[2*n] = 0; rx_head[2*n+1] = 0; consume_en[n] = 1; node_tx[n] = 0;
      node_rx[n] = 0; plan_n[n] = 0; plan_i[n] = 0;
    end
    for (int n = 0; n < NODES*16*2; n++) begin sent_cnt[n] = 0; recv_cnt[n] = 0; end
    repeat (3) @(negedge clk);
    rst_n = 1'b1;

    // ------------------------------------------------ registers
    for (int n = 0; n < NODES; n++) begin
      expect_rd(n, `SKIF_REG_ID, `SKIF_ID_VALUE);
      expect_rd(n, `SKIF_REG_VERSION, `SKIF_VERSION_VALUE);
      expect_rd(n, `SKIF_REG_NODE, 32'(n));
      expect_rd(n, `SKIF_REG_CTRL, 32'h0);
      expect_rd(n, `SKIF_REG_STATUS, 32'h0);
      expect_rd(n, `SKIF_REG_TX_SIZE, 32'd12);
      expect_rd(n, `SKIF_REG_TX_HEAD, 32'h0);
      expect_rd(n, `SKIF_REG_CH_NUM, 32'd64);
      expect_rd(n, `SKIF_REG_CH_CFG, 32'h0);   // channel 0 closed
      expect_rd(n, `SKIF_REG_CH_TAIL, 32'h0);
    end
    wr(0, `SKIF_REG_SCRATCH, 32'hDEADBEEF);
    expect_rd(0, `SKIF_REG_SCRATCH, 32'hDEADBEEF);
    expect_bad(0, 1'b0, 12'h800, 0);                          // outside the map
    expect_bad(0, 1'b1, 12'hFFC, 32'h1);
    expect_bad(0, 1'b0, 12'h009, 0);                          // misaligned
    expect_bad(0, 1'b1, 12'h00E, 32'h1);
    expect_bad(0, 1'b0, 12'h018, 0);                          // unassigned
    expect_bad(0, 1'b0, 12'h0FC, 0);
    expect_bad(0, 1'b0, 12'h3FC, 0);
    expect_bad(0, 1'b0, `SKIF_REG_CH_HEAD, 0);                 // write-only
    expect_bad(0, 1'b1, 12'(`SKIF_REG_CH_HEAD + 4 * 64), 32'h1);  // no channel 64
    expect_bad(0, 1'b1, 12'h034, 32'h1);
    expect_bad(0, 1'b1, `SKIF_REG_ID, 32'h1);                  // read-only
    expect_bad(0, 1'b1, `SKIF_REG_VERSION, 32'h1);
    expect_bad(0, 1'b1, `SKIF_REG_NODE, 32'h1);
    expect_bad(0, 1'b1, `SKIF_REG_ERR_INFO, 32'h1);
    expect_bad(0, 1'b1, `SKIF_REG_TX_HEAD, 32'h1);
    expect_bad(0, 1'b1, `SKIF_REG_CH_TAIL, 32'h1);
    expect_bad(0, 1'b1, `SKIF_REG_CH_SEL, 32'd64);
    expect_bad(0, 1'b1, `SKIF_REG_TX_PKTS, 32'h1);
    expect_bad(0, 1'b1, `SKIF_REG_RX_DROPS, 32'h1);
    expect_bad(0, 1'b1, `SKIF_REG_TX_SIZE, 32'd11);            // bad sizes
    expect_bad(0, 1'b1, `SKIF_REG_CH_CFG, `SKIF_CH_CFG_EN | 32'd25);
    expect_bad(0, 1'b1, `SKIF_REG_TX_SIZE, 32'h8000_000C);
    expect_rd(0, `SKIF_REG_TX_SIZE, 32'd12);
    expect_rd(0, `SKIF_REG_CH_CFG, 32'h0);
    expect_rd(0, `SKIF_REG_SCRATCH, 32'hDEADBEEF);
    wr(0, `SKIF_REG_TX_SIZE, 32'd24);
    expect_rd(0, `SKIF_REG_TX_SIZE, 32'd24);
    wr(0, `SKIF_REG_CTRL, 32'hFFFF_FFFF);                      // unimplemented bits read 0
    expect_rd(0, `SKIF_REG_CTRL, 32'h7);
    wr(0, `SKIF_REG_CTRL, 32'h0);
    expect_rd(0, `SKIF_REG_STATUS, 32'h0);

    // ------------------------------------------------ the COLL_PIO window (node 0)
    begin : pio
      int waited;
      logic [31:0] d;
      expect_bad(0, 1'b0, `SKIF_REG_COLL_PIO_LO, 0);             // write-only
      expect_bad(0, 1'b0, `SKIF_REG_COLL_PIO_HI, 0);
      expect_bad(0, 1'b0, `SKIF_REG_COLL_PIO_DATA, 0);
      expect_bad(0, 1'b1, 12'(`SKIF_REG_COLL_PIO_DATA + 4 * `SKIF_COLL_PIO_REGS), 32'h1);
      wr(0, `SKIF_REG_COLL_PIO_LO, 32'h0120_0000);               // ALLREDUCE u64
      expect_bad(0, 1'b1, `SKIF_REG_COLL_PIO_HI, 32'h0000_0008);  // kind 0
      expect_bad(0, 1'b1, `SKIF_REG_COLL_PIO_HI, 32'h2000_0008);  // kind 2
      expect_bad(0, 1'b1, `SKIF_REG_COLL_PIO_HI, 32'h1000_0801);  // longer than SKIF_MAX_MSG
      wr(0, `SKIF_REG_COLL_PIO_LO, 32'h1120_0000);               // reserved bits [31:28]
      expect_bad(0, 1'b1, `SKIF_REG_COLL_PIO_HI, 32'h1000_0008);
      wr(0, `SKIF_REG_COLL_PIO_LO, 32'h0121_0000);               // reserved bits [19:16]
      expect_bad(0, 1'b1, `SKIF_REG_COLL_PIO_HI, 32'h1000_0008);
      expect_rd(0, `SKIF_REG_COLL_SENT, 0);
      wr(0, `SKIF_REG_STAT_BASE_LO, STB);  // COLL_SENT goes into the status block
      // three 64-byte launches back to back on tree 5, which is not
      // programmed: right after reset the engine still clears its slots, so
      // the first waits and the writes of the next ones are held; each is
      // then taken whole and dropped (invalid tree), none lost
      waited = 0;
      for (int k = 0; k < 3; k++) begin
        for (int i = 0; i < `SKIF_COLL_PIO_REGS; i++)
          wr_wait(0, 12'(`SKIF_REG_COLL_PIO_DATA + 4 * i), 32'(k * 100 + i), waited);
        wr_wait(0, `SKIF_REG_COLL_PIO_LO, 32'h0120_0000, waited);
        wr_wait(0, `SKIF_REG_COLL_PIO_HI, 32'h1000_0040 | (32'd5 << 20) | (32'(k) << 15), waited);
      end
      `CHECK(waited > 0, ("no PIO write was held while the engine was not taking launches"))
      d = `SKIF_STATUS_PIO_BUSY;
      for (int t = 0; t < 3000 && (d & `SKIF_STATUS_PIO_BUSY) != 0; t++) rd(0, `SKIF_REG_STATUS, d);
      expect_rd(0, `SKIF_REG_COLL_SENT, 3);
      expect_rd(0, `SKIF_REG_COLL_DROPS, 3);
      expect_rd(0, `SKIF_REG_STATUS, `SKIF_STATUS_COLL_DROP);
      expect_rd(0, `SKIF_REG_ERR_INFO, 32'h0502_0001);            // tree 5, the host's port, invalid tree
      wr(0, `SKIF_REG_STATUS, `SKIF_STATUS_COLL_DROP);
      expect_rd(0, `SKIF_REG_STATUS, 32'h0);
      $display("tb_skif_adapter: 3 PIO launches, writes held %0d cycles", waited);
    end

    // ------------------------------------------------ bring-up
    for (int n = 0; n < NODES; n++) begin
      wr(n, `SKIF_REG_TX_BASE_LO, TXB);
      wr(n, `SKIF_REG_TX_BASE_HI, 0);
      wr(n, `SKIF_REG_TX_SIZE, TXL);
      for (int ci = 0; ci < 2; ci++) begin
        wr(n, `SKIF_REG_CH_SEL, chan_of(ci));
        wr(n, `SKIF_REG_CH_BASE_LO, rxb_of(ci));
        wr(n, `SKIF_REG_CH_BASE_HI, 0);
        wr(n, `SKIF_REG_CH_CFG, `SKIF_CH_CFG_EN | RXL);
        expect_rd(n, `SKIF_REG_CH_CFG, `SKIF_CH_CFG_EN | RXL);
        expect_rd(n, `SKIF_REG_CH_RBASE_LO, rxb_of(ci));
      end
      wr(n, `SKIF_REG_STAT_BASE_LO, STB);
      wr(n, `SKIF_REG_STAT_BASE_HI, 0);
      expect_rd(n, `SKIF_REG_TX_BASE_LO, TXB);
      wr(n, `SKIF_REG_CTRL, `SKIF_CTRL_TX_EN | `SKIF_CTRL_RX_EN | `SKIF_CTRL_IRQ_EN);
    end

    // ------------------------------------------------ latency and throughput (node 0 -> 1)
    stall_pct = 0;
    n_meas = 200;
    for (int k = 0; k < n_meas; k++) put_msg(0, 1, k % 2, 8, 64'h0);
    t_bell = cycle + 1;  // the doorbell write is accepted at the next edge
    meas_on = 1'b1;      // the flit monitor above counts node 0's link output
    doorbell(0);
    while (mon_n < 2 * n_meas) @(negedge clk);
    t_first = mon_first; t_last = mon_last; nflits = mon_n;
    meas_on = 1'b0;
    drain(20000);
    cyc_per_msg = real'(t_last - t_first + 1) / n_meas;
    $display("MEASURE LAT=%0d: doorbell accepted -> first flit on net_tx: %0d cycles", LAT, t_first - t_bell);
    $display("MEASURE %0d 8-byte messages: %0d flits in %0d cycles = %0.2f cycles/message",
             n_meas, nflits, t_last - t_first + 1, cyc_per_msg);
    if (MAXRD >= LAT + 8)  // enough outstanding reads to cover the latency
      `CHECK(cyc_per_msg >= 2.0 && cyc_per_msg < 2.5, ("8-byte message throughput %0.2f cycles/message (goal ~2)", cyc_per_msg))
    stall_pct = 20;

    // ------------------------------------------------ random all-to-all traffic
    for (int s = 0; s < NODES; s++) begin
      plan_n[s] = NMSG;
      for (int k = 0; k < NMSG; k++) begin
        plan_dst[s*256 + k] = rnd(NODES);
        plan_ci[s*256 + k] = rnd(2);
        plan_len[s*256 + k] = rand_len();
      end
    end
    run_plan(400000);
    drain(400000);
    $display("random traffic done at cycle %0d: %0d messages", cycle, total_sent);

    // ------------------------------------------------ RX back-pressure on node 0
    consume_en[0] = 0;
    // Enough bytes to overfill node 0's RX ring by two entries.
    n_bp = ((1 << RXL) + 4096) / 1500 / (NODES - 1) + 1;
    for (int s = 1; s < NODES; s++) begin
      plan_i[s] = 0; plan_n[s] = n_bp;
      for (int k = 0; k < n_bp; k++) begin
        plan_dst[s*256 + k] = 0;
        plan_ci[s*256 + k] = 0;
        plan_len[s*256 + k] = 1500 + (k % 3) * 200;
      end
    end
    plan_i[0] = 0; plan_n[0] = 0;
    run_plan(100000);
    repeat (3000 + (1 << RXL) / 4) @(negedge clk);
    consume_all();
    rd(0, `SKIF_REG_STATUS, d);
    `CHECK((d & `SKIF_STATUS_RX_STALL) != 0, ("node 0: RX_STALL not set with a full ring (status %h)", d))
    `CHECK((d & `SKIF_STATUS_RX_BUSY) == 0, ("node 0: RX_BUSY while waiting for space (status %h)", d))
    wr(0, `SKIF_REG_CH_SEL, 0);
    rd(0, `SKIF_REG_CH_TAIL, d);
    `CHECK(d == stat_rx_tail(0, 0), ("node 0: CH_TAIL reg %h != status block %h", d, stat_rx_tail(0, 0)))
    `CHECK(d - rx_head[0] <= (1 << RXL) && d - rx_head[0] > (1 << RXL) - 2056,
           ("node 0: ring should be nearly full: tail %h head %h", d, rx_head[0]))
    consume_en[0] = 1;
    drain(200000);
    rd(0, `SKIF_REG_STATUS, d);
    `CHECK((d & `SKIF_STATUS_RX_STALL) == 0, ("node 0: RX_STALL still set after draining (status %h)", d))
    $display("back-pressure test done at cycle %0d", cycle);

    // ------------------------------------------------ bad TX descriptors (node 1)
    begin : bad_desc
      logic [31:0] h0;
      logic [63:0] bad [3];
      bad[0] = {20'h0, 12'(`SKIF_MAX_MSG + 1), 8'h00, 16'h0, 8'h0};   // too long
      bad[1] = {20'h00001, 12'd8, 8'h00, 16'h0, 8'h0};                 // reserved bits
      bad[2] = {20'h0, 12'd8, 8'h01, 16'h0, 8'h0};                     // netaddr[31:24]
      for (int k = 0; k < 3; k++) begin
        h0 = tx_tail[1];
        put_msg(1, 0, 0, 8, bad[k]);
        doorbell(1);
        repeat (200) @(negedge clk);
        rd(1, `SKIF_REG_STATUS, d);
        `CHECK((d & `SKIF_STATUS_TX_ERR) != 0, ("node 1: TX_ERR not set by bad descriptor %0d (status %h)", k, d))
        expect_rd(1, `SKIF_REG_ERR_INFO, h0);
        expect_rd(1, `SKIF_REG_TX_HEAD, h0);
        // Repair the descriptor in place, then clear TX_ERR: TX retries it.
        mem[widx(1, TXB + (h0 & ((1 << TXL) - 1)))] = {20'h0, 12'd8, 8'h00, 16'd0, 8'h0};
        wr(1, `SKIF_REG_STATUS, `SKIF_STATUS_TX_ERR);
        drain(20000);
        rd(1, `SKIF_REG_STATUS, d);
        `CHECK((d & `SKIF_STATUS_TX_ERR) == 0, ("node 1: TX_ERR not cleared (status %h)", d))
      end
    end

    // ------------------------------------------------ closed channel (node 1 -> node 0, channel 5)
    begin : closed_ch
      int sent_before;
      sent_before = total_sent;
      put_msg(1, 0, 0, 40, {20'h0, 12'd40, 8'h00, 16'd0, 8'd5});
      total_sent = sent_before;            // discarded: never received
      sent_cnt[pq(1, 0, 0)]--;
      doorbell(1);
      repeat (300) @(negedge clk);
      rd(0, `SKIF_REG_STATUS, d);
      `CHECK((d & `SKIF_STATUS_CH_DROP) != 0, ("node 0: CH_DROP not set (status %h)", d))
      expect_rd(0, `SKIF_REG_CH_DROPS, 1);
      expect_rd(0, `SKIF_REG_ERR_INFO, 5);
      wr(0, `SKIF_REG_STATUS, `SKIF_STATUS_CH_DROP);
      // and the open channels still work
      put_msg(1, 0, 1, 24, 64'h0);
      doorbell(1);
      drain(20000);
    end

    // ------------------------------------------------ final checks
    drain(20000);
    repeat (50) @(negedge clk);
    for (int n = 0; n < NODES; n++) begin
      expect_rd(n, `SKIF_REG_TX_PKTS, node_tx[n]);
      expect_rd(n, `SKIF_REG_RX_PKTS, node_rx[n]);
      expect_rd(n, `SKIF_REG_RX_DROPS, 0);
      expect_rd(n, `SKIF_REG_TX_HEAD, tx_tail[n]);
      for (int ci = 0; ci < 2; ci++) begin
        wr(n, `SKIF_REG_CH_SEL, chan_of(ci));
        expect_rd(n, `SKIF_REG_CH_TAIL, rx_head[2*n + ci]);
        expect_rd(n, `SKIF_REG_CH_HEAD_RD, rx_head[2*n + ci]);
      end
      rd(n, `SKIF_REG_STATUS, d);
      `CHECK(d == 0, ("node %0d: STATUS %h at the end", n, d))
      rd(n, `SKIF_REG_TX_FLITS, d2);
      `CHECK(irq_cnt[n] > 0 || (node_tx[n] == 0 && node_rx[n] == 0), ("node %0d: no irq", n))
      `CHECK(net_drop_cnt[n*32 +: 32] == 0, ("node %0d: router drops", n))
    end
    // irq off: no pulses
    for (int n = 0; n < NODES; n++) wr(n, `SKIF_REG_CTRL, `SKIF_CTRL_TX_EN | `SKIF_CTRL_RX_EN);
    repeat (5) @(negedge clk);
    begin : irq_off
      int irq_before;
      irq_before = irq_cnt[0];
      put_msg(0, NODES - 1, 1, 16, 64'h0);
      doorbell(0);
      drain(20000);
      repeat (50) @(negedge clk);
      `CHECK(irq_cnt[0] == irq_before, ("irq pulsed with IRQ_EN clear"))
    end
    // the engine's host input shared by the TX ring's collective operations
    // and PIO launches (node 1): four of each at once, on tree 6, which is
    // not programmed: every one reaches the engine whole (COLL_SENT) and is
    // dropped there (COLL_DROPS), none lost
    begin : shared_input
      int waited;
      logic [31:0] d, mask;
      logic [63:0] desc;
      mask = (32'h1 << TXL) - 1;
      waited = 0;
      expect_rd(1, `SKIF_REG_COLL_SENT, 0);
      for (int k = 0; k < 4; k++) begin
        desc = 64'h1060_0008_0120_0000 | (64'(k) << `SKIF_CDESC_RID_LO);
        mem[widx(1, TXB + (tx_tail[1] & mask))] = desc;
        mem[widx(1, TXB + ((tx_tail[1] + 8) & mask))] = 64'(k);
        tx_tail[1] = tx_tail[1] + 16;
      end
      doorbell(1);
      for (int k = 0; k < 4; k++) begin
        wr_wait(1, `SKIF_REG_COLL_PIO_DATA, 32'(k), waited);
        wr_wait(1, `SKIF_REG_COLL_PIO_LO, 32'h0120_0000, waited);
        wr_wait(1, `SKIF_REG_COLL_PIO_HI, 32'h1060_0008 | (32'(k + 4) << 15), waited);
      end
      d = 0;
      for (int t = 0; t < 3000 && d != 8; t++) rd(1, `SKIF_REG_COLL_DROPS, d);
      `CHECK(d == 8, ("node 1: COLL_DROPS %0d after 4 ring and 4 PIO operations", d))
      expect_rd(1, `SKIF_REG_COLL_SENT, 8);
      expect_rd(1, `SKIF_REG_TX_HEAD, tx_tail[1]);
      expect_rd(1, `SKIF_REG_STATUS, `SKIF_STATUS_COLL_DROP);
      wr(1, `SKIF_REG_STATUS, `SKIF_STATUS_COLL_DROP);
      expect_rd(1, `SKIF_REG_STATUS, 32'h0);
      repeat (5) @(negedge clk);  // the last response counted
    end
    for (int n = 0; n < NODES; n++)
      `CHECK(reg_reqs[n] == reg_rsps[n], ("node %0d: %0d register requests, %0d responses", n, reg_reqs[n], reg_rsps[n]))

    $display("tb_skif_adapter NODES=%0d LAT=%0d TXL=%0d RXL=%0d: %0d messages, %0d cycles, %0d errors",
             NODES, LAT, TXL, RXL, total_sent, cycle, errors);
    if (errors > 0) $fatal(1, "tb_skif_adapter: %0d errors", errors);
    $display("PASS tb_skif_adapter");
    $finish;
  end

  initial begin
    #(TIMEOUT_NS);
    $display("t_first %0d nflits %0d", t_first, nflits);
    for (int n = 0; n < NODES; n++)
      $display("  node %0d: tx_tail %h stat head %h rx_head %h stat tail %h", n, tx_tail[n],
               stat_tx_head(n), rx_head[2*n], stat_rx_tail(n, 0));
    $fatal(1, "global timeout");
  end
endmodule
