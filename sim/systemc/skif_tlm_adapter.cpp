// SPDX-License-Identifier: Apache-2.0
// skif_tlm_adapter.cpp: TLM-2.0 sockets around a torus of node models.
//
// Pin side (one SC_METHOD on the rising edge of clk_i): at edge k it sees the
// RTL outputs of cycle k-1 (what the RTL itself sampled at edge k) and drives
// the inputs for cycle k. Register port: a request is driven for one cycle
// (ready is constant 1), its response is seen at the next edge but one. DMA
// port: a request valid && ready at edge k is queued for the node's worker
// thread, which calls b_transport in the same time step; a read's response is
// driven in cycle accept + latency (docs/systemc.md).
// The models: at edge k each takes its clock edge with the inputs driven for
// cycle k-1, the links move between neighbours, then the inputs for cycle k
// are written and the models settled (evaluated without an edge), so what
// is read at edge k+1 is what a clocked RTL shows in cycle k.
// (the Verilated model first: a --cc model, its headers without SystemC)
#include "Vskif_node_top.h"
#include "Vskif_node_top___024root.h" // the ports through the root (node_links.h)
#include "node_links.h"               // skif::move_links, cycle_one, torus_neighbour: as skifsim
#include "skif_node.h"                // node ids and the sizes strap
#include "skif_tlm_adapter.h"

#include <algorithm>
#include <cstring>
#include <string>

using namespace sc_core;

