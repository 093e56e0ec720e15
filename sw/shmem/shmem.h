/* SPDX-License-Identifier: Apache-2.0 */
/* shmem.h: the OpenSHMEM of skifsim (libskifshmem.a), OpenSHMEM 1.4's C
 * interface and the SHMEM 1.0/Cray names older programs use, on the
 * adapter's remote memory access engine (driver/skif_rma.h) and its
 * collective subnet (sw/skifcoll.h). A SHMEM program compiles with
 * build/shmem/bin/oshcc and runs with build/shmem/bin/oshrun -np N (which
 * runs build/bin/skifrun, one PE per simulated node). docs/shmem.md tells
 * what the adapter does and what the library does in software.
 *
 * Symmetric data: the symmetric heap (shmem_malloc and friends; its size is
 * SHMEM_SYMMETRIC_SIZE, default 4M, within skifrun's --mem-mb) and the
 * program's global and static variables (its data and bss segments, which
 * shmem_init moves into the node's host memory so the adapter can reach
 * them). Every symmetric object has the same offset on every PE.
 *
 * Errors are fatal, as in other OpenSHMEM libraries: a call with an address
 * that is not symmetric, a PE out of range, a request the target's adapter
 * refused, or any call before shmem_init prints one line on stderr naming
 * the call, the address and the PE ("shmem: PE 0: shmem_putmem: ...") and
 * ends the program with exit status 1 (skifrun then stops every PE). The
 * one exception: shmem_malloc beyond the symmetric heap returns NULL after a
 * message. */
#ifndef SKIF_SHMEM_H
#define SKIF_SHMEM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------ constants */
#define SHMEM_MAJOR_VERSION 1
#define SHMEM_MINOR_VERSION 4
#define SHMEM_MAX_NAME_LEN 64
#define SHMEM_VENDOR_STRING "skifsim OpenSHMEM (remote memory access engine of the adapter)"
#define _SHMEM_MAJOR_VERSION SHMEM_MAJOR_VERSION
#define _SHMEM_MINOR_VERSION SHMEM_MINOR_VERSION
#define _SHMEM_MAX_NAME_LEN SHMEM_MAX_NAME_LEN
#define _SHMEM_VENDOR_STRING SHMEM_VENDOR_STRING

/* pSync arrays: every element must hold SHMEM_SYNC_VALUE when a collective
 * starts; the library leaves them so. pWrk: any size is enough here. */
#define SHMEM_SYNC_VALUE 0L
#define SHMEM_SYNC_SIZE 4
#define SHMEM_BARRIER_SYNC_SIZE 4
#define SHMEM_BCAST_SYNC_SIZE 4
#define SHMEM_COLLECT_SYNC_SIZE 4
#define SHMEM_REDUCE_SYNC_SIZE 4
#define SHMEM_ALLTOALL_SYNC_SIZE 4
#define SHMEM_REDUCE_MIN_WRKDATA_SIZE 1
#define _SHMEM_SYNC_VALUE SHMEM_SYNC_VALUE
#define _SHMEM_BARRIER_SYNC_SIZE SHMEM_BARRIER_SYNC_SIZE
#define _SHMEM_BCAST_SYNC_SIZE SHMEM_BCAST_SYNC_SIZE
#define _SHMEM_COLLECT_SYNC_SIZE SHMEM_COLLECT_SYNC_SIZE
#define _SHMEM_REDUCE_SYNC_SIZE SHMEM_REDUCE_SYNC_SIZE
#define _SHMEM_REDUCE_MIN_WRKDATA_SIZE SHMEM_REDUCE_MIN_WRKDATA_SIZE

/* wait_until / test comparisons */
#define SHMEM_CMP_EQ 0
#define SHMEM_CMP_NE 1
#define SHMEM_CMP_GT 2
#define SHMEM_CMP_LE 3
#define SHMEM_CMP_LT 4
#define SHMEM_CMP_GE 5
#define _SHMEM_CMP_EQ SHMEM_CMP_EQ
#define _SHMEM_CMP_NE SHMEM_CMP_NE
#define _SHMEM_CMP_GT SHMEM_CMP_GT
#define _SHMEM_CMP_LE SHMEM_CMP_LE
#define _SHMEM_CMP_LT SHMEM_CMP_LT
#define _SHMEM_CMP_GE SHMEM_CMP_GE

