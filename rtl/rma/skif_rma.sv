`timescale 1ns/1ps
// SPDX-License-Identifier: Apache-2.0
// skif_rma: the remote-memory-access engine (docs/rma.md): serves PUT, GET
// and ATOMIC requests from other nodes against this node's host memory, and
// takes in the GET_RESP and ACK answers to this node's own requests. A
// request from this node itself (src = node_i) is served the same way, but
// its answer is not sent: the engine takes it in at once as if received.
//
// Two inputs: requests (in_*: PUT, GET, ATOMIC from the network's request
// classes and TX's loopback) and answers (ans_*: GET_RESP and ACK from the
// answer network). The engine never waits for the network: every answer it
// sends goes first into an output FIFO (OfDepth flits, the longest answer
// and an 8-byte put's ACK), and a request is taken only when the FIFO has
// room for its whole answer (reserved at its header). So the engine always
// comes back to its header state after DMA work alone, and an answer
// waiting at ans_* is always taken: the answer network's consumption
// depends only on the DMA port (docs/rma.md, "Deadlock freedom").
//
// Handshakes: input flits valid/ready/last on each input (at a header,
// in_ready_o depends on in_data_i (the room its answer needs) and
// ans_ready_o/in_ready_o on ans_valid_i and in_valid_i (which of the two
// goes next, alternating when both wait); within a packet only on the
// state); output flits valid/ready/last from the FIFO; DMA requests valid/ready as a skif_dma_arb client (64-bit
// words, full strobe: sub-word writes are read-modify-write), read
// responses in request order with no back-pressure (at most MaxReads reads
// outstanding); a register port as skif_coll_pio's (accepted writes we_i,
// reads combinational on addr_i, offsets SKIF_REG_RMA_*).
//
// One packet at a time, in arrival order, store and forward: a packet is
// taken whole into a word buffer (its data realigned to the target
// address's word boundary) and checked (kind, length, framing, window and
// permission) before it touches memory; then puts and responses are written
// (whole words straight, a partial head or tail word by read-modify-write),
// gets read and answered by GET_RESP, atomics read, modified, written and
// answered by ACK. Requests refused (no window, no permission, bad length,
// op or framing) touch no memory: REFUSED++, the sticky STATUS bit, and an
// error ACK to the requester. Responses that cannot be delivered touch no
// memory either: they count as a completion in error. Each completion of
// this node's requests (ACK of a put or atomic, GET_RESP written, error)
// bumps a counter; if RMA_STAT is set, the 16-byte completion status words
// in host memory are rewritten after the data writes (same port, in order):
// the words that changed, when the input is idle and StGap cycles have
// passed since the last status write, or at once after StMax completions
// or after a request that arrives StGap cycles or more after it (so they
// always end up exact, and are never more than StMax completions or about
// StGap cycles behind while packets stream in).
//
// Rate (docs/rma.md "Throughput"): an 8-byte put to an aligned address from
// another node is taken on the fly (its window checked as its data flit
// arrives, the word written from a write register wq, the engine back at
// the next header at once: one put per 3 flits); 1-flit ACKs wait in a
// small answer queue (AnsQ) so the engine stalls on its output only when
// the queue is full or for a longer answer; an ACK without value is
// counted in the cycle its header arrives.
`include "skif_defs.vh"

module skif_rma #(
  parameter int Windows  = 8,   // window table entries, 1..SKIF_RMA_WINDOWS_MAX
  parameter int MaxReads = 8    // DMA reads outstanding at most (GET), >= 1
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic [15:0] node_i,       // this node's id: src of every packet sent
  // register port (offsets SKIF_REG_RMA_*)
  input  logic        reg_we_i,     // an accepted register write
  input  logic [11:0] reg_addr_i,
  input  logic [31:0] reg_wdata_i,
  output logic [31:0] reg_rdata_o,  // the register at reg_addr_i (combinational)
  output logic        reg_hit_o,    // reg_addr_i lies in the RMA window
  // RMA requests (kinds 3, 4, 6) from the network and the loopback
  input  logic        in_valid_i,
  output logic        in_ready_o,
  input  logic [63:0] in_data_i,
  input  logic        in_last_i,
  // RMA answers (kinds 5, 7) from the answer network
  input  logic        ans_valid_i,
  output logic        ans_ready_o,
  input  logic [63:0] ans_data_i,
  input  logic        ans_last_i,
  // ACK and GET_RESP packets to the network
  output logic        out_valid_o,
  input  logic        out_ready_i,
  output logic [63:0] out_data_o,
  output logic        out_last_o,
  // DMA client (skif_dma_arb)
  output logic        dma_valid_o,
  input  logic        dma_ready_i,
  output logic        dma_write_o,
  output logic [63:0] dma_addr_o,
  output logic [63:0] dma_wdata_o,
  output logic        dma_stat_o,   // the request is a status-word write
  input  logic        dma_rsp_valid_i,
  input  logic [63:0] dma_rsp_data_i,
  input  logic        dma_rsp_err_i,
  output logic        busy_o,       // a packet is being handled
  // the next clock edge may change a register (low: none changes, so the
  // engine's clock may be gated off for that edge)
  output logic        wake_o
);
  localparam int WinW  = (Windows > 1) ? $clog2(Windows) : 1;
  localparam int Words = `SKIF_MAX_MSG / 8 + 1;  // buffer words: the longest data at any alignment
  localparam int RdW   = $clog2(MaxReads + 1);
  localparam logic [11:0] MaxLenC = 12'(`SKIF_MAX_MSG);
  localparam int OfDepth = Words + 1;  // output FIFO: the longest answer (GET_RESP of 2048 bytes)
  localparam int OfW   = $clog2(OfDepth + 1);
  localparam int StMax = 16;  // completions at most before the status words are written
  localparam int StGap = 32;  // cycles from a status write to the next one taken when idle

`ifndef SYNTHESIS
  if (Windows < 1 || Windows > `SKIF_RMA_WINDOWS_MAX) begin : g_bad_windows
    `SKIF_BAD_PARAM("skif_rma Windows=%0d out of range 1..8", Windows)
  end
  if (MaxReads < 1 || MaxReads > 256) begin : g_bad_reads
    `SKIF_BAD_PARAM("skif_rma MaxReads=%0d out of range 1..256", MaxReads)
  end
