`timescale 1ns/1ps
// SPDX-License-Identifier: Apache-2.0
// skif_regs: host register block of the adapter (register map in skif_defs.vh).
//
// Handshake: request valid/ready; ready is 1 except for a write to the
// programmed-I/O collective window (COLL_PIO_LO/HI/DATA) while the previous
// PIO launch is not yet taken (pio_busy_i): that write, and so every later
// request, waits (nothing is lost, STATUS.PIO_BUSY shows it); exactly one response
// per request (reads and writes), on reg_rsp_valid_o the cycle after the
// request is accepted, in order, no back-pressure on the response. An illegal
// access (offset outside the map, misaligned, read of an unassigned offset,
// write to a read-only register, TX_SIZE value outside 12..24, CH_SEL value
// >= NumChans, CH_CFG opening a channel with a size outside 12..24, CH_HEAD
// of a channel >= NumChans, COLL_SEL >= Trees, a COLL_TAB entry the
// collective engine refuses, a COLL_PIO_HI descriptor skif_coll_pio refuses,
// a read of the write-only PIO window, a write to a read-only register of
// the RMA window)
// responds err=1, changes no register, and sets STATUS.REG_ERR and
// ERR_INFO = offending offset. The engines report events as one-cycle pulses;
// counters and sticky STATUS bits live here.
`include "skif_defs.vh"

