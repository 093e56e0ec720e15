/* SPDX-License-Identifier: Apache-2.0 */
/* skifcoll.h: SkifColl, collective operations over trees of the torus
 * (docs/collectives.md, "Library").
 *
 * Two paths, kept apart:
 * - SkifColl_*: the collective subnet of the adapter. Every node holds a
 *   tree table; a tree is built for a set of ranks and a root in dimension
 *   order X, Y, Z, W (transit nodes where the set is not connected),
 *   validated by the paper's rules, and programmed at every node. Broadcast,
 *   reduce, allreduce and barrier are one-sided and asynchronous: a call
 *   posts the operation and returns a request; the adapter writes results
 *   into this node's result channel; SkifColl_Test looks, SkifColl_Wait
 *   sleeps in the simulator until the request is complete.
 * - SkifCollSw_*: the same operations in software over SkifCh point-to-point
 *   messages (binomial trees, recursive doubling, dissemination), blocking,
 *   for comparison and for adapters without the subnet.
 *
 * A tree (SkifCollTree) is a group of member ranks with a root. Every node
 * of the torus makes the same SkifColl_Create/SkifColl_Free calls in the
 * same order (transit nodes must program their entries); the members of a
 * tree make the same collective calls on it in the same order. A call on a
 * tree by a node that is not a member fails with EPERM.
 *
 * Element types SKIFCOLL_U32, _S32, _U64, _S64 (little-endian, like the C
 * types); operations SKIFCOLL_SUM (wraps, two's complement), _MIN, _MAX,
 * element-wise. Errors: -1 (or NULL) with errno, like SkifCh. */
#ifndef SKIFCOLL_H
#define SKIFCOLL_H

#include <stddef.h>
#include <stdint.h>

#include "skifch.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Element types and operations (the adapter's codes). */
#define SKIFCOLL_U32 0
#define SKIFCOLL_S32 1
#define SKIFCOLL_U64 2
#define SKIFCOLL_S64 3
#define SKIFCOLL_SUM 0
#define SKIFCOLL_MIN 1
#define SKIFCOLL_MAX 2

/* SkifCh channels the library opens on every node: the software path's
 * messages (and the synchronisation of Init/Create/Free), and the hardware
 * path's result channel. Programs must leave them free. */
#define SKIFCOLL_CHAN_SW 62
#define SKIFCOLL_CHAN_HW 61

/* SkifColl_Init flags: SKIFCOLL_NO_HW uses the software path only (no
 * register of the collective subnet is touched). */
#define SKIFCOLL_NO_HW 1

/* Bytes of one reduce in the adapter; longer vectors go as several reduces
 * in flight, at most SKIFCOLL_RIDS per tree at once. */
#define SKIFCOLL_MAX_RED 64
#define SKIFCOLL_RIDS 32

/* Trees 0..15: the predefined stride trees (SHMEM active sets). Tree
 * 2k + s: PE_start s, logPE_stride k (k = 0..7, s = 0..1), every rank
 * s + i * 2^k below SkifCh_Size(), root s. SkifColl_Create gives ids 16..31. */
#define SKIFCOLL_STRIDE_TREES 16
#define SKIFCOLL_TREES 32

typedef struct SkifCollTree SkifCollTree;
typedef struct SkifCollReq SkifCollReq;

/* Start the library on this node (every node calls it): opens the channel
 * SKIFCOLL_CHAN_SW; unless flags has SKIFCOLL_NO_HW, also opens the result
 * channel SKIFCOLL_CHAN_HW, builds the 16 stride trees, validates them and
 * programs this node's entries, then waits until every node has done so.
 * 0, or -1 with errno: EINVAL bad flags; EALREADY started; ENOSYS the
 * adapter has no collective subnet (or this build's SkifCh gives the library
 * no device: the hardware path is not built); EPROTO a tree failed
 * validation or read back differently (the message names the node and the
 * rule, on stderr); what SkifCh_Open gives. */
int SkifColl_Init(int flags);

/* Stop: clears this node's table entries (hardware path), frees every
 * tree (their requests must be complete) and closes the channels. All
 * nodes call it. 0, or -1 with errno EINVAL (not started). */
int SkifColl_Finalize(void);

/* 1 when the hardware path is up (SkifColl_Init without SKIFCOLL_NO_HW),
 * 0 otherwise. */
int SkifColl_HwUp(void);

/* How the hardware path posts reduces, allreduces and barriers: 1 by
 * programmed I/O (the adapter's COLL_PIO window; the default), 0 through the
 * TX ring (a descriptor the adapter reads by DMA). Chosen at SkifColl_Init by
 * the environment variable SKIFCOLL_INJECT=pio|ring (any other value: Init
 * fails with EINVAL). Broadcasts always go through the TX ring. */
int SkifColl_Pio(void);

/* The library's SkifCh channel (SKIFCOLL_CHAN_SW), for SkifCh_Cycle and
 * SkifCh_ClockMHz; NULL before SkifColl_Init. */
SkifCh *SkifColl_Channel(void);

/* Stride tree `log_stride` (0..7), `start` (0..1): tree 2 * log_stride +
 * start, built at SkifColl_Init. NULL with errno EINVAL, or when not started. */
SkifCollTree *SkifColl_Stride(int log_stride, int start);

