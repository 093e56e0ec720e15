#!/usr/bin/env bash
# gen_gtkw.sh: write the GTKWave save files of sim/gtkw/ for node 0 (or node
# $1). The committed files are its output; run it after renaming signals, and
# `make test` (t_gtkw_signals_exist) checks every name against a real trace.
# Flit data signals use the packet decoder build/bin/skif_flitdec (run
# gtkwave from the repository root).
set -eu
cd "$(dirname "$0")/.."
n=${1:-0}
P="TOP.skif_sim_top.u_net.g_node[$n].u_adapter"
DEC=build/bin/skif_flitdec
head_() {
    cat <<H
[*] skifsim: $1 of node $n's adapter. Open: gtkwave TRACE.fst sim/gtkw/$2
[*] Flit data is decoded by $DEC (translate filter process).
[timestart] 0
*-14.000000 0
[size] 1400 800
[signals_width] 360
[sst_expanded] 1
[sst_vpaned_height] 200
@28
$P.clk_i
$P.rst_ni
H
}
# group NAME SIG... : a named group; [msb:lsb] vectors in hex, *_data flits decoded
group() {
    local name=$1; shift
    echo "@800200"; echo "-$name"
    for s in "$@"; do
        case "$s" in
        net_*data* | inj_data* | ej_data*) echo "^>1 $DEC"; echo "@4022" ;;
        *\[*) echo "@22" ;;
        *) echo "@28" ;;
        esac
        echo "$P.$s"
    done
    echo "@1000200"; echo "-$name"
}
host_regs() { group "Host interface: registers" reg_req_valid_i reg_req_ready_o reg_req_write_i \
    "reg_req_addr_i[11:0]" "reg_req_wdata_i[31:0]" reg_rsp_valid_o "reg_rsp_rdata_o[31:0]" \
    reg_rsp_err_o irq_o "u_regs.ctrl_q[31:0]" "u_regs.scratch_q[31:0]"; }
host_dma() { group "Host interface: DMA" dma_req_valid_o dma_req_ready_i dma_req_write_o \
    "dma_req_addr_o[63:0]" "dma_req_wdata_o[63:0]" "dma_req_wstrb_o[7:0]" dma_rsp_valid_i \
    "dma_rsp_data_i[63:0]" dma_rsp_err_i; }
tx() { group "TX engine" u_tx.en_i "u_tx.tail_i[31:0]" "u_tx.head_q[31:0]" "u_tx.rd_ptr_q[31:0]" \
    "u_tx.inflight_q[7:0]" "u_tx.state_q[1:0]" "u_tx.len_q[11:0]" u_tx.stat_pend_q \
    net_tx_valid_o net_tx_ready_i "net_tx_data_o[63:0]" net_tx_last_o; }
rx() { group "RX engine and channel demultiplexer" u_rx.en_i "u_rx.state_q[1:0]" "u_rx.cur_q[5:0]" \
    "u_rx.wr_ptr_q[31:0]" "u_rx.rem_q[8:0]" u_rx.stall_o u_rx.err_o u_rx.closed_o \
    "u_rx.closed_ch_o[7:0]" "u_rx.open_q[63:0]" "u_rx.dirty_q[63:0]" u_rx.cfg_we_i \
    "u_rx.cfg_ch_i[5:0]" u_rx.head_we_i "u_rx.head_ch_i[5:0]" "u_rx.head_i[31:0]" \
    net_rx_valid_i net_rx_ready_o "net_rx_data_i[63:0]" net_rx_last_i; }

router() {
    local P="TOP.skif_sim_top.u_net.u_fabric.g_node[$n].u_router"
    group "Router: local port (inject from TX, eject to RX)" "node_id_i[15:0]" inj_valid_i \
        inj_ready_o "inj_data_i[63:0]" inj_last_i ej_valid_o ej_ready_i "ej_data_o[63:0]" \
        ej_last_o drop_o "drop_cnt_o[31:0]"
}

{ head_ "host interface, TX and RX" node.gtkw; host_regs; host_dma; tx; rx; } >sim/gtkw/node.gtkw
{ head_ "router (local port)" router.gtkw; router; } >sim/gtkw/router.gtkw
{ head_ "host interface" host.gtkw; host_regs; host_dma; } >sim/gtkw/host.gtkw
{ head_ "TX engine" tx.gtkw; tx; } >sim/gtkw/tx.gtkw
{ head_ "RX engine" rx.gtkw; rx; } >sim/gtkw/rx.gtkw
echo "wrote sim/gtkw/{node,host,tx,rx,router}.gtkw"
