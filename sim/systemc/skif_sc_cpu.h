// SPDX-License-Identifier: Apache-2.0
// skif_sc_cpu.h: the example platform's "CPU" of one node: an SC_THREAD that
// plays the C driver (driver/skif_dev.c) through TLM-2.0 initiator sockets.
//
// It checks the register port (ID, VERSION, NODE, SCRATCH, error responses,
// STATUS.REG_ERR / ERR_INFO, W1C), lays out the TX ring, RX ring and status
// block in its host memory, programs the adapter like skif_rings_setup(),
// sends `messages` messages of varying sizes (0..2048 bytes) to node
// (node + 1) % nodes, receives as many from node (node - 1) % nodes and checks
// each entry header, every payload byte and the zeroed tail bytes. It sleeps
// on the irq line between passes. Every mismatch is counted and printed.
#ifndef SKIF_SC_CPU_H
#define SKIF_SC_CPU_H

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include <cstdint>
#include <string>
#include <vector>

struct skif_sc_cpu_config {
    int node = 0;          // this node's id (== index on the ring)
    int nodes = 2;         // nodes on the ring
    int messages = 20;     // messages to send (and to receive)
    uint64_t mem_base = 0; // bus address of the node's host memory
    size_t mem_size = 0;   // its size in bytes
    unsigned tx_log2 = 12; // TX ring size, log2 bytes
    unsigned rx_log2 = 12; // RX ring size, log2 bytes
    int corrupt = -1;      // >= 0: corrupt this message in the TX ring (checker self-test)
    sc_core::sc_time poll{1, sc_core::SC_US}; // wake-up without irq (safety net only)
};

// Expected contents of message k sent by node src (shared with the checker).
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
    uint64_t payload_bytes() const { return rx_bytes_; }
    uint64_t irqs_seen() const { return irq_count_; }

  private:
    void run();
    void on_irq() { irq_count_++; }
    void fail(const std::string &what);
    // Register access; returns the TLM response status.
    tlm::tlm_response_status reg_access(bool write, uint64_t off, uint32_t &val, unsigned len = 4);
    uint32_t reg_rd(uint32_t off);
    void reg_wr(uint32_t off, uint32_t val);
    void mem_access(bool write, uint64_t addr, void *buf, size_t len);
    void ring_access(bool write, uint64_t base, uint32_t size, uint32_t off, void *buf, size_t len);
    void check_registers();
    void setup_rings();
    bool tx_pass();
    bool rx_pass();
    void read_status();
    void sync();

    skif_sc_cpu_config cfg_;
    tlm::tlm_generic_payload gp_;
    sc_core::sc_time offset_ = sc_core::SC_ZERO_TIME; // local time ahead of sc_time_stamp()
    uint64_t tx_bus_ = 0, rx_bus_ = 0, st_bus_ = 0;
    uint32_t tx_size_ = 0, rx_size_ = 0;
    uint32_t tx_tail_ = 0, rx_head_ = 0, hw_tx_head_ = 0, hw_rx_tail_ = 0;
    int sent_ = 0, received_ = 0, errors_ = 0;
    uint64_t rx_bytes_ = 0, irq_count_ = 0;
    bool done_ = false;
    sc_core::sc_event done_ev_;
    std::vector<uint8_t> buf_;
};

#endif
