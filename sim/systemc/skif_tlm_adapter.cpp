// SPDX-License-Identifier: Apache-2.0
// skif_tlm_adapter.cpp: TLM-2.0 sockets around the Verilated skif_torus_net.
//
// Pin side (one SC_METHOD on the rising edge of clk_i): at edge k it sees the
// RTL outputs of cycle k-1 (what the RTL itself sampled at edge k) and drives
// the inputs for cycle k. Register port: a request is driven for one cycle
// (ready is constant 1), its response is seen at the next edge but one. DMA
// port: a request valid && ready at edge k is queued for the node's worker
// thread, which calls b_transport in the same time step; a read's response is
// driven in cycle accept + latency (docs/systemc.md).
#include "skif_tlm_adapter.h"

#include <algorithm>
#include <cstring>
#include <string>

using namespace sc_core;

namespace
{
// Bit-field access on the port types Verilator chooses by width:
// uint32_t (2..32 bits), uint64_t (33..64), sc_bv<W> (> 64); a torus has at
// least 2 nodes, so no port is a single bool except clk_i and rst_ni.
uint64_t mask(int w)
{
    return w >= 64 ? ~0ull : (1ull << w) - 1;
}
inline uint64_t get_bits(uint32_t v, int lo, int w)
{
    return (v >> lo) & mask(w);
}
inline uint64_t get_bits(uint64_t v, int lo, int w)
{
    return (v >> lo) & mask(w);
}
template <int W> uint64_t get_bits(const sc_dt::sc_bv<W> &v, int lo, int w)
{
    uint64_t r = 0;
    for (int b = 0; b < w;) {
        const int bit = lo + b, off = bit % 32;
        const int n = std::min(32 - off, w - b);
        const uint64_t word = v.get_word(bit / 32);
        r |= ((word >> off) & mask(n)) << b;
        b += n;
    }
    return r;
}
inline void set_bits(uint32_t &v, int lo, int w, uint64_t x)
{
    const uint32_t m = static_cast<uint32_t>(mask(w) << lo);
    v = (v & ~m) | (static_cast<uint32_t>(x << lo) & m);
}
inline void set_bits(uint64_t &v, int lo, int w, uint64_t x)
{
    const uint64_t m = mask(w) << lo;
    v = (v & ~m) | ((x << lo) & m);
}
template <int W> void set_bits(sc_dt::sc_bv<W> &v, int lo, int w, uint64_t x)
{
    for (int b = 0; b < w;) {
        const int bit = lo + b, off = bit % 32;
        const int n = std::min(32 - off, w - b);
        const uint32_t m = static_cast<uint32_t>(mask(n) << off);
        const uint32_t word = v.get_word(bit / 32);
        const uint32_t part = static_cast<uint32_t>(((x >> b) & mask(n)) << off);
        v.set_word(bit / 32, (word & ~m) | part);
        b += n;
    }
}

uint64_t load_le(const unsigned char *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= static_cast<uint64_t>(p[i]) << (8 * i);
    return v;
}
void store_le(unsigned char *p, uint64_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        p[i] = static_cast<unsigned char>(v >> (8 * i));
}
} // namespace

