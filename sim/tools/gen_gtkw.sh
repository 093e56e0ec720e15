#!/usr/bin/env bash
# gen_gtkw.sh TRACE.fst [OUTDIR]: write GTKWave save files that match TRACE:
# the node it holds (the first g_node[K] in it: --trace-node K, or node 0 of
# a trace of all nodes) and each signal's bit range as the trace has it.
# A trace of the network (skifrun --wave) gets node/host/tx/rx/router.gtkw,
# a testbench trace (WAVES=1 tb/run_icarus.sh BLOCK) gets tb.gtkw with the
# testbench's own signals and its DUT's ports. OUTDIR defaults to
# build/gtkw/<trace name>; `make wave` calls this for the trace it opens.
# sim/tools/gtkw/ holds the node-0 views of a whole-network trace, made with
# `sim/tools/gen_gtkw.sh TRACE sim/tools/gtkw --tracked` (only with --tracked does it
# write there). Flit data signals use the packet decoder
# build/bin/skif_flitdec (run gtkwave from the repository root).
set -eu
cd "$(dirname "$0")/../.."
usage() { echo "usage: sim/tools/gen_gtkw.sh TRACE.fst [OUTDIR [--tracked]]" >&2; exit 2; }
[ $# -ge 1 ] && [ $# -le 3 ] || usage
trace=$1
[ -f "$trace" ] || { echo "gen_gtkw: no such trace: $trace" >&2; exit 1; }
name=$(basename "$trace" .fst)
out=${2:-build/gtkw/$name}
case "$(realpath -m "$out")" in
"$(realpath -m sim/tools/gtkw)") [ "${3:-}" = --tracked ] ||
    { echo "gen_gtkw: $out holds tracked files; add --tracked to rewrite them" >&2; exit 2; } ;;
esac
vars=$(mktemp)
final=$out
out=$(mktemp -d)   # written here, moved into place only when complete
trap 'rm -rf "$vars" "$out"' EXIT
fst2vcd "$trace" 2>/dev/null | awk '/\$scope/{s[++d]=$3} /\$upscope/{d--}
    /\$var/{p=""; for(i=1;i<=d;i++) p=p s[i] "."; r=($6 ~ /^\[/) ? $6 : ""; print p $5 r}' |
    sort -u >"$vars"
[ -s "$vars" ] || { echo "gen_gtkw: cannot read $trace (fst2vcd)" >&2; exit 1; }
DEC=build/bin/skif_flitdec
missing=0

# full NAME: the trace's name of signal NAME with its range (nothing if absent)
full() { grep -E "^$(printf '%s' "$1" | sed 's/[]$*.^[]/\\&/g')(\[[0-9]+:[0-9]+\])?$" "$vars" | head -1; }

head_() { # TITLE FILE
    cat <<H
[*] skifsim: $1. Open: gtkwave $trace $out/$2
[*] Made by sim/tools/gen_gtkw.sh from this trace; flit data decoded by $DEC.
[timestart] 0
[size] 1400 800
[signals_width] 360
[sst_expanded] 1
[sst_vpaned_height] 200
H
}
# group NAME PREFIX SIG... : a named group; vectors in hex, *_data flits decoded
group() {
    local gname=$1 pre=$2; shift 2
    echo "@800200"; echo "-$gname"
    for s in "$@"; do
        local f
        f=$(full "$pre.$s")
        if [ -z "$f" ]; then
            echo "gen_gtkw: $trace has no $pre.$s; left out" >&2
            missing=$((missing + 1)); continue
        fi
        case "$s" in
        net_*data* | inj_data* | ej_data* | loc_data* | res_data* | p_hdr* | su_data* | sd_data*)
            echo "^>1 $DEC"; echo "@4022" ;;
        *) case "$f" in *\]) echo "@22" ;; *) echo "@28" ;; esac ;;
        esac
        echo "$f"
    done
    echo "@1000200"; echo "-$gname"
}

