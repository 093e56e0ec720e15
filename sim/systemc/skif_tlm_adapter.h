// SPDX-License-Identifier: Apache-2.0
// skif_tlm_adapter.h: a torus of skifsim nodes (adapter, router, collective
// engine: one Verilated model of sim/hdl/skif_node_top.sv per node, skifsim's
// node with its host ports as pins (Pins = 1), built
// once per number of dimensions; the torus's sizes are chosen at run time)
// behind TLM-2.0 sockets, for SystemC virtual platforms. The links between the
// nodes are moved at each clock edge as skifsim moves them
// (sim/kernel/node_links.h), so the cycles are those of the whole-network RTL.
//
// Per node i (rank i, X fastest; its node id is node_id(i), the packed
// coordinates {w, z, y, x}, 4 bits each):
//   reg_socket(i)  target, register space 0x000..0x0FF: one 4-byte read/write
//                  b_transport = one register-port request; the RTL's err bit
//                  gives TLM_ADDRESS_ERROR_RESPONSE. Blocking: the call waits
//                  for the RTL's response (it must come from an SC_THREAD).
//   dma_socket(i)  initiator: each DMA request of the adapter leaves as one
//                  8-byte b_transport (writes carry byte enables = wstrb).
//                  The annotated delay of a read becomes cycles of latency
//                  before its data is driven into the RTL (in order, at most
//                  one per cycle, never back-pressured).
//   irq(i)         sc_signal<bool>, high for one clock cycle per irq pulse;
//                  irq_event(i) is notified at the same time.
// docs/systemc.md describes the sockets, timing and byte order.
#ifndef SKIF_TLM_ADAPTER_H
#define SKIF_TLM_ADAPTER_H

#ifndef SC_INCLUDE_DYNAMIC_PROCESSES
#define SC_INCLUDE_DYNAMIC_PROCESSES
#endif
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <type_traits>
#include <vector>

// The node model (Vskif_node_top.h) is included by skif_tlm_adapter.cpp
// only: Verilator's headers take SystemC's time when SystemC comes first.
class Vskif_node_top;
class VerilatedContext;
// Timing knobs of the bridge. Defaults reproduce the project's host model
// (docs/architecture.md) when the DMA target is skif_tlm_memory with its
// default latency (512 ns = 128 cycles at 250 MHz).
struct skif_tlm_adapter_config {
    // Period of the clock bound to clk_i; used only to turn annotated delays
    // into cycles. Must match the bound clock.
    sc_core::sc_time clock_period{4, sc_core::SC_NS};
    // Read latency in cycles = max(dma_min_latency,
    //   ceil(annotated delay / clock_period) + dma_extra_latency).
    unsigned dma_min_latency = 1;   // >= 1: data never comes back in the issuing cycle
    unsigned dma_extra_latency = 0; // e.g. a PCIe round trip when the memory annotates DRAM only
    // DMA requests accepted but not yet passed to b_transport before ready drops
    // (only reached when the target calls wait() inside b_transport).
    unsigned dma_queue_depth = 4;
    // Register accesses: time from the (annotated) start of the b_transport to
    // the request reaching the register port, spent with wait(); and time
    // annotated on return after the RTL's response. Both 0 by default; the
    // example platform uses half the host latency each (like skifsim).
    sc_core::sc_time reg_req_delay = sc_core::SC_ZERO_TIME;
    sc_core::sc_time reg_rsp_delay = sc_core::SC_ZERO_TIME;
};

class skif_tlm_adapter : public sc_core::sc_module
{
  public:
    SC_HAS_PROCESS(skif_tlm_adapter);
    // The number of torus dimensions the node model was built for (1..4).
    static int model_ndims();
    // Node id of rank i (NODE register, header src/dst): packed coordinates.
    uint32_t node_id(int i) const;
    int nodes() const { return nodes_n_; }
    int ndims() const { return ndims_; }
    int size(int d) const { return dims_[d]; } // ring size in dimension d (1 beyond ndims())

    using reg_socket_t = tlm_utils::simple_target_socket_tagged<skif_tlm_adapter>;
    using dma_socket_t = tlm_utils::simple_initiator_socket_tagged<skif_tlm_adapter>;

    sc_core::sc_in<bool> clk_i;  // adapter clock (250 MHz in the project)
    sc_core::sc_in<bool> rst_ni; // synchronous active-low reset

