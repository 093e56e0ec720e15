// SPDX-License-Identifier: Apache-2.0
// skif_sc_cpu.h: the example platform's "CPU" of one node: an SC_THREAD that
// plays the C driver (driver/skif_dev.c) through TLM-2.0 initiator sockets.
//
// It checks the register port (ID, VERSION, NODE, SCRATCH, error responses,
// STATUS.REG_ERR / ERR_INFO, W1C), lays out its rings and status block in its
// host memory, programs the adapter like skif_rings_setup(), sends `messages`
// messages of varying sizes (0..2048 bytes) round-robin to every other node,
// records each one in the shared skif_sc_record, and checks every message it
// receives against the sender's record: the right sender, channel and length,
// every payload byte, the zeroed tail bytes, in order per sender, exactly
// once. It sleeps on the irq line between passes. Every mismatch is counted
// and printed.
//
// Everything that knows the adapter's register map or its ring and status
// block formats is in skif_sc_cpu_hw.cpp (the "hardware access" members
// below); skif_sc_cpu.cpp has the bus accesses, the traffic and the checks.
#ifndef SKIF_SC_CPU_H
#define SKIF_SC_CPU_H

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "skif_hw.h" // generated from rtl/skif_defs.vh: which register map

// The traffic of a platform and what every node sent that nobody has
// received yet: the reference of the receivers' checks. One object shared by
// all CPUs of a platform.
struct skif_sc_record {
    // messages: per rank, how many it sends. stream: rank 0 sends to rank 1
    // only (else round-robin to every other rank); size >= 0: every message
    // has this length (else skif_sc_msg_len).
    skif_sc_record(std::vector<uint32_t> node_ids, std::vector<int> messages, bool stream,
                   int size);
    std::vector<uint32_t> ids;                         // node id of each rank
    std::vector<int> messages;                         // messages each rank sends
    bool stream;                                       // rank 0 -> rank 1 only
    int size;                                          // fixed length, or -1
    std::vector<std::vector<std::deque<int>>> pending; // [dst][src]: message numbers, in send order
    int rank_of(uint32_t node_id) const;               // -1: no such node
    int dst(int src, int k) const;                     // destination rank of message k of src
    unsigned len(int src, int k) const;                // its length
};

struct skif_sc_cpu_config {
    int node = 0;          // this node's rank
    int nodes = 2;         // nodes of the torus
    int messages = 20;     // messages to send
    uint64_t mem_base = 0; // bus address of the node's host memory
    size_t mem_size = 0;   // its size in bytes
    unsigned tx_log2 = 12; // TX ring size, log2 bytes
    unsigned rx_log2 = 12; // RX ring size, log2 bytes
    int corrupt = -1;      // >= 0: corrupt this message in the TX ring (checker self-test)
    skif_sc_record *record = nullptr;         // shared record of sent messages
    sc_core::sc_time poll{1, sc_core::SC_US}; // wake-up without irq (safety net only)
};

// Message k sent by rank src of a torus of `nodes`: destination rank (all
// other ranks in turn), length (spread over 0..2048), channel and payload
// (shared by sender and checker; skif_sc_record chooses the traffic).
int skif_sc_msg_dst(int src, int k, int nodes);
unsigned skif_sc_msg_len(int src, int k);
uint8_t skif_sc_msg_byte(int src, int k, unsigned j);
uint8_t skif_sc_msg_chan(int src, int k);

class skif_sc_cpu : public sc_core::sc_module
{
  public:
    SC_HAS_PROCESS(skif_sc_cpu);
    tlm_utils::simple_initiator_socket<skif_sc_cpu> mem; // host memory
    tlm_utils::simple_initiator_socket<skif_sc_cpu> reg; // adapter register space
    sc_core::sc_in<bool> irq;                            // adapter irq line

    skif_sc_cpu(sc_core::sc_module_name name, const skif_sc_cpu_config &cfg);