/* Make a tree of the ranks ranks[0..nranks) (any order, no repeats) with
 * root `root` (one of them). Every node calls it with the same arguments:
 * on the hardware path it takes the lowest free id 16..31, builds and
 * validates every node's entry, programs this node's and waits until every
 * node has. Returns the tree (also at nodes that are not members, which
 * only pass its traffic on), or NULL with errno: EINVAL (bad or repeated
 * rank, root not in the set, nranks < 1), ENOSPC all 16 ids in use, EPROTO
 * the tree failed validation (message on stderr), EIO the adapter refused
 * the entry, ENOMEM. */
SkifCollTree *SkifColl_Create(const int *ranks, int nranks, int root);

/* Free a tree made by SkifColl_Create: every node calls it, after its own
 * requests on it are complete; waits until every node has stopped using
 * it, then clears the entry. 0, or -1 with errno EINVAL (NULL, a stride
 * tree), EBUSY (a request on it is not complete). */
int SkifColl_Free(SkifCollTree *tree);

/* The tree's hardware id (-1 on the software path), its root, whether this
 * node is a member (1) or not (0), its member count, and its depth in hops. */
int SkifColl_Id(const SkifCollTree *tree);
int SkifColl_Root(const SkifCollTree *tree);
int SkifColl_IsMember(const SkifCollTree *tree);
int SkifColl_Members(const SkifCollTree *tree);
int SkifColl_Depth(const SkifCollTree *tree);

/* Bytes of one element of `type`, or 0 for an unknown type. */
size_t SkifColl_TypeSize(int type);

/* Combine in[0..count) into inout[0..count) with op: the library's own
 * arithmetic (what the software path computes). 0, or -1 EINVAL. */
int SkifColl_Combine(void *inout, const void *in, size_t count, int type, int op);

/* ---------------------------------------------------------------- hardware */

/* Broadcast len bytes (any length; 64 bytes per operation in the adapter,
 * the largest collective packet)
 * from member `root` to every member: at `root`, buf is sent; elsewhere buf
 * receives. The adapter takes broadcasts at the tree's root only
 * (SkifColl_Root): from another member the call goes over SkifCh
 * point-to-point (as SkifCollSw_Bcast, blocking) and returns a request that
 * is already complete. The request completes at a node when the data is in buf (at the
 * root: when its own copy came back through the tree). buf must stay valid
 * until then. 0 and *req, or -1 with errno: EINVAL (NULL, root not a
 * member), EPERM this node is not a member, ENOSYS no hardware path; the
 * request fails with EIO if the adapter gave an error result for a piece. */
int SkifColl_Bcast(SkifCollTree *tree, int root, void *buf, size_t len, SkifCollReq **req);

/* Reduce count elements of send from every member with op; the result goes
 * into recv at member `target` only (recv may be NULL elsewhere). Vectors
 * over SKIFCOLL_MAX_RED bytes go as several reduces in flight; when all 32
 * reduce ids of the tree are in flight the call waits for the oldest. Errors
 * as SkifColl_Bcast, and EINVAL unknown type or op, target not a member,
 * NULL buffer. */
int SkifColl_Reduce(SkifCollTree *tree, int target, const void *send, void *recv, size_t count,
                    int type, int op, SkifCollReq **req);

/* As SkifColl_Reduce, with the result at every member. */
int SkifColl_Allreduce(SkifCollTree *tree, const void *send, void *recv, size_t count, int type,
                       int op, SkifCollReq **req);

/* The paper's double synchronising reduce: two allreduces of length 0, the
 * second posted when the first one's result came. When it completes, every
 * member has entered the barrier and has every broadcast posted on the tree
 * before it. Errors as SkifColl_Bcast. */
int SkifColl_Barrier(SkifCollTree *tree, SkifCollReq **req);

/* Is the request complete? 1 yes (the request is freed), 0 not yet, -1 it
 * failed: freed, errno EIO the adapter reported an error result, EPROTO a
 * result that does not fit the request; or not freed, when the library can
 * go no further (EPIPE the simulator is gone, EPROTO a corrupt result ring,
 * EINVAL not started or NULL). Never waits. */
int SkifColl_Test(SkifCollReq *req);

/* Wait until the request is complete, sleeping in the simulator between
 * device events (never spinning on memory), and free it. 0, or -1 with
 * errno as SkifColl_Test. */
int SkifColl_Wait(SkifCollReq *req);

/* ---------------------------------------------------------------- software */

/* The same operations over SkifCh messages on channel SKIFCOLL_CHAN_SW,
 * blocking: they return when this node's part is done. Bcast and Reduce
 * use binomial trees rooted at root/target; Allreduce recursive doubling
 * (with a fold for member counts that are not powers of two); AllreduceTree
 * a binomial reduce then a binomial broadcast; Barrier dissemination
 * (ceil(log2 members) rounds). Any length. 0, or -1 with errno as
 * SkifColl_Reduce, and what SkifCh gives. */
int SkifCollSw_Bcast(SkifCollTree *tree, int root, void *buf, size_t len);
int SkifCollSw_Reduce(SkifCollTree *tree, int target, const void *send, void *recv, size_t count,
                      int type, int op);
int SkifCollSw_Allreduce(SkifCollTree *tree, const void *send, void *recv, size_t count, int type,
                         int op);
int SkifCollSw_AllreduceTree(SkifCollTree *tree, const void *send, void *recv, size_t count,
                             int type, int op);
int SkifCollSw_Barrier(SkifCollTree *tree);

#ifdef __cplusplus
}
#endif

#endif /* SKIFCOLL_H */
