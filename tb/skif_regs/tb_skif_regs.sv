`timescale 1ns/1ps
// SPDX-License-Identifier: Apache-2.0
// tb_skif_regs: skif_regs alone: reset values, read/write of every RW
// register, every class of illegal access (err=1, no state change,
// STATUS.REG_ERR, ERR_INFO), W1C of STATUS, engine events (sticky bits,
// ERR_INFO, counters), live status bits, irq gating, one response per request,
// the channel-table window (CH_SEL range, CH_CFG commit and validation,
// read-back) and the CH_HEAD doorbells of every channel; the COLL_PIO
// window (write-only, COLL_PIO_HI refused when skif_coll_pio refuses the
// descriptor, every write to it held while a launch is pending, STATUS.PIO_BUSY).
`include "skif_defs.vh"

module tb_skif_regs;
  logic clk = 1'b0, rst_n = 1'b0;
  always #5 clk = ~clk;
  int errors = 0;
  `define CHECK(cond, msg) if (!(cond)) begin errors = errors + 1; $error msg; end

  logic        req_valid = 0, req_write = 0;
  logic [11:0] req_addr = 0;
  logic [31:0] req_wdata = 0;
  wire         req_ready, rsp_valid, rsp_err, irq;
  wire  [31:0] rsp_rdata;
  wire         tx_en, rx_en, tx_halt;
  wire  [63:0] tx_base, stat_base;
  wire  [4:0]  tx_size;
  wire  [31:0] tx_tail;
  logic [31:0] tx_head = 32'h1234, tx_info = 0, rx_info = 0;
  logic        tx_busy = 0, rx_busy = 0, rx_stall = 0;
  logic        tx_desc_err = 0, tx_dma_err = 0, rx_err = 0, tx_pkt = 0, tx_flit = 0, rx_pkt = 0, stat_done = 0;
  logic        rx_closed = 0;
  logic [7:0]  rx_closed_ch = 0;
  // the channel table (skif_rx's side), 8 channels
  localparam int NCH = 8;
  wire         ch_cfg_we, ch_open, ch_head_we;
  wire  [2:0]  ch_sel, ch_head_ch;
  wire  [63:0] ch_base;
  wire  [4:0]  ch_size;
  wire  [31:0] ch_head;
  logic        t_open [NCH];
  logic [4:0]  t_size [NCH];
  logic [63:0] t_base [NCH];
  logic [31:0] t_head [NCH];
  int n_cfg = 0, n_head = 0, n_pio = 0;
  // the PIO window (skif_coll_pio's side)
  logic        pio_go_ok = 1, pio_busy = 0;
  wire         pio_we;
  always @(posedge clk) if (pio_we) n_pio <= n_pio + 1;
  always @(posedge clk) begin
    if (ch_cfg_we) begin
      t_open[ch_sel] <= ch_open; t_size[ch_sel] <= ch_size; t_base[ch_sel] <= ch_base;
      t_head[ch_sel] <= 0; n_cfg <= n_cfg + 1;
    end
    if (ch_head_we) begin
      t_head[ch_head_ch] <= ch_head; n_head <= n_head + 1;
    end
  end

  skif_regs #(
    .NumChans (NCH)
  ) u_regs (
    .clk_i (clk), .rst_ni (rst_n), .node_id_i (16'h0ABC),
    .reg_req_valid_i (req_valid), .reg_req_ready_o (req_ready), .reg_req_write_i (req_write),
    .reg_req_addr_i (req_addr), .reg_req_wdata_i (req_wdata),
    .reg_rsp_valid_o (rsp_valid), .reg_rsp_rdata_o (rsp_rdata), .reg_rsp_err_o (rsp_err),
    .tx_en_o (tx_en), .rx_en_o (rx_en), .tx_halt_o (tx_halt), .tx_base_o (tx_base), .tx_size_o (tx_size),
    .tx_tail_o (tx_tail), .stat_base_o (stat_base),
    .ch_cfg_we_o (ch_cfg_we), .ch_sel_o (ch_sel), .ch_base_o (ch_base), .ch_size_o (ch_size),
    .ch_open_o (ch_open), .ch_head_we_o (ch_head_we), .ch_head_ch_o (ch_head_ch), .ch_head_o (ch_head),
    .ch_rd_open_i (t_open[ch_sel]), .ch_rd_size_i (t_size[ch_sel]), .ch_rd_base_i (t_base[ch_sel]),
    .ch_rd_tail_i (32'hCAFE_0000 | 32'(ch_sel)), .ch_rd_head_i (t_head[ch_sel]), .ch_rd_busy_i (ch_sel == 3'd6), .tx_head_i (tx_head), .tx_busy_i (tx_busy), .tx_desc_err_i (tx_desc_err),
    .tx_dma_err_i (tx_dma_err), .tx_err_info_i (tx_info), .tx_pkt_i (tx_pkt), .tx_flit_i (tx_flit),
    .rx_busy_i (rx_busy), .rx_stall_i (rx_stall), .rx_err_i (rx_err),
    .rx_err_info_i (rx_info), .rx_pkt_i (rx_pkt), .rx_closed_i (rx_closed),
    .rx_closed_ch_i (rx_closed_ch), .net_drop_i (1'b0),
    .coll_tab_we_o (), .coll_tab_sel_o (), .coll_tab_wdata_o (), .coll_tab_err_i (1'b0),
    .coll_tab_rdata_i (32'h0), .coll_drop_i (2'b0), .coll_drop_info_i (32'h0), .coll_err_i (1'b0),
    .coll_err_info_i (32'h0), .coll_sent_i (1'b0), .coll_done_i (1'b0), .coll_sent_o (),
    .coll_done_o (), .pio_we_o (pio_we), .pio_go_ok_i (pio_go_ok), .pio_busy_i (pio_busy),
    .stat_done_i (stat_done), .irq_o (irq)
  );

  int n_req = 0, n_rsp = 0, n_irq = 0;
  always @(posedge clk) begin
    if (req_valid && req_ready) n_req <= n_req + 1;
    if (rsp_valid) n_rsp <= n_rsp + 1;
    if (irq) n_irq <= n_irq + 1;
  end

  task automatic acc(input bit w, input logic [11:0] a, input logic [31:0] d, output logic [31:0] rd, output logic e);
    @(negedge clk);
    req_valid = 1; req_write = w; req_addr = a; req_wdata = d;
    @(negedge clk);
    req_valid = 0;
    `CHECK(rsp_valid === 1'b1, ("no response for %h", a))
    rd = rsp_rdata; e = rsp_err;
  endtask
  task automatic wr(input logic [11:0] a, input logic [31:0] d);
    logic [31:0] r; logic e;
    acc(1, a, d, r, e);
    `CHECK(e === 0, ("write %h: err", a))
  endtask
  task automatic expect_rd(input logic [11:0] a, input logic [31:0] exp);
    logic [31:0] r; logic e;
    acc(0, a, 0, r, e);
    `CHECK(e === 0 && r === exp, ("read %h = %h err %b, expected %h", a, r, e, exp))
  endtask
  task automatic bad(input bit w, input logic [11:0] a, input logic [31:0] d);
    logic [31:0] r; logic e;
    acc(w, a, d, r, e);
    `CHECK(e === 1 && r === 0, ("%s %h: err %b rdata %h", w ? "write" : "read", a, e, r))
    expect_rd(`SKIF_REG_ERR_INFO, {20'h0, a});
    expect_rd(`SKIF_REG_STATUS, `SKIF_STATUS_REG_ERR);
    wr(`SKIF_REG_STATUS, `SKIF_STATUS_REG_ERR);
    expect_rd(`SKIF_REG_STATUS, 0);
  endtask
  // One-cycle event pulse on the named input.
  `define PULSE(s) begin @(negedge clk); s = 1; @(negedge clk); s = 0; end

  function automatic bit assigned(input int a);
    case (a)
      'h00, 'h04, 'h08, 'h0C, 'h10, 'h14, 'h1C, 'h20, 'h24, 'h28, 'h2C, 'h30,
      'h60, 'h64, 'h80, 'h84, 'h88, 'h8C, 'h90, 'h94, 'hA0, 'hA4, 'hA8, 'hAC, 'hB0, 'hB4, 'hB8,
      'hBC, 'hC0, 'hD0, 'hD4, 'hD8, 'hDC, 'hE0, 'hE4, 'hE8: return 1'b1;
      default: return (a == 'hF0) || (a == 'hF4) ||
                      (a >= 'h100 && a < 'h100 + 4 * `SKIF_COLL_PIO_REGS);  // PIO window: tested below
    endcase
  endfunction

  logic [11:0] rw [8];
  logic [31:0] rv; logic re;
  reg [8*256-1:0] wave_file;
  initial begin
    if ($value$plusargs("wave=%s", wave_file)) begin
      $dumpfile(wave_file);
      $dumpvars(0, tb_skif_regs);
    end
    rw[0] = `SKIF_REG_SCRATCH;      rw[1] = `SKIF_REG_TX_BASE_LO;   rw[2] = `SKIF_REG_TX_BASE_HI;
    rw[3] = `SKIF_REG_TX_TAIL;      rw[4] = `SKIF_REG_CH_BASE_LO;   rw[5] = `SKIF_REG_CH_BASE_HI;
    rw[6] = `SKIF_REG_STAT_BASE_LO; rw[7] = `SKIF_REG_STAT_BASE_HI;
    for (int c = 0; c < NCH; c++) begin t_open[c] = 0; t_size[c] = 0; t_base[c] = 0; t_head[c] = 0; end
    repeat (3) @(negedge clk);
    rst_n = 1;
    `CHECK(req_ready === 1, ("ready not 1"))
    // reset values
    expect_rd(`SKIF_REG_ID, `SKIF_ID_VALUE);
    expect_rd(`SKIF_REG_VERSION, `SKIF_VERSION_VALUE);
    expect_rd(`SKIF_REG_NODE, 32'h0ABC);
    expect_rd(`SKIF_REG_CTRL, 0);
    expect_rd(`SKIF_REG_STATUS, 0);
    expect_rd(`SKIF_REG_TX_SIZE, 12);
    expect_rd(`SKIF_REG_TX_HEAD, 32'h1234);
    expect_rd(`SKIF_REG_CH_NUM, NCH);
    expect_rd(`SKIF_REG_CH_SEL, 0);
    for (int i = 0; i < 8; i++) expect_rd(rw[i], 0);
    // RW registers (base LO registers keep bits [2:0] zero)
    for (int i = 0; i < 8; i++) begin
      wr(rw[i], 32'hA5A5_5A5F + 32'(i));
      expect_rd(rw[i], (rw[i] == `SKIF_REG_TX_BASE_LO || rw[i] == `SKIF_REG_CH_BASE_LO ||
                        rw[i] == `SKIF_REG_STAT_BASE_LO) ? ((32'hA5A5_5A5F + 32'(i)) & ~32'h7) : 32'hA5A5_5A5F + 32'(i));
    end
    `CHECK(tx_base == 64'hA5A5_5A61_A5A5_5A60 && tx_tail == 32'hA5A5_5A62, ("tx outputs %h %h", tx_base, tx_tail))
    wr(`SKIF_REG_TX_SIZE, 24); expect_rd(`SKIF_REG_TX_SIZE, 24);
    `CHECK(tx_size == 24, ("size output"))
    wr(`SKIF_REG_CTRL, 32'hFFFF_FFFF); expect_rd(`SKIF_REG_CTRL, 7);
    `CHECK(tx_en && rx_en, ("enables"))
    // illegal accesses
    bad(0, 12'h800, 0); bad(1, 12'h900, 1); bad(0, 12'hFFF, 0); bad(0, 12'h002, 0); bad(1, 12'h011, 1);
    for (int a = 0; a < 'h400; a += 4) begin
      if (!assigned(a)) begin
        bad(0, 12'(a), 0);
        bad(1, 12'(a), 0);
      end
    end
    bad(1, `SKIF_REG_ID, 0); bad(1, `SKIF_REG_VERSION, 0); bad(1, `SKIF_REG_NODE, 0); bad(1, `SKIF_REG_ERR_INFO, 0);
    bad(1, `SKIF_REG_TX_HEAD, 0); bad(1, `SKIF_REG_CH_TAIL, 0); bad(1, `SKIF_REG_TX_PKTS, 0);
    bad(1, `SKIF_REG_TX_FLITS, 0); bad(1, `SKIF_REG_RX_PKTS, 0); bad(1, `SKIF_REG_RX_DROPS, 0);
    bad(1, `SKIF_REG_TX_SIZE, 11); bad(1, `SKIF_REG_TX_SIZE, 25);
    bad(1, `SKIF_REG_CH_NUM, 0); bad(1, `SKIF_REG_CH_DROPS, 0); bad(1, `SKIF_REG_CH_HEAD_RD, 0);
    bad(1, `SKIF_REG_CH_RBASE_LO, 0); bad(1, `SKIF_REG_CH_RBASE_HI, 0);
    // the collective window: COLL_SEL below COLL_TREES; counters read-only
    expect_rd(`SKIF_REG_COLL_TREES, 32);
    bad(1, `SKIF_REG_COLL_TREES, 0); bad(1, `SKIF_REG_COLL_SEL, 32); bad(1, `SKIF_REG_COLL_SEL, 32'h100);
    bad(1, `SKIF_REG_COLL_DROPS, 0); bad(1, `SKIF_REG_COLL_ERRS, 0); bad(1, `SKIF_REG_COLL_SENT, 0);
    bad(1, `SKIF_REG_COLL_DONE, 0);
    wr(`SKIF_REG_COLL_SEL, 31); expect_rd(`SKIF_REG_COLL_SEL, 31); wr(`SKIF_REG_COLL_SEL, 0);
    expect_rd(`SKIF_REG_TX_SIZE, 24);
    // the channel window: CH_SEL in range, CH_CFG legal, CH_HEAD write-only
    bad(1, `SKIF_REG_CH_SEL, NCH); bad(1, `SKIF_REG_CH_SEL, 32'h1_0000);
    bad(1, `SKIF_REG_CH_CFG, `SKIF_CH_CFG_EN | 11); bad(1, `SKIF_REG_CH_CFG, `SKIF_CH_CFG_EN | 25);
    bad(1, `SKIF_REG_CH_CFG, `SKIF_CH_CFG_EN | `SKIF_CH_CFG_BUSY | 12);
    bad(1, `SKIF_REG_CH_CFG, 32'h8000_0000);
    bad(1, 12'(`SKIF_REG_CH_HEAD + 4 * NCH), 1); bad(1, 12'h7FC, 1); bad(0, `SKIF_REG_CH_HEAD, 0);
    `CHECK(n_cfg == 0 && n_head == 0, ("a rejected access reached the channel table"))
    wr(`SKIF_REG_CH_SEL, 5);
    wr(`SKIF_REG_CH_BASE_LO, 32'h1234_5007); wr(`SKIF_REG_CH_BASE_HI, 32'h0000_00AB);
    wr(`SKIF_REG_CH_CFG, `SKIF_CH_CFG_EN | 14);
    `CHECK(n_cfg == 1 && t_open[5] && t_size[5] == 14 && t_base[5] == 64'hAB_1234_5000,
           ("CH_CFG commit: %0d %b %0d %h", n_cfg, t_open[5], t_size[5], t_base[5]))
    expect_rd(`SKIF_REG_CH_CFG, `SKIF_CH_CFG_EN | 14);
    expect_rd(`SKIF_REG_CH_RBASE_LO, 32'h1234_5000); expect_rd(`SKIF_REG_CH_RBASE_HI, 32'hAB);
    expect_rd(`SKIF_REG_CH_TAIL, 32'hCAFE_0005);
    wr(`SKIF_REG_CH_CFG, 0);   // closing takes any size
    `CHECK(n_cfg == 2 && !t_open[5], ("close"))
    wr(`SKIF_REG_CH_SEL, 6);
    expect_rd(`SKIF_REG_CH_CFG, `SKIF_CH_CFG_BUSY);
    for (int c = 0; c < NCH; c++) wr(12'(`SKIF_REG_CH_HEAD + 4 * c), 32'h100 * 32'(c + 1));
    `CHECK(n_head == NCH, ("CH_HEAD doorbells %0d", n_head))
    for (int c = 0; c < NCH; c++) begin
      wr(`SKIF_REG_CH_SEL, c);
      expect_rd(`SKIF_REG_CH_HEAD_RD, 32'h100 * 32'(c + 1));
    end
    expect_rd(`SKIF_REG_SCRATCH, 32'hA5A5_5A5F);
    expect_rd(`SKIF_REG_CTRL, 7);
    // the COLL_PIO window: write-only; HI refused when the descriptor is
    bad(0, `SKIF_REG_COLL_PIO_LO, 0); bad(0, `SKIF_REG_COLL_PIO_HI, 0);
    for (int i = 0; i < `SKIF_COLL_PIO_REGS; i++) bad(0, 12'(`SKIF_REG_COLL_PIO_DATA + 4 * i), 0);
    bad(0, 12'(`SKIF_REG_COLL_PIO_DATA + 4 * `SKIF_COLL_PIO_REGS), 0);
    bad(1, 12'(`SKIF_REG_COLL_PIO_DATA + 4 * `SKIF_COLL_PIO_REGS), 1);
    bad(1, 12'h0F8, 1); bad(1, 12'h0EC, 1);
    `CHECK(n_pio == 0, ("a refused access reached the PIO window"))
    for (int i = 0; i < `SKIF_COLL_PIO_REGS; i++) wr(12'(`SKIF_REG_COLL_PIO_DATA + 4 * i), 32'(i));
    wr(`SKIF_REG_COLL_PIO_LO, 32'h0100_0000);
    wr(`SKIF_REG_COLL_PIO_HI, 32'h1000_0008);
    `CHECK(n_pio == `SKIF_COLL_PIO_REGS + 2, ("PIO window writes %0d", n_pio))
    pio_go_ok = 0;
    bad(1, `SKIF_REG_COLL_PIO_HI, 32'h2000_0008);
    `CHECK(n_pio == `SKIF_COLL_PIO_REGS + 2, ("a refused launch reached the PIO window"))
    pio_go_ok = 1;
    // a launch pending: reads and other writes go on, a write to the window
    // waits (ready low, no response) until the launch is taken
    pio_busy = 1;
    expect_rd(`SKIF_REG_STATUS, `SKIF_STATUS_PIO_BUSY);
    wr(`SKIF_REG_SCRATCH, 32'h5A5A_A5A5);
    @(negedge clk);
    req_valid = 1; req_write = 1; req_addr = `SKIF_REG_COLL_PIO_LO; req_wdata = 32'h77;
    repeat (5) begin
      @(negedge clk);
      `CHECK(req_ready === 1'b0 && rsp_valid === 1'b0, ("a PIO write went through while busy"))
    end
    `CHECK(n_pio == `SKIF_COLL_PIO_REGS + 2, ("a held write reached the PIO window"))
    pio_busy = 0;
    #1 `CHECK(req_ready === 1'b1, ("the held write not taken once the launch went"))
    @(negedge clk);
    req_valid = 0;
    `CHECK(rsp_valid === 1'b1 && rsp_err === 1'b0, ("no response for the held write"))
    `CHECK(n_pio == `SKIF_COLL_PIO_REGS + 3, ("the held write did not reach the PIO window"))
    expect_rd(`SKIF_REG_STATUS, 0);
    expect_rd(`SKIF_REG_SCRATCH, 32'h5A5A_A5A5);
    wr(`SKIF_REG_SCRATCH, 32'hA5A5_5A5F);
    // engine events
    tx_info = 32'h111; `PULSE(tx_desc_err)
    `CHECK(tx_halt, ("tx_halt after TX_ERR"))
    expect_rd(`SKIF_REG_STATUS, `SKIF_STATUS_TX_ERR);
    expect_rd(`SKIF_REG_ERR_INFO, 32'h111);
    tx_info = 32'h222; `PULSE(tx_dma_err)
    rx_info = 32'h333; `PULSE(rx_err)
    expect_rd(`SKIF_REG_STATUS, `SKIF_STATUS_TX_ERR | `SKIF_STATUS_DMA_ERR | `SKIF_STATUS_RX_ERR);
    expect_rd(`SKIF_REG_ERR_INFO, 32'h333);
    expect_rd(`SKIF_REG_RX_DROPS, 1);
    rx_closed_ch = 8'd200; `PULSE(rx_closed) `PULSE(rx_closed)
    expect_rd(`SKIF_REG_CH_DROPS, 2);
    expect_rd(`SKIF_REG_ERR_INFO, 200);
    expect_rd(`SKIF_REG_STATUS, `SKIF_STATUS_TX_ERR | `SKIF_STATUS_DMA_ERR | `SKIF_STATUS_RX_ERR |
                                `SKIF_STATUS_CH_DROP);
    wr(`SKIF_REG_STATUS, `SKIF_STATUS_CH_DROP);
    wr(`SKIF_REG_STATUS, `SKIF_STATUS_TX_ERR | 32'hFFFF_FE87);   // only error bits clear
    expect_rd(`SKIF_REG_STATUS, `SKIF_STATUS_DMA_ERR | `SKIF_STATUS_RX_ERR);
    `CHECK(tx_halt, ("tx_halt with DMA_ERR"))
    wr(`SKIF_REG_STATUS, 32'hFFFF_FFFF);
    expect_rd(`SKIF_REG_STATUS, 0);
    `CHECK(!tx_halt, ("tx_halt after clear"))
    tx_busy = 1; rx_busy = 1; rx_stall = 1;
    expect_rd(`SKIF_REG_STATUS, `SKIF_STATUS_TX_BUSY | `SKIF_STATUS_RX_BUSY | `SKIF_STATUS_RX_STALL);
    wr(`SKIF_REG_STATUS, 32'hFFFF_FFFF);
    expect_rd(`SKIF_REG_STATUS, `SKIF_STATUS_TX_BUSY | `SKIF_STATUS_RX_BUSY | `SKIF_STATUS_RX_STALL);
    tx_busy = 0; rx_busy = 0; rx_stall = 0;
    for (int i = 0; i < 5; i++) begin `PULSE(tx_pkt) `PULSE(tx_flit) `PULSE(tx_flit) `PULSE(rx_pkt) end
    expect_rd(`SKIF_REG_TX_PKTS, 5);
    expect_rd(`SKIF_REG_TX_FLITS, 10);
    expect_rd(`SKIF_REG_RX_PKTS, 5);
    // irq: only with IRQ_EN
    `PULSE(stat_done) `PULSE(stat_done)
    repeat (2) @(negedge clk);
    `CHECK(n_irq == 2, ("irq pulses %0d, expected 2", n_irq))
    wr(`SKIF_REG_CTRL, `SKIF_CTRL_TX_EN);
    `PULSE(stat_done)
    repeat (2) @(negedge clk);
    `CHECK(n_irq == 2, ("irq with IRQ_EN clear"))
    `CHECK(n_req == n_rsp, ("%0d requests, %0d responses", n_req, n_rsp))
    if (errors > 0) $fatal(1, "tb_skif_regs: %0d errors", errors);
    $display("tb_skif_regs: %0d register accesses, 0 errors", n_req);
    $display("PASS tb_skif_regs");
    $finish;
  end
endmodule