    bool done() const { return done_; }
    const sc_core::sc_event &done_event() const { return done_ev_; }
    int errors() const { return errors_; }
    int sent() const { return sent_; }
    int received() const { return received_; }
    int expected() const { return expected_; } // messages addressed to this node
    uint64_t payload_bytes() const { return rx_bytes_; }
    uint64_t irqs_seen() const { return irq_count_; }

    // Channels the traffic uses (skif_sc_record::chans) and RX rings: with the
    // channel demultiplexer (SKIF_REG_CH_CFG in skif_hw.h) one ring per channel
    // and 4 channels; else one ring for all 256.
#ifdef SKIF_REG_CH_CFG
    static constexpr int hw_rx_chans = 4, hw_rx_rings = 4;
#else
    static constexpr int hw_rx_chans = 256, hw_rx_rings = 1;
#endif

  private:
    // One received message as the adapter delivered it.
    struct rx_msg {
        uint32_t src_id = 0;       // sender's node id
        uint32_t chan = 0;         // destination channel
        uint32_t len = 0;          // payload bytes
        std::vector<uint8_t> data; // payload and tail bytes up to the next 8-byte boundary
    };

    void run();
    void on_irq()
    {
        irq_count_++;
    }
    void fail(const std::string &what);
    void sync();
    // Bus accesses (TLM): register access returns the TLM response status.
    tlm::tlm_response_status reg_access(bool write, uint64_t off, uint32_t &val, unsigned len = 4);
    uint32_t reg_rd(uint32_t off);
    void reg_wr(uint32_t off, uint32_t val);
    void mem_access(bool write, uint64_t addr, void *buf, size_t len);
    void ring_access(bool write, uint64_t base, uint32_t size, uint32_t off, void *buf, size_t len);
    // Traffic and checks (skif_sc_cpu.cpp).
    bool send_pass();
    bool receive_pass();
    void check_message(const rx_msg &m);

    // Hardware access (skif_sc_cpu_hw.cpp): the only code that knows the
    // register map, the TX/RX ring entries and the status block.
    void hw_check_registers(); // register port checks after reset
    void hw_open();            // rings, status block, CTRL
    void hw_poll();            // read the status block (adapter pointers)
    bool hw_tx_post(uint32_t dst_id, uint8_t chan, const uint8_t *data, uint32_t len,
                    bool corrupt_chan); // one TX entry; false: no room now
    void hw_tx_doorbell();              // publish the posted entries (one register write)
    bool hw_tx_idle() const;            // every posted entry consumed by the adapter
    bool hw_rx_next(rx_msg &m);         // next complete RX entry; false: none (or malformed)
    void hw_rx_release();               // free the entries taken (one register write)
    // Cross-channel order: true while all channels share one RX ring, so the
    // messages of one sender arrive in send order whatever their channel.
    static constexpr bool hw_one_rx_ring = hw_rx_rings == 1;
    void hw_final_check(); // counters and sticky status against what was done
    void hw_close();       // CTRL = 0

    skif_sc_cpu_config cfg_;
    tlm::tlm_generic_payload gp_;
    sc_core::sc_time offset_ = sc_core::SC_ZERO_TIME; // local time ahead of sc_time_stamp()
    // hardware access state (skif_sc_cpu_hw.cpp)
    uint64_t tx_bus_ = 0, rx_bus_[hw_rx_rings] = {}, st_bus_ = 0;
    uint32_t tx_size_ = 0, rx_size_ = 0;
    uint32_t tx_tail_ = 0, tx_posted_ = 0, rx_head_[hw_rx_rings] = {}, rx_freed_[hw_rx_rings] = {};
    uint32_t hw_tx_head_ = 0, hw_rx_tail_[hw_rx_rings] = {};
    int rx_ring_ = 0; // ring hw_rx_next takes from
    uint32_t tx_flits_ = 0;
    // traffic state
    int sent_ = 0, received_ = 0, expected_ = 0, errors_ = 0;
    std::vector<int> last_k_; // per sender: number of the last message received
    uint64_t rx_bytes_ = 0, irq_count_ = 0;
    bool done_ = false, broken_ = false;
    sc_core::sc_event done_ev_;
    std::vector<uint8_t> buf_;
};

#endif