module skif_regs #(
  parameter int NumChans = 64,  // channels of the demultiplexer (skif_rx)
  parameter int Trees    = 32,  // tree table entries of the collective engine
  // 1: the RMA window (SKIF_REG_RMA_*) goes to skif_rma (skif_adapter);
  // 0: no RMA engine, the window is unassigned like any free offset
  parameter bit RmaRegs  = 1'b0,
  localparam int ChW = $clog2(NumChans)
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic [15:0] node_id_i,
  // host register port
  input  logic        reg_req_valid_i,
  output logic        reg_req_ready_o,
  input  logic        reg_req_write_i,
  input  logic [11:0] reg_req_addr_i,
  input  logic [31:0] reg_req_wdata_i,
  output logic        reg_rsp_valid_o,
  output logic [31:0] reg_rsp_rdata_o,
  output logic        reg_rsp_err_o,
  // configuration to the engines
  output logic        tx_en_o,           // CTRL.TX_EN
  output logic        rx_en_o,           // CTRL.RX_EN
  output logic        tx_halt_o,         // STATUS.TX_ERR | STATUS.DMA_ERR: TX stops at a message boundary
  output logic [63:0] tx_base_o,
  output logic [4:0]  tx_size_o,         // log2 of TX ring bytes
  output logic [31:0] tx_tail_o,
  output logic [63:0] stat_base_o,
  // channel table of the demultiplexer (skif_rx)
  output logic           ch_cfg_we_o,    // CH_CFG write: commit to channel ch_sel_o
  output logic [ChW-1:0] ch_sel_o,       // CH_SEL
  output logic [63:0]    ch_base_o,      // CH_BASE_HI:LO
  output logic [4:0]     ch_size_o,
  output logic           ch_open_o,
  output logic           ch_head_we_o,   // CH_HEAD[c] write
  output logic [ChW-1:0] ch_head_ch_o,
  output logic [31:0]    ch_head_o,
  input  logic           ch_rd_open_i,   // entry of channel CH_SEL
  input  logic [4:0]     ch_rd_size_i,
  input  logic [63:0]    ch_rd_base_i,
  input  logic [31:0]    ch_rd_tail_i,
  input  logic [31:0]    ch_rd_head_i,
  input  logic           ch_rd_busy_i,
  // state and events from the TX engine
  input  logic [31:0] tx_head_i,
  input  logic        tx_busy_i,
  input  logic        tx_desc_err_i,     // pulse: bad descriptor
  input  logic        tx_dma_err_i,      // pulse: DMA read error response
  input  logic [31:0] tx_err_info_i,     // head pointer of the offending message
  input  logic        tx_pkt_i,          // pulse: packet sent
  input  logic        tx_flit_i,         // pulse: flit sent
  // state and events from the RX engine
  input  logic        rx_busy_i,
  input  logic        rx_stall_i,
  input  logic        rx_err_i,          // pulse: malformed packet dropped
  input  logic [31:0] rx_err_info_i,     // {channel, 8'h0, tail[15:0]} at the drop
  input  logic        rx_pkt_i,          // pulse: packet delivered to its channel's ring
  input  logic        rx_closed_i,       // pulse: message for a closed channel discarded
  input  logic [7:0]  rx_closed_ch_i,    // its channel
  // event from the network router
  input  logic        net_drop_i,        // pulse: router dropped a local packet (bad dst)
  // collective engine: tree table port and events; adapter collective counts
  output logic        coll_tab_we_o,     // COLL_TAB write (only when the engine accepts it)
  output logic [7:0]  coll_tab_sel_o,    // COLL_SEL
  output logic [31:0] coll_tab_wdata_o,
  input  logic        coll_tab_err_i,    // the engine refuses coll_tab_wdata_o for coll_tab_sel_o
  input  logic [31:0] coll_tab_rdata_i,  // tree COLL_SEL's entry
  input  logic [1:0]  coll_drop_i,       // packets dropped this cycle by a forwarding check
  input  logic [31:0] coll_drop_info_i,
  input  logic        coll_err_i,        // pulse: an operation ended in error
  input  logic [31:0] coll_err_info_i,
  input  logic        coll_sent_i,       // pulse: an operation handed to the engine
  input  logic        coll_done_i,       // pulse: a result written into a ring
  output logic [31:0] coll_sent_o,       // COLL_SENT, COLL_DONE (for the status block)
  output logic [31:0] coll_done_o,
  // programmed-I/O collective window (skif_coll_pio; it takes the offset and
  // data from the request port)
  output logic        pio_we_o,          // an accepted write to the window
  input  logic        pio_go_ok_i,       // a COLL_PIO_HI write with this data may launch
  input  logic        pio_busy_i,        // the previous launch is not yet taken
  // RMA register window (skif_rma; it takes the offset and data from the
  // request port and shows the register at that offset)
  output logic        rma_we_o,          // an accepted write to the window
  input  logic [31:0] rma_rdata_i,
  // status-block write accepted on the DMA port
  input  logic        stat_done_i,
  output logic        irq_o
);
  localparam logic [4:0] SizeMin = 5'(`SKIF_RING_LOG2_MIN);
  localparam logic [4:0] SizeMax = 5'(`SKIF_RING_LOG2_MAX);
  localparam logic [31:0] StatusErrMask = `SKIF_STATUS_TX_ERR | `SKIF_STATUS_REG_ERR |
                                          `SKIF_STATUS_DMA_ERR | `SKIF_STATUS_RX_ERR |
                                          `SKIF_STATUS_NET_DROP | `SKIF_STATUS_CH_DROP |
                                          `SKIF_STATUS_COLL_DROP | `SKIF_STATUS_COLL_ERR;
  localparam logic [31:0] CtrlMask = `SKIF_CTRL_TX_EN | `SKIF_CTRL_RX_EN | `SKIF_CTRL_IRQ_EN;

  // ---------------------------------------------------------------- state
  logic [31:0] scratch_q, ctrl_q, err_sticky_q, err_info_q;
  logic [31:0] tx_base_lo_q, tx_base_hi_q, ch_base_lo_q, ch_base_hi_q;
  logic [31:0] stat_base_lo_q, stat_base_hi_q;
  logic [4:0]  tx_size_q;
  logic [31:0] tx_tail_q;
  logic [ChW-1:0] ch_sel_q;
  logic [31:0] tx_pkts_q, tx_flits_q, rx_pkts_q, rx_drops_q, net_drops_q, ch_drops_q;
  logic [7:0]  coll_sel_q;
  logic [31:0] coll_drops_q, coll_errs_q, coll_sent_q, coll_done_q;
  logic        rsp_valid_q, rsp_err_q, irq_q;
  logic [31:0] rsp_rdata_q;

  // ---------------------------------------------------------------- decode
  logic        acc, in_map, rd_ok, wr_ok, size_ok, bad, is_head, cfg_ok, is_pio_data, pio_win;
  logic        rma_win, rma_rw;
  logic [31:0] rdata, status, ch_cfg_rd;
  logic [11:0] off, head_idx;

  assign off    = reg_req_addr_i;
  // COLL_PIO window: LO, HI, DATA[0..15] (write-only); its writes wait while
  // a launch is pending
  assign is_pio_data = (off >= `SKIF_REG_COLL_PIO_DATA) &&
                       (off < `SKIF_REG_COLL_PIO_DATA + 12'(4 * `SKIF_COLL_PIO_REGS));
  assign pio_win = (off == `SKIF_REG_COLL_PIO_LO) || (off == `SKIF_REG_COLL_PIO_HI) || is_pio_data;
  assign reg_req_ready_o = !(reg_req_write_i && pio_win && pio_busy_i);
  assign acc    = reg_req_valid_i && reg_req_ready_o;
  // RMA window: every offset readable; the configuration registers and the
  // W1C status writable, the counters and read-back registers not
  assign rma_win = RmaRegs && (off >= `SKIF_REG_RMA_STATUS) && (off < `SKIF_REG_RMA_END);
  assign rma_rw  = (off == `SKIF_REG_RMA_STATUS) || (off == `SKIF_REG_RMA_STAT_LO) ||
                   (off == `SKIF_REG_RMA_STAT_HI) ||
                   ((off >= `SKIF_REG_RMA_WIN_SEL) && (off <= `SKIF_REG_RMA_WIN_SIZE_HI));
  assign in_map = (off < `SKIF_REG_MAP_SIZE) && (off[1:0] == 2'b00);
  assign size_ok = (reg_req_wdata_i >= 32'(SizeMin)) && (reg_req_wdata_i <= 32'(SizeMax));
  // CH_HEAD[c]: offsets CH_HEAD + 4c, c < NumChans
  assign head_idx = (off - `SKIF_REG_CH_HEAD) >> 2;
  assign is_head  = (off >= `SKIF_REG_CH_HEAD) && (head_idx < 12'(NumChans));
  // CH_CFG: closing takes any size field; opening needs a legal size; no
  // other bits may be set
  assign cfg_ok = ((reg_req_wdata_i & ~(`SKIF_CH_CFG_SIZE_MASK | `SKIF_CH_CFG_EN)) == 32'h0) &&
                  (((reg_req_wdata_i & `SKIF_CH_CFG_EN) == 32'h0) ||
                   (((reg_req_wdata_i & `SKIF_CH_CFG_SIZE_MASK) >= 32'(SizeMin)) &&
                    ((reg_req_wdata_i & `SKIF_CH_CFG_SIZE_MASK) <= 32'(SizeMax))));
  assign ch_cfg_rd = {27'h0, ch_rd_size_i}
                   | (ch_rd_open_i ? `SKIF_CH_CFG_EN : 32'h0)
                   | (ch_rd_busy_i ? `SKIF_CH_CFG_BUSY : 32'h0);

  assign status = err_sticky_q
                | (tx_busy_i  ? `SKIF_STATUS_TX_BUSY  : 32'h0)
                | (rx_busy_i  ? `SKIF_STATUS_RX_BUSY  : 32'h0)
                | (rx_stall_i ? `SKIF_STATUS_RX_STALL : 32'h0)
                | (pio_busy_i ? `SKIF_STATUS_PIO_BUSY : 32'h0);

  always @(*) begin
    rdata = 32'h0;
    rd_ok = 1'b1;
    wr_ok = 1'b0;
    // (decoded only with a request: every use is under acc)
    if (reg_req_valid_i) case (off)
      `SKIF_REG_ID:           rdata = `SKIF_ID_VALUE;
      `SKIF_REG_VERSION:      rdata = `SKIF_VERSION_VALUE;
      `SKIF_REG_SCRATCH:      begin rdata = scratch_q;      wr_ok = 1'b1; end
      `SKIF_REG_CTRL:         begin rdata = ctrl_q;         wr_ok = 1'b1; end
      `SKIF_REG_STATUS:       begin rdata = status;         wr_ok = 1'b1; end
      `SKIF_REG_NODE:         rdata = {16'h0, node_id_i};
      `SKIF_REG_ERR_INFO:     rdata = err_info_q;
      `SKIF_REG_TX_BASE_LO:   begin rdata = tx_base_lo_q;   wr_ok = 1'b1; end
      `SKIF_REG_TX_BASE_HI:   begin rdata = tx_base_hi_q;   wr_ok = 1'b1; end
      `SKIF_REG_TX_SIZE:      begin rdata = {27'h0, tx_size_q}; wr_ok = size_ok; end
      `SKIF_REG_TX_TAIL:      begin rdata = tx_tail_q;      wr_ok = 1'b1; end
      `SKIF_REG_TX_HEAD:      rdata = tx_head_i;
      `SKIF_REG_STAT_BASE_LO: begin rdata = stat_base_lo_q; wr_ok = 1'b1; end
      `SKIF_REG_STAT_BASE_HI: begin rdata = stat_base_hi_q; wr_ok = 1'b1; end
      `SKIF_REG_TX_PKTS:      rdata = tx_pkts_q;
      `SKIF_REG_TX_FLITS:     rdata = tx_flits_q;
      `SKIF_REG_RX_PKTS:      rdata = rx_pkts_q;
      `SKIF_REG_RX_DROPS:     rdata = rx_drops_q;
      `SKIF_REG_NET_DROPS:    rdata = net_drops_q;
      `SKIF_REG_CH_DROPS:     rdata = ch_drops_q;
      `SKIF_REG_CH_NUM:       rdata = 32'(NumChans);
      `SKIF_REG_CH_SEL:       begin rdata = 32'(ch_sel_q);  wr_ok = reg_req_wdata_i < 32'(NumChans); end
      `SKIF_REG_CH_BASE_LO:   begin rdata = ch_base_lo_q;   wr_ok = 1'b1; end
      `SKIF_REG_CH_BASE_HI:   begin rdata = ch_base_hi_q;   wr_ok = 1'b1; end
      `SKIF_REG_CH_CFG:       begin rdata = ch_cfg_rd;      wr_ok = cfg_ok; end
      `SKIF_REG_CH_TAIL:      rdata = ch_rd_tail_i;
      `SKIF_REG_CH_HEAD_RD:   rdata = ch_rd_head_i;
      `SKIF_REG_CH_RBASE_LO:  rdata = ch_rd_base_i[31:0];
      `SKIF_REG_CH_RBASE_HI:  rdata = ch_rd_base_i[63:32];
      `SKIF_REG_COLL_TREES:   rdata = 32'(Trees);
      `SKIF_REG_COLL_SEL:     begin rdata = {24'h0, coll_sel_q}; wr_ok = reg_req_wdata_i < 32'(Trees); end
      `SKIF_REG_COLL_TAB:     begin rdata = coll_tab_rdata_i; wr_ok = !coll_tab_err_i; end
      `SKIF_REG_COLL_DROPS:   rdata = coll_drops_q;
      `SKIF_REG_COLL_ERRS:    rdata = coll_errs_q;
      `SKIF_REG_COLL_SENT:    rdata = coll_sent_q;
      `SKIF_REG_COLL_DONE:    rdata = coll_done_q;
      `SKIF_REG_COLL_PIO_LO:  begin rd_ok = 1'b0; wr_ok = 1'b1; end
      `SKIF_REG_COLL_PIO_HI:  begin rd_ok = 1'b0; wr_ok = pio_go_ok_i; end
      default: begin
        if (rma_win) begin
          rdata = rma_rdata_i;
          wr_ok = rma_rw;
        end else begin
          // CH_HEAD[c] and COLL_PIO_DATA[i] are write-only
          rd_ok = 1'b0;
          wr_ok = is_head || is_pio_data;
        end
      end
    endcase
  end

  assign bad = !in_map || (reg_req_write_i ? !wr_ok : !rd_ok);

  logic wr;
  assign wr = acc && reg_req_write_i && !bad;

  // ---------------------------------------------------------------- registers
  // Sticky error bits: set by events (or a bad access), cleared by writing 1.
  logic [31:0] err_set, err_clr;
  assign err_set = (tx_desc_err_i   ? `SKIF_STATUS_TX_ERR  : 32'h0)
                 | (tx_dma_err_i    ? `SKIF_STATUS_DMA_ERR : 32'h0)
                 | (rx_err_i        ? `SKIF_STATUS_RX_ERR  : 32'h0)
                 | (net_drop_i      ? `SKIF_STATUS_NET_DROP : 32'h0)
                 | (rx_closed_i     ? `SKIF_STATUS_CH_DROP : 32'h0)
                 | ((coll_drop_i != 2'd0) ? `SKIF_STATUS_COLL_DROP : 32'h0)
                 | (coll_err_i      ? `SKIF_STATUS_COLL_ERR : 32'h0)
                 | ((acc && bad)    ? `SKIF_STATUS_REG_ERR : 32'h0);
  assign err_clr = (wr && off == `SKIF_REG_STATUS) ? (reg_req_wdata_i & StatusErrMask) : 32'h0;

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      scratch_q      <= 32'h0;
      ctrl_q         <= 32'h0;
      err_sticky_q   <= 32'h0;
      err_info_q     <= 32'h0;
      tx_base_lo_q   <= 32'h0;
      tx_base_hi_q   <= 32'h0;
      ch_base_lo_q   <= 32'h0;
      ch_base_hi_q   <= 32'h0;
      ch_sel_q       <= '0;
      stat_base_lo_q <= 32'h0;
      stat_base_hi_q <= 32'h0;
      tx_size_q      <= SizeMin;
      tx_tail_q      <= 32'h0;
      tx_pkts_q      <= 32'h0;
      tx_flits_q     <= 32'h0;
      rx_pkts_q      <= 32'h0;
      rx_drops_q     <= 32'h0;
      net_drops_q    <= 32'h0;
      ch_drops_q     <= 32'h0;
      coll_sel_q     <= 8'h0;
      coll_drops_q   <= 32'h0;
      coll_errs_q    <= 32'h0;
      coll_sent_q    <= 32'h0;
      coll_done_q    <= 32'h0;
      rsp_valid_q    <= 1'b0;
      rsp_err_q      <= 1'b0;
      rsp_rdata_q    <= 32'h0;
      irq_q          <= 1'b0;
    end else begin
      rsp_valid_q <= acc;
      rsp_err_q   <= acc && bad;
      rsp_rdata_q <= (acc && !bad && !reg_req_write_i) ? rdata : 32'h0;
      irq_q       <= stat_done_i && (ctrl_q & `SKIF_CTRL_IRQ_EN) != 32'h0;

      if (wr) begin
        case (off)
          `SKIF_REG_SCRATCH:      scratch_q      <= reg_req_wdata_i;
          `SKIF_REG_CTRL:         ctrl_q         <= reg_req_wdata_i & CtrlMask;
          `SKIF_REG_TX_BASE_LO:   tx_base_lo_q   <= {reg_req_wdata_i[31:3], 3'b000};
          `SKIF_REG_TX_BASE_HI:   tx_base_hi_q   <= reg_req_wdata_i;
          `SKIF_REG_TX_SIZE:      tx_size_q      <= reg_req_wdata_i[4:0];
          `SKIF_REG_TX_TAIL:      tx_tail_q      <= reg_req_wdata_i;
          `SKIF_REG_CH_SEL:       ch_sel_q       <= reg_req_wdata_i[ChW-1:0];
          `SKIF_REG_CH_BASE_LO:   ch_base_lo_q   <= {reg_req_wdata_i[31:3], 3'b000};
          `SKIF_REG_CH_BASE_HI:   ch_base_hi_q   <= reg_req_wdata_i;
          `SKIF_REG_STAT_BASE_LO: stat_base_lo_q <= {reg_req_wdata_i[31:3], 3'b000};
          `SKIF_REG_STAT_BASE_HI: stat_base_hi_q <= reg_req_wdata_i;
          `SKIF_REG_COLL_SEL:     coll_sel_q     <= reg_req_wdata_i[7:0];
          default: ;
        endcase
      end

      // A set in the same cycle as a clear wins (the new event is not lost).
      if ((err_set | err_clr) != 32'h0) err_sticky_q <= (err_sticky_q & ~err_clr) | err_set;

      // ERR_INFO: the detail of the most recent error; on a tie the register
      // access wins, then TX descriptor, TX DMA, RX, closed channel.
      if (acc && bad)         err_info_q <= {20'h0, off};
      else if (tx_desc_err_i) err_info_q <= tx_err_info_i;
      else if (tx_dma_err_i)  err_info_q <= tx_err_info_i;
      else if (rx_err_i)      err_info_q <= rx_err_info_i;
      else if (rx_closed_i)   err_info_q <= {24'h0, rx_closed_ch_i};
      else if (coll_drop_i != 2'd0) err_info_q <= coll_drop_info_i;
      else if (coll_err_i)    err_info_q <= coll_err_info_i;

      if (tx_pkt_i)  tx_pkts_q  <= tx_pkts_q + 32'd1;
      if (tx_flit_i) tx_flits_q <= tx_flits_q + 32'd1;
      if (rx_pkt_i)  rx_pkts_q  <= rx_pkts_q + 32'd1;
      if (rx_err_i)  rx_drops_q <= rx_drops_q + 32'd1;
      if (net_drop_i) net_drops_q <= net_drops_q + 32'd1;
      if (rx_closed_i) ch_drops_q <= ch_drops_q + 32'd1;
      if (coll_drop_i != 2'd0) coll_drops_q <= coll_drops_q + {30'h0, coll_drop_i};
      if (coll_err_i)  coll_errs_q <= coll_errs_q + 32'd1;
      if (coll_sent_i) coll_sent_q <= coll_sent_q + 32'd1;
      if (coll_done_i) coll_done_q <= coll_done_q + 32'd1;
    end
  end

  assign reg_rsp_valid_o = rsp_valid_q;
  assign reg_rsp_rdata_o = rsp_rdata_q;
  assign reg_rsp_err_o   = rsp_err_q;
  assign irq_o           = irq_q;

  assign tx_en_o     = (ctrl_q & `SKIF_CTRL_TX_EN) != 32'h0;
  assign rx_en_o     = (ctrl_q & `SKIF_CTRL_RX_EN) != 32'h0;
  assign tx_halt_o   = (err_sticky_q & (`SKIF_STATUS_TX_ERR | `SKIF_STATUS_DMA_ERR)) != 32'h0;
  assign tx_base_o   = {tx_base_hi_q, tx_base_lo_q};
  assign tx_size_o   = tx_size_q;
  assign tx_tail_o   = tx_tail_q;
  assign stat_base_o = {stat_base_hi_q, stat_base_lo_q};

  assign ch_cfg_we_o  = wr && (off == `SKIF_REG_CH_CFG);
  assign ch_sel_o     = ch_sel_q;
  assign ch_base_o    = {ch_base_hi_q, ch_base_lo_q};
  assign ch_size_o    = reg_req_wdata_i[4:0];
  assign ch_open_o    = (reg_req_wdata_i & `SKIF_CH_CFG_EN) != 32'h0;
  assign ch_head_we_o = wr && is_head;
  assign ch_head_ch_o = head_idx[ChW-1:0];
  assign ch_head_o    = reg_req_wdata_i;

  assign coll_tab_we_o    = wr && (off == `SKIF_REG_COLL_TAB);
  assign coll_tab_sel_o   = coll_sel_q;
  assign coll_tab_wdata_o = reg_req_wdata_i;
  assign coll_sent_o      = coll_sent_q;
  assign pio_we_o         = wr && pio_win;
  assign rma_we_o         = wr && rma_win;
  assign coll_done_o      = coll_done_q;
endmodule