# a node of the network: g_node[K].skif_node_top.u_node (Verilator: one model
# per node) or skif_icarus_top.u_top.u_net.g_node[K].u_node (Icarus)
n=$(sed -n 's/^.*g_node\[\([0-9]*\)\].*\.u_node\.u_adapter\..*/\1/p' "$vars" | sort -n | head -1)
if [ -n "$n" ]; then
    base=$(sed -n "s/^\(.*g_node\[$n\].*\.u_node\)\.u_adapter\..*/\1/p" "$vars" | head -1)
    P="$base.u_adapter"
    R="$base.u_tnode.u_router"
    C="$base.u_tnode.g_coll.u_coll"
    clock() { group "Clock and reset" "$P" clk_i rst_ni; }
    host_regs() { group "Host interface: registers" "$P" reg_req_valid_i reg_req_ready_o \
        reg_req_write_i reg_req_addr_i reg_req_wdata_i reg_rsp_valid_o reg_rsp_rdata_o \
        reg_rsp_err_o irq_o u_regs.ctrl_q u_regs.scratch_q; }
    host_dma() { group "Host interface: DMA" "$P" dma_req_valid_o dma_req_ready_i dma_req_write_o \
        dma_req_addr_o dma_req_wdata_o dma_req_wstrb_o dma_rsp_valid_i dma_rsp_data_i dma_rsp_err_i; }
    tx() { group "TX engine" "$P" u_tx.en_i u_tx.tail_i u_tx.head_q u_tx.rd_ptr_q u_tx.inflight_q \
        u_tx.state_q u_tx.len_q u_tx.stat_pend_q net_tx_valid_o net_tx_ready_i net_tx_data_o \
        net_tx_last_o; }
    rx() { group "RX engine and channel demultiplexer" "$P" u_rx.en_i u_rx.state_q u_rx.cur_q \
        u_rx.wr_ptr_q u_rx.rem_q u_rx.stall_o u_rx.err_o u_rx.closed_o u_rx.closed_ch_o \
        u_rx.open_q u_rx.dirty_q u_rx.cfg_we_i u_rx.cfg_ch_i u_rx.head_we_i u_rx.head_ch_i \
        u_rx.head_i net_rx_valid_i net_rx_ready_o net_rx_data_i net_rx_last_i; }
    router() { group "Router: local port (inject from TX, eject to RX)" "$R" node_id_i inj_valid_i \
        inj_ready_o inj_data_i inj_last_i ej_valid_o ej_ready_i ej_data_o ej_last_o drop_o \
        drop_cnt_o; }
    coll() {
        group "Collective engine: host side (posts in, results out)" "$C" loc_valid_i loc_ready_o \
            loc_data_i loc_last_i res_valid_o res_ready_i res_data_o res_last_o res_chan_o
        group "Collective engine: U (table hit, checks, combine)" "$C" u_q u_src_q u_pick s_elig \
            s_drop p_hdr p_slot p_first p_bad p_mis u_slot_q u_k_q u_fin fin_got fin_exp upq_push \
            dnq_push initing
        group "Collective engine: S_up and S_dn (forward, multicast)" "$C" su_q su_slot_q \
            su_port_q su_go su_data sd_q sd_src_q sd_mask_q sd_mem_q sd_go sd_data sd_loc
        group "Collective engine: links and events" "$C" lin_valid_i lin_dn_i lout_valid_o lout_dn_o \
            block_o starved_i drop_o drop_info_o err_o err_info_o
    }
    { head_ "host interface, TX and RX of node $n's adapter" node.gtkw; clock; host_regs; host_dma; tx; rx; } >"$out/node.gtkw"
    { head_ "router of node $n (local port)" router.gtkw; clock; router; } >"$out/router.gtkw"
    { head_ "host interface of node $n's adapter" host.gtkw; clock; host_regs; host_dma; } >"$out/host.gtkw"
    { head_ "TX engine of node $n's adapter" tx.gtkw; clock; tx; } >"$out/tx.gtkw"
    { head_ "RX engine of node $n's adapter" rx.gtkw; clock; rx; } >"$out/rx.gtkw"
    { head_ "collective engine of node $n" coll.gtkw; clock; coll; } >"$out/coll.gtkw"
    echo "gen_gtkw: wrote $final/{node,host,tx,rx,router,coll}.gtkw for node $n of $trace"
else
    # a testbench: its own signals, then the ports of each instance below it
    top=$(sed -n 's/^\([A-Za-z_][A-Za-z0-9_]*\)\.[^.]*$/\1/p' "$vars" | sort | uniq -c | sort -rn | awk 'NR==1{print $2}')
    [ -n "$top" ] || { echo "gen_gtkw: $trace: no top-level signals" >&2; exit 1; }
    {
        head_ "testbench $top" tb.gtkw
        echo "@800200"; echo "-$top"
        grep -E "^$top\.[^.]+$" "$vars" | head -150 | while read -r f; do
            case "$f" in *\]) echo "@22" ;; *) echo "@28" ;; esac; echo "$f"; done
        echo "@1000200"; echo "-$top"
        for inst in $(sed -n "s/^$top\.\([A-Za-z_][A-Za-z0-9_]*\)\.[^.]*$/\1/p" "$vars" | sort -u | head -8); do
            echo "@800200"; echo "-$inst"
            grep -E "^$top\.$inst\.[^.]+_(i|o|ni|no)(\[[0-9]+:[0-9]+\])?$" "$vars" | head -80 |
                while read -r f; do case "$f" in *\]) echo "@22" ;; *) echo "@28" ;; esac; echo "$f"; done
            echo "@1000200"; echo "-$inst"
        done
    } >"$out/tb.gtkw"
    echo "gen_gtkw: wrote $final/tb.gtkw for testbench $top of $trace"
fi
if [ "$missing" -ne 0 ]; then
    echo "gen_gtkw: $missing signals of the views are not in $trace; nothing written" >&2
    exit 1
fi
mkdir -p "$final"
for f in "$out"/*.gtkw; do
    sed "s#$out/#$final/#" "$f" >"$final/$(basename "$f")"
done
