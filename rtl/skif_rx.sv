`timescale 1ns/1ps
// SPDX-License-Identifier: Apache-2.0
// skif_rx: RX engine: writes arriving packets into the RX ring in host memory.
//
// Handshakes: network flits valid/ready (net_ready_o may depend on
// net_valid_i and on dma_ready_i, never the other way round); DMA write
// requests valid/ready towards skif_dma_arb (a request not yet accepted may be
// withdrawn). Every accepted flit of a good packet is one DMA write accepted
// in the same cycle (flit and write handshake together), so RX holds no flit
// buffer and cannot deadlock on the DMA port: it only waits for the arbiter.
//
// Per packet: the header is checked (kind == MSG, len <= SKIF_MAX_MSG,
// `last` on the header iff len == 0). A good packet waits (net_ready_o low,
// stall_o high) until the ring has 8 + roundup8(len) bytes free,
// free = size - (tail - RX_HEAD); then the entry header word goes to
// RX_BASE + (tail & (size-1)) and payload flit k to the ring offset
// tail + 8 + 8k (wrapping). After the last write, tail advances and an RX_TAIL
// status-block write becomes pending (issued behind the entry's writes on
// the same port; it yields to data writes for up to StatHoldoff cycles so
// back-to-back packets coalesce). A malformed packet (bad header, `last`
// too early or too late) is consumed up to its `last` flit without further
// writes, err_o pulses (RX_DROPS++, STATUS.RX_ERR), tail is not advanced.
// CTRL.RX_EN is sampled at packet boundaries: when clear, net_ready_o is low
// before a header; a packet already started is finished.
`include "skif_defs.vh"

module skif_rx #(
  parameter int StatHoldoff = 16  // max cycles a pending RX_TAIL status write yields to data writes
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  // configuration and state (skif_regs)
  input  logic        en_i,          // CTRL.RX_EN
  input  logic [63:0] base_i,
  input  logic [4:0]  size_i,        // log2 of ring bytes, 12..24
  input  logic [31:0] head_i,        // RX_HEAD (software consumer pointer)
  input  logic [63:0] stat_base_i,
  output logic [31:0] tail_o,
  output logic        busy_o,
  output logic        stall_o,       // a good header waits for ring space
  output logic        err_o,         // pulse: malformed packet dropped
  output logic [31:0] err_info_o,    // tail pointer at the drop
  output logic        pkt_o,         // pulse: entry complete
  // DMA write requests (to skif_dma_arb)
  output logic        dma_valid_o,
  input  logic        dma_ready_i,
  output logic [63:0] dma_addr_o,
  output logic [63:0] dma_wdata_o,
  output logic        dma_stat_o,    // request is the status-block write
  // network
  input  logic        net_valid_i,
  output logic        net_ready_o,
  input  logic [63:0] net_data_i,
  input  logic        net_last_i
);
  localparam int AgeW = $clog2(StatHoldoff + 1);
  localparam logic [AgeW-1:0] HoldoffC = AgeW'(StatHoldoff);
  localparam logic [11:0] MaxMsgC = 12'(`SKIF_MAX_MSG);

`ifndef SYNTHESIS
  if (StatHoldoff < 1) begin : g_bad_holdoff
    `SKIF_BAD_PARAM("StatHoldoff=%0d must be >= 1", StatHoldoff)
  end
