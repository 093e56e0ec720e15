`timescale 1ns/1ps
// SPDX-License-Identifier: Apache-2.0
// skif_tx: TX engine: reads the TX ring from host memory and sends packets.
//
// Handshakes: DMA requests valid/ready towards skif_dma_arb (a request not yet
// accepted may be withdrawn; the arbiter registers what it accepts); DMA read
// responses in request order with no back-pressure (absorbed by a response
// FIFO of DmaMaxReads entries; at most DmaMaxReads reads are ever issued and
// not yet popped from it); network flits valid/ready from an output register,
// data held while valid && !ready.
//
// Pipeline: a read-ahead pointer (rd_ptr) walks the ring region [head, tail)
// word by word, independent of message boundaries, keeping up to DmaMaxReads
// reads in flight (the region holds whole entries back to back, so no
// descriptor needs to be parsed to know what to read). The consumer pops the
// response FIFO: a descriptor word becomes the header flit (only once the
// whole entry lies below TX_TAIL, so a packet never stalls half-sent waiting
// for software), the next ceil(len/8) words the payload flits. After the last
// flit of a message is handed to the output register, head advances by
// 8 + roundup8(len) and a TX_HEAD status-block write becomes pending; a
// pending write yields to ring reads for up to StatHoldoff cycles, and waits
// until StatGap cycles have passed since the previous one, so status writes
// of messages sent back to back coalesce (the final head is always written;
// the first after a quiet spell, and one once head reaches TX_TAIL, go out
// at once).
// An RMA request (kind 2) sends the entry's words after the descriptor as
// they are, but for the src field of the first (the header), which becomes
// this node's id: software cannot send a request in another node's name.
// Its descriptor is popped without a flit (one cycle per request).
// Errors: a bad descriptor (len > SKIF_MAX_MSG, a kind other than 0, 1 or
// 2; kind 0: bits [63:44] or netaddr [31:24] set; kind 1: bits [19:16] or
// [31:28] set; kind 2: [31:0] or [59:44] set, len not a multiple of 8 in
// 8..SKIF_RMA_REQ_MAX, or a header word whose kind is not PUT, GET or
// ATOMIC, found before anything of the entry is sent) pulses desc_err_o; a read error response pulses dma_err_o
// (a message already started is completed with zeros for the bad words, as a
// packet cannot be cut). Both set a sticky STATUS bit which comes back as
// halt_i; TX then finishes the message in progress (its remaining words are
// still read), stops at the message boundary, discards its read-ahead, and
// when software clears the bit it restarts by reading the descriptor at head
// again (software repairs it first). Clearing CTRL.TX_EN also stops at a
// message boundary and discards the read-ahead.
`include "skif_defs.vh"

module skif_tx #(
  parameter int DmaMaxReads = 128,  // max outstanding DMA reads = response FIFO depth (>= 2)
  parameter int StatHoldoff = 16,   // max cycles a pending TX_HEAD status write yields to reads
  parameter int StatGap     = 1     // min cycles from one TX_HEAD status write to the next (1: none)
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic [15:0] node_id_i,
  // configuration and state (skif_regs)
  input  logic        en_i,          // CTRL.TX_EN
  input  logic        halt_i,        // STATUS.TX_ERR | STATUS.DMA_ERR
  input  logic [63:0] base_i,
  input  logic [4:0]  size_i,        // log2 of ring bytes, 12..24
  input  logic [31:0] tail_i,        // TX_TAIL doorbell
  input  logic [63:0] stat_base_i,
  output logic [31:0] head_o,
  output logic        busy_o,
  output logic        desc_err_o,    // pulse
  output logic        dma_err_o,     // pulse
  output logic [31:0] err_info_o,    // head of the message in error
  output logic        pkt_o,         // pulse: last flit accepted by the network
  output logic        flit_o,        // pulse: a flit accepted by the network
  // DMA requests (to skif_dma_arb)
  output logic        dma_valid_o,
  input  logic        dma_ready_i,
  output logic        dma_write_o,
  output logic [63:0] dma_addr_o,
  output logic [63:0] dma_wdata_o,
  output logic        dma_stat_o,    // request is the status-block write
  input  logic        dma_rsp_valid_i,
  input  logic [63:0] dma_rsp_data_i,
  input  logic        dma_rsp_err_i,
  // network
  output logic        net_valid_o,
  input  logic        net_ready_i,
  output logic [63:0] net_data_o,
  output logic        net_last_o
);
  localparam int CntW = $clog2(DmaMaxReads + 1);
  localparam logic [CntW-1:0] MaxReadsC = CntW'(DmaMaxReads);
  localparam int AgeW = $clog2(StatHoldoff + 1);
  localparam logic [AgeW-1:0] HoldoffC = AgeW'(StatHoldoff);
  localparam logic [11:0] MaxMsgC = 12'(`SKIF_MAX_MSG);
  localparam logic [11:0] RmaMaxC = 12'(`SKIF_RMA_REQ_MAX);

