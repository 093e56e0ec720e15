/* SPDX-License-Identifier: Apache-2.0 */
/* skifch.h: the SkifCh message-passing interface (Send, Recv, RecvComp as in
 * the SKIF-Aurora paper, signatures kept exactly) over the skifsim adapter.
 *
 * Errors: -1 with errno, like writev(). Messages from one sender arrive in
 * the order sent; messages from different senders interleave. Recv is
 * zero-copy: `cont` points into the library's receive ring until RecvComp.
 *
 * Simulated time advances inside calls that find nothing to do: an empty
 * Recv or a refused Send waits for the next device event before returning
 * EAGAIN, so the paper's polling loops just work and burn no host CPU.
 *
 * This version of the adapter delivers all of a node's messages into one
 * receive ring, so a process has one open channel at a time and receives
 * every message sent to its node; the channel number travels in the packet
 * but does not yet select a ring. */
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

/* Open channel `channel` (0..255) on this process's node. Returns the
 * channel, or NULL with errno: EINVAL bad channel, EBUSY a channel is already
 * open in this process, ENODEV not started by skifrun, ENOMEM. */
SkifCh *SkifCh_Open(int channel);

/* Close a channel; messages still in its ring are dropped. 0, or -1 with
 * errno EINVAL (NULL). */
int SkifCh_Close(SkifCh *skifch);

/* This process's rank and the number of ranks (nodes); -1 with errno ENODEV
 * outside skifrun. */
int SkifCh_Rank(void);
int SkifCh_Size(void);

/* The network address of channel `channel` on the node of rank `rank`;
 * (netaddr_t)-1 with errno EINVAL when either is out of range. */
netaddr_t SkifCh_Addr(int rank, int channel);

/* Send one message to dst_netaddr made of the start of iov[0..iov_count).
 * Like writev(), it may send only the first part: it returns the number of
 * bytes sent (the message size, at most the space free in the TX ring and
 * SKIFCH_MAX_MSG). Nothing is buffered: when nothing can be sent now it
 * returns -1 with errno EAGAIN (after letting simulated time advance).
 * Other errors: EINVAL NULL skifch, iov_count < 0 or > IOV_MAX, NULL iov with
 * iov_count > 0, an element with a NULL base and a non-zero length, or a
 * netaddr with reserved bits set; EHOSTUNREACH no such node; EPIPE the
 * simulator is gone. */
ssize_t SkifCh_Send(SkifCh *skifch, netaddr_t dst_netaddr, const struct iovec *iov, int iov_count);

/* Receive one whole message: returns its size and fills cont[0..*cont_count)
 * with the parts of the message inside the library's ring (1 part, or 2 when
 * it wraps the ring's end). Returns -1 with errno EAGAIN when no message is
 * there (after letting simulated time advance to the next device event),
 * EINVAL NULL arguments, EPIPE the simulator is gone, EPROTO a corrupt ring. */
ssize_t SkifCh_Recv(SkifCh *skifch, struct iovec cont[SKIFCH_CONT_SIZE], int *cont_count);

/* Free the ring space of the oldest received message. 0, or -1 with errno
 * ENOENT (nothing received and not completed) or EINVAL. */
int SkifCh_RecvComp(SkifCh *skifch);

/* Block until a device event or max_cycles cycles (0: no limit). 1 event,
 * 0 limit, -1 with errno EPIPE. */
int SkifCh_Wait(SkifCh *skifch, uint64_t max_cycles);

/* The simulated cycle now (at the last return from the simulator). */
uint64_t SkifCh_Cycle(SkifCh *skifch);

/* Largest message payload, bytes. */
#define SKIFCH_MAX_MSG 2048

#ifdef __cplusplus
}
#endif

#endif /* SKIFCH_H */