`endif

  typedef enum logic [1:0] {
    SHdr  = 2'd0,  // next flit is a header
    SPay  = 2'd1,  // writing payload flits
    SDrop = 2'd2   // discarding a malformed packet up to its last flit
  } state_e;

  state_e      state_q, state_d;
  logic [31:0] tail_q, tail_d, wr_ptr_q, wr_ptr_d;
  logic [8:0]  rem_q, rem_d;       // payload flits left, 1..256
  logic [12:0] entry_q, entry_d;   // entry bytes of the current packet
  logic        stat_pend_q;
  logic [AgeW-1:0] stat_age_q;

  logic [31:0] ring_size, ring_mask;
  assign ring_size = 32'd1 << size_i;
  assign ring_mask = ring_size - 32'd1;

  // ---------------------------------------------------------------- header decode
  logic [3:0]  h_kind;
  logic [11:0] h_len;
  logic [12:0] h_entry;
  logic        h_bad, h_space;
  logic [32:0] used_plus;
  logic [63:0] entry_word;
  assign h_kind  = net_data_i[`SKIF_HDR_KIND_HI:`SKIF_HDR_KIND_LO];
  assign h_len   = net_data_i[`SKIF_HDR_LEN_HI:`SKIF_HDR_LEN_LO];
  assign h_entry = 13'd8 + (({1'b0, h_len} + 13'd7) & ~13'd7);
  assign h_bad   = (h_kind != `SKIF_KIND_MSG) || (h_len > MaxMsgC) || ((h_len == 12'd0) != net_last_i);
  assign used_plus = {1'b0, tail_q - head_i} + {20'h0, h_entry};
  assign h_space = used_plus <= {1'b0, ring_size};
  // RX entry header word: [7:0] channel, [23:8] src node, [43:32] len.
  assign entry_word = {20'h0, h_len, 8'h00,
                       net_data_i[`SKIF_HDR_SRC_HI:`SKIF_HDR_SRC_LO],
                       net_data_i[`SKIF_HDR_CHAN_HI:`SKIF_HDR_CHAN_LO]};

  // ---------------------------------------------------------------- control
  logic        data_want, stat_go, complete;
  logic [31:0] data_ptr;
  logic [63:0] data_word;

  // A data write is wanted for a good header with ring space, or a payload
  // flit whose `last` agrees with the length.
  assign data_want = net_valid_i &&
                     (((state_q == SHdr) && en_i && !h_bad && h_space) ||
                      ((state_q == SPay) && (net_last_i == (rem_q == 9'd1))));
  assign stat_go = stat_pend_q && (!data_want || stat_age_q == HoldoffC);

  always @(*) begin
    state_d   = state_q;
    wr_ptr_d  = wr_ptr_q;
    rem_d     = rem_q;
    entry_d   = entry_q;
    data_ptr  = tail_q;
    data_word = entry_word;
    net_ready_o = 1'b0;
    stall_o   = 1'b0;
    err_o     = 1'b0;
    complete  = 1'b0;
    case (state_q)
      SHdr: begin
        if (en_i && net_valid_i) begin
          if (h_bad) begin
            net_ready_o = 1'b1;
            err_o       = 1'b1;
            if (!net_last_i) state_d = SDrop;
          end else if (!h_space) begin
            stall_o = 1'b1;
          end else begin
            net_ready_o = dma_ready_i && !stat_go;
            if (net_ready_o) begin
              entry_d  = h_entry;
              wr_ptr_d = tail_q + 32'd8;
              rem_d    = 9'(({1'b0, h_len} + 13'd7) >> 3);
              if (h_len == 12'd0) complete = 1'b1;
              else state_d = SPay;
            end
          end
        end
      end
      SPay: begin
        data_ptr  = wr_ptr_q;
        data_word = net_data_i;
        if (net_valid_i) begin
          if (net_last_i != (rem_q == 9'd1)) begin
            // `last` too early or too late: drop the rest of the packet.
            net_ready_o = 1'b1;
            err_o       = 1'b1;
            if (net_last_i) state_d = SHdr;
            else            state_d = SDrop;
          end else begin
            net_ready_o = dma_ready_i && !stat_go;
            if (net_ready_o) begin
              wr_ptr_d = wr_ptr_q + 32'd8;
              rem_d    = rem_q - 9'd1;
              if (net_last_i) begin
                complete = 1'b1;
                state_d  = SHdr;
              end
            end
          end
        end
      end
      default: begin  // SDrop
        net_ready_o = 1'b1;
        if (net_valid_i && net_last_i) state_d = SHdr;
      end
    endcase
  end

  assign tail_d  = complete ? tail_q + {19'h0, (state_q == SHdr) ? h_entry : entry_q} : tail_q;

  assign dma_valid_o = stat_go || data_want;
  assign dma_stat_o  = stat_go;
  assign dma_addr_o  = stat_go ? (stat_base_i + 64'(`SKIF_STAT_RX_TAIL))
                               : (base_i + {32'h0, data_ptr & ring_mask});
  assign dma_wdata_o = stat_go ? {32'h0, tail_q} : data_word;

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q     <= SHdr;
      tail_q      <= 32'h0;
      wr_ptr_q    <= 32'h0;
      rem_q       <= 9'h0;
      entry_q     <= 13'h0;
      stat_pend_q <= 1'b0;
      stat_age_q  <= '0;
    end else begin
      state_q  <= state_d;
      tail_q   <= tail_d;
      wr_ptr_q <= wr_ptr_d;
      rem_q    <= rem_d;
      entry_q  <= entry_d;
      if (complete) stat_pend_q <= 1'b1;
      else if (stat_go && dma_ready_i) stat_pend_q <= 1'b0;
      if (!stat_pend_q || (stat_go && dma_ready_i)) stat_age_q <= '0;
      else if (stat_age_q != HoldoffC) stat_age_q <= stat_age_q + 1'b1;
    end
  end

  assign tail_o     = tail_q;
  assign err_info_o = tail_q;
  assign pkt_o      = complete;
  assign busy_o     = (state_q != SHdr);
endmodule
