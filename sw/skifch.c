/* SPDX-License-Identifier: Apache-2.0 */
/* skifch.c: SkifCh over the skifsim driver (see skifch.h). */
#define _GNU_SOURCE
#include "skifch.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "skif_dev.h"

#define TX_RING_LOG2 16
#define RX_RING_LOG2 18
#define PARTIAL_MIN 512 /* smallest part of a larger message sent alone */

struct SkifCh {
    struct skif_dev *dev;
    int chan;
};

static int g_open; /* a channel is open in this process */

static int set_errno(int neg)
{
    errno = -neg;
    return -1;
}

SkifCh *SkifCh_Open(int channel)
{
    if (channel < 0 || channel > 255) {
        errno = EINVAL;
        return NULL;
    }
    if (g_open) {
        errno = EBUSY;
        return NULL;
    }
    SkifCh *ch = calloc(1, sizeof(*ch));
    if (!ch) {
        errno = ENOMEM;
        return NULL;
    }
    int rc = skif_dev_open(&ch->dev);
    if (rc < 0)
        goto err_free;
    rc = skif_rings_setup(ch->dev, TX_RING_LOG2, RX_RING_LOG2);
    if (rc < 0)
        goto err_close;
    ch->chan = channel;
    g_open = 1;
    return ch;

err_close:
    skif_dev_close(ch->dev);
err_free:
    free(ch);
    errno = -rc;
    return NULL;
}

int SkifCh_Close(SkifCh *skifch)
{
    if (!skifch) {
        errno = EINVAL;
        return -1;
    }
    /* Let the adapter finish sending what was posted. */
    while (!skif_tx_idle(skifch->dev))
        if (skif_dev_wait(skifch->dev, 0) < 0)
            break;
    skif_dev_close(skifch->dev);
    free(skifch);
    g_open = 0;
    return 0;
}

static int env_num(const char *name)
{
    const char *s = getenv(name);
    if (!s || !*s) {
        errno = ENODEV;
        return -1;
    }
    return atoi(s);
}

int SkifCh_Rank(void)
{
    return env_num("SKIF_RANK");
}
int SkifCh_Size(void)
{
    return env_num("SKIF_SIZE");
}

netaddr_t SkifCh_Addr(int rank, int channel)
{
    int size = SkifCh_Size();
    if (size < 0 || rank < 0 || rank >= size || channel < 0 || channel > 255) {
        errno = EINVAL;
        return (netaddr_t)-1;
    }
    /* node id: the rank's coordinates (X fastest), 4 bits each */
    const char *dims = getenv("SKIF_DIMS");
    netaddr_t id = 0;
    int r = rank, d = 0;
    while (dims && *dims && d < 4) {
        int k = atoi(dims);
        if (k < 1)
            break;
        id |= (netaddr_t)(r % k) << (4 * d);
        r /= k;
        d++;
        dims = strchr(dims, 'x');
        if (dims)
            dims++;
    }
    if (d == 0) /* no dimensions known: a ring */
        id = (netaddr_t)rank;
    return (id << 8) | (netaddr_t)channel;
}

ssize_t SkifCh_Send(SkifCh *skifch, netaddr_t dst_netaddr, const struct iovec *iov, int iov_count)
{
    if (!skifch || iov_count < 0 || iov_count > IOV_MAX || (iov_count > 0 && !iov))
        return set_errno(-EINVAL);
    if (iov_count == 1 && iov[0].iov_len <= SKIFCH_MAX_MSG) {
        /* the common case: one piece that fits a message; whole or nothing */
        int rc = skif_tx_post(skifch->dev, dst_netaddr, iov, 1, iov[0].iov_len);
        if (rc == 0)
            return (ssize_t)iov[0].iov_len;
        if (rc != -EAGAIN)
            return set_errno(rc);
    }
    size_t total = 0;
    for (int i = 0; i < iov_count; i++) {
        if (iov[i].iov_len && !iov[i].iov_base)
            return set_errno(-EINVAL);
        total += iov[i].iov_len;
    }
    size_t space = skif_tx_space(skifch->dev);
    size_t len = total < space ? total : space;
    /* Send a part only when it is worth a packet: a sliver of a large
     * message costs a header and an event for little data; waiting for the
     * adapter to drain the ring is better. */
    if (space == 0 || (len < total && len < PARTIAL_MIN)) {
        int rc = skif_dev_wait(skifch->dev, 0);
        return set_errno(rc < 0 ? rc : -EAGAIN);
    }
    int rc = skif_tx_post(skifch->dev, dst_netaddr, iov, iov_count, len);
    if (rc < 0)
        return set_errno(rc);
    return (ssize_t)len;
}

ssize_t SkifCh_Recv(SkifCh *skifch, struct iovec cont[SKIFCH_CONT_SIZE], int *cont_count)
{
    if (!skifch || !cont || !cont_count)
        return set_errno(-EINVAL);
    struct skif_rx_msg m;
    int rc = skif_rx_next(skifch->dev, &m);
    if (rc < 0)
        return set_errno(rc);
    if (rc == 0) {
        rc = skif_dev_wait(skifch->dev, 0);
        return set_errno(rc < 0 ? rc : -EAGAIN);
    }
    for (int i = 0; i < m.nparts; i++)
        cont[i] = m.part[i];
    *cont_count = m.nparts;
    return (ssize_t)m.len;
}

int SkifCh_RecvComp(SkifCh *skifch)
{
    if (!skifch)
        return set_errno(-EINVAL);
    int rc = skif_rx_complete(skifch->dev);
    return rc < 0 ? set_errno(rc) : 0;
}

int SkifCh_Wait(SkifCh *skifch, uint64_t max_cycles)
{
    if (!skifch)
        return set_errno(-EINVAL);
    int rc = skif_dev_wait(skifch->dev, max_cycles);
    return rc < 0 ? set_errno(rc) : rc;
}

uint64_t SkifCh_Cycle(SkifCh *skifch)
{
    return skifch ? skif_dev_cycle(skifch->dev) : 0;
}