`endif

  typedef enum logic [3:0] {
    SHdr   = 4'd0,   // next flit is a header
    SBody  = 4'd1,   // taking the flits after the header
    SDrop  = 4'd2,   // discarding up to the last flit (framing or length error)
    SCheck = 4'd3,   // the whole packet is in: check and choose
    SWr    = 4'd4,   // writing buffer words (a partial word: its read first)
    SWWait = 4'd5,   // read-modify-write: waiting for the word
    SWMrg  = 4'd6,   // read-modify-write: writing the merged word
    SRd    = 4'd7,   // GET: reading the words into the buffer
    SARd   = 4'd8,   // ATOMIC: reading the word
    SAWait = 4'd9,   // ATOMIC: waiting for it
    SAWr   = 4'd10,  // ATOMIC: writing the new value
    SSend  = 4'd11,  // sending an ACK or GET_RESP
    SFin   = 4'd12,  // a completion of this node's request: count it
    SSt0   = 4'd13,  // status word 0 {GETS, PUTS}
    SSt1   = 4'd14   // status word 1 {ERRS, ATOMS}
  } state_e;

  // ---------------------------------------------------------------- window table
  logic [2:0]  perm_q [Windows];
  logic [60:0] wbase_q [Windows];  // base / 8
  logic [60:0] wsize_q [Windows];  // size / 8
  logic [63:0] stg_base_q, stg_size_q, stat_q;
  logic [7:0]  sel_q;

  // ---------------------------------------------------------------- packet state
  state_e      state_q;
  logic [3:0]  kind_q, op_q, rkind_q, err_q;
  logic [15:0] src_q;
  logic [7:0]  tag_q;
  logic [11:0] len_q;
  logic [63:0] a0_q, a1_q, opnd_q, cmp_q;
  logic [8:0]  exp_q, f_q;        // flits expected after the header; taken so far
  logic [63:0] carry_q;
  logic [8:0]  nw_q, i_q, r_q;    // words to write/read; issued; received (GET)
  logic        dmaerr_q;
  logic [63:0] merge_q;
  logic [63:0] aword_q;           // ATOMIC: the word to write
  // sending
  logic [63:0] ohdr_q, oaddr_q;
  logic [8:0]  otot_q, j_q;       // flits of the packet sent; index of the next
  logic [2:0]  olen_q;           // data length mod 8 (the last flit's bytes)
  logic [2:0]  so_q;              // byte offset of the data in buffer word 0
  // counters
  logic [31:0] refused_q, info_q, acks_q, puts_q, gets_q, atoms_q, errs_q, served_q;
  logic        st_ref_q, st_rsp_q;

  logic [63:0] buf_q [Words];

  // an 8-byte aligned put taken on the fly (SBody): its word and its ACK
  logic        wq_v_q;
  logic [63:0] wq_addr_q, wq_data_q, wq_ack_q;
  // output FIFO of answers to other nodes (flit and last)
  logic [64:0]    of_q [OfDepth];
  logic [OfW-1:0] of_rd_q, of_wr_q, of_n_q;
  // the packet being taken came from ans_*; the answer input goes first next
  logic        cur_ans_q, turn_ans_q;
  // completions not yet in the status words; the write forced; cycles since the last
  logic [4:0]  st_n_q;
  logic        st_force_q;
  logic [5:0]  st_gap_q;
  logic [1:0]  st_w_q;            // status words 0, 1 changed since written

  // ---------------------------------------------------------------- input selection
  // At a header: the answer input if it offers a packet and either it is
  // its turn or no request can be taken (none offered, or no room in the
  // output FIFO for its answer); within a packet: the input it came from.
  // A request needs room for its whole answer (a GET_RESP of its length, an
  // ACK with a value, a 1-flit ACK) plus the ACK of a put in wq.
  logic [3:0]     rq_kind;
  logic [11:0]    rq_len;
  logic [OfW-1:0] rq_need, of_free;
  logic           rq_room, rq_ok, sel_ans, x_valid, x_last, x_ready;
  logic [63:0]    x_data;
  assign rq_kind = in_data_i[`SKIF_HDR_KIND_HI:`SKIF_HDR_KIND_LO];
  assign rq_len  = in_data_i[`SKIF_HDR_LEN_HI:`SKIF_HDR_LEN_LO];
  assign rq_need = (rq_kind == `SKIF_KIND_RMA_GET && rq_len != 12'd0 && rq_len <= MaxLenC)
                   ? OfW'(({1'b0, rq_len} + 13'd7) >> 3) + OfW'(2)
                   : (rq_kind == `SKIF_KIND_RMA_ATOMIC) ? OfW'(3) : OfW'(1);
  assign of_free = OfW'(OfDepth) - of_n_q;
  assign rq_room = ({1'b0, of_free} >= {1'b0, rq_need} + (OfW+1)'(wq_v_q));
  assign rq_ok   = in_valid_i && rq_room;
  assign sel_ans = (state_q == SHdr) ? (ans_valid_i && (!rq_ok || turn_ans_q)) : cur_ans_q;
  assign x_valid = sel_ans ? ans_valid_i : in_valid_i;
  assign x_data  = sel_ans ? ans_data_i : in_data_i;
  assign x_last  = sel_ans ? ans_last_i : in_last_i;

  // ---------------------------------------------------------------- header decode
  logic [3:0]  h_kind;
  logic [11:0] h_len;
  logic        h_req, h_rsp, h_len_ok;
  logic [8:0]  h_exp, h_nfl;
  assign h_kind = x_data[`SKIF_HDR_KIND_HI:`SKIF_HDR_KIND_LO];
  assign h_len  = x_data[`SKIF_HDR_LEN_HI:`SKIF_HDR_LEN_LO];
  assign h_nfl  = 9'(({1'b0, h_len} + 13'd7) >> 3);
  assign h_req  = (h_kind == `SKIF_KIND_RMA_PUT) || (h_kind == `SKIF_KIND_RMA_GET) ||
                  (h_kind == `SKIF_KIND_RMA_ATOMIC);
  assign h_rsp  = (h_kind == `SKIF_KIND_RMA_GET_RESP) || (h_kind == `SKIF_KIND_RMA_ACK);
  always @(*) begin
    h_len_ok = 1'b0;
    h_exp    = 9'd0;
    case (h_kind)
      `SKIF_KIND_RMA_PUT, `SKIF_KIND_RMA_GET_RESP: begin
        h_len_ok = (h_len != 12'd0) && (h_len <= MaxLenC);
        h_exp    = h_nfl + 9'd1;
      end
      `SKIF_KIND_RMA_GET: begin
        h_len_ok = (h_len != 12'd0) && (h_len <= MaxLenC);
        h_exp    = 9'd2;
      end
      `SKIF_KIND_RMA_ATOMIC: begin
        h_len_ok = (h_len == 12'd4) || (h_len == 12'd8);
        h_exp    = 9'd4;
      end
      `SKIF_KIND_RMA_ACK: begin
        h_len_ok = (h_len == 12'd0) || (h_len == 12'd4) || (h_len == 12'd8);
        h_exp    = (h_len == 12'd0) ? 9'd0 : 9'd2;
      end
      default: ;
    endcase
  end

  // ---------------------------------------------------------------- derived
  logic        is_req, is_rsp, is_put, is_get, is_atom, is_ack, is_data;
  logic [8:0]  nfl;               // data flits of this packet's length
  logic [2:0]  off;               // byte offset of a0 in its word
  logic [63:0] wbase_addr;        // a0's word
  assign is_put  = (kind_q == `SKIF_KIND_RMA_PUT);
  assign is_get  = (kind_q == `SKIF_KIND_RMA_GET);
  assign is_atom = (kind_q == `SKIF_KIND_RMA_ATOMIC);
  assign is_ack  = (kind_q == `SKIF_KIND_RMA_ACK);
  assign is_req  = is_put || is_get || is_atom;
  assign is_rsp  = is_ack || (kind_q == `SKIF_KIND_RMA_GET_RESP);
  assign is_data = is_put || (kind_q == `SKIF_KIND_RMA_GET_RESP) || (is_ack && len_q != 12'd0);
  assign nfl        = 9'(({1'b0, len_q} + 13'd7) >> 3);
  assign off        = a0_q[2:0];
  assign wbase_addr = {a0_q[63:3], 3'b000};

  // window check of [a0, a0 + len) for the permission this packet needs
  logic [2:0]  need;
  logic        win_ok;
  logic [64:0] acc_end;
  assign need = is_get ? 3'(`SKIF_RMA_PERM_R) : is_atom ? 3'(`SKIF_RMA_PERM_A) : 3'(`SKIF_RMA_PERM_W);
  assign acc_end = {1'b0, a0_q} + {53'h0, len_q};
  always @(*) begin
    win_ok = 1'b0;
    // (read in SBody and SCheck only: 65-bit sums per window are passed over
    // in the other states, where an idle engine spends its cycles)
    if (state_q == SBody || state_q == SCheck) for (int w = 0; w < Windows; w++) begin
      if ((perm_q[w] & need) != 3'b000 && a0_q >= {wbase_q[w], 3'b000} &&
          acc_end <= {1'b0, wbase_q[w], 3'b000} + {1'b0, wsize_q[w], 3'b000})
        win_ok = 1'b1;
    end
  end

  // atomic checks: op known, address aligned to the width
  logic atom_op_ok, atom_al_ok;
  assign atom_op_ok = (op_q <= `SKIF_RMA_OP_CSWAP);
  assign atom_al_ok = (len_q == 12'd8) ? (a0_q[2:0] == 3'd0) : (a0_q[1:0] == 2'd0);

  // ---------------------------------------------------------------- buffer access
  logic [8:0]  k;                 // data flit being sent
  logic [63:0] b_lo, b_hi, b_i;
  assign k    = j_q - 9'd2;
  assign b_lo = buf_q[k];
  assign b_hi = (k + 9'd1 < nw_q) ? buf_q[k + 9'd1] : 64'h0;
  assign b_i  = buf_q[i_q];

  // byte mask of write word i: bytes of [a0, a0 + len)
  // (This and the datapaths below are read in one or two states each; in
  // the others they read as zero and are passed over: an idle engine cost
  // a node as much as its router.)
  logic [63:0] head_m, tail_m, wmask;
  logic [3:0]  last_bytes;
  logic        wfull;
  always @(*) begin
    last_bytes = '0;
    head_m     = '0;
    tail_m     = '0;
    if (state_q == SWr || state_q == SWWait) begin
      last_bytes = 4'({1'b0, off} + len_q[2:0] - 3'd1) & 4'h7;
      head_m = (i_q == 9'd0) ? (64'hFFFF_FFFF_FFFF_FFFF << {off, 3'b000}) : 64'hFFFF_FFFF_FFFF_FFFF;
      tail_m = (i_q == nw_q - 9'd1) ? (64'hFFFF_FFFF_FFFF_FFFF >> {3'd7 - last_bytes[2:0], 3'b000})
                                    : 64'hFFFF_FFFF_FFFF_FFFF;
    end
  end
  assign wmask  = head_m & tail_m;
  assign wfull  = (wmask == 64'hFFFF_FFFF_FFFF_FFFF);
  logic unused_last_bytes;
  assign unused_last_bytes = last_bytes[3];

  // incoming data flit realigned to the word boundary of a0
  logic [63:0] rx_lo, rx_carry;
  logic [6:0]  rsh;
  assign rsh = 7'd64 - {1'b0, off, 3'b000};
  always @(*) begin
    rx_lo    = '0;
    rx_carry = '0;
    if (state_q == SBody) begin
      rx_lo    = (x_data << {off, 3'b000}) | carry_q;
      rx_carry = (off == 3'd0) ? 64'h0 : (x_data >> rsh);
    end
  end

  // ---------------------------------------------------------------- atomic arithmetic
  logic [63:0] a_old, a_new, a_word, a_mask;
  logic        a_wide, a_eq, a_write;
  assign a_wide = (len_q == 12'd8);
  assign a_mask = a_wide ? 64'hFFFF_FFFF_FFFF_FFFF : 64'h0000_0000_FFFF_FFFF;
  always @(*) begin
    a_old   = '0;
    a_eq    = 1'b0;
    a_new   = '0;
    a_write = 1'b0;
    a_word  = '0;
    if (state_q == SAWait) begin
      a_old = a_wide ? dma_rsp_data_i
            : {32'h0, a0_q[2] ? dma_rsp_data_i[63:32] : dma_rsp_data_i[31:0]};
      a_eq  = (a_old == (cmp_q & a_mask));
      case (op_q)
        `SKIF_RMA_OP_FADD, `SKIF_RMA_OP_ADD: a_new = a_old + opnd_q;
        `SKIF_RMA_OP_SWAP:                    a_new = opnd_q;
        `SKIF_RMA_OP_CSWAP:                   a_new = a_eq ? opnd_q : a_old;
        default:                              a_new = a_old;
      endcase
      a_write = (op_q != `SKIF_RMA_OP_FETCH) && !(op_q == `SKIF_RMA_OP_CSWAP && !a_eq);
      a_word  = a_wide ? a_new
              : (a0_q[2] ? {a_new[31:0], dma_rsp_data_i[31:0]} : {dma_rsp_data_i[63:32], a_new[31:0]});
    end
  end

  // the outcome of a packet, decided in SCheck (a request refused: the
  // code of its error ACK) and in SFin (a response: the completion's code)
  logic [3:0] ck_code, fin_code;
  logic       ack_bad;  // an ACK carrying a value must be a good atomic's
  assign ack_bad = is_ack && len_q != 12'd0 &&
                   (op_q != `SKIF_RMA_ERR_OK || rkind_q != `SKIF_KIND_RMA_ATOMIC);
  // (each is read in its state only, and reads as OK in the others)
  always @(*) begin
    ck_code  = `SKIF_RMA_ERR_OK;
    fin_code = `SKIF_RMA_ERR_OK;
    if (state_q != SCheck)                                     ck_code = `SKIF_RMA_ERR_OK;
    else if (err_q != `SKIF_RMA_ERR_OK)                        ck_code = err_q;
    else if (ack_bad)                                          ck_code = `SKIF_RMA_ERR_FORMAT;
    else if (is_atom && !(atom_op_ok && atom_al_ok))           ck_code = `SKIF_RMA_ERR_OP;
    else if ((is_data || is_get || is_atom) && !win_ok)        ck_code = `SKIF_RMA_ERR_WIN;
    else                                                       ck_code = `SKIF_RMA_ERR_OK;
    if (state_q != SFin)                                       fin_code = `SKIF_RMA_ERR_OK;
    else if (err_q != `SKIF_RMA_ERR_OK)                        fin_code = err_q;
    else if (dmaerr_q)                                         fin_code = `SKIF_RMA_ERR_DMA;
    else if (is_ack && op_q != `SKIF_RMA_ERR_OK)               fin_code = op_q;
    else if (is_ack && rkind_q != `SKIF_KIND_RMA_PUT && rkind_q != `SKIF_KIND_RMA_ATOMIC)
                                                               fin_code = `SKIF_RMA_ERR_FORMAT;
    else                                                       fin_code = `SKIF_RMA_ERR_OK;
  end

  // ---------------------------------------------------------------- handshakes
  // (st_force_q: the status words are due, SHdr goes to SSt0 first)
  assign x_ready     = (state_q == SHdr && !st_force_q && (sel_ans || rq_room)) ||
                       (state_q == SBody) || (state_q == SDrop);
  assign in_ready_o  = x_ready && !sel_ans;
  assign ans_ready_o = x_ready && sel_ans;
  logic x_take, x_idle;
  assign x_take = x_valid && x_ready;
  assign x_idle = !ans_valid_i && !rq_ok;  // nothing the engine could take now

  // An 8-byte put at an aligned address from another node, taken on the
  // fly: its one data flit is its last; the window check (address from flit
  // 1, length from the header) is done as it arrives, and the word goes to
  // the write register wq (written ahead of every later DMA request of the
  // engine), its ACK into the answer queue once the write is accepted. The
  // engine is back at SHdr for the next packet at once. It needs wq free
  // (or leaving now) and room in the answer queue for its ACK.
  logic fp_put, wq_take;
  assign wq_take = wq_v_q && dma_ready_i;
  assign fp_put  = (state_q == SBody) && x_take && is_put && f_q == 9'd1 && x_last &&
                   len_q == 12'd8 && a0_q[2:0] == 3'd0 && err_q == `SKIF_RMA_ERR_OK && win_ok &&
                   src_q != node_i && (!wq_v_q || dma_ready_i) &&
                   ({1'b0, of_free} > (OfW+1)'(wq_v_q));

  // An ACK without value taken whole in SHdr (a 1-flit packet): counted at
  // once (what SCheck then SFin would do for it).
  logic       fa_ack;
  logic [3:0] fa_code, h_op, h_rkind;
  assign h_op    = x_data[`SKIF_RHDR_OP_LO +: 4];
  assign h_rkind = x_data[`SKIF_RHDR_RKIND_LO +: 4];
  assign fa_ack  = (state_q == SHdr) && x_take && h_kind == `SKIF_KIND_RMA_ACK &&
                   h_len == 12'd0 && x_last;
  assign fa_code = (h_op != `SKIF_RMA_ERR_OK) ? h_op
                 : (h_rkind != `SKIF_KIND_RMA_PUT && h_rkind != `SKIF_KIND_RMA_ATOMIC)
                   ? `SKIF_RMA_ERR_FORMAT : `SKIF_RMA_ERR_OK;

  // Status words: written when the input is idle and StGap cycles have
  // passed since the last write, at once after StMax completions or after
  // a request taken StGap cycles or more after it while completions are
  // unwritten (st_force_q).
  logic st_gap_ok, st_cnt, st_w0, st_w1;
  assign st_gap_ok = (32'(st_gap_q) >= StGap);
  assign st_cnt    = fa_ack || (state_q == SFin);
  // the count changes word 0 {GETS, PUTS} or word 1 {ERRS, ATOMS}
  assign st_w0 = fa_ack ? (fa_code == `SKIF_RMA_ERR_OK && h_rkind == `SKIF_KIND_RMA_PUT)
                        : (fin_code == `SKIF_RMA_ERR_OK && (!is_ack || rkind_q == `SKIF_KIND_RMA_PUT));
  assign st_w1 = !st_w0;

  logic [63:0] pay_mask, pay;
  always @(*) begin
    pay_mask = '0;
    pay      = '0;
    if (state_q == SSend) begin  // (a 128-bit shift: only where it is read)
      pay_mask = (j_q == otot_q - 9'd1 && olen_q != 3'd0)
               ? ~(64'hFFFF_FFFF_FFFF_FFFF << {olen_q, 3'b000}) : 64'hFFFF_FFFF_FFFF_FFFF;
      pay      = 64'({b_hi, b_lo} >> {so_q, 3'b000}) & pay_mask;
    end
  end
  // An answer to this node itself (a request whose src is this node: TX
  // passes such requests to the engine directly, docs/rma.md "Requests to
  // this node") never leaves the engine: SSend steps through its flits
  // without offering them, realigning its data in the buffer to the word
  // boundary of the address the answer carries, exactly as the flits would
  // have been taken in from the network, then the engine takes it as a
  // received answer (SCheck: the same checks, writes and counts).
  logic        self_ans;
  logic [2:0]  lp_off;
  logic [63:0] lp_lo, lp_carry;
  logic [6:0]  lp_rsh;
  assign self_ans = (ohdr_q[`SKIF_HDR_DST_HI:`SKIF_HDR_DST_LO] == node_i);
  assign lp_off   = oaddr_q[2:0];
  assign lp_rsh   = 7'd64 - {1'b0, lp_off, 3'b000};
  assign lp_lo    = (pay << {lp_off, 3'b000}) | carry_q;
  assign lp_carry = (lp_off == 3'd0) ? 64'h0 : (pay >> lp_rsh);
  // The output FIFO: an answer's flits go in from SSend one per cycle (the
  // room was reserved when its request was taken, so SSend never waits for
  // the network), an 8-byte put's ACK when its write is accepted (first:
  // SSend waits while wq holds a word); the head goes to the network.
  logic of_out, sd_push, of_push, of_pop, sd_last;
  logic [63:0] sd_data, of_pd;
  assign of_out  = (of_n_q != '0);
  assign sd_push = (state_q == SSend) && !self_ans && !wq_v_q && (of_n_q != OfW'(OfDepth));
  assign sd_data = (j_q == 9'd0) ? ohdr_q : (j_q == 9'd1) ? oaddr_q : pay;
  assign sd_last = (j_q == otot_q - 9'd1);
  assign of_push = wq_take || sd_push;
  assign of_pd   = wq_take ? wq_ack_q : sd_data;
  assign of_pop  = of_out && out_ready_i;
  assign out_valid_o = of_out;
  assign {out_last_o, out_data_o} = of_q[of_rd_q];

  logic [RdW-1:0] rd_out;         // GET reads outstanding
  assign rd_out = RdW'(i_q - r_q);
  logic e_valid;                  // the state's DMA request (after wq's)
  always @(*) begin
    e_valid     = 1'b0;
    dma_write_o = 1'b0;
    dma_addr_o  = wbase_addr + {52'h0, i_q, 3'b000};
    dma_wdata_o = b_i;
    dma_stat_o  = 1'b0;
    case (state_q)
      SWr: begin
        e_valid     = (i_q != nw_q);
        dma_write_o = wfull;
      end
      SWMrg: begin
        e_valid     = 1'b1;
        dma_write_o = 1'b1;
        dma_wdata_o = merge_q;
      end
      SRd:   e_valid = (i_q != nw_q) && (32'(rd_out) < MaxReads);
      SARd:  e_valid = 1'b1;
      SAWr: begin
        e_valid     = 1'b1;
        dma_write_o = 1'b1;
        dma_wdata_o = aword_q;
      end
      SSt0, SSt1: begin
        e_valid     = 1'b1;
        dma_write_o = 1'b1;
        dma_stat_o  = 1'b1;
        dma_addr_o  = {stat_q[63:3] + {60'h0, (state_q == SSt1)}, 3'b000};
        dma_wdata_o = (state_q == SSt0) ? {gets_q, puts_q} : {errs_q, atoms_q};
      end
      default: ;
    endcase
    dma_valid_o = wq_v_q || e_valid;
    if (wq_v_q) begin
      dma_write_o = 1'b1;
      dma_addr_o  = wq_addr_q;
      dma_wdata_o = wq_data_q;
      dma_stat_o  = 1'b0;
    end
  end
  logic dma_take;
  assign dma_take = e_valid && !wq_v_q && dma_ready_i;
  assign busy_o   = (state_q != SHdr) || wq_v_q || of_out || (st_n_q != 5'd0);
  // Not busy, nothing arriving (no packet, no register write, no reset) and
  // the status gap counter at its top: at the header state with nothing to
  // take, the write register empty, no answer queued and no status pending,
  // no register changes at the edge (a DMA response comes only in a DMA
  // state).
  assign wake_o   = !rst_ni || busy_o || reg_we_i || in_valid_i || ans_valid_i ||
                    (st_gap_q != 6'h3F);

  // ---------------------------------------------------------------- answers
  function automatic logic [63:0] mk_hdr(input logic [3:0] kind, input logic [15:0] dst,
                                         input logic [15:0] src, input logic [3:0] op,
                                         input logic [3:0] rkind, input logic [11:0] len,
                                         input logic [7:0] tag);
    return {kind, dst, src, op, rkind, len, tag};
  endfunction

  // ---------------------------------------------------------------- control
  always @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q   <= SHdr;
      kind_q    <= 4'h0;
      err_q     <= 4'h0;
      f_q       <= 9'h0;
      exp_q     <= 9'h0;
      i_q       <= 9'h0;
      r_q       <= 9'h0;
      j_q       <= 9'h0;
      otot_q    <= 9'h0;
      nw_q      <= 9'h0;
      dmaerr_q  <= 1'b0;
      refused_q <= 32'h0;
      info_q    <= 32'h0;
      acks_q    <= 32'h0;
      puts_q    <= 32'h0;
      gets_q    <= 32'h0;
      atoms_q   <= 32'h0;
      errs_q    <= 32'h0;
      served_q  <= 32'h0;
      st_ref_q  <= 1'b0;
      st_rsp_q  <= 1'b0;
      wq_v_q    <= 1'b0;
      of_rd_q   <= '0;
      of_wr_q   <= '0;
      of_n_q    <= '0;
      cur_ans_q <= 1'b0;
      turn_ans_q <= 1'b0;
      st_n_q    <= 5'h0;
      st_force_q <= 1'b0;
      st_gap_q  <= 6'h0;
      st_w_q    <= 2'b00;
    end else begin
      // the write register and the answer queue
      if (wq_take) wq_v_q <= 1'b0;
      if (fp_put)  wq_v_q <= 1'b1;
      if (of_push) of_wr_q <= (of_wr_q == OfW'(OfDepth - 1)) ? '0 : of_wr_q + 1'b1;
      if (of_pop)  of_rd_q <= (of_rd_q == OfW'(OfDepth - 1)) ? '0 : of_rd_q + 1'b1;
      of_n_q <= of_n_q + OfW'(of_push) - OfW'(of_pop);
      // the input of the packet taken; the other input's turn next
      if (state_q == SHdr && x_take) begin
        cur_ans_q  <= sel_ans;
        turn_ans_q <= !sel_ans;
      end
      // status words: completions unwritten, cycles since the last write
      if (st_gap_q != 6'h3F) st_gap_q <= st_gap_q + 6'd1;
      if (st_cnt) begin
        st_n_q <= st_n_q + 5'd1;
        st_w_q <= st_w_q | {st_w1, st_w0};
        if (32'(st_n_q) + 1 >= StMax) st_force_q <= 1'b1;
      end
      if (state_q == SHdr && x_take && h_req && st_n_q != 5'd0 && st_gap_ok) st_force_q <= 1'b1;
      case (state_q)
        SHdr: if (fa_ack) begin
          // an ACK without value: counted here (the count of SFin)
          kind_q <= h_kind;
          acks_q <= acks_q + 32'd1;
          if (fa_code != `SKIF_RMA_ERR_OK) begin
            errs_q   <= errs_q + 32'd1;
            st_rsp_q <= 1'b1;
            info_q   <= {x_data[`SKIF_HDR_SRC_HI:`SKIF_HDR_SRC_LO],
                         x_data[`SKIF_RHDR_TAG_LO +: 8], h_kind, fa_code};
          end else if (h_rkind == `SKIF_KIND_RMA_PUT) puts_q  <= puts_q + 32'd1;
          else                                        atoms_q <= atoms_q + 32'd1;
        end else if (x_take) begin
          kind_q <= h_kind;
          f_q    <= 9'h0;
          exp_q  <= h_exp;
          err_q  <= `SKIF_RMA_ERR_OK;
          if (!h_len_ok) begin
            err_q   <= `SKIF_RMA_ERR_LEN;
            state_q <= x_last ? SCheck : SDrop;
          end else if (h_exp == 9'd0) begin
            if (!x_last) err_q <= `SKIF_RMA_ERR_FORMAT;
            state_q <= x_last ? SCheck : SDrop;
          end else begin
            if (x_last) err_q <= `SKIF_RMA_ERR_FORMAT;
            state_q <= x_last ? SCheck : SBody;
          end
          if (!(h_req || h_rsp)) err_q <= `SKIF_RMA_ERR_FORMAT;
          // a request on the answer input (the answer network carries none):
          // refused as a foreign kind, never answered (its answer has no room)
          if (sel_ans && !h_rsp) begin
            kind_q <= `SKIF_KIND_MSG;
            err_q  <= `SKIF_RMA_ERR_FORMAT;
          end
        end else if (st_n_q != 5'd0 && (st_force_q || (x_idle && st_gap_ok))) begin
          // the status words are due
          if (stat_q[63:3] != 61'h0) begin
            state_q <= st_w_q[0] ? SSt0 : SSt1;
          end else begin
            st_n_q     <= 5'h0;
            st_force_q <= 1'b0;
            st_w_q     <= 2'b00;
          end
        end
        SBody: if (x_take) begin
          f_q <= f_q + 9'd1;
          if (x_last != (f_q == exp_q - 9'd1)) err_q <= `SKIF_RMA_ERR_FORMAT;
          if (fp_put)                    state_q <= SHdr;
          else if (x_last)            state_q <= SCheck;
          else if (f_q == exp_q - 9'd1)  state_q <= SDrop;
        end
        SDrop: if (x_take && x_last) state_q <= SCheck;
        SCheck: begin
          i_q      <= 9'h0;
          r_q      <= 9'h0;
          j_q      <= 9'h0;
          otot_q   <= 9'd1;  // an ACK without data unless set otherwise later
          dmaerr_q <= 1'b0;
          nw_q     <= 9'(({10'h0, off} + {1'b0, len_q} + 13'd7) >> 3);
          err_q    <= ck_code;
          if (is_req) begin
            if (ck_code != `SKIF_RMA_ERR_OK) state_q <= SSend;  // the error ACK
            else if (is_put)                 state_q <= SWr;
            else if (is_get)                 state_q <= SRd;
            else                             state_q <= SARd;
          end else if (is_rsp) begin
            state_q <= (ck_code == `SKIF_RMA_ERR_OK && is_data) ? SWr : SFin;
          end else begin
            state_q <= SHdr;  // not an RMA kind: counted as refused, no answer
          end
          if (!is_rsp && ck_code != `SKIF_RMA_ERR_OK) begin
            refused_q <= refused_q + 32'd1;
            st_ref_q  <= 1'b1;
            info_q    <= {src_q, tag_q, kind_q, ck_code};
          end
        end
        SWr: if (dma_take) begin
          if (wfull) i_q <= i_q + 9'd1;
          else       state_q <= SWWait;
        end else if (i_q == nw_q) begin
          if (is_put) begin
            state_q <= SSend;
            otot_q  <= 9'd1;
            j_q     <= 9'h0;
          end else begin
            state_q <= SFin;
          end
        end
        SWWait: if (dma_rsp_valid_i) begin
          if (dma_rsp_err_i) begin
            dmaerr_q <= 1'b1;
            i_q      <= i_q + 9'd1;
            state_q  <= SWr;
          end else begin
            state_q <= SWMrg;
          end
        end
        SWMrg: if (dma_take) begin
          i_q     <= i_q + 9'd1;
          state_q <= SWr;
        end
        SRd: begin
          if (dma_take) i_q <= i_q + 9'd1;
          if (dma_rsp_valid_i) begin
            r_q <= r_q + 9'd1;
            if (dma_rsp_err_i) dmaerr_q <= 1'b1;
          end
          if (r_q == nw_q) begin
            state_q <= SSend;
            j_q     <= 9'h0;
            otot_q  <= dmaerr_q ? 9'd1 : nfl + 9'd2;
          end
        end
        SARd: if (dma_take) state_q <= SAWait;
        SAWait: if (dma_rsp_valid_i) begin
          j_q    <= 9'h0;
          otot_q <= (dma_rsp_err_i || op_q == `SKIF_RMA_OP_ADD) ? 9'd1 : 9'd3;
          if (dma_rsp_err_i) begin
            dmaerr_q <= 1'b1;
            state_q  <= SSend;
          end else begin
            state_q <= a_write ? SAWr : SSend;
          end
        end
        SAWr: if (dma_take) state_q <= SSend;
        SSend: if (self_ans) begin
          // the answer to this node: taken as if received (datapath below)
          j_q <= j_q + 9'd1;
          if (j_q == otot_q - 9'd1) begin
            state_q <= SCheck;
            kind_q  <= ohdr_q[`SKIF_HDR_KIND_HI:`SKIF_HDR_KIND_LO];
            err_q   <= `SKIF_RMA_ERR_OK;
          end
        end else if (sd_push) begin
          // into the output FIFO
          j_q <= j_q + 9'd1;
          if (sd_last) state_q <= SHdr;
        end
        SFin: begin
          if (is_ack) acks_q <= acks_q + 32'd1;
          if (fin_code != `SKIF_RMA_ERR_OK) begin
            errs_q   <= errs_q + 32'd1;
            st_rsp_q <= 1'b1;
            info_q   <= {src_q, tag_q, kind_q, fin_code};
          end else if (!is_ack)                   gets_q  <= gets_q + 32'd1;
          else if (rkind_q == `SKIF_KIND_RMA_PUT) puts_q  <= puts_q + 32'd1;
          else                                    atoms_q <= atoms_q + 32'd1;
          // the status words at once when nothing waits at the input
          if (stat_q[63:3] != 61'h0 && x_idle && st_gap_ok)
            state_q <= (st_w_q[0] || st_w0) ? SSt0 : SSt1;
          else
            state_q <= SHdr;
        end
        // the status words that changed (both after RMA_STAT is written)
        SSt0, SSt1: if (dma_take) begin
          if (state_q == SSt0 && st_w_q[1]) begin
            state_q <= SSt1;
          end else begin
            state_q    <= SHdr;
            st_n_q     <= 5'h0;
            st_force_q <= 1'b0;
            st_gap_q   <= 6'h0;
            st_w_q     <= 2'b00;
          end
        end
        default: state_q <= SHdr;
      endcase
      // requests performed (the answer's code is OK)
      // (an answer sent, queued or taken in here; a put taken on the fly
      // when its write is accepted, its ACK queued)
      if (wq_take || state_q == SSend)
        served_q <= served_q + {31'h0, wq_take} +
                    {31'h0, state_q == SSend && ((self_ans && j_q == otot_q - 9'd1) || (sd_push && sd_last)) &&
                            ohdr_q[`SKIF_RHDR_OP_LO +: 4] == `SKIF_RMA_ERR_OK};
      if (reg_we_i && (reg_addr_i == `SKIF_REG_RMA_STAT_LO || reg_addr_i == `SKIF_REG_RMA_STAT_HI))
        st_w_q <= 2'b11;
      // W1C of the sticky bits (an event in the same cycle wins)
      if (reg_we_i && reg_addr_i == `SKIF_REG_RMA_STATUS) begin
        if (reg_wdata_i[0] && !(state_q == SCheck && !is_rsp && ck_code != `SKIF_RMA_ERR_OK))
          st_ref_q <= 1'b0;
        if (reg_wdata_i[1] && !(state_q == SFin && fin_code != `SKIF_RMA_ERR_OK) &&
            !(fa_ack && fa_code != `SKIF_RMA_ERR_OK))
          st_rsp_q <= 1'b0;
      end
    end
  end

  // ---------------------------------------------------------------- datapath (not reset)
  always @(posedge clk_i) begin
    case (state_q)
      SHdr: if (x_take) begin
        src_q   <= x_data[`SKIF_HDR_SRC_HI:`SKIF_HDR_SRC_LO];
        op_q    <= x_data[`SKIF_RHDR_OP_LO +: 4];
        rkind_q <= x_data[`SKIF_RHDR_RKIND_LO +: 4];
        tag_q   <= x_data[`SKIF_RHDR_TAG_LO +: 8];
        len_q   <= h_len;
        carry_q <= 64'h0;
        a0_q    <= 64'h0;
      end
      SBody: if (x_take) begin
        if (fp_put) begin
          wq_addr_q <= a0_q;
          wq_data_q <= x_data;
          wq_ack_q  <= mk_hdr(`SKIF_KIND_RMA_ACK, src_q, node_i, `SKIF_RMA_ERR_OK, kind_q, 12'h0, tag_q);
        end
        if (f_q == 9'd0) a0_q <= x_data;
        if (is_get || is_atom) begin
          if (f_q == 9'd1) a1_q   <= x_data;
          if (f_q == 9'd2) opnd_q <= x_data;
          if (f_q == 9'd3) cmp_q  <= x_data;
        end else if (f_q != 9'd0 && f_q <= nfl) begin
          buf_q[f_q - 9'd1] <= rx_lo;
          carry_q           <= rx_carry;
        end
      end
      SCheck: begin
        if (is_data) buf_q[nfl] <= carry_q;
        // the answer to a request (refused: an error ACK)
        if (is_get && ck_code == `SKIF_RMA_ERR_OK) begin
          ohdr_q <= mk_hdr(`SKIF_KIND_RMA_GET_RESP, src_q, node_i, 4'h0, 4'h0, len_q, tag_q);
          oaddr_q <= a1_q;
          olen_q  <= len_q[2:0];
          so_q    <= off;
        end else begin
          ohdr_q <= mk_hdr(`SKIF_KIND_RMA_ACK, src_q, node_i, ck_code, kind_q, 12'h0, tag_q);
          olen_q <= 3'h0;
        end
      end
      SWWait: merge_q <= (dma_rsp_data_i & ~wmask) | (b_i & wmask);
      SRd: begin
        if (dma_rsp_valid_i) buf_q[r_q] <= dma_rsp_data_i;
        if (r_q == nw_q && dmaerr_q) begin
          ohdr_q <= mk_hdr(`SKIF_KIND_RMA_ACK, src_q, node_i, `SKIF_RMA_ERR_DMA, kind_q, 12'h0, tag_q);
          olen_q <= 3'h0;
        end
      end
      SAWait: if (dma_rsp_valid_i) begin
        aword_q  <= a_word;
        buf_q[0] <= a_old;
        oaddr_q  <= a1_q;
        so_q     <= 3'd0;
        if (dma_rsp_err_i) begin
          ohdr_q <= mk_hdr(`SKIF_KIND_RMA_ACK, src_q, node_i, `SKIF_RMA_ERR_DMA, kind_q, 12'h0, tag_q);
          olen_q <= 3'h0;
        end else if (op_q == `SKIF_RMA_OP_ADD) begin
          ohdr_q <= mk_hdr(`SKIF_KIND_RMA_ACK, src_q, node_i, `SKIF_RMA_ERR_OK, kind_q, 12'h0, tag_q);
          olen_q <= 3'h0;
        end else begin
          ohdr_q <= mk_hdr(`SKIF_KIND_RMA_ACK, src_q, node_i, `SKIF_RMA_ERR_OK, kind_q, len_q, tag_q);
          olen_q <= len_q[2:0];
        end
      end
      SSend: if (self_ans) begin
        // the answer's data flit j_q - 2 realigned into buffer word j_q - 2
        // (in place: that step reads words k and k + 1 and writes word k)
        if (j_q == 9'd0) carry_q <= 64'h0;
        if (j_q >= 9'd2) begin
          buf_q[k] <= lp_lo;
          carry_q  <= lp_carry;
        end
        if (j_q == otot_q - 9'd1) begin
          src_q   <= ohdr_q[`SKIF_HDR_SRC_HI:`SKIF_HDR_SRC_LO];
          op_q    <= ohdr_q[`SKIF_RHDR_OP_LO +: 4];
          rkind_q <= ohdr_q[`SKIF_RHDR_RKIND_LO +: 4];
          len_q   <= ohdr_q[`SKIF_HDR_LEN_HI:`SKIF_HDR_LEN_LO];
          a0_q    <= oaddr_q;
        end
      end
      SWr: if (i_q == nw_q && is_put && dmaerr_q)
        ohdr_q <= mk_hdr(`SKIF_KIND_RMA_ACK, src_q, node_i, `SKIF_RMA_ERR_DMA, kind_q, 12'h0, tag_q);
      default: ;
    endcase
  end

  always @(posedge clk_i) if (of_push) of_q[of_wr_q] <= {wq_take || sd_last, of_pd};

  // ---------------------------------------------------------------- registers
  always @(posedge clk_i) begin
    if (!rst_ni) begin
      for (int w = 0; w < Windows; w++) perm_q[w] <= 3'b000;
      sel_q      <= 8'h0;
      stat_q     <= 64'h0;
      stg_base_q <= 64'h0;
      stg_size_q <= 64'h0;
    end else if (reg_we_i) begin
      case (reg_addr_i)
        `SKIF_REG_RMA_STAT_LO:     stat_q[31:0]      <= {reg_wdata_i[31:3], 3'b000};
        `SKIF_REG_RMA_STAT_HI:     stat_q[63:32]     <= reg_wdata_i;
        `SKIF_REG_RMA_WIN_SEL:     sel_q             <= reg_wdata_i[7:0];
        `SKIF_REG_RMA_WIN_BASE_LO: stg_base_q[31:0]  <= {reg_wdata_i[31:3], 3'b000};
        `SKIF_REG_RMA_WIN_BASE_HI: stg_base_q[63:32] <= reg_wdata_i;
        `SKIF_REG_RMA_WIN_SIZE_LO: stg_size_q[31:0]  <= {reg_wdata_i[31:3], 3'b000};
        `SKIF_REG_RMA_WIN_SIZE_HI: stg_size_q[63:32] <= reg_wdata_i;
        `SKIF_REG_RMA_WIN_CFG: if (32'(sel_q) < Windows) perm_q[sel_q[WinW-1:0]] <= reg_wdata_i[2:0];
        default: ;
      endcase
    end
  end
  always @(posedge clk_i) begin
    if (reg_we_i && reg_addr_i == `SKIF_REG_RMA_WIN_CFG && 32'(sel_q) < Windows) begin
      wbase_q[sel_q[WinW-1:0]] <= stg_base_q[63:3];
      wsize_q[sel_q[WinW-1:0]] <= stg_size_q[63:3];
    end
  end

  logic        sel_ok;
  logic [63:0] r_base, r_size;
  logic [2:0]  r_perm;
  assign sel_ok = 32'(sel_q) < Windows;
  assign r_perm = sel_ok ? perm_q[sel_q[WinW-1:0]] : 3'b000;
  assign r_base = sel_ok ? {wbase_q[sel_q[WinW-1:0]], 3'b000} : 64'h0;
  assign r_size = sel_ok ? {wsize_q[sel_q[WinW-1:0]], 3'b000} : 64'h0;
  assign reg_hit_o = (reg_addr_i >= `SKIF_REG_RMA_STATUS) && (reg_addr_i < `SKIF_REG_RMA_END);
  always @(*) begin
    case (reg_addr_i)
      `SKIF_REG_RMA_STATUS:       reg_rdata_o = {29'h0, busy_o, st_rsp_q, st_ref_q};
      `SKIF_REG_RMA_REFUSED:      reg_rdata_o = refused_q;
      `SKIF_REG_RMA_ERR_INFO:     reg_rdata_o = info_q;
      `SKIF_REG_RMA_ACKS:         reg_rdata_o = acks_q;
      `SKIF_REG_RMA_PUTS:         reg_rdata_o = puts_q;
      `SKIF_REG_RMA_GETS:         reg_rdata_o = gets_q;
      `SKIF_REG_RMA_ATOMS:        reg_rdata_o = atoms_q;
      `SKIF_REG_RMA_ERRS:         reg_rdata_o = errs_q;
      `SKIF_REG_RMA_STAT_LO:      reg_rdata_o = stat_q[31:0];
      `SKIF_REG_RMA_STAT_HI:      reg_rdata_o = stat_q[63:32];
      `SKIF_REG_RMA_WIN_SEL:      reg_rdata_o = {24'h0, sel_q};
      `SKIF_REG_RMA_WIN_CFG:      reg_rdata_o = {29'h0, r_perm};
      `SKIF_REG_RMA_WIN_BASE_LO:  reg_rdata_o = stg_base_q[31:0];
      `SKIF_REG_RMA_WIN_BASE_HI:  reg_rdata_o = stg_base_q[63:32];
      `SKIF_REG_RMA_WIN_SIZE_LO:  reg_rdata_o = stg_size_q[31:0];
      `SKIF_REG_RMA_WIN_SIZE_HI:  reg_rdata_o = stg_size_q[63:32];
      `SKIF_REG_RMA_WIN_RBASE_LO: reg_rdata_o = r_base[31:0];
      `SKIF_REG_RMA_WIN_RBASE_HI: reg_rdata_o = r_base[63:32];
      `SKIF_REG_RMA_WIN_RSIZE_LO: reg_rdata_o = r_size[31:0];
      `SKIF_REG_RMA_WIN_RSIZE_HI: reg_rdata_o = r_size[63:32];
      `SKIF_REG_RMA_WINDOWS:      reg_rdata_o = 32'(Windows);
      `SKIF_REG_RMA_SERVED:       reg_rdata_o = served_q;
      default:                    reg_rdata_o = 32'h0;
    endcase
  end
endmodule
