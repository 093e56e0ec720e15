`timescale 1ns/1ps
// SPDX-License-Identifier: Apache-2.0
// tb_skif_tx: skif_tx alone against a behavioural host memory (fixed read
// latency, random DMA back-pressure) and a random-ready network sink.
//
// Checks: header and payload flits of every message (zeroed tail bytes, `last`),
// ring wrap-around, TX_HEAD status writes (final head always written), reads
// never beyond DmaMaxReads outstanding, bad descriptors (pulse, err_info,
// halt, retry after repair), DMA read errors (packet completed, halt),
// TX_EN off/on at message boundaries; measures 8-byte message throughput.
`include "skif_defs.vh"

module tb_skif_tx;
  parameter int LAT   = 20;      // host memory read latency
  parameter int MAXRD = 128;     // DmaMaxReads
  parameter int LOG2  = 12;      // ring size
  parameter int NMSG  = 150;     // random messages
  parameter int SEED  = 1;
  parameter int GAP   = 1;       // StatGap: min cycles between status writes (but all sent)

  localparam int BASE = 'h1000;  // ring base (bytes)
  localparam int STB  = 'h40000; // status block
  localparam int MW   = 'h40010 / 8;
  localparam logic [15:0] NODE = 16'h0321;

  `include "skif_tb.svh"  // clk, rst_n, cycle, errors, `CHECK
  int seed_v = 1;
  function automatic int rnd(input int n);
    return int'($unsigned($random(seed_v)) % n);
  endfunction

  // ---------------------------------------------------------------- DUT
  logic        en = 1'b0, halt = 1'b0;
  logic [31:0] tail = 32'h0;
  wire  [31:0] head, err_info;
  wire         busy, desc_err, dma_err, pkt, flit;
  wire         dvalid, dwrite, dstat;
  logic        dready;
  wire  [63:0] daddr, dwdata;
  logic        rvalid, rerr;
  logic [63:0] rdata;
  wire         nvalid, nlast;
  logic        nready;
  wire  [63:0] ndata;

  skif_tx #(
    .DmaMaxReads (MAXRD),
    .StatGap     (GAP)
  ) u_tx (
    .clk_i (clk), .rst_ni (rst_n), .node_id_i (NODE),
    .en_i (en), .halt_i (halt), .base_i (64'(BASE)), .size_i (5'(LOG2)), .tail_i (tail),
    .stat_base_i (64'(STB)), .head_o (head), .busy_o (busy), .desc_err_o (desc_err),
    .dma_err_o (dma_err), .err_info_o (err_info), .pkt_o (pkt), .flit_o (flit),
    .dma_valid_o (dvalid), .dma_ready_i (dready), .dma_write_o (dwrite), .dma_addr_o (daddr),
    .dma_wdata_o (dwdata), .dma_stat_o (dstat),
    .dma_rsp_valid_i (rvalid), .dma_rsp_data_i (rdata), .dma_rsp_err_i (rerr),
    .net_valid_o (nvalid), .net_ready_i (nready), .net_data_o (ndata), .net_last_o (nlast)
  );

  // ---------------------------------------------------------------- host memory
  logic [63:0] mem [MW];
  int          poison = -1;            // word index answering with an error
  int          dma_ready_pct = 80, net_ready_pct = 80;
  logic [LAT-1:0] pv, pe;
  logic [LAT-1:0][63:0] pd;
  int          outstanding = 0, max_out = 0;
  int          stat_writes = 0;
  int          mon_cyc = 0, last_stat = -1000000;  // status writes come >= GAP cycles apart
  assign rvalid = pv[LAT-1];
  assign rerr   = pe[LAT-1];
  assign rdata  = pd[LAT-1];

  always @(negedge clk) begin
    dready <= rnd(100) < dma_ready_pct;
    nready <= rnd(100) < net_ready_pct;
  end

  always @(posedge clk) begin
    if (!rst_n) begin
      pv <= '0; pe <= '0;
    end else begin
      mon_cyc <= mon_cyc + 1;
      pv <= {pv[LAT-2:0], dvalid && dready && !dwrite};
      pe <= {pe[LAT-2:0], dvalid && dready && !dwrite && int'(daddr >> 3) == poison};
      pd <= {pd[LAT-2:0], mem[daddr[31:3]]};
      outstanding <= outstanding + ((dvalid && dready && !dwrite) ? 1 : 0) - (u_tx.f_pop ? 1 : 0);
      if (outstanding > max_out) max_out <= outstanding;
      `CHECK(outstanding <= MAXRD, ("%0d reads outstanding > %0d", outstanding, MAXRD))
      if (dvalid && dready) begin
        if (dwrite) begin
          `CHECK(dstat && daddr == STB, ("unexpected DMA write to %h", daddr))
          `CHECK(dwdata[63:32] == 0, ("status write %h", dwdata))
          // closer only for the write of head == TX_TAIL (all sent)
          `CHECK(mon_cyc - last_stat >= GAP || dwdata[31:0] == tail,
                 ("status writes %0d cycles apart, StatGap %0d", mon_cyc - last_stat, GAP))
          last_stat <= mon_cyc;
          mem[daddr[31:3]] <= dwdata;
          stat_writes <= stat_writes + 1;
        end else begin
          `CHECK(daddr >= BASE && daddr < BASE + (1 << LOG2) && daddr[2:0] == 0, ("read outside the ring: %h", daddr))
        end
      end
    end
  end

  // ---------------------------------------------------------------- software and expectations
  int          exp_len [4096], exp_dst [4096], exp_chan [4096];
  int          exp_zero_word [4096];      // payload word forced to zero by a DMA error, or -1
  int          n_put = 0, n_got = 0, k_flit = 0;

  function automatic logic [7:0] pat(input int m, input int b);
    return 8'((m * 29 + b * 5 + (b >> 8) + 1) & 255);
  endfunction

  function automatic int entry_bytes(input int len);
    return 8 + ((len + 7) & ~7);
  endfunction

  function automatic logic [31:0] stat_head();
    return mem[STB / 8][31:0];
  endfunction

  // Returns the ring word index of payload word 0 of the message.
  task automatic put(input int dst, input int chan, input int len, input logic [63:0] desc_ovr, output int p0);
    logic [63:0] w;
    int m;
    m = n_put;
    begin : w_1  // loop condition evaluated apart (Verilator 5.006 --timing)
      bit c;
      c = (1 << LOG2) - int'(tail - stat_head()) < entry_bytes(len);
      while (c) begin @(negedge clk); c = (1 << LOG2) - int'(tail - stat_head()) < entry_bytes(len); end
    end
    exp_len[m] = len; exp_dst[m] = dst; exp_chan[m] = chan; exp_zero_word[m] = -1;
    w = (desc_ovr !== 64'h0) ? desc_ovr : {20'h0, 12'(len), 8'h00, 16'(dst), 8'(chan)};
    mem[(BASE + (tail & ((1 << LOG2) - 1))) / 8] = w;
    p0 = (BASE + ((tail + 8) & ((1 << LOG2) - 1))) / 8;
    for (int k = 0; k < (len + 7) / 8; k++) begin
      for (int b = 0; b < 8; b++) w[b*8 +: 8] = (k*8 + b < len) ? pat(m, k*8 + b) : 8'hAB;
      mem[(BASE + ((tail + 8 + 32'(k*8)) & ((1 << LOG2) - 1))) / 8] = w;
    end
    tail = tail + 32'(entry_bytes(len));
    n_put = n_put + 1;
  endtask

  // Sink: check every flit against the expected message stream.
  always @(posedge clk) begin
    if (rst_n && nvalid && nready) begin
      if (n_got >= n_put) begin
        errors++; $error("flit %h with no message expected", ndata);
      end else if (k_flit == 0) begin
        `CHECK(ndata == {`SKIF_KIND_MSG, 16'(exp_dst[n_got]), NODE, 8'(exp_chan[n_got]), 12'(exp_len[n_got]), 8'h00},
               ("msg %0d: header %h", n_got, ndata))
      end else begin : pay
        logic [63:0] w;
        for (int b = 0; b < 8; b++)
          w[b*8 +: 8] = ((k_flit-1)*8 + b < exp_len[n_got]) ? pat(n_got, (k_flit-1)*8 + b) : 8'h00;
        if (exp_zero_word[n_got] == k_flit - 1) w = 64'h0;
        `CHECK(ndata == w, ("msg %0d flit %0d: %h expected %h", n_got, k_flit, ndata, w))
      end
      if (n_got < n_put) begin
        `CHECK(nlast == (k_flit == (exp_len[n_got] + 7) / 8), ("msg %0d flit %0d: last %b", n_got, k_flit, nlast))
        if (nlast) begin k_flit = 0; n_got++; end
        else k_flit++;
      end
    end
  end

  task automatic wait_sent(input int limit);
    int t0;
    t0 = cycle;
    begin : w_2  // loop condition evaluated apart (Verilator 5.006 --timing)
      bit c;
      c = n_got != n_put || stat_head() != tail || head != tail;
      while (c) begin
      @(negedge clk);
      if (cycle - t0 > limit) $fatal(1, "timeout: put %0d got %0d head %h stat %h tail %h", n_put, n_got, head, stat_head(), tail);
      c = n_got != n_put || stat_head() != tail || head != tail;
      end
    end
  endtask

  reg [8*256-1:0] wave_file;
  int p0, t_first, t_last, got0, h0, len;

  initial begin
    if ($value$plusargs("wave=%s", wave_file)) begin
      $dumpfile(wave_file);
      $dumpvars(0, tb_skif_tx);
    end
    seed_v = SEED;
    for (int n = 0; n < MW; n++) mem[n] = 64'h0;
    repeat (3) @(negedge clk);
    rst_n = 1'b1;
    en = 1'b1;

    // ------------------------------------------------ random messages, wrapping the ring
    for (int m = 0; m < NMSG; m++) begin
      case (rnd(6))
        0: len = 0;
        1: len = rnd(9);
        2: len = rnd(64);
        3: len = (LOG2 > 12) ? `SKIF_MAX_MSG : rnd(`SKIF_MAX_MSG + 1);
        default: len = rnd(600);
      endcase
      put(rnd(65536), rnd(256), len, 64'h0, p0);
      repeat (rnd(4)) @(negedge clk);
    end
    wait_sent(200000);
    $display("random: %0d messages, %0d status writes, max %0d reads outstanding", n_put, stat_writes, max_out);
    `CHECK(stat_writes < n_put, ("status writes not coalesced: %0d for %0d messages", stat_writes, n_put))

    // ------------------------------------------------ throughput, 8-byte messages
    dma_ready_pct = 100; net_ready_pct = 100;
    begin : thr
      int nm;
      nm = ((1 << LOG2) / 16) - 4;
      got0 = n_got;
      en = 1'b0;
      for (int m = 0; m < nm; m++) put(1, m, 8, 64'h0, p0);
      @(negedge clk);
      en = 1'b1;
      t_first = -1;
      while (n_got != n_put) begin
        @(negedge clk);
        if (nvalid && t_first < 0) t_first = cycle;
      end
      t_last = cycle;
      $display("MEASURE LAT=%0d MAXRD=%0d: %0d 8-byte messages in %0d cycles = %0.2f cycles/message", LAT, MAXRD, nm,
               t_last - t_first, real'(t_last - t_first) / nm);
      if (MAXRD >= LAT + 8)
        `CHECK(real'(t_last - t_first) / nm < 2.3, ("throughput below goal"))
      wait_sent(10000);
    end
    dma_ready_pct = 80; net_ready_pct = 80;

    // ------------------------------------------------ bad descriptor: halt, retry after repair
    h0 = tail;
    got0 = n_got;
    fork
      put(2, 7, 16, {20'h0, 12'd2049, 8'h00, 16'd2, 8'd7}, p0);
      begin
        @(posedge desc_err);
        `CHECK(err_info == h0, ("err_info %h expected %h", err_info, h0))
        halt = 1'b1;
      end
    join
    repeat (300) @(negedge clk);
    `CHECK(n_got == got0 && head == h0, ("bad descriptor was sent or head moved"))
    mem[(BASE + (h0 & ((1 << LOG2) - 1))) / 8] = {20'h0, 12'd16, 8'h00, 16'd2, 8'd7};
    halt = 1'b0;
    wait_sent(10000);

    // ------------------------------------------------ DMA error in a payload word
    en = 1'b0;
    put(3, 9, 40, 64'h0, p0);
    exp_zero_word[n_put - 1] = 2;
    poison = p0 + 2;
    if (poison >= (BASE + (1 << LOG2)) / 8) poison = poison - (1 << LOG2) / 8;
    put(4, 10, 8, 64'h0, p0);
    fork
      begin @(negedge clk); en = 1'b1; end
      begin
        @(posedge dma_err);
        halt = 1'b1;
      end
    join
    repeat (300) @(negedge clk);
    `CHECK(n_got == n_put - 1, ("after DMA error: %0d of %0d messages sent", n_got, n_put))
    poison = -1;
    halt = 1'b0;
    wait_sent(10000);

    // ------------------------------------------------ TX_EN off/on in a stream
    for (int m = 0; m < 20; m++) put(5, m, rnd(100), 64'h0, p0);
    repeat (30) @(negedge clk);
    en = 1'b0;
    repeat (200) @(negedge clk);
    `CHECK(!nvalid && !busy, ("TX still active with TX_EN clear"))
    en = 1'b1;
    wait_sent(20000);

    $display("tb_skif_tx LAT=%0d MAXRD=%0d LOG2=%0d: %0d messages, %0d cycles, %0d errors", LAT, MAXRD, LOG2, n_put, cycle, errors);
    if (errors > 0) $fatal(1, "tb_skif_tx: %0d errors", errors);
    $display("PASS tb_skif_tx");
    $finish;
  end

  initial begin
    #20_000_000;
    $fatal(1, "global timeout");
  end
endmodule
