`timescale 1ns/1ps
// SPDX-License-Identifier: Apache-2.0
// skif_rx: RX engine and channel demultiplexer: writes each arriving message
// into the ring of its destination channel in host memory.
//
// Handshakes: network flits valid/ready (net_ready_o may depend on
// net_valid_i and on dma_ready_i, never the other way round); DMA write
// requests valid/ready towards skif_dma_arb (a request not yet accepted may be
// withdrawn). Every accepted flit of a good packet is one DMA write accepted
// in the same cycle (flit and write handshake together), so RX holds no flit
// buffer and cannot deadlock on the DMA port: it only waits for the arbiter.
//
// Channel table: NumChans entries {open, ring base, log2 size, tail, head},
// set by skif_regs: cfg_we_i commits {base, size, open} to channel cfg_ch_i
// and zeroes its head and tail; head_we_i sets one channel's head (software
// consumer pointer, the CH_HEAD doorbell). One channel's entry is read back
// for the CH_* register window (rd_ch_i).
//
// Per packet: the header is checked (kind == MSG, len <= SKIF_MAX_MSG,
// `last` on the header iff len == 0). A good packet for a channel that is
// not open (or >= NumChans) is consumed whole without writes: closed_o
// pulses with the channel in closed_ch_o (CH_DROPS++, STATUS.CH_DROP). A good
// packet for an open channel waits (net_ready_o low, stall_o high) until its
// channel's ring has 8 + roundup8(len) bytes free, free = size - (tail -
// head): this blocks every later packet to this node, whatever its channel
// (docs/rtl.md, "Back-pressure"). Then the entry header word goes to
// base + (tail & (size-1)) and payload flit k to ring offset tail + 8 + 8k
// (wrapping). After the last write the channel's tail advances and a status
// write of that tail to STAT_BASE + SKIF_STAT_CH_TAIL + 8*channel becomes
// pending (issued behind the entry's writes on the same port; pending
// writes of several channels are issued round-robin, one at a time, each
// yielding to data writes for up to StatHoldoff cycles; a round of them
// starts StatGap cycles after the previous round at the earliest, the first
// after a quiet spell, or while a packet waits for ring space, at once, so
// back-to-back packets coalesce). A malformed packet (bad header, `last`
// too early or too late) is consumed up to its `last` flit without further
// writes, err_o
// pulses (RX_DROPS++, STATUS.RX_ERR), no tail moves. CTRL.RX_EN is sampled at
// packet boundaries: when clear, net_ready_o is low before a header; a packet
// already started is finished.
`include "skif_defs.vh"

module skif_rx #(
  parameter int StatHoldoff = 16,  // max cycles a pending status write yields to data writes
  parameter int StatGap     = 1,   // min cycles from one status round to the next (1: none)
  parameter int NumChans    = 64,  // channels, a power of two, 2..SKIF_CHANS_MAX
  parameter int CollQuiet   = 16,  // idle cycles of the collective input that end a stream of results
  localparam int ChW = $clog2(NumChans)
) (
  input  logic           clk_i,
  input  logic           rst_ni,
  // configuration and state (skif_regs)
  input  logic           en_i,          // CTRL.RX_EN
  input  logic [63:0]    stat_base_i,
  input  logic           cfg_we_i,      // commit an entry (CH_CFG write)
  input  logic [ChW-1:0] cfg_ch_i,
  input  logic [63:0]    cfg_base_i,
  input  logic [4:0]     cfg_size_i,    // log2 of ring bytes, 12..24 when opening
  input  logic           cfg_open_i,
  input  logic           head_we_i,     // CH_HEAD doorbell
  input  logic [ChW-1:0] head_ch_i,
  input  logic [31:0]    head_i,
  input  logic [ChW-1:0] rd_ch_i,       // CH_SEL: the entry read back
  output logic           rd_open_o,
  output logic [4:0]     rd_size_o,
  output logic [63:0]    rd_base_o,
  output logic [31:0]    rd_tail_o,
  output logic [31:0]    rd_head_o,
  output logic           rd_busy_o,     // a message is being written into it
  output logic           busy_o,
  output logic           stall_o,       // a good header waits for ring space
  output logic           err_o,         // pulse: malformed packet dropped
  output logic [31:0]    err_info_o,    // {channel, 8'h0, tail[15:0]} at the drop
  output logic           closed_o,      // pulse: message for a closed channel discarded
  output logic [7:0]     closed_ch_o,
  output logic           pkt_o,         // pulse: entry complete
  // DMA write requests (to skif_dma_arb)
  output logic           dma_valid_o,
  input  logic           dma_ready_i,
  output logic [63:0]    dma_addr_o,
  output logic [63:0]    dma_wdata_o,
  output logic           dma_stat_o,    // request is a status-block write
  output logic           coll_done_o,   // pulse: a collective result entry complete
  input  logic [63:0]    coll_cnt_i,    // {COLL_DONE, COLL_SENT}: written to SKIF_STAT_COLL when it changes
  // network
  input  logic           net_valid_i,
  output logic           net_ready_o,
  input  logic [63:0]    net_data_i,
  input  logic           net_last_i,
  // collective results (skif_coll): COLL_DOWN packets for the ring of coll_chan_i
  input  logic           coll_valid_i,
  output logic           coll_ready_o,
  input  logic [63:0]    coll_data_i,
  input  logic           coll_last_i,
  input  logic [7:0]     coll_chan_i
);
  localparam int AgeW = $clog2(StatHoldoff + 1);
  localparam logic [AgeW-1:0] HoldoffC = AgeW'(StatHoldoff);
  localparam logic [11:0] MaxMsgC = 12'(`SKIF_MAX_MSG);
  localparam int QuietW = $clog2(CollQuiet + 1);
  localparam logic [QuietW-1:0] QuietC = QuietW'(CollQuiet);