/* thread levels: this library is SHMEM_THREAD_SINGLE */
#define SHMEM_THREAD_SINGLE 0
#define SHMEM_THREAD_FUNNELED 1
#define SHMEM_THREAD_SERIALIZED 2
#define SHMEM_THREAD_MULTIPLE 3

/* --------------------------------------------------------------- setup */
void shmem_init(void);
/* As shmem_init; *provided = SHMEM_THREAD_SINGLE. Returns 0. */
int shmem_init_thread(int requested, int *provided);
void shmem_query_thread(int *provided);
/* Completes this PE's outstanding requests, waits for every PE (a
 * barrier), closes. A program that returns from main without it is
 * finalized at exit. */
void shmem_finalize(void);
int shmem_my_pe(void);
int shmem_n_pes(void);
/* 1 when pe is a PE of this program (0..n-1), else 0. */
int shmem_pe_accessible(int pe);
/* 1 when addr is symmetric data that pe can reach, else 0. */
int shmem_addr_accessible(const void *addr, int pe);
/* The local address of dest at pe when it can be read and written with
 * loads and stores: dest itself for this PE, NULL for any other. */
void *shmem_ptr(const void *dest, int pe);
/* Ends the whole program: every PE exits with `status`. */
void shmem_global_exit(int status);
void shmem_info_get_version(int *major, int *minor);
void shmem_info_get_name(char *name); /* SHMEM_MAX_NAME_LEN bytes */
/* SHMEM 1.0 / Cray names */
void start_pes(int npes); /* shmem_init; npes is ignored (oshrun gives it) */
int _my_pe(void);
int _num_pes(void);
int my_pe(void);
int num_pes(void);

/* ---------------------------------------------------- symmetric memory */
/* Collective: every PE calls them with the same sizes in the same order
 * (the same offsets then hold the same objects on every PE). They end
 * with a barrier, as the standard says. */
void *shmem_malloc(size_t size);
void *shmem_calloc(size_t count, size_t size);
void *shmem_align(size_t alignment, size_t size);
void *shmem_realloc(void *ptr, size_t size);
void shmem_free(void *ptr);
void *shmalloc(size_t size);
void *shmemalign(size_t alignment, size_t size);
void *shrealloc(void *ptr, size_t size);
void shfree(void *ptr);

/* ----------------------------------------------------------------- RMA */
/* Puts return when src may be reused (the adapter has a copy); the data is
 * at the target after shmem_quiet (or a barrier). Gets return with the
 * data (the _nbi forms: after shmem_quiet). dest of a put and src of a get
 * must be symmetric. */
void shmem_putmem(void *dest, const void *src, size_t nelems, int pe);
void shmem_getmem(void *dest, const void *src, size_t nelems, int pe);
void shmem_putmem_nbi(void *dest, const void *src, size_t nelems, int pe);
void shmem_getmem_nbi(void *dest, const void *src, size_t nelems, int pe);

/* Standard RMA types: X(NAME, TYPE) */
#define SHMEM_RMA_TYPES(X)                                                                         \
    X(char, char)                                                                                  \
    X(schar, signed char)                                                                          \
    X(short, short)                                                                                \
    X(int, int)                                                                                    \
    X(long, long)                                                                                  \
    X(longlong, long long)                                                                         \
    X(uchar, unsigned char)                                                                        \
    X(ushort, unsigned short)                                                                      \
    X(uint, unsigned int)                                                                          \
    X(ulong, unsigned long)                                                                        \
    X(ulonglong, unsigned long long)                                                               \
    X(int8, int8_t)                                                                                \
    X(int16, int16_t)                                                                              \
    X(int32, int32_t)                                                                              \
    X(int64, int64_t)                                                                              \
    X(uint8, uint8_t)                                                                              \
    X(uint16, uint16_t)                                                                            \
    X(uint32, uint32_t)                                                                            \
    X(uint64, uint64_t)                                                                            \
    X(size, size_t)                                                                                \
    X(ptrdiff, ptrdiff_t)                                                                          \
    X(float, float)                                                                                \
    X(double, double)                                                                              \
    X(longdouble, long double)