skif_tlm_adapter::skif_tlm_adapter(sc_module_name name, const skif_tlm_adapter_config &cfg)
    : sc_module(name), clk_i("clk_i"), rst_ni("rst_ni"), cfg_(cfg), nodes_(nodes)
{
    if (cfg_.dma_min_latency < 1)
        cfg_.dma_min_latency = 1;
    if (cfg_.dma_queue_depth < 1)
        cfg_.dma_queue_depth = 1;

    net_ = std::make_unique<V>("net");
    net_->clk_i(clk_i);
    net_->rst_ni(rst_ni);
    net_->reg_req_valid_i(reg_req_valid_);
    net_->reg_req_ready_o(reg_req_ready_);
    net_->reg_req_write_i(reg_req_write_);
    net_->reg_req_addr_i(reg_req_addr_);
    net_->reg_req_wdata_i(reg_req_wdata_);
    net_->reg_rsp_valid_o(reg_rsp_valid_);
    net_->reg_rsp_rdata_o(reg_rsp_rdata_);
    net_->reg_rsp_err_o(reg_rsp_err_);
    net_->dma_req_valid_o(dma_req_valid_);
    net_->dma_req_ready_i(dma_req_ready_);
    net_->dma_req_write_o(dma_req_write_);
    net_->dma_req_addr_o(dma_req_addr_);
    net_->dma_req_wdata_o(dma_req_wdata_);
    net_->dma_req_wstrb_o(dma_req_wstrb_);
    net_->dma_rsp_valid_i(dma_rsp_valid_);
    net_->dma_rsp_data_i(dma_rsp_data_);
    net_->dma_rsp_err_i(dma_rsp_err_);
    net_->irq_o(irq_vec_);
    net_->net_drop_cnt_o(net_drop_cnt_);
    net_->dbg_busy_o(dbg_busy_);
    net_->dbg_move_o(dbg_move_);
    net_->coll_dbg_sel_i(coll_dbg_sel_);
    net_->coll_dbg_got_o(coll_dbg_got_);
    net_->coll_dbg_exp_o(coll_dbg_exp_);
    net_->coll_dbg_state_o(coll_dbg_state_);

    for (int i = 0; i < nodes; i++) {
        node_state &n = nodes_[i];
        const std::string s = std::to_string(i);
        n.reg = std::make_unique<reg_socket_t>(("reg_" + s).c_str());
        n.dma = std::make_unique<dma_socket_t>(("dma_" + s).c_str());
        n.reg->register_b_transport(this, &skif_tlm_adapter::reg_b_transport, i);
        n.reg->register_transport_dbg(this, &skif_tlm_adapter::reg_transport_dbg, i);
        sc_spawn_options opt;
        sc_spawn([this, i]() { dma_worker(i); }, sc_gen_unique_name("dma_worker"), &opt);
    }

    SC_METHOD(on_clock);
    sensitive << clk_i.pos();
    dont_initialize();
    SC_METHOD(on_irq);
    sensitive << irq_vec_;
    dont_initialize();
}

skif_tlm_adapter::~skif_tlm_adapter() = default;

void skif_tlm_adapter::end_of_elaboration()
{
    // Take the period from the bound clock when it is an sc_clock.
    if (auto *c = dynamic_cast<sc_clock *>(clk_i.get_interface()))
        cfg_.clock_period = c->period();
}

uint32_t skif_tlm_adapter::net_drops(int node) const
{
    return static_cast<uint32_t>(get_bits(net_drop_cnt_.read(), 32 * node, 32));
}

// ------------------------------------------------------------ register target

void skif_tlm_adapter::reg_b_transport(int node, tlm::tlm_generic_payload &gp, sc_time &delay)
{
    const uint64_t addr = gp.get_address();
    gp.set_dmi_allowed(false);
    if (gp.get_command() == tlm::TLM_IGNORE_COMMAND) {
        gp.set_response_status(tlm::TLM_OK_RESPONSE);
        return;
    }
    if (gp.get_data_length() != 4 || gp.get_streaming_width() < 4) {
        gp.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
        return;
    }
    if (gp.get_byte_enable_ptr()) {
        const unsigned char *be = gp.get_byte_enable_ptr();
        const unsigned bl = gp.get_byte_enable_length();
        for (unsigned k = 0; k < 4; k++) {
            if (be[k % bl] != TLM_BYTE_ENABLED) {
                gp.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
                return;
            }
        }
    }
    if (addr >= (1u << 12)) { // beyond the 12-bit port: not even seen by the RTL
        gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        return;
    }
    reg_op op;
    op.write = gp.is_write();
    op.addr = static_cast<uint32_t>(addr);
    op.wdata = op.write ? static_cast<uint32_t>(load_le(gp.get_data_ptr(), 4)) : 0;
    // Synchronise: the request reaches the port at the annotated time plus
    // reg_req_delay; the call returns once the RTL has answered.
    op.due = sc_time_stamp() + delay + cfg_.reg_req_delay;
    nodes_[node].reg_pending.push_back(&op);
    while (!op.done)
        wait(op.done_ev);
    if (!op.write)
        store_le(gp.get_data_ptr(), op.rdata, 4);
    delay = cfg_.reg_rsp_delay;
    gp.set_response_status(op.err ? tlm::TLM_ADDRESS_ERROR_RESPONSE : tlm::TLM_OK_RESPONSE);
}

