`timescale 1ns/1ps
// SPDX-License-Identifier: Apache-2.0
// skif_regs: host register block of the adapter (register map in skif_defs.vh).
//
// Handshake: request valid/ready with ready constant 1; exactly one response
// per request (reads and writes), on reg_rsp_valid_o the cycle after the
// request is accepted, in order, no back-pressure on the response. An illegal
// access (offset outside the map, misaligned, read of an unassigned offset,
// write to a read-only register, TX_SIZE/RX_SIZE value outside 12..24)
// responds err=1, changes no register, and sets STATUS.REG_ERR and
// ERR_INFO = offending offset. The engines report events as one-cycle pulses;
// counters and sticky STATUS bits live here.
`include "skif_defs.vh"

module skif_regs (
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
  output logic [63:0] rx_base_o,
  output logic [4:0]  rx_size_o,         // log2 of RX ring bytes
  output logic [31:0] rx_head_o,
  output logic [63:0] stat_base_o,
  // state and events from the TX engine
  input  logic [31:0] tx_head_i,
  input  logic        tx_busy_i,
  input  logic        tx_desc_err_i,     // pulse: bad descriptor
  input  logic        tx_dma_err_i,      // pulse: DMA read error response
  input  logic [31:0] tx_err_info_i,     // head pointer of the offending message
  input  logic        tx_pkt_i,          // pulse: packet sent
  input  logic        tx_flit_i,         // pulse: flit sent
  // state and events from the RX engine
  input  logic [31:0] rx_tail_i,
  input  logic        rx_busy_i,
  input  logic        rx_stall_i,
  input  logic        rx_err_i,          // pulse: malformed packet dropped
  input  logic [31:0] rx_err_info_i,     // RX tail pointer at the drop
  input  logic        rx_pkt_i,          // pulse: packet delivered to the ring
  // event from the network router
  input  logic        net_drop_i,        // pulse: router dropped a local packet (bad dst)
  // status-block write accepted on the DMA port
  input  logic        stat_done_i,
  output logic        irq_o
);
  localparam logic [4:0] SizeMin = 5'(`SKIF_RING_LOG2_MIN);
  localparam logic [4:0] SizeMax = 5'(`SKIF_RING_LOG2_MAX);
  localparam logic [31:0] StatusErrMask = `SKIF_STATUS_TX_ERR | `SKIF_STATUS_REG_ERR |
                                          `SKIF_STATUS_DMA_ERR | `SKIF_STATUS_RX_ERR |
                                          `SKIF_STATUS_NET_DROP;
  localparam logic [31:0] CtrlMask = `SKIF_CTRL_TX_EN | `SKIF_CTRL_RX_EN | `SKIF_CTRL_IRQ_EN;

  // ---------------------------------------------------------------- state
  logic [31:0] scratch_q, ctrl_q, err_sticky_q, err_info_q;
  logic [31:0] tx_base_lo_q, tx_base_hi_q, rx_base_lo_q, rx_base_hi_q;
  logic [31:0] stat_base_lo_q, stat_base_hi_q;
  logic [4:0]  tx_size_q, rx_size_q;
  logic [31:0] tx_tail_q, rx_head_q;
  logic [31:0] tx_pkts_q, tx_flits_q, rx_pkts_q, rx_drops_q, net_drops_q;
  logic        rsp_valid_q, rsp_err_q, irq_q;
  logic [31:0] rsp_rdata_q;

  // ---------------------------------------------------------------- decode
  logic        acc, in_map, rd_ok, wr_ok, size_ok, bad;
  logic [31:0] rdata, status;
  logic [11:0] off;

  assign reg_req_ready_o = 1'b1;
  assign acc    = reg_req_valid_i;
  assign off    = reg_req_addr_i;
  assign in_map = (off < `SKIF_REG_MAP_SIZE) && (off[1:0] == 2'b00);
  assign size_ok = (reg_req_wdata_i >= 32'(SizeMin)) && (reg_req_wdata_i <= 32'(SizeMax));

  assign status = err_sticky_q
                | (tx_busy_i  ? `SKIF_STATUS_TX_BUSY  : 32'h0)
                | (rx_busy_i  ? `SKIF_STATUS_RX_BUSY  : 32'h0)
                | (rx_stall_i ? `SKIF_STATUS_RX_STALL : 32'h0);

  always @(*) begin
    rdata = 32'h0;
    rd_ok = 1'b1;
    wr_ok = 1'b0;
    case (off)
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
      `SKIF_REG_RX_BASE_LO:   begin rdata = rx_base_lo_q;   wr_ok = 1'b1; end
      `SKIF_REG_RX_BASE_HI:   begin rdata = rx_base_hi_q;   wr_ok = 1'b1; end
      `SKIF_REG_RX_SIZE:      begin rdata = {27'h0, rx_size_q}; wr_ok = size_ok; end
      `SKIF_REG_RX_HEAD:      begin rdata = rx_head_q;      wr_ok = 1'b1; end
      `SKIF_REG_RX_TAIL:      rdata = rx_tail_i;
      `SKIF_REG_STAT_BASE_LO: begin rdata = stat_base_lo_q; wr_ok = 1'b1; end
      `SKIF_REG_STAT_BASE_HI: begin rdata = stat_base_hi_q; wr_ok = 1'b1; end
      `SKIF_REG_TX_PKTS:      rdata = tx_pkts_q;
      `SKIF_REG_TX_FLITS:     rdata = tx_flits_q;
      `SKIF_REG_RX_PKTS:      rdata = rx_pkts_q;
      `SKIF_REG_RX_DROPS:     rdata = rx_drops_q;
      `SKIF_REG_NET_DROPS:    rdata = net_drops_q;
      default:                rd_ok = 1'b0;
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
      rx_base_lo_q   <= 32'h0;
      rx_base_hi_q   <= 32'h0;
      stat_base_lo_q <= 32'h0;
      stat_base_hi_q <= 32'h0;
      tx_size_q      <= SizeMin;
      rx_size_q      <= SizeMin;
      tx_tail_q      <= 32'h0;
      rx_head_q      <= 32'h0;
      tx_pkts_q      <= 32'h0;
      tx_flits_q     <= 32'h0;
      rx_pkts_q      <= 32'h0;
      rx_drops_q     <= 32'h0;
      net_drops_q    <= 32'h0;
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
          `SKIF_REG_RX_BASE_LO:   rx_base_lo_q   <= {reg_req_wdata_i[31:3], 3'b000};
          `SKIF_REG_RX_BASE_HI:   rx_base_hi_q   <= reg_req_wdata_i;
          `SKIF_REG_RX_SIZE:      rx_size_q      <= reg_req_wdata_i[4:0];
          `SKIF_REG_RX_HEAD:      rx_head_q      <= reg_req_wdata_i;
          `SKIF_REG_STAT_BASE_LO: stat_base_lo_q <= {reg_req_wdata_i[31:3], 3'b000};
          `SKIF_REG_STAT_BASE_HI: stat_base_hi_q <= reg_req_wdata_i;
          default: ;
        endcase
      end

      // A set in the same cycle as a clear wins (the new event is not lost).
      err_sticky_q <= (err_sticky_q & ~err_clr) | err_set;

      // ERR_INFO: the detail of the most recent error; on a tie the register
      // access wins, then TX descriptor, TX DMA, RX.
      if (acc && bad)         err_info_q <= {20'h0, off};
      else if (tx_desc_err_i) err_info_q <= tx_err_info_i;
      else if (tx_dma_err_i)  err_info_q <= tx_err_info_i;
      else if (rx_err_i)      err_info_q <= rx_err_info_i;

      if (tx_pkt_i)  tx_pkts_q  <= tx_pkts_q + 32'd1;
      if (tx_flit_i) tx_flits_q <= tx_flits_q + 32'd1;
      if (rx_pkt_i)  rx_pkts_q  <= rx_pkts_q + 32'd1;
      if (rx_err_i)  rx_drops_q <= rx_drops_q + 32'd1;
      if (net_drop_i) net_drops_q <= net_drops_q + 32'd1;
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
  assign rx_base_o   = {rx_base_hi_q, rx_base_lo_q};
  assign rx_size_o   = rx_size_q;
  assign rx_head_o   = rx_head_q;
  assign stat_base_o = {stat_base_hi_q, stat_base_lo_q};
endmodule
