// SPDX-License-Identifier: Apache-2.0
// model_arena.h: the one-node models' memory in transparent huge pages
// (C++ only as Verilator demands). Every cycle evaluates every awake node,
// so a cycle touches some kilobytes of each model's state, scattered over
// the 4 KiB pages of its symbol table (about 120 KB a node): at 1024 nodes
// and more, the address translations alone missed the TLB on most of them,
// and a node-cycle cost three times what it cost on 512 nodes. Built
// between skif_arena_begin() and skif_arena_end(), the models lie one after
// the other in 2 MiB pages (madvise(MADV_HUGEPAGE): the kernel's "madvise"
// mode is enough), and cost the same per node at any size
// (docs/scale.md, "Huge pages").
//
// sim/kernel/model_arena.cpp replaces the program's operator new and delete:
// between begin and end every allocation comes from the arena (and is never
// given back: the models live until the program ends); at other times, and
// when the arena is full, from malloc. Link it into every program that
// builds many models (skifsim, skifsim-mpi, skifnet).
#ifndef SKIF_MODEL_ARENA_H
#define SKIF_MODEL_ARENA_H

#include <cstddef>

// Reserve `bytes` of address space for the models about to be built (only
// what they use is ever backed by memory) and send every allocation there
// until skif_arena_end(). Returns false when the reservation failed (the
// models are then built in ordinary memory).
bool skif_arena_begin(std::size_t bytes);
// Allocations go to malloc again. Returns the bytes the arena handed out.
std::size_t skif_arena_end();

#endif // SKIF_MODEL_ARENA_H
