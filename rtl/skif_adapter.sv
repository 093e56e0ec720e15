`timescale 1ns/1ps
// SPDX-License-Identifier: Apache-2.0
// skif_adapter: the network adapter of one node (registers, TX engine, RX
// engine with the channel demultiplexer, remote-memory-access engine, DMA
// arbiter), and its side of the node's collective engine (operations from
// the TX ring or the programmed-I/O window, results into rings).
//
// Handshakes: register port valid/ready with one in-order response per
// request the cycle after acceptance (ready is 1 except for a write to the
// COLL_PIO window while a PIO launch is pending, see skif_regs); DMA requests
// valid/ready, data held while valid && !ready, read responses in request
// order without back-pressure; network ports valid/ready, data held while
// valid && !ready, `last` on the final flit of a packet (net_rx_ready_o
// depends on net_rx_valid_i and, at a header, on its kind, and on whether
// TX offers an RMA request to this node, which shares the RMA engine's
// request input). The answer lanes ans_tx_*/ans_rx_* carry the RMA engine's
// answers to and from the router's answer network (valid/ready, as the
// network port; ans_rx_ready_o depends on ans_rx_valid_i and net_rx_valid_i
// through the engine's choice of input). irq_o pulses
// for one cycle, the cycle after a status-block write (or an RMA status-word
// write) was accepted, if CTRL.IRQ_EN.
// net_drop_i: one-cycle pulse per local packet the router dropped at
// injection (NET_DROPS counter, sticky STATUS.NET_DROP).
`include "skif_defs.vh"

