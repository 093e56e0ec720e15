// SPDX-License-Identifier: Apache-2.0
// model_arena.cpp: the one-node models' memory in transparent huge pages
// (model_arena.h), and the program's operator new and delete that put them
// there.
#include "model_arena.h"

#include <sys/mman.h>

#include <cstdint>
#include <cstdlib>
#include <new>

namespace
{
constexpr std::size_t Huge = std::size_t{2} << 20; // a transparent huge page
char *g_base, *g_next, *g_end;                     // the arena: [g_base, g_end)
// Only the thread that called skif_arena_begin() allocates from the arena
// (an MPI library's own threads, say, go on using malloc meanwhile).
thread_local bool t_arena;

void *arena_take(std::size_t n, std::size_t align)
{
    const std::uintptr_t p =
        (reinterpret_cast<std::uintptr_t>(g_next) + align - 1) & ~(std::uintptr_t{align} - 1);
    if (p > reinterpret_cast<std::uintptr_t>(g_end) ||
        n > reinterpret_cast<std::uintptr_t>(g_end) - p)
        return nullptr; // full: malloc
    g_next = reinterpret_cast<char *>(p + n);
    return reinterpret_cast<void *>(p);
}

void *take(std::size_t n, std::size_t align)
{
    if (n == 0)
        n = 1;
    if (t_arena)
        if (void *p = arena_take(n, align))
            return p;
    void *p = align <= __STDCPP_DEFAULT_NEW_ALIGNMENT__
                  ? std::malloc(n)
                  : std::aligned_alloc(align, (n + align - 1) / align * align);
    if (!p)
        throw std::bad_alloc();
    return p;
}

void give(void *p) noexcept
{
    if (p >= static_cast<void *>(g_base) && p < static_cast<void *>(g_end))
        return; // the arena's: kept until the program ends
    std::free(p);
}
} // namespace

bool skif_arena_begin(std::size_t bytes)
{
    bytes = (bytes + Huge - 1) / Huge * Huge;
    void *m = mmap(nullptr, bytes + Huge, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED)
        return false;
    char *b = reinterpret_cast<char *>((reinterpret_cast<std::uintptr_t>(m) + Huge - 1) &
                                       ~(std::uintptr_t{Huge} - 1));
    // Without transparent huge pages (madvise refused, or "never") the
    // arena is ordinary memory: the models still lie together.
    (void)madvise(b, bytes, MADV_HUGEPAGE);
    g_base = g_next = b;
    g_end = b + bytes;
    t_arena = true;
    return true;
}

std::size_t skif_arena_end()
{
    t_arena = false;
    return static_cast<std::size_t>(g_next - g_base);
}

// The replaceable allocation functions ([new.delete]): every form, so that
// none of them reaches the library's own, which would hand arena memory to
// free().
void *operator new(std::size_t n)
{
    return take(n, __STDCPP_DEFAULT_NEW_ALIGNMENT__);
}
void *operator new[](std::size_t n)
{
    return take(n, __STDCPP_DEFAULT_NEW_ALIGNMENT__);
}
void *operator new(std::size_t n, std::align_val_t a)
{
    return take(n, static_cast<std::size_t>(a));
}
void *operator new[](std::size_t n, std::align_val_t a)
{
    return take(n, static_cast<std::size_t>(a));
}
void *operator new(std::size_t n, const std::nothrow_t &) noexcept
{
    try {
        return take(n, __STDCPP_DEFAULT_NEW_ALIGNMENT__);
    } catch (...) {
        return nullptr;
    }
}
void *operator new[](std::size_t n, const std::nothrow_t &) noexcept
{
    try {
        return take(n, __STDCPP_DEFAULT_NEW_ALIGNMENT__);
    } catch (...) {
        return nullptr;
    }
}
void *operator new(std::size_t n, std::align_val_t a, const std::nothrow_t &) noexcept
{
    try {
        return take(n, static_cast<std::size_t>(a));
    } catch (...) {
        return nullptr;
    }
}
void *operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t &) noexcept
{
    try {
        return take(n, static_cast<std::size_t>(a));
    } catch (...) {
        return nullptr;
    }
}
void operator delete(void *p) noexcept
{
    give(p);
}
void operator delete[](void *p) noexcept
{
    give(p);
}
void operator delete(void *p, std::size_t) noexcept
{
    give(p);
}
void operator delete[](void *p, std::size_t) noexcept
{
    give(p);
}
void operator delete(void *p, std::align_val_t) noexcept
{
    give(p);
}
void operator delete[](void *p, std::align_val_t) noexcept
{
    give(p);
}
void operator delete(void *p, std::size_t, std::align_val_t) noexcept
{
    give(p);
}
void operator delete[](void *p, std::size_t, std::align_val_t) noexcept
{
    give(p);
}
void operator delete(void *p, const std::nothrow_t &) noexcept
{
    give(p);
}
void operator delete[](void *p, const std::nothrow_t &) noexcept
{
    give(p);
}
void operator delete(void *p, std::align_val_t, const std::nothrow_t &) noexcept
{
    give(p);
}
void operator delete[](void *p, std::align_val_t, const std::nothrow_t &) noexcept
{
    give(p);
}