#define SHMEM_DECL_RMA(N, T)                                                                       \
    void shmem_##N##_put(T *dest, const T *src, size_t nelems, int pe);                            \
    void shmem_##N##_get(T *dest, const T *src, size_t nelems, int pe);                            \
    void shmem_##N##_put_nbi(T *dest, const T *src, size_t nelems, int pe);                        \
    void shmem_##N##_get_nbi(T *dest, const T *src, size_t nelems, int pe);                        \
    void shmem_##N##_p(T *dest, T value, int pe);                                                  \
    T shmem_##N##_g(const T *src, int pe);                                                         \
    void shmem_##N##_iput(T *dest, const T *src, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,      \
                          int pe);                                                                 \
    void shmem_##N##_iget(T *dest, const T *src, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,      \
                          int pe);
SHMEM_RMA_TYPES(SHMEM_DECL_RMA)
#undef SHMEM_DECL_RMA

/* Sized forms: 8, 16, 32, 64 and 128 bits per element */
#define SHMEM_RMA_SIZES(X) X(8) X(16) X(32) X(64) X(128)
#define SHMEM_DECL_SIZED(B)                                                                        \
    void shmem_put##B(void *dest, const void *src, size_t nelems, int pe);                         \
    void shmem_get##B(void *dest, const void *src, size_t nelems, int pe);                         \
    void shmem_put##B##_nbi(void *dest, const void *src, size_t nelems, int pe);                   \
    void shmem_get##B##_nbi(void *dest, const void *src, size_t nelems, int pe);                   \
    void shmem_iput##B(void *dest, const void *src, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,   \
                       int pe);                                                                    \
    void shmem_iget##B(void *dest, const void *src, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,   \
                       int pe);
SHMEM_RMA_SIZES(SHMEM_DECL_SIZED)
#undef SHMEM_DECL_SIZED

/* ------------------------------------------------------------- atomics */
/* Executed by the target PE's adapter (also when the target is this PE),
 * so atomic with respect to every other atomic on the same word. The
 * fetching ones return with the old value; add, inc and set are complete
 * (performed at the target) after shmem_quiet. */
#define SHMEM_AMO_STD_TYPES(X)                                                                     \
    X(int, int)                                                                                    \
    X(long, long)                                                                                  \
    X(longlong, long long)                                                                         \
    X(uint, unsigned int)                                                                          \
    X(ulong, unsigned long)                                                                        \
    X(ulonglong, unsigned long long)                                                               \
    X(int32, int32_t)                                                                              \
    X(int64, int64_t)                                                                              \
    X(uint32, uint32_t)                                                                            \
    X(uint64, uint64_t)                                                                            \
    X(size, size_t)                                                                                \
    X(ptrdiff, ptrdiff_t)
#define SHMEM_AMO_EXT_TYPES(X) SHMEM_AMO_STD_TYPES(X) X(float, float) X(double, double)
#define SHMEM_AMO_BIT_TYPES(X)                                                                     \
    X(uint, unsigned int)                                                                          \
    X(ulong, unsigned long)                                                                        \
    X(ulonglong, unsigned long long)                                                               \
    X(int32, int32_t)                                                                              \
    X(int64, int64_t)                                                                              \
    X(uint32, uint32_t)                                                                            \
    X(uint64, uint64_t)

#define SHMEM_DECL_AMO_STD(N, T)                                                                   \
    T shmem_##N##_atomic_fetch_add(T *dest, T value, int pe);                                      \
    void shmem_##N##_atomic_add(T *dest, T value, int pe);                                         \
    T shmem_##N##_atomic_fetch_inc(T *dest, int pe);                                               \
    void shmem_##N##_atomic_inc(T *dest, int pe);                                                  \
    T shmem_##N##_atomic_compare_swap(T *dest, T cond, T value, int pe);
#define SHMEM_DECL_AMO_EXT(N, T)                                                                   \
    T shmem_##N##_atomic_fetch(const T *dest, int pe);                                             \
    void shmem_##N##_atomic_set(T *dest, T value, int pe);                                         \
    T shmem_##N##_atomic_swap(T *dest, T value, int pe);
