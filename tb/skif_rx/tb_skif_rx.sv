`timescale 1ns/1ps
// SPDX-License-Identifier: Apache-2.0
// tb_skif_rx: skif_rx alone: a packet source (good and malformed packets) on
// the network side, a behavioural host memory with random write back-pressure,
// and a slow software consumer of the RX ring.
//
// Checks: every good packet lands intact in the ring (entry header, payload,
// wrap-around), RX_TAIL status writes follow the entry writes, a full ring
// back-pressures (stall_o) without loss or overwrite, malformed packets
// (bad kind, len > max, `last` too early / too late) are dropped whole with
// err_o and without advancing tail, RX_EN gates packet starts.
`include "skif_defs.vh"

module tb_skif_rx;
  parameter int LOG2 = 12;       // ring size
  parameter int NPKT = 200;      // packets
  parameter int SEED = 1;

  localparam int BASE = 'h8000;
  localparam int STB  = 'h40000;
  localparam int MW   = 'h40010 / 8;

  logic clk = 1'b0, rst_n = 1'b0;
  always #5 clk = ~clk;
  int cycle = 0;
  always @(posedge clk) cycle <= cycle + 1;
  int errors = 0;
  int seed_v = 1;
  `define CHECK(cond, msg) if (!(cond)) begin errors = errors + 1; $error msg; end
  function automatic int rnd(input int n);
    return int'($unsigned($random(seed_v)) % n);
  endfunction

  logic        en = 1'b0;
  logic [31:0] head = 32'h0;
  wire  [31:0] tail, err_info;
  wire         busy, stall, err, pkt;
  wire         dvalid, dstat;
  logic        dready;
  wire  [63:0] daddr, dwdata;
  logic        nvalid = 1'b0, nlast = 1'b0;
  logic [63:0] ndata = 64'h0;
  wire         nready;

  skif_rx u_rx (
    .clk_i (clk), .rst_ni (rst_n), .en_i (en), .base_i (64'(BASE)), .size_i (5'(LOG2)),
    .head_i (head), .stat_base_i (64'(STB)), .tail_o (tail), .busy_o (busy), .stall_o (stall),
    .err_o (err), .err_info_o (err_info), .pkt_o (pkt),
    .dma_valid_o (dvalid), .dma_ready_i (dready), .dma_addr_o (daddr), .dma_wdata_o (dwdata),
    .dma_stat_o (dstat),
    .net_valid_i (nvalid), .net_ready_o (nready), .net_data_i (ndata), .net_last_i (nlast)
  );

  logic [63:0] mem [MW];
  int dma_ready_pct = 80;
  int n_err = 0, n_pkt = 0, n_stall = 0;
  logic [31:0] stat_tail_prev = 0;

  always @(negedge clk) dready <= rnd(100) < dma_ready_pct;

  always @(posedge clk) begin
    if (rst_n) begin
      if (err) n_err <= n_err + 1;
      if (pkt) n_pkt <= n_pkt + 1;
      if (stall) n_stall <= n_stall + 1;
      if (dvalid && dready) begin
        if (dstat) begin
          `CHECK(daddr == STB + 8 && dwdata[63:32] == 0, ("status write %h to %h", dwdata, daddr))
          `CHECK(dwdata[31:0] - head <= (1 << LOG2), ("published tail %h overruns head %h", dwdata[31:0], head))
        end else begin
          `CHECK(daddr >= BASE && daddr < BASE + (1 << LOG2) && daddr[2:0] == 0, ("write outside the ring: %h", daddr))
          // never overwrite an entry software has not consumed
          `CHECK(((daddr - BASE) - (head & ((1 << LOG2) - 1))) % (1 << LOG2) >= (tail - head) ||
                 tail == head, ("write at %h inside the unconsumed region [%h,%h)", daddr, head, tail))
        end
        mem[daddr[31:3]] <= dwdata;
      end
    end
  end

  // ---------------------------------------------------------------- source
  int exp_len [4096], exp_src [4096], exp_chan [4096];
  int n_good = 0, n_bad = 0, n_chk = 0;

  function automatic logic [63:0] pay(input int m, input int k);
    return {16'(m), 16'(k), 32'hC0DE_0000 | 32'(m * 7 + k)};
  endfunction

  // kind: 0 good, 1 bad kind, 2 too long, 3 last too early, 4 last too late
  task automatic send(input int kind, input int len);
    int nfl, m;
    logic [63:0] h;
    m = n_good;
    h = {(kind == 1) ? 4'h3 : `SKIF_KIND_MSG, 16'h0001, 16'(rnd(65536)), 8'(rnd(256)),
         (kind == 2) ? 12'(`SKIF_MAX_MSG + 1 + rnd(1000)) : 12'(len), 8'h00};
    nfl = 1 + (int'(h[19:8]) + 7) / 8;
    if (kind == 2) nfl = 1 + rnd(5);
    if (kind == 3) nfl = 1 + rnd((len + 7) / 8);       // ends early
    if (kind == 4) nfl = nfl + 1 + rnd(3);              // ends late
    if (kind == 0) begin
      exp_len[m] = len; exp_src[m] = int'(h[43:28]); exp_chan[m] = int'(h[27:20]);
      n_good++;
    end else n_bad++;
    for (int k = 0; k < nfl; k++) begin
      @(negedge clk);
      nvalid = 1'b1;
      ndata  = (k == 0) ? h : pay(m, k - 1);
      nlast  = (k == nfl - 1);
      @(posedge clk);
      while (!nready) @(posedge clk);
      #1;
      nvalid = 1'b0;
      if (rnd(4) == 0) repeat (rnd(3)) @(negedge clk);
    end
  endtask

  // ---------------------------------------------------------------- consumer
  int consume_hold = 0;
  always @(negedge clk) begin : consumer
    logic [31:0] t, p;
    logic [63:0] w;
    if (rst_n && consume_hold == 0) begin
      t = mem[(STB + 8) / 8][31:0];
      while (head != t) begin
        p = head;
        w = mem[(BASE + (p & ((1 << LOG2) - 1))) / 8];
        `CHECK(w == {20'h0, 12'(exp_len[n_chk]), 8'h00, 16'(exp_src[n_chk]), 8'(exp_chan[n_chk])},
               ("pkt %0d: entry header %h", n_chk, w))
        for (int k = 0; k < (exp_len[n_chk] + 7) / 8; k++) begin
          w = mem[(BASE + ((p + 8 + 32'(k * 8)) & ((1 << LOG2) - 1))) / 8];
          `CHECK(w == pay(n_chk, k), ("pkt %0d word %0d: %h", n_chk, k, w))
        end
        head = head + 32'(8 + ((exp_len[n_chk] + 7) & ~7));
        n_chk++;
      end
    end else if (consume_hold > 0) consume_hold--;
  end

  reg [8*256-1:0] wave_file;
  int len, kind;

  initial begin
    if ($value$plusargs("wave=%s", wave_file)) begin
      $dumpfile(wave_file);
      $dumpvars(0, tb_skif_rx);
    end
    seed_v = SEED;
    for (int n = 0; n < MW; n++) mem[n] = 64'h0;
    repeat (3) @(negedge clk);
    rst_n = 1'b1;

    // RX disabled: the header waits.
    fork
      send(0, 16);
      begin
        repeat (50) @(negedge clk);
        `CHECK(n_pkt == 0 && !nready, ("RX accepted a packet while disabled"))
        en = 1'b1;
      end
    join

    for (int i = 0; i < NPKT; i++) begin
      kind = (rnd(8) == 0) ? 1 + rnd(4) : 0;
      case (rnd(5))
        0: len = 0;
        1: len = rnd(17);
        2: len = `SKIF_MAX_MSG - rnd(8);
        default: len = rnd(1000);
      endcase
      if (kind == 3 && len < 9) len = 9 + rnd(100);
      if (i % 50 == 10) consume_hold = 3000;   // software falls behind: the ring fills
      send(kind, len);
    end
    while (n_chk != n_good || mem[(STB + 8) / 8][31:0] != tail) begin
      @(negedge clk);
      if (cycle > 2_000_000) $fatal(1, "timeout");
    end
    repeat (50) @(negedge clk);
    `CHECK(n_pkt == n_good, ("pkt pulses %0d, good packets %0d", n_pkt, n_good))
    `CHECK(n_err == n_bad, ("err pulses %0d, malformed packets %0d", n_err, n_bad))
    `CHECK(n_stall > 0, ("the ring never filled (no stall)"))
    `CHECK(!busy && !stall, ("RX busy at the end"))
    $display("tb_skif_rx LOG2=%0d: %0d good, %0d malformed packets, %0d stall cycles, %0d cycles, %0d errors",
             LOG2, n_good, n_bad, n_stall, cycle, errors);
    if (errors > 0) $fatal(1, "tb_skif_rx: %0d errors", errors);
    $display("PASS tb_skif_rx");
    $finish;
  end
endmodule
