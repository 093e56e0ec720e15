// SPDX-License-Identifier: Apache-2.0
// skif_link_regs: the input registers of a one-node model (skif_node_top,
// skif_fabric_node_top). The model's link inputs and straps go into
// registers that its node reads in place of the ports, and the model's link
// outputs are its node's link registers' next values (the nx_* ports of
// rtl/net/skif_torus_node.sv): the register of each link moves from the
// sender's end of the wire to the receiver's. A flit a node sends at clock
// edge t still reaches its neighbour's logic at edge t+1, as in the whole
// network (rtl/net/skif_torus_net.sv), but no logic of the model depends on
// its inputs. Verilator evaluates the logic that depends on a model's
// inputs at every eval() before the clock edge and, as it also depends on
// registers, again after it; that was a third of the simulator's time. The
// straps (constant for a run) settle during the reset cycles. The reset is
// registered too: logic that depends on a model input directly is evaluated
// by Verilator at every eval() besides after the clock edge (for the link
// outputs, gated by reset, that was some 300 instructions a node-cycle). The
// simulator raises rst_ni one edge before the node is to leave reset; rst_q
// starts low, so the node is in reset from the first edge.
module skif_link_regs #(
  parameter int Links = 2,
  parameter int VcW   = 3
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic [15:0]          node_id_i,
  input  logic [19:0]          sizes_i,
  input  logic [Links-1:0]     out_credit_valid_i,
  input  logic [Links*VcW-1:0] out_credit_vc_i,
  input  logic [Links*2-1:0]   out_cc_i,
  input  logic [Links-1:0]     in_valid_i,
  input  logic [Links*64-1:0]  in_data_i,
  input  logic [Links-1:0]     in_last_i,
  input  logic [Links*VcW-1:0] in_vc_i,
  output logic                 rst_no,
  output logic [15:0]          node_id_o,
  output logic [19:0]          sizes_o,
  output logic [Links-1:0]     out_credit_valid_o,
  output logic [Links*VcW-1:0] out_credit_vc_o,
  output logic [Links*2-1:0]   out_cc_o,
  output logic [Links-1:0]     in_valid_o,
  output logic [Links*64-1:0]  in_data_o,
  output logic [Links-1:0]     in_last_o,
  output logic [Links*VcW-1:0] in_vc_o
);
  logic rst_q = 1'b0;
  assign rst_no = rst_q;
  always_ff @(posedge clk_i) begin
    rst_q              <= rst_ni;
    node_id_o          <= node_id_i;
    sizes_o            <= sizes_i;
    out_credit_valid_o <= out_credit_valid_i;
    out_credit_vc_o    <= out_credit_vc_i;
    out_cc_o           <= out_cc_i;
    in_valid_o         <= in_valid_i;
    in_data_o          <= in_data_i;
    in_last_o          <= in_last_i;
    in_vc_o            <= in_vc_i;
  end
endmodule