    // A torus of dims[0..ndims) nodes per dimension (2..16 each; ndims must
    // be model_ndims(), as skif_parse_dims reads --dims).
    skif_tlm_adapter(sc_core::sc_module_name name, const int dims[4], int ndims,
                     const skif_tlm_adapter_config &cfg = skif_tlm_adapter_config());
    ~skif_tlm_adapter() override;

    reg_socket_t &reg_socket(int node) { return *nodes_[node].reg; }
    dma_socket_t &dma_socket(int node) { return *nodes_[node].dma; }
    sc_core::sc_signal<bool> &irq(int node) { return nodes_[node].irq; }
    const sc_core::sc_event &irq_event(int node) const { return nodes_[node].irq_ev; }
    // Called (from an SC_METHOD, do not wait) for each irq pulse of node.
    void set_irq_callback(std::function<void(int node)> cb) { irq_cb_ = std::move(cb); }

    // Statistics.
    uint64_t cycles() const { return cycle_; } // rising edges seen on clk_i
    uint64_t dma_reads(int node) const { return nodes_[node].n_reads; }
    uint64_t dma_writes(int node) const { return nodes_[node].n_writes; }
    uint64_t dma_errors(int node) const { return nodes_[node].n_dma_err; }
    // Cycles from a read's acceptance (edge k) to its data driven (cycle k + lat).
    uint64_t dma_read_latency_min(int node) const
    {
        return nodes_[node].n_reads ? nodes_[node].lat_min : 0;
    }
    uint64_t dma_read_latency_max(int node) const { return nodes_[node].lat_max; }
    uint64_t irqs(int node) const { return nodes_[node].n_irq; }
    // Router i's count of local packets dropped at injection (dst outside the torus).
    uint32_t net_drops(int node) const;
    const skif_tlm_adapter_config &config() const { return cfg_; }

  private:
    using V = Vskif_node_top;

    struct reg_op {
        bool write;
        uint32_t addr, wdata, rdata = 0;
        bool err = false, done = false;
        sc_core::sc_time due; // earliest time to drive it
        sc_core::sc_event done_ev;
    };
    struct dma_req {
        bool write;
        uint64_t addr, wdata;
        uint8_t wstrb;
        uint64_t accept_cycle;
    };
    struct dma_rsp {
        uint64_t data;
        bool err;
        uint64_t due_cycle;
        uint64_t accept_cycle;
    };
    struct node_state {
        std::unique_ptr<reg_socket_t> reg;
        std::unique_ptr<dma_socket_t> dma;
        sc_core::sc_signal<bool> irq;
        sc_core::sc_event irq_ev, dma_ev;
        std::deque<reg_op *> reg_pending, reg_inflight;
        reg_op *reg_driving = nullptr;
        std::deque<dma_req> dma_q;
        std::deque<dma_rsp> rsp_q;
        uint64_t last_rsp_due = 0;
        bool dma_ready = true;
        bool irq_prev = false;
        uint64_t n_reads = 0, n_writes = 0, n_dma_err = 0, n_irq = 0;
        uint64_t lat_min = ~0ull, lat_max = 0;
        bool warned = false;
    };

    // what on_clock drives into a node in a cycle
    struct drive {
        bool req_valid = false, req_write = false;
        uint32_t req_addr = 0, req_wdata = 0;
        bool dma_ready = false, rsp_valid = false, rsp_err = false;
        uint64_t rsp_data = 0;
    };

    void end_of_elaboration() override;
    void reg_b_transport(int node, tlm::tlm_generic_payload &gp, sc_core::sc_time &delay);
    unsigned reg_transport_dbg(int node, tlm::tlm_generic_payload &gp);
    void on_clock();
    void on_irq();
    void dma_worker(int node);

    skif_tlm_adapter_config cfg_;
    int dims_[4] = {1, 1, 1, 1};
    int ndims_ = 1, nodes_n_ = 0, links_ = 2, vcw_ = 4;
    std::unique_ptr<VerilatedContext> ctx_;
    std::vector<V *> m_;   // the node models, rank order
    std::vector<int> nbr_; // nbr_[i * links_ + j]: node i's neighbour through port j
    std::vector<node_state> nodes_;
    std::vector<drive> drive_; // per node, reused at every edge
    uint64_t cycle_ = 0;
    std::function<void(int)> irq_cb_;
    sc_core::sc_event irq_ev_; // on_irq: the irq outputs after the last edge
};

#endif