`ifndef SYNTHESIS
  if (DmaMaxReads < 2) begin : g_bad_reads
    `SKIF_BAD_PARAM("DmaMaxReads=%0d must be >= 2", DmaMaxReads)
  end
  if (StatHoldoff < 1) begin : g_bad_holdoff
    `SKIF_BAD_PARAM("StatHoldoff=%0d must be >= 1", StatHoldoff)
  end
`endif

  typedef enum logic [1:0] {
    SDesc  = 2'd0,  // next FIFO word is a descriptor
    SPay   = 2'd1,  // sending payload words of the current message
    SFlush = 2'd2   // discarding read-ahead until no read is in flight
  } state_e;

  // ---------------------------------------------------------------- state
  state_e          state_q, state_d;
  logic [31:0]     head_q, head_d, rd_ptr_q, rd_ptr_d;
  logic [CntW-1:0] inflight_q;
  logic [8:0]      rem_q, rem_d;     // payload words left, 1..258
  logic            rhdr_q, rhdr_d;   // next payload word is an RMA request's header
  logic [11:0]     len_q, len_d;
  logic            stat_pend_q;
  logic [AgeW-1:0] stat_age_q;
  logic            stat_open;   // StatGap cycles since the last status write (skif_gap)
  logic            ob_valid_q, ob_last_q;
  logic [63:0]     ob_data_q;

  // ---------------------------------------------------------------- ring geometry
  logic [31:0] ring_size, ring_mask;
  assign ring_size = 32'd1 << size_i;
  assign ring_mask = ring_size - 32'd1;

  // ---------------------------------------------------------------- read-ahead
  // Reads run up to TX_TAIL while running; when stopped (TX_EN clear or
  // halted) only the rest of the message being sent is still read, so a
  // started packet always completes.
  logic        running, rd_avail, rd_want, stat_go, rd_acc, stat_acc;
  logic [31:0] rd_lim, rd_diff;
  logic [12:0] q_entry;
  assign running  = en_i && !halt_i;
  assign q_entry  = 13'd8 + (({1'b0, len_q} + 13'd7) & ~13'd7);
  assign rd_lim   = running ? tail_i : head_q + {19'h0, q_entry};
  assign rd_diff  = rd_lim - rd_ptr_q;
  assign rd_avail = (rd_diff >= 32'd8) && (rd_diff <= ring_size);
  assign rd_want  = (running || state_q == SPay) && (state_q != SFlush) && rd_avail &&
                    (inflight_q != MaxReadsC);
  // (the gap is waived once everything posted is sent: nothing to coalesce with)
  assign stat_go  = stat_pend_q && (stat_open || head_q == tail_i) &&
                    (!rd_want || stat_age_q == HoldoffC);

  assign dma_valid_o = stat_go || rd_want;
  assign dma_write_o = stat_go;
  assign dma_stat_o  = stat_go;
  assign dma_addr_o  = stat_go ? (stat_base_i + 64'(`SKIF_STAT_TX_HEAD))
                               : (base_i + {32'h0, rd_ptr_q & ring_mask});
  assign dma_wdata_o = {32'h0, head_q};
  assign rd_acc   = dma_valid_o && dma_ready_i && !stat_go;
  assign stat_acc = dma_valid_o && dma_ready_i && stat_go;

  skif_gap #(.Gap (StatGap)) u_stat_gap (
    .clk_i, .rst_ni, .restart_i (stat_acc), .open_o (stat_open)
  );

  // ---------------------------------------------------------------- response FIFO
  logic        f_valid, f_pop, f_err, unused_f_ready;
  logic [63:0] f_data;
  skif_fifo #(
    .Width (65),
    .Depth (DmaMaxReads)
  ) u_rsp_fifo (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .push_valid_i (dma_rsp_valid_i),
    .push_ready_o (unused_f_ready),  // never full: reads are issued against credits
    .push_data_i  ({dma_rsp_err_i, dma_rsp_data_i}),
    .pop_valid_o  (f_valid),
    .pop_ready_i  (f_pop),
    .pop_data_o   ({f_err, f_data})
  );

  // ---------------------------------------------------------------- descriptor decode
  // kind 0: a message to the netaddr in [31:0]; kind 1: a collective
  // operation (docs/collectives.md) for this node's collective engine.
  logic [11:0] d_len;
  logic [12:0] d_entry;
  logic [3:0]  d_kind;
  logic        d_bad, d_covered, coll_ok, rma_ok, r_kind_ok;
  logic [31:0] h_diff;
  logic [63:0] hdr, msg_hdr, coll_hdr;
  assign d_len     = f_data[`SKIF_DESC_LEN_LO +: `SKIF_LEN_W];
  assign d_kind    = f_data[`SKIF_DESC_KIND_LO +: 4];
  assign rma_ok    = (f_data[59:44] == 16'h0) && (f_data[31:0] == 32'h0) && (d_len[2:0] == 3'd0) &&
                     (d_len != 12'd0) && (d_len <= RmaMaxC);
  assign d_bad     = (d_kind == `SKIF_DESC_KIND_RMA) ? !rma_ok :
                     (d_len > MaxMsgC) ||
                     ((d_kind == `SKIF_DESC_KIND_MSG) ? ((f_data[63:44] != 20'h0) || (f_data[31:24] != 8'h0)) :
                      (d_kind == `SKIF_DESC_KIND_COLL) ? !coll_ok :
                      1'b1);
  assign d_entry   = 13'd8 + (({1'b0, d_len} + 13'd7) & ~13'd7);
  assign h_diff    = tail_i - head_q;
  assign d_covered = (h_diff >= {19'h0, d_entry}) && (h_diff <= ring_size);
  always @(*) begin
    msg_hdr = '0;
    msg_hdr[`SKIF_HDR_KIND_HI:`SKIF_HDR_KIND_LO] = `SKIF_KIND_MSG;
    msg_hdr[`SKIF_HDR_DST_HI:`SKIF_HDR_DST_LO]   = f_data[`SKIF_NA_NODE_LO +: 16];
    msg_hdr[`SKIF_HDR_SRC_HI:`SKIF_HDR_SRC_LO]   = node_id_i;
    msg_hdr[`SKIF_HDR_CHAN_HI:`SKIF_HDR_CHAN_LO] = f_data[`SKIF_NA_CHAN_LO +: 8];
    msg_hdr[`SKIF_HDR_LEN_HI:`SKIF_HDR_LEN_LO]   = d_len;
  end
  skif_coll_desc u_coll_desc (.desc_i(f_data), .hdr_o(coll_hdr), .ok_o(coll_ok));
  assign hdr = (d_kind == `SKIF_DESC_KIND_COLL) ? coll_hdr : msg_hdr;
  // an RMA request's header word: the kinds software may send, and its src
  logic [3:0]  r_kind;
  logic [63:0] r_hdr;
  assign r_kind    = f_data[`SKIF_HDR_KIND_HI:`SKIF_HDR_KIND_LO];
  assign r_kind_ok = (r_kind == `SKIF_KIND_RMA_PUT) || (r_kind == `SKIF_KIND_RMA_GET) ||
                     (r_kind == `SKIF_KIND_RMA_ATOMIC);
  always @(*) begin
    r_hdr = f_data;
    r_hdr[`SKIF_HDR_SRC_HI:`SKIF_HDR_SRC_LO] = node_id_i;
  end

  // Last payload flit: zero the bytes beyond len.
  logic [63:0] pay_mask;
  assign pay_mask = (rem_q == 9'd1 && len_q[2:0] != 3'd0)
                  ? ~(64'hFFFF_FFFF_FFFF_FFFF << {len_q[2:0], 3'b000}) : 64'hFFFF_FFFF_FFFF_FFFF;

  // ---------------------------------------------------------------- consumer
  logic        ob_take, flit_valid, flit_last, complete;
  logic [63:0] flit_data;
  logic [12:0] entry;
  assign ob_take = !ob_valid_q || net_ready_i;

  always @(*) begin
    state_d    = state_q;
    rem_d      = rem_q;
    len_d      = len_q;
    rhdr_d     = rhdr_q;
    f_pop      = 1'b0;
    flit_valid = 1'b0;
    flit_data  = hdr;
    flit_last  = 1'b0;
    complete   = 1'b0;
    entry      = d_entry;
    desc_err_o = 1'b0;
    dma_err_o  = 1'b0;
    case (state_q)
      SDesc: begin
        if (!running) begin
          state_d = SFlush;
        end else if (f_valid) begin
          if (f_err) begin
            dma_err_o = 1'b1;
            state_d   = SFlush;
          end else if (d_bad) begin
            desc_err_o = 1'b1;
            state_d    = SFlush;
          end else if (d_covered && d_kind == `SKIF_DESC_KIND_RMA) begin
            // the header comes from the next word
            f_pop   = 1'b1;
            state_d = SPay;
            len_d   = d_len;
            rem_d   = 9'(d_len >> 3);
            rhdr_d  = 1'b1;
          end else if (d_covered) begin
            flit_valid = 1'b1;
            flit_last  = (d_len == 12'd0);
            if (ob_take) begin
              f_pop = 1'b1;
              if (d_len == 12'd0) begin
                complete = 1'b1;
              end else begin
                state_d = SPay;
                len_d   = d_len;
                rem_d   = 9'(({1'b0, d_len} + 13'd7) >> 3);
              end
            end
          end
        end
      end
      SPay: begin
        entry      = q_entry;
        flit_valid = f_valid;
        flit_data  = f_err ? 64'h0 : (f_data & pay_mask);
        flit_last  = (rem_q == 9'd1);
        if (rhdr_q) begin
          // an RMA request's header: sent with this node as src, or, if
          // unreadable or of a kind software may not send, nothing of the
          // entry is sent (head stays at its descriptor)
          flit_data = r_hdr;
          if (f_valid && (f_err || !r_kind_ok)) begin
            flit_valid = 1'b0;
            dma_err_o  = f_err;
            desc_err_o = !f_err;
            rhdr_d     = 1'b0;
            state_d    = SFlush;
          end
        end
        if (flit_valid && ob_take) begin
          rhdr_d    = 1'b0;
          f_pop     = 1'b1;
          dma_err_o = f_err;
          rem_d     = rem_q - 9'd1;
          if (rem_q == 9'd1) begin
            complete = 1'b1;
            state_d  = SDesc;
          end
        end
      end
      default: begin  // SFlush
        f_pop = f_valid;
        if (inflight_q == '0) state_d = SDesc;
      end
    endcase
  end

  always @(*) begin
    head_d   = complete ? head_q + {19'h0, entry} : head_q;
    rd_ptr_d = rd_ptr_q;
    if (rd_acc) rd_ptr_d = rd_ptr_q + 32'd8;
    if (state_q == SFlush && inflight_q == '0) rd_ptr_d = head_q;
  end

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q     <= SDesc;
      head_q      <= 32'h0;
      rd_ptr_q    <= 32'h0;
      inflight_q  <= '0;
      rem_q       <= 9'h0;
      len_q       <= 12'h0;
      rhdr_q      <= 1'b0;
      stat_pend_q <= 1'b0;
      stat_age_q  <= '0;
      ob_valid_q  <= 1'b0;
      ob_last_q   <= 1'b0;
    end else begin
      state_q    <= state_d;
      head_q     <= head_d;
      rd_ptr_q   <= rd_ptr_d;
      rem_q      <= rem_d;
      len_q      <= len_d;
      rhdr_q     <= rhdr_d;
      inflight_q <= inflight_q + CntW'(rd_acc) - CntW'(f_pop);
      if (complete)      stat_pend_q <= 1'b1;
      else if (stat_acc) stat_pend_q <= 1'b0;
      if (!stat_pend_q || stat_acc)  stat_age_q <= '0;
      else if (stat_age_q != HoldoffC) stat_age_q <= stat_age_q + 1'b1;
      if (ob_take) begin
        ob_valid_q <= flit_valid;
        ob_last_q  <= flit_last;
      end
    end
  end

  // Output register data: not reset.
  always @(posedge clk_i) begin
    if (ob_take && flit_valid) ob_data_q <= flit_data;
  end

  assign net_valid_o = ob_valid_q;
  assign net_data_o  = ob_data_q;
  assign net_last_o  = ob_last_q;

  assign head_o     = head_q;
  assign err_info_o = head_q;
  assign busy_o     = (state_q == SPay) || ob_valid_q || (running && head_q != tail_i);
  assign flit_o     = ob_valid_q && net_ready_i;
  assign pkt_o      = ob_valid_q && net_ready_i && ob_last_q;
endmodule