unsigned skif_tlm_adapter::reg_transport_dbg(int, tlm::tlm_generic_payload &)
{
    return 0; // registers have side effects (W1C, counters): no debug access
}

// ------------------------------------------------------------ pins

void skif_tlm_adapter::on_clock()
{
    ++cycle_;
    data_of<decltype(V::reg_req_valid_i)> req_valid{};
    data_of<decltype(V::reg_req_write_i)> req_write{};
    data_of<decltype(V::reg_req_addr_i)> req_addr{};
    data_of<decltype(V::reg_req_wdata_i)> req_wdata{};
    data_of<decltype(V::dma_req_ready_i)> dma_ready{};
    data_of<decltype(V::dma_rsp_valid_i)> rsp_valid{};
    data_of<decltype(V::dma_rsp_data_i)> rsp_data{};
    data_of<decltype(V::dma_rsp_err_i)> rsp_err{};

    if (!rst_ni.read()) {
        // Drive idle inputs; forget nothing that software queued (it waits).
        for (node_state &n : nodes_) {
            n.rsp_q.clear();
            n.dma_ready = false; // as driven below: nothing is accepted at the first edge
        }
        reg_req_valid_.write(req_valid);
        dma_rsp_valid_.write(rsp_valid);
        dma_req_ready_.write(dma_ready);
        return;
    }

    const auto &o_req_ready = reg_req_ready_.read();
    const auto &o_rsp_valid = reg_rsp_valid_.read();
    const auto &o_rsp_rdata = reg_rsp_rdata_.read();
    const auto &o_rsp_err = reg_rsp_err_.read();
    const auto &o_dma_valid = dma_req_valid_.read();
    const auto &o_dma_write = dma_req_write_.read();
    const auto &o_dma_addr = dma_req_addr_.read();
    const auto &o_dma_wdata = dma_req_wdata_.read();
    const auto &o_dma_wstrb = dma_req_wstrb_.read();
    const sc_time now = sc_time_stamp();

    for (int i = 0; i < nodes; i++) {
        node_state &n = nodes_[i];
        // Register port: acceptance of last cycle's request, then its response.
        if (n.reg_driving && get_bits(o_req_ready, i, 1)) {
            n.reg_inflight.push_back(n.reg_driving);
            n.reg_driving = nullptr;
        }
        if (get_bits(o_rsp_valid, i, 1)) {
            if (n.reg_inflight.empty()) {
                SC_REPORT_ERROR(name(), "register response without a request");
            } else {
                reg_op *op = n.reg_inflight.front();
                n.reg_inflight.pop_front();
                op->rdata = static_cast<uint32_t>(get_bits(o_rsp_rdata, 32 * i, 32));
                op->err = get_bits(o_rsp_err, i, 1) != 0;
                op->done = true;
                op->done_ev.notify(SC_ZERO_TIME);
            }
        }
        if (!n.reg_driving && !n.reg_pending.empty() && n.reg_pending.front()->due <= now) {
            n.reg_driving = n.reg_pending.front();
            n.reg_pending.pop_front();
        }
        if (n.reg_driving) {
            set_bits(req_valid, i, 1, 1);
            set_bits(req_write, i, 1, n.reg_driving->write);
            set_bits(req_addr, 12 * i, 12, n.reg_driving->addr);
            set_bits(req_wdata, 32 * i, 32, n.reg_driving->wdata);
        }

        // DMA port: a request valid && ready in the last cycle is accepted now.
        if (n.dma_ready && get_bits(o_dma_valid, i, 1)) {
            dma_req r;
            r.write = get_bits(o_dma_write, i, 1) != 0;
            r.addr = get_bits(o_dma_addr, 64 * i, 64);
            r.wdata = get_bits(o_dma_wdata, 64 * i, 64);
            r.wstrb = static_cast<uint8_t>(get_bits(o_dma_wstrb, 8 * i, 8));
            r.accept_cycle = cycle_;
            n.dma_q.push_back(r);
            n.dma_ev.notify(SC_ZERO_TIME);
        }
        n.dma_ready = n.dma_q.size() < cfg_.dma_queue_depth;
        set_bits(dma_ready, i, 1, n.dma_ready);
        // At most one read response per cycle, in order.
        if (!n.rsp_q.empty() && n.rsp_q.front().due_cycle <= cycle_) {
            set_bits(rsp_valid, i, 1, 1);
            set_bits(rsp_data, 64 * i, 64, n.rsp_q.front().data);
            set_bits(rsp_err, i, 1, n.rsp_q.front().err);
            const uint64_t lat = cycle_ - n.rsp_q.front().accept_cycle;
            n.lat_min = std::min(n.lat_min, lat);
            n.lat_max = std::max(n.lat_max, lat);
            n.rsp_q.pop_front();
        }
    }
    reg_req_valid_.write(req_valid);
    reg_req_write_.write(req_write);
    reg_req_addr_.write(req_addr);
    reg_req_wdata_.write(req_wdata);
    dma_req_ready_.write(dma_ready);
    dma_rsp_valid_.write(rsp_valid);
    dma_rsp_data_.write(rsp_data);
    dma_rsp_err_.write(rsp_err);
}

