/* SPDX-License-Identifier: Apache-2.0 */
/* skifch.h: the SkifCh message-passing interface (Send, Recv, RecvComp as in
 * the SKIF-Aurora paper, signatures kept exactly) over the skifsim adapter.
 *
 * A channel is a receive queue of this node, named by a network address
 * (netaddr_t: the node's coordinates and the channel number). Each part of a
 * program that talks on its own opens its own channel and receives only the
 * messages sent to it: the adapter's channel demultiplexer writes every
 * message straight into its channel's ring in host memory.
 *
 * Errors: -1 with errno, like writev(). Messages from one sender to one
 * channel arrive in the order sent; messages from different senders
 * interleave. Recv is zero-copy: `cont` points into the channel's ring until
 * RecvComp.
 *
 * Simulated time advances inside calls that find nothing to do: an empty
 * Recv or a refused Send lets simulated time pass until the next device
 * event (every status-block write of the adapter is one), or 256 cycles at
 * most, before returning EAGAIN, so the paper's polling loops just work
 * (over one channel or many) and burn no host CPU.
 *
 * Back-pressure: end-to-end credits per channel (seed 003; docs/skifch.md,
 * "Credits"), on unless SKIFCH_CREDITS=0: a sender stops, with EAGAIN,
 * before the receiver's ring is full, so a channel the program does not
 * read holds up neither the node's other channels nor the flows through
 * it. With SKIFCH_CREDITS=0 a message for a channel whose ring is full
 * waits in the adapter until the receiver frees space, and every message to
 * this node behind it waits too. Nothing is ever dropped, reordered or
 * overwritten, except messages to a channel that is not open or to a node
 * with no program, and nothing is buffered in the library. */
#ifndef SKIFCH_H
#define SKIFCH_H

#include <stdint.h>
#include <sys/types.h>
#include <sys/uio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SKIFCH_CONT_SIZE 3
typedef uint32_t netaddr_t;
typedef struct SkifCh SkifCh;

/* netaddr_t layout: [7:0] channel, [23:8] node id (4 bits per coordinate,
 * x in [11:8]), [31:24] zero. */
#define SKIFCH_ADDR_CHAN(a) ((int)((a)&0xffu))
#define SKIFCH_ADDR_NODE(a) ((int)(((a) >> 8) & 0xffffu))

/* Largest message payload, bytes. */
#define SKIFCH_MAX_MSG 2048

/* Open channel `channel` (0..SkifCh_Channels()-1) on this process's node,
 * with a receive ring of 64 KiB (the environment variable SKIFCH_RING_LOG2,
 * 12..24, sets another size). A process may hold many channels. Returns the
 * channel, or NULL with errno: EINVAL bad channel, EBUSY the channel is
 * open (with credits on, also the library's credit channel,
 * SkifCh_Channels() - 5), ENODEV not started by skifrun, ENOMEM, EIO the
 * adapter refused, EPIPE the simulator is gone; EINVAL also for a bad
 * SKIFCH_RING_LOG2 or SKIFCH_CREDITS (0 or 1). A process
 * may open channels again after closing its last one. */
SkifCh *SkifCh_Open(int channel);

/* Close a channel; messages still in its ring are dropped, and the adapter
 * discards (and counts) any later message to it. The last close of a
 * process waits until the adapter has sent everything posted. The handle
 * stays invalid, also when the same channel is opened again (the new Open
 * returns another handle): calls on it fail with EBADF. 0, or -1 with errno EINVAL
 * (NULL or not a channel), EBADF (already closed). */
int SkifCh_Close(SkifCh *skifch);

/* Number of channels per node (the adapter's), or -1 with errno ENODEV
 * outside skifrun. The first call opens the node to read it if no channel
 * is open yet (and closes it again); later calls return the same number. */
int SkifCh_Channels(void);

/* This process's rank and the number of ranks (nodes); -1 with errno ENODEV
 * outside skifrun. Ranks number the nodes with X fastest. */
int SkifCh_Rank(void);
int SkifCh_Size(void);

/* The torus: its number of dimensions (1..4), and each one's size in
 * dims[0..3] (1 beyond the used ones). -1 with errno ENODEV, EINVAL NULL. */
int SkifCh_Dims(int dims[4]);