module skif_adapter #(
  parameter int DmaMaxReads = 128,  // max outstanding DMA reads (= TX response FIFO depth)
  parameter int NumChans    = 64,   // channels of the RX demultiplexer, power of two 2..256
  parameter int StatGapTx   = 256,  // min cycles between TX_HEAD status writes (1: no coalescing)
  parameter int StatGapRx   = 128,  // min cycles between RX status rounds (1: no coalescing)
  parameter int Trees       = 32,   // tree table entries of the node's collective engine
  parameter int RmaWindows  = 8,    // RMA engine: window table entries, 1..8
  parameter int RmaMaxReads = 8     // RMA engine: DMA reads outstanding at most (GET)
) (
  input  logic        clk_i,
  input  logic        eng_clk_i,  // the RMA engine's clock: clk_i, or clk_i gated off
                                  // for the edges where rma_wake_o is low
  input  logic        rst_ni,
  input  logic [15:0] node_id_i,
  // register port
  input  logic        reg_req_valid_i,
  output logic        reg_req_ready_o,
  input  logic        reg_req_write_i,
  input  logic [11:0] reg_req_addr_i,
  input  logic [31:0] reg_req_wdata_i,
  output logic        reg_rsp_valid_o,
  output logic [31:0] reg_rsp_rdata_o,
  output logic        reg_rsp_err_o,
  // DMA port
  output logic        dma_req_valid_o,
  input  logic        dma_req_ready_i,
  output logic        dma_req_write_o,
  output logic [63:0] dma_req_addr_o,
  output logic [63:0] dma_req_wdata_o,
  output logic [7:0]  dma_req_wstrb_o,
  input  logic        dma_rsp_valid_i,
  input  logic [63:0] dma_rsp_data_i,
  input  logic        dma_rsp_err_i,
  output logic        irq_o,
  // network port
  output logic        net_tx_valid_o,
  input  logic        net_tx_ready_i,
  output logic [63:0] net_tx_data_o,
  output logic        net_tx_last_o,
  input  logic        net_rx_valid_i,
  output logic        net_rx_ready_o,
  input  logic [63:0] net_rx_data_i,
  input  logic        net_rx_last_i,
  // answer lanes: the RMA engine's answers out, answers to this node in
  output logic        ans_tx_valid_o,
  input  logic        ans_tx_ready_i,
  output logic [63:0] ans_tx_data_o,
  output logic        ans_tx_last_o,
  input  logic        ans_rx_valid_i,
  output logic        ans_rx_ready_o,
  input  logic [63:0] ans_rx_data_i,
  input  logic        ans_rx_last_i,
  // router event: a local packet was dropped at injection (1-cycle pulse)
  input  logic        net_drop_i,
  // collective engine (skif_coll): operations out, results in, tree table,
  // events
  output logic        coll_tx_valid_o,
  input  logic        coll_tx_ready_i,
  output logic [63:0] coll_tx_data_o,
  output logic        coll_tx_last_o,
  input  logic        coll_rx_valid_i,
  output logic        coll_rx_ready_o,
  input  logic [63:0] coll_rx_data_i,
  input  logic        coll_rx_last_i,
  input  logic [7:0]  coll_rx_chan_i,
  output logic        coll_tab_we_o,
  output logic [7:0]  coll_tab_sel_o,
  output logic [31:0] coll_tab_wdata_o,
  input  logic        coll_tab_err_i,
  input  logic [31:0] coll_tab_rdata_i,
  input  logic [1:0]  coll_drop_i,
  input  logic [31:0] coll_drop_info_i,
  input  logic        coll_err_i,
  input  logic [31:0] coll_err_info_i,
  output logic        rma_wake_o  // the RMA engine needs the next edge of eng_clk_i
);
  // configuration
  logic        tx_en, rx_en, tx_halt;
  localparam int ChW = $clog2(NumChans);
  logic [63:0] tx_base, stat_base;
  logic [4:0]  tx_size;
  logic [31:0] tx_tail;
  logic           ch_cfg_we, ch_open, ch_head_we, ch_rd_open, ch_rd_busy, rx_closed;
  logic [ChW-1:0] ch_sel, ch_head_ch;
  logic [63:0]    ch_base, ch_rd_base;
  logic [4:0]     ch_size, ch_rd_size;
  logic [31:0]    ch_head, ch_rd_tail, ch_rd_head;
  logic [7:0]     rx_closed_ch;
  // TX state and events
  logic [31:0] tx_head, tx_err_info;
  logic        tx_busy, tx_desc_err, tx_dma_err, tx_pkt, tx_flit;
  // RX state and events
  logic [31:0] rx_err_info;
  logic        rx_busy, rx_stall, rx_err, rx_pkt;
  // DMA between engines and arbiter
  logic        txd_valid, txd_ready, txd_write, txd_stat;
  logic [63:0] txd_addr, txd_wdata;
  logic        rxd_valid, rxd_ready, rxd_stat;
  logic [63:0] rxd_addr, rxd_wdata;
  logic        txr_valid, txr_err;
  logic [63:0] txr_data;
  logic        stat_done;
  // TX output, split by packet kind: messages and RMA requests to other
  // nodes to the router, collective operations to the collective engine,
  // RMA requests to this node to the RMA engine (decided at each header)
  logic        txo_valid, txo_ready, txo_last, txo_hdr_q, txo_coll_q, txo_coll;
  logic        txo_self_q, txo_self, tx_lv;  // an RMA request to this node (loopback)
  logic [63:0] txo_data;
  logic        coll_sent, coll_done;
  logic [31:0] coll_sent_cnt, coll_done_cnt;
  // programmed-I/O collective window and its packet
  logic        pio_we, pio_go_ok, pio_busy, pio_valid, pio_ready, pio_last;
  logic [63:0] pio_data;
  // RMA engine: its register window, packets in and out, DMA client
  logic        rma_we, unused_rma_busy, unused_rma_hit;
  logic [31:0] rma_rdata;
  logic        rmi_valid, rmi_ready;
  logic        rmd_valid, rmd_ready, rmd_write, rmd_stat, rmr_valid;
  logic [63:0] rmd_addr, rmd_wdata;
  logic        rxi_valid, rxi_ready;
  // the engine's input: the router's ejection or TX's loopback, a packet at a time
  logic        rin_valid, rin_ready, rin_last, lp_ready;
  logic [63:0] rin_data;
  // TX to the router's injection port
  logic        tx_nv, inj_tx_ready;

  skif_regs #(
    .NumChans (NumChans),
    .Trees    (Trees),
    .RmaRegs  (1'b1)
  ) u_regs (
    .clk_i           (clk_i),
    .rst_ni          (rst_ni),
    .node_id_i       (node_id_i),
    .reg_req_valid_i (reg_req_valid_i),
    .reg_req_ready_o (reg_req_ready_o),
    .reg_req_write_i (reg_req_write_i),
    .reg_req_addr_i  (reg_req_addr_i),
    .reg_req_wdata_i (reg_req_wdata_i),
    .reg_rsp_valid_o (reg_rsp_valid_o),
    .reg_rsp_rdata_o (reg_rsp_rdata_o),
    .reg_rsp_err_o   (reg_rsp_err_o),
    .tx_en_o         (tx_en),
    .rx_en_o         (rx_en),
    .tx_halt_o       (tx_halt),
    .tx_base_o       (tx_base),
    .tx_size_o       (tx_size),
    .tx_tail_o       (tx_tail),
    .stat_base_o     (stat_base),
    .ch_cfg_we_o     (ch_cfg_we),
    .ch_sel_o        (ch_sel),
    .ch_base_o       (ch_base),
    .ch_size_o       (ch_size),
    .ch_open_o       (ch_open),
    .ch_head_we_o    (ch_head_we),
    .ch_head_ch_o    (ch_head_ch),
    .ch_head_o       (ch_head),
    .ch_rd_open_i    (ch_rd_open),
    .ch_rd_size_i    (ch_rd_size),
    .ch_rd_base_i    (ch_rd_base),
    .ch_rd_tail_i    (ch_rd_tail),
    .ch_rd_head_i    (ch_rd_head),
    .ch_rd_busy_i    (ch_rd_busy),
    .tx_head_i       (tx_head),
    .tx_busy_i       (tx_busy),
    .tx_desc_err_i   (tx_desc_err),
    .tx_dma_err_i    (tx_dma_err),
    .tx_err_info_i   (tx_err_info),
    .tx_pkt_i        (tx_pkt),
    .tx_flit_i       (tx_flit),
    .rx_busy_i       (rx_busy),
    .rx_stall_i      (rx_stall),
    .rx_err_i        (rx_err),
    .rx_err_info_i   (rx_err_info),
    .rx_pkt_i        (rx_pkt),
    .rx_closed_i     (rx_closed),
    .rx_closed_ch_i  (rx_closed_ch),
    .net_drop_i      (net_drop_i),
    .coll_tab_we_o   (coll_tab_we_o),
    .coll_tab_sel_o  (coll_tab_sel_o),
    .coll_tab_wdata_o(coll_tab_wdata_o),
    .coll_tab_err_i  (coll_tab_err_i),
    .coll_tab_rdata_i(coll_tab_rdata_i),
    .coll_drop_i     (coll_drop_i),
    .coll_drop_info_i(coll_drop_info_i),
    .coll_err_i      (coll_err_i),
    .coll_err_info_i (coll_err_info_i),
    .coll_sent_i     (coll_sent),
    .coll_done_i     (coll_done),
    .coll_sent_o     (coll_sent_cnt),
    .coll_done_o     (coll_done_cnt),
    .pio_we_o        (pio_we),
    .pio_go_ok_i     (pio_go_ok),
    .pio_busy_i      (pio_busy),
    .rma_we_o        (rma_we),
    .rma_rdata_i     (rma_rdata),
    .stat_done_i     (stat_done),
    .irq_o           (irq_o)
  );

  // Status-block writes take a DMA slot from ring traffic only after
  // StatHoldoff cycles of it (or when the port is free), and come at most
  // once per StatGap cycles while traffic lasts (completion coalescing: the
  // first after a quiet spell goes out at once): TX 256 and 256 (at 2 cycles
  // per 8-byte message that steals under 1% of a stream, and software gets
  // ring space back in steps of at most 128 messages), RX 64 and 128 (a
  // receiver sees a message at most 128 cycles late under full load, at
  // once otherwise). Fewer status writes are fewer host-memory writes and
  // fewer wake-ups of a waiting program (docs/rtl.md, "Status writes").
  skif_tx #(
    .DmaMaxReads (DmaMaxReads),
    .StatHoldoff (256),
    .StatGap     (StatGapTx)
  ) u_tx (
    .clk_i           (clk_i),
    .rst_ni          (rst_ni),
    .node_id_i       (node_id_i),
    .en_i            (tx_en),
    .halt_i          (tx_halt),
    .base_i          (tx_base),
    .size_i          (tx_size),
    .tail_i          (tx_tail),
    .stat_base_i     (stat_base),
    .head_o          (tx_head),
    .busy_o          (tx_busy),
    .desc_err_o      (tx_desc_err),
    .dma_err_o       (tx_dma_err),
    .err_info_o      (tx_err_info),
    .pkt_o           (tx_pkt),
    .flit_o          (tx_flit),
    .dma_valid_o     (txd_valid),
    .dma_ready_i     (txd_ready),
    .dma_write_o     (txd_write),
    .dma_addr_o      (txd_addr),
    .dma_wdata_o     (txd_wdata),
    .dma_stat_o      (txd_stat),
    .dma_rsp_valid_i (txr_valid),
    .dma_rsp_data_i  (txr_data),
    .dma_rsp_err_i   (txr_err),
    .net_valid_o     (txo_valid),
    .net_ready_i     (txo_ready),
    .net_data_o      (txo_data),
    .net_last_o      (txo_last)
  );

  skif_coll_pio u_pio (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .we_i    (pio_we),
    .addr_i  (reg_req_addr_i),
    .wdata_i (reg_req_wdata_i),
    .go_ok_o (pio_go_ok),
    .busy_o  (pio_busy),
    .valid_o (pio_valid),
    .ready_i (pio_ready),
    .data_o  (pio_data),
    .last_o  (pio_last)
  );

  // The engine's host input takes whole packets from two sources: the TX
  // ring's collective operations and the PIO window. Once a source offers a
  // header it keeps the input to the last flit of that packet (lock: the
  // offered flit is held, never switched, while the engine is not ready);
  // between packets the sources take turns when both wait (round-robin), so
  // neither is starved and neither loses a packet.
  logic tx_cv, ci_hdr_q, ci_valid, ci_ready, ci_last, ci_tx_ready;
  // (TX sends messages, RMA requests and collective operations; only the
  // last go to the engine)
  assign txo_coll = txo_hdr_q ? (txo_data[`SKIF_HDR_KIND_HI:`SKIF_HDR_KIND_LO] == `SKIF_KIND_COLL_UP)
                              : txo_coll_q;
  assign tx_cv    = txo_valid && txo_coll;
  skif_pkt_merge u_ci_merge (
    .clk_i, .rst_ni,
    .a_valid_i (tx_cv),     .a_data_i (txo_data), .a_last_i (txo_last), .a_ready_o (ci_tx_ready),
    .b_valid_i (pio_valid), .b_data_i (pio_data), .b_last_i (pio_last), .b_ready_o (pio_ready),
    .valid_o   (ci_valid),  .data_o (coll_tx_data_o), .last_o (ci_last), .ready_i (ci_ready)
  );
  assign ci_ready = coll_tx_ready_i;

  assign coll_tx_valid_o = ci_valid;
  assign coll_tx_last_o  = ci_last;
  assign txo_ready       = txo_coll ? ci_tx_ready : txo_self ? lp_ready : inj_tx_ready;
  assign coll_sent       = ci_valid && ci_ready && ci_hdr_q;
  always @(posedge clk_i) begin
    if (!rst_ni) begin
      txo_hdr_q  <= 1'b1;
      txo_coll_q <= 1'b0;
      txo_self_q <= 1'b0;
      ci_hdr_q   <= 1'b1;
    end else begin
      if (txo_valid && txo_ready) begin
        txo_hdr_q <= txo_last;
        if (txo_hdr_q) begin
          txo_coll_q <= txo_coll;
          txo_self_q <= txo_self;
        end
      end
      if (ci_valid && ci_ready) ci_hdr_q <= ci_last;
    end
  end

  // RMA requests (PUT, GET, ATOMIC) that TX sends to this node itself do
  // not enter the router: they go to the RMA engine directly (loopback,
  // below), and the engine completes their answers itself. Through the
  // router a request to this node could wait at the head of the router's
  // local input buffer for the engine while the engine waited to inject an
  // answer into that same buffer (docs/rma.md, "Requests to this node").
  logic [3:0] txo_kind;
  assign txo_kind = txo_data[`SKIF_HDR_KIND_HI:`SKIF_HDR_KIND_LO];
  assign txo_self = txo_hdr_q ? ((txo_kind == `SKIF_KIND_RMA_PUT || txo_kind == `SKIF_KIND_RMA_GET ||
                                  txo_kind == `SKIF_KIND_RMA_ATOMIC) &&
                                 txo_data[`SKIF_HDR_DST_HI:`SKIF_HDR_DST_LO] == node_id_i)
                              : txo_self_q;
  assign tx_lv    = txo_valid && txo_self;

  // The router's injection port carries TX's packets alone (messages, RMA
  // requests to other nodes): the RMA engine's answers (ACK, GET_RESP;
  // never to this node) have a lane of their own into the router's answer
  // network (ans_tx_*), so neither waits behind the other (docs/rma.md,
  // "Deadlock freedom"). TX's handshake is what it was without the engine.
  assign tx_nv          = txo_valid && !txo_coll && !txo_self;
  assign net_tx_valid_o = tx_nv;
  assign net_tx_data_o  = txo_data;
  assign net_tx_last_o  = txo_last;
  assign inj_tx_ready   = net_tx_ready_i;

  // The router's ejection port, split by packet kind at each header: RMA
  // kinds (3..7; only requests come this way, answers have the router's
  // answer ejection lane, ans_rx_*) to the RMA engine's request input,
  // everything else to skif_rx (messages; it drops other kinds as
  // malformed). A message sees exactly the handshake it saw without the
  // engine.
  logic nri_hdr_q, nri_rma_q, nri_rma;
  logic [3:0] nri_kind;
  assign nri_kind  = net_rx_data_i[`SKIF_HDR_KIND_HI:`SKIF_HDR_KIND_LO];
  assign nri_rma   = nri_hdr_q ? (net_rx_valid_i && nri_kind >= `SKIF_KIND_RMA_PUT &&
                                  nri_kind <= `SKIF_KIND_RMA_ACK)
                               : nri_rma_q;
  assign rxi_valid = net_rx_valid_i && !nri_rma;
  assign rmi_valid = net_rx_valid_i && nri_rma;
  assign net_rx_ready_o = nri_rma ? rmi_ready : rxi_ready;

  // The RMA engine's input takes whole packets from two sources: the
  // router's ejection (RMA kinds) and TX's requests to this node
  // (loopback). As at the injection port: a source that offers a header
  // keeps the input to its last flit, and between packets the two take
  // turns when both wait. Each source's packets keep their order, so the
  // requests of this node to itself are performed in the order TX sent them.
  skif_pkt_merge u_rin_merge (
    .clk_i, .rst_ni,
    .a_valid_i (rmi_valid), .a_data_i (net_rx_data_i), .a_last_i (net_rx_last_i), .a_ready_o (rmi_ready),
    .b_valid_i (tx_lv),     .b_data_i (txo_data),      .b_last_i (txo_last),      .b_ready_o (lp_ready),
    .valid_o   (rin_valid), .data_o (rin_data), .last_o (rin_last), .ready_i (rin_ready)
  );
  always @(posedge clk_i) begin
    if (!rst_ni) begin
      nri_hdr_q <= 1'b1;
      nri_rma_q <= 1'b0;
    end else if (net_rx_valid_i && net_rx_ready_o) begin
      nri_hdr_q <= net_rx_last_i;
      if (nri_hdr_q) nri_rma_q <= nri_rma;
    end
  end

  skif_rma #(
    .Windows  (RmaWindows),
    .MaxReads (RmaMaxReads)
  ) u_rma (
    .clk_i           (eng_clk_i),
    .rst_ni          (rst_ni),
    .node_i          (node_id_i),
    .reg_we_i        (rma_we),
    .reg_addr_i      (reg_req_addr_i),
    .reg_wdata_i     (reg_req_wdata_i),
    .reg_rdata_o     (rma_rdata),
    .reg_hit_o       (unused_rma_hit),  // skif_regs decodes the window itself
    .in_valid_i      (rin_valid),
    .in_ready_o      (rin_ready),
    .in_data_i       (rin_data),
    .in_last_i       (rin_last),
    .ans_valid_i     (ans_rx_valid_i),
    .ans_ready_o     (ans_rx_ready_o),
    .ans_data_i      (ans_rx_data_i),
    .ans_last_i      (ans_rx_last_i),
    .out_valid_o     (ans_tx_valid_o),
    .out_ready_i     (ans_tx_ready_i),
    .out_data_o      (ans_tx_data_o),
    .out_last_o      (ans_tx_last_o),
    .dma_valid_o     (rmd_valid),
    .dma_ready_i     (rmd_ready),
    .dma_write_o     (rmd_write),
    .dma_addr_o      (rmd_addr),
    .dma_wdata_o     (rmd_wdata),
    .dma_stat_o      (rmd_stat),
    .dma_rsp_valid_i (rmr_valid),
    .dma_rsp_data_i  (txr_data),
    .dma_rsp_err_i   (txr_err),
    .busy_o          (unused_rma_busy),  // RMA_STATUS.BUSY shows it
    .wake_o          (rma_wake_o)
  );

  skif_rx #(
    .StatHoldoff (64),
    .StatGap     (StatGapRx),
    .NumChans    (NumChans)
  ) u_rx (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .en_i        (rx_en),
    .stat_base_i (stat_base),
    .cfg_we_i    (ch_cfg_we),
    .cfg_ch_i    (ch_sel),
    .cfg_base_i  (ch_base),
    .cfg_size_i  (ch_size),
    .cfg_open_i  (ch_open),
    .head_we_i   (ch_head_we),
    .head_ch_i   (ch_head_ch),
    .head_i      (ch_head),
    .rd_ch_i     (ch_sel),
    .rd_open_o   (ch_rd_open),
    .rd_size_o   (ch_rd_size),
    .rd_base_o   (ch_rd_base),
    .rd_tail_o   (ch_rd_tail),
    .rd_head_o   (ch_rd_head),
    .rd_busy_o   (ch_rd_busy),
    .closed_o    (rx_closed),
    .closed_ch_o (rx_closed_ch),
    .busy_o      (rx_busy),
    .stall_o     (rx_stall),
    .err_o       (rx_err),
    .err_info_o  (rx_err_info),
    .pkt_o       (rx_pkt),
    .dma_valid_o (rxd_valid),
    .dma_ready_i (rxd_ready),
    .dma_addr_o  (rxd_addr),
    .dma_wdata_o (rxd_wdata),
    .dma_stat_o  (rxd_stat),
    .coll_done_o (coll_done),
    .coll_cnt_i  ({coll_done_cnt, coll_sent_cnt}),
    .net_valid_i (rxi_valid),
    .net_ready_o (rxi_ready),
    .net_data_i  (net_rx_data_i),
    .net_last_i  (net_rx_last_i),
    .coll_valid_i (coll_rx_valid_i),
    .coll_ready_o (coll_rx_ready_o),
    .coll_data_i  (coll_rx_data_i),
    .coll_last_i  (coll_rx_last_i),
    .coll_chan_i  (coll_rx_chan_i)
  );

  // DMA port shared by the engines: client 0 TX (reads and status
  // writes), client 1 RX (ring and status writes), client 2 RMA (reads,
  // writes, status-word writes). The RMA engine comes last: while it is
  // idle the round-robin between TX and RX is the two-client one. Reads
  // outstanding: TX's and RMA's limits together.
  logic unused_rsp_rx;  // RX only writes
  skif_dma_arb #(
    .Clients  (3),
    .MaxReads (DmaMaxReads + RmaMaxReads)
  ) u_dma_arb (
    .clk_i           (clk_i),
    .rst_ni          (rst_ni),
    .req_valid_i     ({rmd_valid, rxd_valid, txd_valid}),
    .req_ready_o     ({rmd_ready, rxd_ready, txd_ready}),
    .req_write_i     ({rmd_write, 1'b1, txd_write}),
    .req_addr_i      ({rmd_addr, rxd_addr, txd_addr}),
    .req_wdata_i     ({rmd_wdata, rxd_wdata, txd_wdata}),
    .req_stat_i      ({rmd_stat, rxd_stat, txd_stat}),
    .rsp_valid_o     ({rmr_valid, unused_rsp_rx, txr_valid}),
    .rsp_data_o      (txr_data),
    .rsp_err_o       (txr_err),
    .dma_req_valid_o (dma_req_valid_o),
    .dma_req_ready_i (dma_req_ready_i),
    .dma_req_write_o (dma_req_write_o),
    .dma_req_addr_o  (dma_req_addr_o),
    .dma_req_wdata_o (dma_req_wdata_o),
    .dma_req_wstrb_o (dma_req_wstrb_o),
    .dma_rsp_valid_i (dma_rsp_valid_i),
    .dma_rsp_data_i  (dma_rsp_data_i),
    .dma_rsp_err_i   (dma_rsp_err_i),
    .stat_done_o     (stat_done)
  );

endmodule