`ifndef SYNTHESIS
  if (StatHoldoff < 1) begin : g_bad_holdoff
    `SKIF_BAD_PARAM("StatHoldoff=%0d must be >= 1", StatHoldoff)
  end
  if (CollQuiet < 1) begin : g_bad_quiet
    `SKIF_BAD_PARAM("CollQuiet=%0d must be >= 1", CollQuiet)
  end
  if (NumChans < 2 || NumChans > `SKIF_CHANS_MAX || (NumChans & (NumChans - 1)) != 0) begin : g_bad_chans
    `SKIF_BAD_PARAM("NumChans=%0d must be a power of two from 2 to 256", NumChans)
  end
`endif

  typedef enum logic [1:0] {
    SHdr  = 2'd0,  // next flit is a header
    SPay  = 2'd1,  // writing payload flits
    SDrop = 2'd2   // discarding a packet up to its last flit
  } state_e;

  // ---------------------------------------------------------------- channel table
  logic [NumChans-1:0] open_q;
  logic [60:0]     base_q [NumChans];  // ring base / 8
  logic [4:0]      size_q [NumChans];
  logic [31:0]     tail_q [NumChans];
  logic [31:0]     head_q [NumChans];

  state_e          state_q, state_d;
  logic [ChW-1:0]  cur_q, cur_d;       // channel of the packet being written
  logic [31:0]     wr_ptr_q, wr_ptr_d;
  logic [8:0]      rem_q, rem_d;       // payload flits left, 1..256
  logic [12:0]     entry_q, entry_d;   // entry bytes of the current packet
  logic [NumChans-1:0] dirty_q;        // channels whose tail is not yet in the status block
  logic [ChW-1:0]  rr_q;               // round-robin start of the status-write choice
  logic [AgeW-1:0] stat_age_q;
  logic            stat_open;   // StatGap cycles since the last status write (skif_gap)
  logic [NumChans-1:0] round_q;    // channels left in the current status round

  // ---------------------------------------------------------------- input choice
  // Two inputs, chosen at packet boundaries (round-robin while both wait):
  // messages from the router and collective results from the engine.
  logic        src_q, pref_q, src, in_valid, in_ready, in_last;
  logic [63:0] in_data;
  assign src      = (state_q != SHdr) ? src_q
                  : (pref_q ? (coll_valid_i || !net_valid_i) : !net_valid_i && coll_valid_i);
  assign in_valid = src ? coll_valid_i : net_valid_i;
  assign in_data  = src ? coll_data_i : net_data_i;
  assign in_last  = src ? coll_last_i : net_last_i;
  assign net_ready_o  = in_ready && !src;
  assign coll_ready_o = in_ready && src;

  // ---------------------------------------------------------------- header decode
  logic [3:0]     h_kind;
  logic [11:0]    h_len;
  logic [7:0]     h_chan;
  logic [ChW-1:0] h_ch;
  logic [12:0]    h_entry;
  logic           h_bad, h_open, h_space;
  logic [31:0]    h_size, h_tail;
  logic [32:0]    used_plus;
  logic [63:0]    entry_word, h_base, cur_base;
  logic [4:0]     h_log2, cur_log2;
  assign h_kind  = in_data[`SKIF_HDR_KIND_HI:`SKIF_HDR_KIND_LO];
  assign h_len   = in_data[`SKIF_HDR_LEN_HI:`SKIF_HDR_LEN_LO];
  assign h_chan  = src ? coll_chan_i : in_data[`SKIF_HDR_CHAN_HI:`SKIF_HDR_CHAN_LO];
  assign h_ch    = h_chan[ChW-1:0];
  assign h_entry = 13'd8 + (({1'b0, h_len} + 13'd7) & ~13'd7);
  assign h_bad   = (h_kind != (src ? `SKIF_KIND_COLL_DOWN : `SKIF_KIND_MSG)) || (h_len > MaxMsgC) || ((h_len == 12'd0) != in_last);
  assign h_open  = open_q[h_ch] && ({24'h0, h_chan} < NumChans);
  assign h_base   = {base_q[h_ch], 3'b000};
  assign h_log2   = size_q[h_ch];
  assign cur_base = {base_q[cur_q], 3'b000};
  assign cur_log2 = size_q[cur_q];
  assign h_size  = 32'd1 << h_log2;
  assign h_tail  = tail_q[h_ch];
  assign used_plus = {1'b0, h_tail - head_q[h_ch]} + {20'h0, h_entry};
  assign h_space = used_plus <= {1'b0, h_size};
  // RX entry header word: [7:0] channel, [23:8] src node, [43:32] len; a
  // collective result also [23:8] node, [31:24] tree, [44] err, [47:45] op,
  // [52:48] rid, [59:56] cmd and kind 2 in [63:60] (docs/collectives.md).
  always @(*) begin
    entry_word = '0;
    entry_word[7:0]                           = h_chan;
    entry_word[`SKIF_DESC_LEN_LO +: `SKIF_LEN_W] = h_len;
    if (src) begin
      entry_word[23:8]                        = in_data[`SKIF_CHDR_ARG_LO +: 16];
      entry_word[`SKIF_CENT_TREE_LO +: 8]     = in_data[`SKIF_CHDR_TREE_LO +: 8];
      entry_word[`SKIF_CENT_ERR_BIT]              = in_data[`SKIF_CHDR_ERR];
      entry_word[`SKIF_CENT_OP_LO +: 3]       = in_data[`SKIF_CHDR_OP_LO +: 3];
      entry_word[`SKIF_CENT_RID_LO +: 5]      = in_data[`SKIF_CHDR_RID_LO +: 5];
      entry_word[`SKIF_CENT_CMD_LO +: 4]      = in_data[`SKIF_CHDR_CMD_LO +: 4];
      entry_word[`SKIF_CENT_KIND_LO +: 4]     = `SKIF_ENT_KIND_COLL;
    end else begin
      entry_word[23:8]                        = in_data[`SKIF_HDR_SRC_HI:`SKIF_HDR_SRC_LO];
    end
  end

  // ---------------------------------------------------------------- control
  logic        data_want, stat_go, stat_any, complete;
  logic [ChW-1:0] stat_ch;
  logic [31:0] data_ptr;
  logic [63:0] data_word, data_base;
  logic [4:0]  data_size;

  // A data write is wanted for a good header of an open channel with ring
  // space, or a payload flit whose `last` agrees with the length.
  assign data_want = in_valid &&
                     (((state_q == SHdr) && en_i && !h_bad && h_open && h_space) ||
                      ((state_q == SPay) && (in_last == (rem_q == 9'd1))));
  // Status writes: one dirty channel's tail at a time, chosen round-robin:
  // the lowest candidate at or above rr_q, else the lowest of all (isolate
  // the lowest set bit, encode it); they yield to data writes for up to
  // StatHoldoff cycles. A round writes the channels dirty when it starts,
  // each once; the next round starts StatGap cycles after the round's last
  // write at the earliest, so one channel's status writes come at least
  // StatGap cycles apart.
  logic [NumChans-1:0] above, pick, low, cand;
  logic [ChW-1:0]      low_idx;
  logic                in_round;
  assign in_round = (round_q & dirty_q) != '0;
  assign cand     = in_round ? (round_q & dirty_q) : dirty_q;
  assign above    = cand & ~((NumChans'(1) << rr_q) - NumChans'(1));
  assign pick     = (above != '0) ? above : cand;
  assign low      = pick & (~pick + 1'b1);
  assign stat_any = (dirty_q != '0);
  for (genvar b = 0; b < ChW; b++) begin : g_enc
    logic [NumChans-1:0] m;
    for (genvar k = 0; k < NumChans; k++) begin : g_m
      assign m[k] = ((k >> b) & 1) == 1;
    end
    assign low_idx[b] = (low & m) != '0;
  end
  assign stat_ch = low_idx;
  // (the gap is waived while a packet waits for ring space: software must
  // see what is there to make room, and no data writes come meanwhile)
  // (and for a collective result: a whole tree waits for it, so its tail
  // goes out at once, unless more results keep coming: the collective
  // input idle for CollQuiet cycles, this one included, ends a stream of
  // them (a broadcast's pieces); within a stream the normal StatGap and
  // StatHoldoff rules apply, so the stream's intermediate tails coalesce)
  logic            coll_now_q, coll_quiet;
  logic [QuietW-1:0] quiet_q;  // cycles the collective input was idle, up to CollQuiet
  assign coll_quiet = !coll_valid_i && (QuietW'(quiet_q + 1'b1) >= QuietC || quiet_q == QuietC);
  assign stat_go = stat_any && (in_round || stat_open || stall_o || (coll_now_q && coll_quiet)) &&
                   (!data_want || stat_age_q == HoldoffC);

  always @(*) begin
    state_d     = state_q;
    cur_d       = cur_q;
    wr_ptr_d    = wr_ptr_q;
    rem_d       = rem_q;
    entry_d     = entry_q;
    data_ptr    = h_tail;
    data_word   = entry_word;
    data_base   = h_base;
    data_size   = h_log2;
    in_ready = 1'b0;
    stall_o     = 1'b0;
    err_o       = 1'b0;
    closed_o    = 1'b0;
    complete    = 1'b0;
    case (state_q)
      SHdr: begin
        if (en_i && in_valid) begin
          if (h_bad || !h_open) begin
            in_ready = 1'b1;
            err_o       = h_bad;
            closed_o    = !h_bad;
            if (!in_last) state_d = SDrop;
          end else if (!h_space) begin
            stall_o = 1'b1;
          end else begin
            in_ready = dma_ready_i && !stat_go;
            if (in_ready) begin
              cur_d    = h_ch;
              entry_d  = h_entry;
              wr_ptr_d = h_tail + 32'd8;
              rem_d    = 9'(({1'b0, h_len} + 13'd7) >> 3);
              if (h_len == 12'd0) complete = 1'b1;
              else state_d = SPay;
            end
          end
        end
      end
      SPay: begin
        data_ptr  = wr_ptr_q;
        data_word = in_data;
        data_base = cur_base;
        data_size = cur_log2;
        if (in_valid) begin
          if (in_last != (rem_q == 9'd1)) begin
            // `last` too early or too late: drop the rest of the packet.
            in_ready = 1'b1;
            err_o       = 1'b1;
            if (in_last) state_d = SHdr;
            else            state_d = SDrop;
          end else begin
            in_ready = dma_ready_i && !stat_go;
            if (in_ready) begin
              wr_ptr_d = wr_ptr_q + 32'd8;
              rem_d    = rem_q - 9'd1;
              if (in_last) begin
                complete = 1'b1;
                state_d  = SHdr;
              end
            end
          end
        end
      end
      default: begin  // SDrop
        in_ready = 1'b1;
        if (in_valid && in_last) state_d = SHdr;
      end
    endcase
  end

  // the completed entry's channel and its new tail
  logic [ChW-1:0] done_ch;
  logic [31:0]    done_tail;
  assign done_ch   = (state_q == SHdr) ? h_ch : cur_q;
  assign done_tail = tail_q[done_ch] + {19'h0, (state_q == SHdr) ? h_entry : entry_q};

  logic [31:0] ring_mask;
  assign ring_mask = (32'd1 << data_size) - 32'd1;

  // The collective counters word goes out when it changed and nothing else
  // waits (after the tails of the results it counts), and the collective
  // input is quiet (a stream of results ends) or StatGap cycles passed
  // since the word was last written (a long stream still updates it).
  logic [63:0] cnt_wr_q;
  logic        cnt_go;
  logic            cnt_open;   // StatGap cycles since the last counters write (skif_gap)
  assign cnt_go = (coll_cnt_i != cnt_wr_q) && !stat_any && !data_want &&
                  (coll_quiet || cnt_open);
  skif_gap #(.Gap (StatGap)) u_cnt_gap (
    .clk_i, .rst_ni, .restart_i (cnt_go && dma_ready_i), .open_o (cnt_open)
  );
  skif_gap #(.Gap (StatGap)) u_stat_gap (
    .clk_i, .rst_ni, .restart_i (stat_go && dma_ready_i), .open_o (stat_open)
  );

  assign dma_valid_o = stat_go || data_want || cnt_go;
  assign dma_stat_o  = stat_go || cnt_go;
  assign dma_addr_o  = stat_go ? (stat_base_i + 64'(`SKIF_STAT_CH_TAIL) + 64'({stat_ch, 3'b000}))
                     : cnt_go  ? (stat_base_i + 64'(`SKIF_STAT_COLL))
                               : (data_base + {32'h0, data_ptr & ring_mask});
  assign dma_wdata_o = stat_go ? {32'h0, tail_q[stat_ch]} : cnt_go ? coll_cnt_i : data_word;
  always @(posedge clk_i) begin
    if (!rst_ni) begin
      cnt_wr_q  <= '0;
      quiet_q   <= QuietC;
    end else begin
      if (cnt_go && dma_ready_i) cnt_wr_q <= coll_cnt_i;
      if (coll_valid_i)          quiet_q <= '0;
      else if (quiet_q != QuietC) quiet_q <= quiet_q + 1'b1;
    end
  end

  // table: a configuration write wins over the engine's tail update of the
  // same channel (software only reconfigures a channel that is not busy).
  // Only the open bits are reset: a channel's other fields are set when it
  // is opened and mean nothing before (read back as 0 while closed).
  always @(posedge clk_i) begin
    if (!rst_ni) open_q <= '0;
    else if (cfg_we_i) open_q[cfg_ch_i] <= cfg_open_i;
  end
  logic [2:0] unused_base_lo;  // ring bases are 8-byte aligned
  assign unused_base_lo = cfg_base_i[2:0];
  // A close (cfg_open_i low) keeps the ring's base and size: a packet
  // being written into the ring when software closes the channel is
  // finished there (CH_CFG.BUSY until then; the driver frees the ring only
  // after), not written through a cleared base to address 0.
  always @(posedge clk_i) begin
    if (cfg_we_i && cfg_open_i) begin
      base_q[cfg_ch_i] <= cfg_base_i[63:3];
      size_q[cfg_ch_i] <= cfg_size_i;
    end
  end
  always @(posedge clk_i) begin
    if (complete && !(cfg_we_i && cfg_ch_i == done_ch)) tail_q[done_ch] <= done_tail;
    if (cfg_we_i) tail_q[cfg_ch_i] <= 32'h0;
  end
  always @(posedge clk_i) begin
    if (head_we_i && !(cfg_we_i && cfg_ch_i == head_ch_i)) head_q[head_ch_i] <= head_i;
    if (cfg_we_i) head_q[cfg_ch_i] <= 32'h0;
  end

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q     <= SHdr;
      src_q       <= 1'b0;
      pref_q      <= 1'b0;
      cur_q       <= '0;
      wr_ptr_q    <= 32'h0;
      rem_q       <= 9'h0;
      entry_q     <= 13'h0;
      dirty_q     <= '0;
      rr_q        <= '0;
      stat_age_q  <= '0;
      round_q     <= '0;
      coll_now_q  <= 1'b0;
    end else begin
      state_q  <= state_d;
      if (state_q == SHdr && in_valid && in_ready) begin
        src_q  <= src;
        pref_q <= !src;
      end
      cur_q    <= cur_d;
      wr_ptr_q <= wr_ptr_d;
      rem_q    <= rem_d;
      entry_q  <= entry_d;
      // (complete never coincides with an accepted status write)
      if (complete) dirty_q[done_ch] <= 1'b1;
      else if (stat_go && dma_ready_i) begin
        dirty_q[stat_ch] <= 1'b0;
        rr_q             <= stat_ch + 1'b1;
      end
      if (!stat_any || (stat_go && dma_ready_i)) stat_age_q <= '0;
      else if (stat_age_q != HoldoffC) stat_age_q <= stat_age_q + 1'b1;
      if (complete && src)               coll_now_q <= 1'b1;
      else if (stat_go && dma_ready_i) coll_now_q <= 1'b0;
      if (stat_go && dma_ready_i) round_q <= cand & ~low;
    end
  end

  assign err_info_o  = (state_q == SHdr) ? {h_chan, 8'h00, h_tail[15:0]}
                                        : {8'(cur_q), 8'h00, tail_q[cur_q][15:0]};
  assign closed_ch_o = h_chan;
  assign pkt_o       = complete;
  assign coll_done_o = complete && src;
  assign busy_o      = (state_q != SHdr);

  assign rd_open_o = open_q[rd_ch_i];
  assign rd_size_o = rd_open_o ? size_q[rd_ch_i] : 5'h0;
  assign rd_base_o = rd_open_o ? {base_q[rd_ch_i], 3'b000} : 64'h0;
  assign rd_tail_o = rd_open_o ? tail_q[rd_ch_i] : 32'h0;
  assign rd_head_o = rd_open_o ? head_q[rd_ch_i] : 32'h0;
  assign rd_busy_o = (state_q == SPay) && (cur_q == rd_ch_i);
endmodule
