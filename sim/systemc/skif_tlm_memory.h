// SPDX-License-Identifier: Apache-2.0
// skif_tlm_memory.h: a loosely-timed TLM-2.0 memory for the skif SystemC
// platform: bytes at bus addresses [base, base + size), any number of
// initiators on one multi-passthrough target socket.
//
// b_transport: reads and writes of any length inside the window (byte enables
// and streaming width honoured), annotating `latency` on every access (added to
// the caller's delay, never waited for). Outside the window:
// TLM_ADDRESS_ERROR_RESPONSE (set_blocking(true): waited for instead). transport_dbg: the same
// without timing. DMI is granted over the whole window with the same latency per access.
#ifndef SKIF_TLM_MEMORY_H
#define SKIF_TLM_MEMORY_H

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include <cstdint>
#include <utility>
#include <vector>

class skif_tlm_memory : public sc_core::sc_module
{
  public:
    tlm_utils::multi_passthrough_target_socket<skif_tlm_memory> socket;

    // base: bus address of byte 0; size: bytes; latency: annotated per access.
    skif_tlm_memory(sc_core::sc_module_name name, uint64_t base, size_t size,
                    sc_core::sc_time latency);

    // Latency of every access, or of the initiator bound as number `port`
    // (binding order, 0 first). Set before the simulation starts (DMI users
    // keep the latency they were given).
    void set_latency(sc_core::sc_time t) { latency_ = t; }
    void set_port_latency(unsigned port, sc_core::sc_time t);
    sc_core::sc_time latency(unsigned port) const;
    // Blocking mode: b_transport waits for delay + latency and returns a zero
    // delay (an approximately-timed target; callers must be threads).
    void set_blocking(bool b) { blocking_ = b; }
    uint64_t base() const { return base_; }
    size_t size() const { return mem_.size(); }
    // Accesses answered with an error (outside the window, bad length).
    uint64_t errors() const { return errors_; }

  private:
    void b_transport(int id, tlm::tlm_generic_payload &gp, sc_core::sc_time &delay);
    unsigned transport_dbg(int id, tlm::tlm_generic_payload &gp);
    bool get_direct_mem_ptr(int id, tlm::tlm_generic_payload &gp, tlm::tlm_dmi &dmi);
    // Performs gp on the array; returns bytes moved or 0 after setting an error.
    unsigned access(tlm::tlm_generic_payload &gp);

    uint64_t base_;
    std::vector<unsigned char> mem_;
    sc_core::sc_time latency_;
    std::vector<std::pair<bool, sc_core::sc_time>> port_latency_; // (set?, value) per port
    uint64_t errors_ = 0;
    bool blocking_ = false;
};

#endif