#define SHMEM_DECL_AMO_BIT(N, T)                                                                   \
    T shmem_##N##_atomic_fetch_and(T *dest, T value, int pe);                                      \
    void shmem_##N##_atomic_and(T *dest, T value, int pe);                                         \
    T shmem_##N##_atomic_fetch_or(T *dest, T value, int pe);                                       \
    void shmem_##N##_atomic_or(T *dest, T value, int pe);                                          \
    T shmem_##N##_atomic_fetch_xor(T *dest, T value, int pe);                                      \
    void shmem_##N##_atomic_xor(T *dest, T value, int pe);
SHMEM_AMO_STD_TYPES(SHMEM_DECL_AMO_STD)
SHMEM_AMO_EXT_TYPES(SHMEM_DECL_AMO_EXT)
SHMEM_AMO_BIT_TYPES(SHMEM_DECL_AMO_BIT)
#undef SHMEM_DECL_AMO_STD
#undef SHMEM_DECL_AMO_EXT
#undef SHMEM_DECL_AMO_BIT

/* The names before 1.4 (int, long, long long; swap and fetch/set also for
 * float and double) */
#define SHMEM_AMO_OLD_TYPES(X) X(int, int) X(long, long) X(longlong, long long)
#define SHMEM_DECL_AMO_OLD(N, T)                                                                   \
    T shmem_##N##_fadd(T *dest, T value, int pe);                                                  \
    void shmem_##N##_add(T *dest, T value, int pe);                                                \
    T shmem_##N##_finc(T *dest, int pe);                                                           \
    void shmem_##N##_inc(T *dest, int pe);                                                         \
    T shmem_##N##_cswap(T *dest, T cond, T value, int pe);                                         \
    T shmem_##N##_swap(T *dest, T value, int pe);                                                  \
    T shmem_##N##_fetch(const T *dest, int pe);                                                    \
    void shmem_##N##_set(T *dest, T value, int pe);
SHMEM_AMO_OLD_TYPES(SHMEM_DECL_AMO_OLD)
#undef SHMEM_DECL_AMO_OLD
float shmem_float_swap(float *dest, float value, int pe);
double shmem_double_swap(double *dest, double value, int pe);
float shmem_float_fetch(const float *dest, int pe);
double shmem_double_fetch(const double *dest, int pe);
void shmem_float_set(float *dest, float value, int pe);
void shmem_double_set(double *dest, double value, int pe);
long shmem_swap(long *dest, long value, int pe); /* SHMEM 1.0 */

/* ------------------------------------------ ordering and synchronisation */
/* shmem_fence: puts (and non-fetching atomics) issued before it reach each
 * target before those issued after it. shmem_quiet: every request issued
 * so far is complete (puts written at their targets). */
void shmem_fence(void);
void shmem_quiet(void);
/* Quiet, then every PE waits for every other (the adapter's collective
 * subnet). */
void shmem_barrier_all(void);
/* The same for the active set PE_start + i * 2^logPE_stride, i < PE_size;
 * pSync: SHMEM_BARRIER_SYNC_SIZE longs of SHMEM_SYNC_VALUE, symmetric. */
void shmem_barrier(int PE_start, int logPE_stride, int PE_size, long *pSync);
/* Like the barriers, without the quiet. */
void shmem_sync_all(void);
void shmem_sync(int PE_start, int logPE_stride, int PE_size, long *pSync);

#define SHMEM_WAIT_TYPES(X) X(short, short) X(ushort, unsigned short) SHMEM_AMO_STD_TYPES(X)
/* wait_until: returns when *ivar cmp value holds (ivar symmetric, written
 * by other PEs' puts or atomics); test: 1 if it holds now, else 0. */
#define SHMEM_DECL_WAIT(N, T)                                                                      \
    void shmem_##N##_wait_until(T *ivar, int cmp, T cmp_value);                                    \
    int shmem_##N##_test(T *ivar, int cmp, T cmp_value);                                           \
    void shmem_##N##_wait(T *ivar, T cmp_value); /* until *ivar != cmp_value (1.0) */
SHMEM_WAIT_TYPES(SHMEM_DECL_WAIT)
#undef SHMEM_DECL_WAIT
void shmem_wait_until(long *ivar, int cmp, long cmp_value); /* SHMEM 1.0 */
void shmem_wait(long *ivar, long cmp_value);