namespace
{
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

int skif_tlm_adapter::model_ndims()
{
    VerilatedContext ctx;
    V m(&ctx, "probe");
    m.clk_i = 0;
    m.eval(); // (the outputs, constants included, are set by an evaluation)
    const int nd = m.ndims_o;
    m.final();
    return nd;
}

uint32_t skif_tlm_adapter::node_id(int i) const
{
    int c[SKIF_NODE_DIMS];
    skif_rank_coords(i, dims_, c);
    return skif_node_id(c);
}

skif_tlm_adapter::skif_tlm_adapter(sc_module_name name, const int dims[4], int ndims,
                                   const skif_tlm_adapter_config &cfg)
    : sc_module(name), clk_i("clk_i"), rst_ni("rst_ni"), cfg_(cfg), ndims_(ndims)
{
    if (cfg_.dma_min_latency < 1)
        cfg_.dma_min_latency = 1;
    if (cfg_.dma_queue_depth < 1)
        cfg_.dma_queue_depth = 1;
    nodes_n_ = 1;
    for (int d = 0; d < 4; d++) {
        dims_[d] = d < ndims ? dims[d] : 1;
        nodes_n_ *= dims_[d];
    }
    nodes_ = std::vector<node_state>(static_cast<size_t>(nodes_n_));
    drive_.resize(static_cast<size_t>(nodes_n_));
    ctx_ = std::make_unique<VerilatedContext>();
    for (int i = 0; i < nodes_n_; i++) {
        V *m = new V(ctx_.get(), ("node" + std::to_string(i)).c_str());
        m->node_id_i = static_cast<uint16_t>(node_id(i));
        m->sizes_i = skif_node_sizes(dims_);
        m->clk_i = 0;
        m->eval();
        m_.push_back(m);
    }
    if (m_[0]->ndims_o != ndims)
        SC_REPORT_FATAL(this->name(), ("the node model is for " + std::to_string(m_[0]->ndims_o) +
                                       "-dimensional tori, not " + std::to_string(ndims))
                                          .c_str());
    links_ = 2 * ndims;
    vcw_ = m_[0]->vcw_o;
    nbr_.resize(static_cast<size_t>(nodes_n_ * links_));
    for (int i = 0; i < nodes_n_; i++)
        for (int j = 0; j < links_; j++)
            nbr_[static_cast<size_t>(i * links_ + j)] = skif::torus_neighbour(dims_, ndims, i, j);

    for (int i = 0; i < nodes_n_; i++) {
        node_state &n = nodes_[static_cast<size_t>(i)];
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
    sensitive << irq_ev_;
    dont_initialize();
}

skif_tlm_adapter::~skif_tlm_adapter()
{
    for (V *m : m_) {
        m->final();
        delete m;
    }
}

void skif_tlm_adapter::end_of_elaboration()
{
    // Take the period from the bound clock when it is an sc_clock.
    if (auto *c = dynamic_cast<sc_clock *>(clk_i.get_interface()))
        cfg_.clock_period = c->period();
}

uint32_t skif_tlm_adapter::net_drops(int node) const
{
    return m_[static_cast<size_t>(node)]->net_drop_cnt_o;
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
    op.due = sc_core::sc_time_stamp() + delay + cfg_.reg_req_delay;
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
    const bool rst = !rst_ni.read();
    std::vector<drive> &dv = drive_;
    std::fill(dv.begin(), dv.end(), drive{});
    const sc_time now = sc_core::sc_time_stamp();

    for (int i = 0; i < nodes_n_ && !rst; i++) {
        node_state &n = nodes_[static_cast<size_t>(i)];
        V *m = m_[static_cast<size_t>(i)];
        drive &d = dv[static_cast<size_t>(i)];
        // Register port: acceptance of last cycle's request, then its response.
        if (n.reg_driving && m->reg_req_ready_o) {
            n.reg_inflight.push_back(n.reg_driving);
            n.reg_driving = nullptr;
        }
        if (m->reg_rsp_valid_o) {
            if (n.reg_inflight.empty()) {
                SC_REPORT_ERROR(name(), "register response without a request");
            } else {
                reg_op *op = n.reg_inflight.front();
                n.reg_inflight.pop_front();
                op->rdata = m->reg_rsp_rdata_o;
                op->err = m->reg_rsp_err_o;
                op->done = true;
                op->done_ev.notify(SC_ZERO_TIME);
            }
        }
        if (!n.reg_driving && !n.reg_pending.empty() && n.reg_pending.front()->due <= now) {
            n.reg_driving = n.reg_pending.front();
            n.reg_pending.pop_front();
        }
        if (n.reg_driving) {
            d.req_valid = true;
            d.req_write = n.reg_driving->write;
            d.req_addr = n.reg_driving->addr;
            d.req_wdata = n.reg_driving->wdata;
        }

        // DMA port: a request valid && ready in the last cycle is accepted now.
        if (n.dma_ready && m->dma_req_valid_o) {
            dma_req r;
            r.write = m->dma_req_write_o;
            r.addr = m->dma_req_addr_o;
            r.wdata = m->dma_req_wdata_o;
            r.wstrb = m->dma_req_wstrb_o;
            r.accept_cycle = cycle_;
            n.dma_q.push_back(r);
            n.dma_ev.notify(SC_ZERO_TIME);
        }
        n.dma_ready = n.dma_q.size() < cfg_.dma_queue_depth;
        d.dma_ready = n.dma_ready;
        // At most one read response per cycle, in order.
        if (!n.rsp_q.empty() && n.rsp_q.front().due_cycle <= cycle_) {
            d.rsp_valid = true;
            d.rsp_data = n.rsp_q.front().data;
            d.rsp_err = n.rsp_q.front().err;
            const uint64_t lat = cycle_ - n.rsp_q.front().accept_cycle;
            n.lat_min = std::min(n.lat_min, lat);
            n.lat_max = std::max(n.lat_max, lat);
            n.rsp_q.pop_front();
        }
    }
    if (rst) {
        // Drive idle inputs; forget nothing that software queued (it waits).
        for (node_state &n : nodes_) {
            n.rsp_q.clear();
            n.dma_ready = false; // as driven below: nothing is accepted at the first edge
        }
    }

    // edge k, with the inputs of cycle k-1; then the links
    for (V *m : m_) {
        m->rst_ni = !rst;
        skif::cycle_one<Vskif_node_top___024root>(m);
    }
    skif::move_links(m_, nbr_, links_, vcw_, 0, m_.size());
    bool irq_changed = false;
    for (int i = 0; i < nodes_n_; i++)
        irq_changed |=
            (m_[static_cast<size_t>(i)]->irq_o != 0) != nodes_[static_cast<size_t>(i)].irq_prev;
    if (irq_changed)
        irq_ev_.notify(SC_ZERO_TIME);

    // the inputs of cycle k
    for (int i = 0; i < nodes_n_; i++) {
        V *m = m_[static_cast<size_t>(i)];
        const drive &d = dv[static_cast<size_t>(i)];
        m->reg_req_valid_i = d.req_valid;
        m->reg_req_write_i = d.req_write;
        m->reg_req_addr_i = static_cast<uint16_t>(d.req_addr);
        m->reg_req_wdata_i = d.req_wdata;
        m->dma_req_ready_i = d.dma_ready;
        m->dma_rsp_valid_i = d.rsp_valid;
        m->dma_rsp_data_i = d.rsp_data;
        m->dma_rsp_err_i = d.rsp_err;
        m->eval(); // settle, no edge (the clock stays high): reg_req_ready_o follows the request
    }
}

void skif_tlm_adapter::on_irq()
{
    for (int i = 0; i < nodes_n_; i++) {
        node_state &n = nodes_[static_cast<size_t>(i)];
        const bool b = m_[static_cast<size_t>(i)]->irq_o != 0;
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