/* The coordinates of rank `rank` in coord[0..3] (x, y, z, w; 0 beyond the
 * used dimensions). 0, or -1 with errno EINVAL. */
int SkifCh_Coords(int rank, int coord[4]);

/* The network address of channel `channel` on the node of rank `rank`;
 * (netaddr_t)-1 with errno EINVAL when either is out of range (a channel
 * must be below SkifCh_Channels()), ENODEV outside skifrun. */
netaddr_t SkifCh_Addr(int rank, int channel);

/* The network address of channel `channel` on the node at coord[0..3];
 * (netaddr_t)-1 with errno EINVAL when a coordinate or the channel is out of
 * range. */
netaddr_t SkifCh_AddrAt(const int coord[4], int channel);

/* Split an address: the rank of its node (returned), its coordinates into
 * coord (if not NULL) and its channel into *channel (if not NULL). -1 with
 * errno EINVAL when the address names no node of this torus, reserved bits
 * are set, or the channel is out of range. */
int SkifCh_Split(netaddr_t addr, int coord[4], int *channel);

/* This channel's own address (what senders use to reach it);
 * (netaddr_t)-1 with errno EINVAL/EBADF. */
netaddr_t SkifCh_MyAddr(const SkifCh *skifch);

/* Send one message to dst_netaddr made of the start of iov[0..iov_count).
 * Like writev(), it may send only the first part: it returns the number of
 * bytes sent (the message size, at most the space free in the TX ring and
 * SKIFCH_MAX_MSG). Nothing is buffered: when nothing can be sent now it
 * returns -1 with errno EAGAIN (after letting simulated time advance). A
 * single piece of at most 512 bytes is always sent whole or not at all.
 * With credits (the default) a destination channel without enough
 * credits refuses in the same way (at once when the program has sent
 * anything since its last such refusal), without holding up other
 * destinations. Other errors: EINVAL NULL skifch, iov_count < 0 or >
 * IOV_MAX, NULL iov with iov_count > 0, an element with a NULL base and a
 * non-zero length, lengths that add up to more than SSIZE_MAX (as writev),
 * reserved netaddr bits set, or a channel >= SkifCh_Channels(); EHOSTUNREACH
 * no such node; EBADF closed channel; EPIPE the simulator is gone. A message
 * to a channel that is not open at the receiver is discarded there (counted
 * in its CH_DROPS register, STATUS.CH_DROP, and in skifrun's summary). */
ssize_t SkifCh_Send(SkifCh *skifch, netaddr_t dst_netaddr, const struct iovec *iov, int iov_count);

/* Receive the channel's next message: returns its size and fills
 * cont[0..*cont_count) with its parts inside the channel's ring (1 part, or
 * 2 when it wraps the ring's end). Several messages may be received before
 * they are completed. Returns -1 with errno EAGAIN when no message is there
 * (after letting simulated time advance to the next device event), EINVAL
 * NULL arguments or not a channel, EBADF closed channel, EPIPE the simulator
 * is gone, EPROTO a corrupt ring. */
ssize_t SkifCh_Recv(SkifCh *skifch, struct iovec cont[SKIFCH_CONT_SIZE], int *cont_count);

/* Free the ring space of the oldest received message of this channel. 0, or
 * -1 with errno ENOENT (nothing received and not completed), EINVAL, EBADF. */
int SkifCh_RecvComp(SkifCh *skifch);

/* Block until a device event or max_cycles cycles (0: no limit). 1 event,
 * 0 limit, -1 with errno EINVAL, EBADF, EPIPE. */
int SkifCh_Wait(SkifCh *skifch, uint64_t max_cycles);

/* Messages sent to this node's closed channels (or channels beyond
 * SkifCh_Channels()) that the adapter has discarded so far (its CH_DROPS
 * counter), or -1 with errno EINVAL (no channel open), EIO, EPIPE. */
long SkifCh_Discarded(const SkifCh *skifch);

/* The simulated cycle now (at the last return from the simulator), and the
 * stated clock in MHz (cycles / MHz = microseconds); 0 for a bad handle. */
uint64_t SkifCh_Cycle(const SkifCh *skifch);
unsigned SkifCh_ClockMHz(const SkifCh *skifch);

#ifdef __cplusplus
}
#endif

#endif /* SKIFCH_H */
