`timescale 1ns/1ps
// SPDX-License-Identifier: Apache-2.0
// tb_skif_rx: skif_rx (RX engine + channel demultiplexer) alone: a packet
// source (good packets for open channels, for a closed channel and for a
// channel beyond NumChans, and malformed packets) on the network side, a
// behavioural host memory with random write back-pressure, and one slow
// software consumer per open channel.
//
// Checks: the channel table reads back what was configured; every good
// packet for an open channel lands intact in that channel's ring (entry
// header, payload, wrap-around) and only there, in order; its channel's
// status word follows the entry writes; a full ring back-pressures (stall_o)
// without loss or overwrite of unconsumed entries; packets for closed
// channels are consumed whole without a write, with closed_o naming the
// channel; malformed packets (bad kind, len > max, `last` too early / too
// late) are dropped whole with err_o; RX_EN gates packet starts.
`include "skif_defs.vh"

module tb_skif_rx;
  parameter int NPKT = 300;      // packets
  parameter int SEED = 1;
  parameter int GAP  = 1;        // StatGap: one channel's status writes come >= GAP cycles apart

  localparam int NCH  = 8;                     // NumChans of the DUT
  localparam int BASE = 'h10000;               // channel c's ring at BASE + c * 'h4000
  localparam int STB  = 'h40000;               // status block
  localparam int MW   = (STB + 'h100 + 8 * NCH) / 8;
  localparam int NOPEN = 4;
  // open channels and their ring sizes (log2; 0: closed)
  function automatic int open_ch(input int i);
    case (i)
      0: return 0;
      1: return 1;
      2: return 2;
      default: return 5;
    endcase
  endfunction
  function automatic int log2_of(input int c);
    case (c)
      0, 1, 5: return 12;
      2: return 13;
      default: return 0;
    endcase
  endfunction

  `define SKIF_TB_XORSHIFT
  `include "skif_tb.svh"  // clk, rst_n, cycle, errors, `CHECK, rnd

  logic        en = 1'b0;
  logic        cfg_we = 1'b0, cfg_open = 1'b0, head_we = 1'b0;
  logic [2:0]  cfg_ch = 3'h0, head_ch = 3'h0, rd_ch = 3'h0;
  logic [63:0] cfg_base = 64'h0;
  logic [4:0]  cfg_size = 5'h0;
  logic [31:0] head_v = 32'h0;
  wire         rd_open, rd_busy;
  wire  [4:0]  rd_size;
  wire  [63:0] rd_base;
  wire  [31:0] rd_tail, rd_head, err_info;
  wire         busy, stall, err, closed, pkt;
  wire  [7:0]  closed_ch;
  wire         dvalid, dstat;
  logic        dready;
  wire  [63:0] daddr, dwdata;
  logic        nvalid = 1'b0, nlast = 1'b0;
  logic [63:0] ndata = 64'h0;
  wire         nready;

  skif_rx #(
    .NumChans (NCH),
    .StatGap  (GAP)
  ) u_rx (
    .clk_i (clk), .rst_ni (rst_n), .en_i (en), .stat_base_i (64'(STB)),
    .cfg_we_i (cfg_we), .cfg_ch_i (cfg_ch), .cfg_base_i (cfg_base), .cfg_size_i (cfg_size),
    .cfg_open_i (cfg_open), .head_we_i (head_we), .head_ch_i (head_ch), .head_i (head_v),
    .rd_ch_i (rd_ch), .rd_open_o (rd_open), .rd_size_o (rd_size), .rd_base_o (rd_base),
    .rd_tail_o (rd_tail), .rd_head_o (rd_head), .rd_busy_o (rd_busy),
    .busy_o (busy), .stall_o (stall), .err_o (err), .err_info_o (err_info),
    .closed_o (closed), .closed_ch_o (closed_ch), .pkt_o (pkt),
    .dma_valid_o (dvalid), .dma_ready_i (dready), .dma_addr_o (daddr), .dma_wdata_o (dwdata),
    .dma_stat_o (dstat),
    .net_valid_i (nvalid), .net_ready_o (nready), .net_data_i (ndata), .net_last_i (nlast),
    .coll_done_o (), .coll_cnt_i (64'h0), .coll_valid_i (1'b0), .coll_ready_o (), .coll_data_i (64'h0),
    .coll_last_i (1'b0), .coll_chan_i (8'h0)
  );

  logic [63:0] mem [MW];
  int dma_ready_pct = 80;
  int n_err = 0, n_pkt = 0, n_stall = 0, n_closed = 0, n_closed_bad_ch = 0;
  // software view per channel
  logic [31:0] head [NCH];
  logic [31:0] hw_head [NCH];   // last head written to the adapter
  int n_chk [NCH];
  int hold [NCH];
  int last_stat [NCH];          // cycle of the channel's last status write
  initial for (int c = 0; c < NCH; c++) last_stat[c] = -1000000;

  function automatic int ring_size(input int c);
    return 1 << log2_of(c);
  endfunction

  always @(negedge clk) dready <= rnd(100) < dma_ready_pct;

  // the hardware tail of channel c, as the DUT keeps it (for the checks)
  logic [31:0] tail_seen [NCH];

  always @(posedge clk) begin
    if (rst_n) begin
      if (err) n_err <= n_err + 1;
      if (pkt) n_pkt <= n_pkt + 1;
      if (stall) n_stall <= n_stall + 1;
      if (closed) begin
        n_closed <= n_closed + 1;
        if (closed_ch != 8'd7 && closed_ch != 8'd200) n_closed_bad_ch <= n_closed_bad_ch + 1;
      end
      if (dvalid && dready) begin
        if (dstat) begin
          int c;
          c = (int'(daddr) - STB - 'h100) / 8;
          `CHECK(daddr >= STB + 'h100 && daddr < STB + 'h100 + 8 * NCH && daddr[2:0] == 0 &&
                 log2_of(c) != 0 && dwdata[63:32] == 0, ("status write %h to %h", dwdata, daddr))
          `CHECK(dwdata[31:0] - hw_head[c] <= 32'(ring_size(c)),
                 ("ch %0d: published tail %h overruns head %h", c, dwdata[31:0], hw_head[c]))
          // closer only while a packet waits for ring space
          `CHECK(cycle - last_stat[c] >= GAP || stall,
                 ("ch %0d: status writes %0d cycles apart, StatGap %0d", c, cycle - last_stat[c], GAP))
          if (c >= 0 && c < NCH) last_stat[c] <= cycle;
        end else begin
          int c;
          logic [31:0] off;
          c = (int'(daddr) - BASE) / 'h4000;
          off = 32'(int'(daddr) - BASE - c * 'h4000);
          `CHECK(daddr >= BASE && c < NCH && log2_of(c) != 0 && off < 32'(ring_size(c)) &&
                 daddr[2:0] == 0, ("write outside every open ring: %h", daddr))
          // never overwrite an entry software has not consumed (as the adapter knows it)
          if (c < NCH && log2_of(c) != 0) begin
            `CHECK(((off - (hw_head[c] & 32'(ring_size(c) - 1))) & 32'(ring_size(c) - 1)) >=
                   (tail_seen[c] - hw_head[c]) || tail_seen[c] == hw_head[c],
                   ("ch %0d: write at %h inside the unconsumed region [%h,%h)", c, daddr,
                    hw_head[c], tail_seen[c]))
          end
        end
        mem[daddr[31:3]] <= dwdata;
      end
    end
  end

  // ---------------------------------------------------------------- source
  int exp_len [NCH][1024], exp_src [NCH][1024], exp_id [NCH][1024];
  int n_good [NCH];
  int n_good_all = 0, n_bad = 0, n_to_closed = 0;

  function automatic logic [63:0] pay(input int m, input int k);
    return {16'(m), 16'(k), 32'hC0DE_0000 | 32'(m * 7 + k)};
  endfunction

  // kind: 0 good, 1 bad kind, 2 too long, 3 last too early, 4 last too late
  task automatic send(input int kind, input int len, input int chan);
    int nfl, m, c;
    logic [63:0] h;
    m = n_good_all + n_bad + n_to_closed;
    h = {(kind == 1) ? 4'h3 : `SKIF_KIND_MSG, 16'h0001, 16'(rnd(65536)), 8'(chan),
         (kind == 2) ? 12'(`SKIF_MAX_MSG + 1 + rnd(1000)) : 12'(len), 8'h00};
    nfl = 1 + (int'(h[19:8]) + 7) / 8;
    if (kind == 2) nfl = 1 + rnd(5);
    if (kind == 3) nfl = 1 + rnd((len + 7) / 8);       // ends early
    if (kind == 4) nfl = nfl + 1 + rnd(3);              // ends late
    c = chan;
    if (kind == 0 && chan < NCH && log2_of(chan) != 0) begin
      exp_len[c][n_good[c]] = len; exp_src[c][n_good[c]] = int'(h[43:28]);
      exp_id[c][n_good[c]] = m;
      n_good[c]++;
      n_good_all++;
    end else if (kind != 1 && kind != 2 && ((nfl == 1) == (len == 0)) &&
                 !(chan < NCH && log2_of(chan) != 0))
      n_to_closed++;  // a good header for a closed channel: discarded whole, not judged further
    else n_bad++;
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

  // ---------------------------------------------------------------- consumers
  always @(negedge clk) begin : consumer
    logic [31:0] t, p;
    logic [63:0] w;
    int c, sz, i;
    if (rst_n && en) begin
      for (int oc = 0; oc < NOPEN; oc++) begin
        c = open_ch(oc);
        sz = ring_size(c);
        if (hold[c] > 0) hold[c]--;
        else begin
          t = mem[(STB + 'h100 + 8 * c) / 8][31:0];
          while (head[c] != t) begin
            p = head[c];
            i = n_chk[c];
            w = mem[(BASE + c * 'h4000 + int'(p & 32'(sz - 1))) / 8];
            `CHECK(w == {20'h0, 12'(exp_len[c][i]), 8'h00, 16'(exp_src[c][i]), 8'(c)},
                   ("ch %0d pkt %0d: entry header %h", c, i, w))
            for (int k = 0; k < (exp_len[c][i] + 7) / 8; k++) begin
              w = mem[(BASE + c * 'h4000 + int'((p + 8 + 32'(k * 8)) & 32'(sz - 1))) / 8];
              `CHECK(w == pay(exp_id[c][i], k), ("ch %0d pkt %0d word %0d: %h", c, i, k, w))
            end
            head[c] = head[c] + 32'(8 + ((exp_len[c][i] + 7) & ~7));
            n_chk[c]++;
          end
        end
      end
      // one head doorbell per cycle: the first channel whose head moved
      head_we = 1'b0;
      for (int oc = NOPEN - 1; oc >= 0; oc--) begin
        c = open_ch(oc);
        if (head[c] != hw_head[c]) begin
          head_we = 1'b1;
          head_ch = 3'(c);
          head_v  = head[c];
        end
      end
      if (head_we) hw_head[head_ch] = head_v;
    end
  end
  always @(posedge clk) begin
    for (int c = 0; c < NCH; c++)
      if (pkt && u_rx.done_ch == 3'(c)) tail_seen[c] <= u_rx.done_tail;
  end

  reg [8*256-1:0] wave_file;
  int len, kind, chan, r;

  initial begin
    if ($value$plusargs("wave=%s", wave_file)) begin
      $dumpfile(wave_file);
      $dumpvars(0, tb_skif_rx);
    end
    rng = 32'(SEED) * 32'h9E3779B9 + 32'h1;
    for (int n = 0; n < MW; n++) mem[n] = 64'h0;
    for (int c = 0; c < NCH; c++) begin
      head[c] = 0; hw_head[c] = 0; n_chk[c] = 0; hold[c] = 0; n_good[c] = 0; tail_seen[c] = 0;
    end
    repeat (3) @(negedge clk);
    rst_n = 1'b1;

    // the channel table: open four channels (channel 1 twice: the second
    // opening replaces the first)
    @(negedge clk);
    `CHECK(!rd_open && rd_tail == 0, ("channel 0 open after reset"))
    for (int oc = -1; oc < NOPEN; oc++) begin
      int c;
      c = (oc < 0) ? 1 : open_ch(oc);
      cfg_we = 1'b1; cfg_ch = 3'(c); cfg_open = 1'b1;
      cfg_base = 64'(BASE + c * 'h4000 + ((oc < 0) ? 'h100 : 0));
      cfg_size = (oc < 0) ? 5'd14 : 5'(log2_of(c));
      @(negedge clk);
    end
    cfg_we = 1'b0;
    for (int c = 0; c < NCH; c++) begin
      rd_ch = 3'(c);
      #1;
      if (log2_of(c) != 0) begin
        `CHECK(rd_open && rd_size == 5'(log2_of(c)) && rd_base == 64'(BASE + c * 'h4000) &&
               rd_tail == 0 && rd_head == 0 && !rd_busy, ("ch %0d reads back wrong", c))
      end else begin
        `CHECK(!rd_open && rd_size == 0 && rd_base == 0, ("closed ch %0d reads back open", c))
      end
    end

    // RX disabled: the header waits.
    fork
      send(0, 16, 0);
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
      r = rnd(20);
      chan = (r == 0) ? 7 : (r == 1) ? 200 : open_ch(rnd(NOPEN));
      if (i % 60 == 10) hold[open_ch(rnd(NOPEN))] = 8000;  // software falls behind: a ring fills
      send(kind, len, chan);
    end
    for (int oc = 0; oc < NOPEN; oc++) begin
      int c;
      c = open_ch(oc);
      while (n_chk[c] != n_good[c] || head[c] != hw_head[c]) begin
        @(negedge clk);
        if (cycle > 2_000_000) $fatal(1, "timeout");
      end
    end
    repeat (50) @(negedge clk);
    for (int oc = 0; oc < NOPEN; oc++) begin
      int c;
      c = open_ch(oc);
      rd_ch = 3'(c);
      #1;
      `CHECK(rd_tail == head[c] && rd_head == head[c], ("ch %0d: tail %h head %h, software %h",
             c, rd_tail, rd_head, head[c]))
      `CHECK(mem[(STB + 'h100 + 8 * c) / 8][31:0] == head[c], ("ch %0d: status word stale", c))
    end
    `CHECK(n_pkt == n_good_all, ("pkt pulses %0d, good packets %0d", n_pkt, n_good_all))
    `CHECK(n_err == n_bad, ("err pulses %0d, malformed packets %0d", n_err, n_bad))
    `CHECK(n_closed == n_to_closed && n_closed_bad_ch == 0,
           ("closed pulses %0d (%0d naming a wrong channel), packets to closed channels %0d",
            n_closed, n_closed_bad_ch, n_to_closed))
    `CHECK(n_to_closed > 0, ("no packet went to a closed channel"))
    `CHECK(n_stall > 0, ("no ring ever filled (no stall)"))
    `CHECK(!busy && !stall, ("RX busy at the end"))

    // close a channel while a message is being written into its ring: the
    // message is finished into the old ring (the DMA monitor flags any write
    // outside it, e.g. through a cleared base), then the channel reads back
    // closed and idle
    begin : close_busy
      int c;
      c = open_ch(0);
      hold[c] = 1_000_000;  // the consumer leaves this channel alone now
      rd_ch = 3'(c);
      fork
        send(0, 1000, c);
        begin
          while (!rd_busy) @(negedge clk);
          cfg_we = 1'b1; cfg_ch = 3'(c); cfg_open = 1'b0; cfg_base = 64'h0; cfg_size = 5'h0;
          @(negedge clk);
          cfg_we = 1'b0;
          #1;
          `CHECK(rd_busy, ("ch %0d: not busy right after the close", c))
        end
      join
      while (busy) @(negedge clk);
      #1;
      `CHECK(!rd_open && !rd_busy && rd_base == 0,
             ("ch %0d: open or busy after the close", c))
    end
    $display("tb_skif_rx: %0d good packets on %0d channels, %0d to closed channels, %0d malformed, %0d stall cycles, %0d cycles, %0d errors",
             n_good_all, NOPEN, n_to_closed, n_bad, n_stall, cycle, errors);
    if (errors > 0) $fatal(1, "tb_skif_rx: %0d errors", errors);
    $display("PASS tb_skif_rx");
    $finish;
  end
endmodule