/* --------------------------------------------------------- collectives */
/* Active sets as shmem_barrier. Every member calls with the same
 * arguments; pSync (symmetric, SHMEM_*_SYNC_SIZE longs of
 * SHMEM_SYNC_VALUE) must not be in use by another collective at the same
 * time. PE_root: the root's index in the active set. */
void shmem_broadcast32(void *dest, const void *source, size_t nelems, int PE_root, int PE_start,
                       int logPE_stride, int PE_size, long *pSync);
void shmem_broadcast64(void *dest, const void *source, size_t nelems, int PE_root, int PE_start,
                       int logPE_stride, int PE_size, long *pSync);
void shmem_collect32(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride,
                     int PE_size, long *pSync);
void shmem_collect64(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride,
                     int PE_size, long *pSync);
void shmem_fcollect32(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride,
                      int PE_size, long *pSync);
void shmem_fcollect64(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride,
                      int PE_size, long *pSync);
void shmem_alltoall32(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride,
                      int PE_size, long *pSync);
void shmem_alltoall64(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride,
                      int PE_size, long *pSync);

/* Reductions: dest[i] = op over the active set of source[i], i < nreduce,
 * at every member; dest may be source. Integer sum, min and max of int,
 * long and long long go through the adapter's collective engine when the
 * active set is one of its stride trees; the rest in software. */
#define SHMEM_REDUCE_INT_TYPES(X)                                                                  \
    X(short, short)                                                                                \
    X(int, int)                                                                                    \
    X(long, long)                                                                                  \
    X(longlong, long long)
#define SHMEM_REDUCE_ALL_TYPES(X)                                                                  \
    SHMEM_REDUCE_INT_TYPES(X)                                                                      \
    X(float, float)                                                                                \
    X(double, double)
#define SHMEM_DECL_RED(N, T, OP)                                                                   \
    void shmem_##N##_##OP##_to_all(T *dest, const T *source, int nreduce, int PE_start,            \
                                   int logPE_stride, int PE_size, T *pWrk, long *pSync);
#define SHMEM_DECL_RED_ARITH(N, T)                                                                 \
    SHMEM_DECL_RED(N, T, sum)                                                                      \
    SHMEM_DECL_RED(N, T, prod) SHMEM_DECL_RED(N, T, min) SHMEM_DECL_RED(N, T, max)
#define SHMEM_DECL_RED_BITS(N, T)                                                                  \
    SHMEM_DECL_RED(N, T, and) SHMEM_DECL_RED(N, T, or) SHMEM_DECL_RED(N, T, xor)
SHMEM_REDUCE_ALL_TYPES(SHMEM_DECL_RED_ARITH)
SHMEM_REDUCE_INT_TYPES(SHMEM_DECL_RED_BITS)
#undef SHMEM_DECL_RED_ARITH
#undef SHMEM_DECL_RED_BITS
#undef SHMEM_DECL_RED

/* ------------------------------------------- C11 type-generic interface */
#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L && !defined(__cplusplus)
#define shmem_put(dest, src, n, pe)                                                                \
    _Generic(*(dest), char                                                                         \
             : shmem_char_put, short                                                               \
             : shmem_short_put, int                                                                \
             : shmem_int_put, long                                                                 \
             : shmem_long_put, long long                                                           \
             : shmem_longlong_put, float                                                           \
             : shmem_float_put, double                                                             \
             : shmem_double_put, unsigned int                                                      \
             : shmem_uint_put, unsigned long                                                       \
             : shmem_ulong_put)(dest, src, n, pe)
#define shmem_get(dest, src, n, pe)                                                                \
    _Generic(*(dest), char                                                                         \
             : shmem_char_get, short                                                               \
             : shmem_short_get, int                                                                \
             : shmem_int_get, long                                                                 \
             : shmem_long_get, long long                                                           \
             : shmem_longlong_get, float                                                           \
             : shmem_float_get, double                                                             \
             : shmem_double_get, unsigned int                                                      \
             : shmem_uint_get, unsigned long                                                       \
             : shmem_ulong_get)(dest, src, n, pe)