void skif_tlm_adapter::on_irq()
{
    const auto &v = irq_vec_.read();
    for (int i = 0; i < nodes; i++) {
        node_state &n = nodes_[i];
        const bool b = get_bits(v, i, 1) != 0;
        if (b != n.irq_prev) {
            n.irq.write(b);
            if (b) {
                n.n_irq++;
                n.irq_ev.notify(SC_ZERO_TIME);
                if (irq_cb_)
                    irq_cb_(i);
            }
        }
        n.irq_prev = b;
    }
}

// ------------------------------------------------------------ DMA initiator

void skif_tlm_adapter::dma_worker(int node)
{
    node_state &n = nodes_[node];
    tlm::tlm_generic_payload gp;
    unsigned char data[8], be[8];
    for (;;) {
        while (n.dma_q.empty())
            wait(n.dma_ev);
        const dma_req r = n.dma_q.front();
        n.dma_q.pop_front();

        gp.set_address(r.addr);
        gp.set_data_ptr(data);
        gp.set_data_length(8);
        gp.set_streaming_width(8);
        gp.set_dmi_allowed(false);
        gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        if (r.write) {
            store_le(data, r.wdata, 8);
            for (int k = 0; k < 8; k++)
                be[k] = (r.wstrb >> k) & 1 ? TLM_BYTE_ENABLED : TLM_BYTE_DISABLED;
            gp.set_command(tlm::TLM_WRITE_COMMAND);
            gp.set_byte_enable_ptr(be);
            gp.set_byte_enable_length(8);
        } else {
            std::memset(data, 0, sizeof(data));
            gp.set_command(tlm::TLM_READ_COMMAND);
            gp.set_byte_enable_ptr(nullptr);
            gp.set_byte_enable_length(0);
        }
        sc_time delay = SC_ZERO_TIME;
        (*n.dma)->b_transport(gp, delay);
        const bool err = gp.is_response_error();

        if (r.write) {
            n.n_writes++;
            if (err) {
                // The RTL has no write-error path: count it, warn once.
                n.n_dma_err++;
                if (!n.warned) {
                    n.warned = true;
                    SC_REPORT_WARNING(name(), ("node " + std::to_string(node) +
                                               ": DMA write error response at 0x" +
                                               sc_dt::sc_uint<64>(r.addr).to_string(sc_dt::SC_HEX))
                                                  .c_str());
                }
            }
            continue;
        }
        n.n_reads++;
        if (err)
            n.n_dma_err++;
        // Latency: cycles spent inside b_transport (if the target waited) plus
        // the annotated delay rounded up to cycles.
        const uint64_t per = cfg_.clock_period.value();
        const uint64_t ann = (delay.value() + per - 1) / per;
        uint64_t lat = (cycle_ - r.accept_cycle) + ann + cfg_.dma_extra_latency;
        lat = std::max<uint64_t>(lat, cfg_.dma_min_latency);
        uint64_t due = r.accept_cycle + lat;
        due = std::max(due, n.last_rsp_due + 1);
        n.last_rsp_due = due;
        dma_rsp rsp;
        rsp.data = err ? 0 : load_le(data, 8);
        rsp.err = err;
        rsp.due_cycle = due;
        rsp.accept_cycle = r.accept_cycle;
        n.rsp_q.push_back(rsp);
    }
}