#define shmem_p(dest, v, pe)                                                                       \
    _Generic(*(dest), char                                                                         \
             : shmem_char_p, short                                                                 \
             : shmem_short_p, int                                                                  \
             : shmem_int_p, long                                                                   \
             : shmem_long_p, long long                                                             \
             : shmem_longlong_p, float                                                             \
             : shmem_float_p, double                                                               \
             : shmem_double_p, unsigned int                                                        \
             : shmem_uint_p, unsigned long                                                         \
             : shmem_ulong_p)(dest, v, pe)
#define shmem_g(src, pe)                                                                           \
    _Generic(*(src), char                                                                          \
             : shmem_char_g, short                                                                 \
             : shmem_short_g, int                                                                  \
             : shmem_int_g, long                                                                   \
             : shmem_long_g, long long                                                             \
             : shmem_longlong_g, float                                                             \
             : shmem_float_g, double                                                               \
             : shmem_double_g, unsigned int                                                        \
             : shmem_uint_g, unsigned long                                                         \
             : shmem_ulong_g)(src, pe)
#define shmem_atomic_fetch_add(dest, v, pe)                                                        \
    _Generic(*(dest), int                                                                          \
             : shmem_int_atomic_fetch_add, long                                                    \
             : shmem_long_atomic_fetch_add, long long                                              \
             : shmem_longlong_atomic_fetch_add)(dest, v, pe)
#define shmem_atomic_add(dest, v, pe)                                                              \
    _Generic(*(dest), int                                                                          \
             : shmem_int_atomic_add, long                                                          \
             : shmem_long_atomic_add, long long                                                    \
             : shmem_longlong_atomic_add)(dest, v, pe)
#define shmem_atomic_fetch_inc(dest, pe)                                                           \
    _Generic(*(dest), int                                                                          \
             : shmem_int_atomic_fetch_inc, long                                                    \
             : shmem_long_atomic_fetch_inc, long long                                              \
             : shmem_longlong_atomic_fetch_inc)(dest, pe)
#define shmem_atomic_inc(dest, pe)                                                                 \
    _Generic(*(dest), int                                                                          \
             : shmem_int_atomic_inc, long                                                          \
             : shmem_long_atomic_inc, long long                                                    \
             : shmem_longlong_atomic_inc)(dest, pe)
#define shmem_atomic_compare_swap(dest, c, v, pe)                                                  \
    _Generic(*(dest), int                                                                          \
             : shmem_int_atomic_compare_swap, long                                                 \
             : shmem_long_atomic_compare_swap, long long                                           \
             : shmem_longlong_atomic_compare_swap)(dest, c, v, pe)
#define shmem_atomic_swap(dest, v, pe)                                                             \
    _Generic(*(dest), int                                                                          \
             : shmem_int_atomic_swap, long                                                         \
             : shmem_long_atomic_swap, long long                                                   \
             : shmem_longlong_atomic_swap, float                                                   \
             : shmem_float_atomic_swap, double                                                     \
             : shmem_double_atomic_swap)(dest, v, pe)
#define shmem_atomic_fetch(dest, pe)                                                               \
    _Generic(*(dest), int                                                                          \
             : shmem_int_atomic_fetch, long                                                        \
             : shmem_long_atomic_fetch, long long                                                  \
             : shmem_longlong_atomic_fetch, float                                                  \
             : shmem_float_atomic_fetch, double                                                    \
             : shmem_double_atomic_fetch)(dest, pe)
#define shmem_atomic_set(dest, v, pe)                                                              \
    _Generic(*(dest), int                                                                          \
             : shmem_int_atomic_set, long                                                          \
             : shmem_long_atomic_set, long long                                                    \
             : shmem_longlong_atomic_set, float                                                    \
             : shmem_float_atomic_set, double                                                      \
             : shmem_double_atomic_set)(dest, v, pe)
#define shmem_test(ivar, cmp, v)                                                                   \
    _Generic(*(ivar), short                                                                        \
             : shmem_short_test, int                                                               \
             : shmem_int_test, long                                                                \
             : shmem_long_test, long long                                                          \
             : shmem_longlong_test)(ivar, cmp, v)
#endif

#ifdef __cplusplus
}
#endif

#endif /* SKIF_SHMEM_H */
