/* SPDX-License-Identifier: Apache-2.0 */
/* t_driver: the C driver against the adapter RTL: identity registers, scratch
 * and control read-back, every kind of bad register access (rejected by the
 * driver, or by the adapter with STATUS.REG_ERR and ERR_INFO), DMA memory
 * allocation rules, set-up and channel-table errors, rank-to-node mapping. */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "skif_dev.h"
#include "t_check.h"

int main(void)
{
    struct skif_dev *dev;
    uint32_t v;
    t_name = "t_driver";
    ASSERT_EQ(skif_dev_open(&dev), 0);
    t_rank = skif_dev_rank(dev);
    ASSERT_TRUE(skif_dev_size(dev) >= 2);

    /* identity */
    ASSERT_EQ(skif_reg_read(dev, SKIF_REG_ID, &v), 0);
    ASSERT_EQ(v, SKIF_ID_VALUE);
    ASSERT_EQ(skif_reg_read(dev, SKIF_REG_VERSION, &v), 0);
    ASSERT_EQ(v, SKIF_VERSION_VALUE);
    ASSERT_EQ(skif_reg_read(dev, SKIF_REG_NODE, &v), 0);
    uint32_t node;
    ASSERT_EQ(skif_dev_rank_node(dev, t_rank, &node), 0);
    ASSERT_EQ(v, node);
    ASSERT_EQ(v, skif_dev_node_id(dev));

    /* scratch: posted writes land in order, a read sees the last */
    for (uint32_t i = 0; i < 5; i++)
        ASSERT_EQ(skif_reg_write(dev, SKIF_REG_SCRATCH, 0xA5A50000u + i + (uint32_t)t_rank), 0);
    ASSERT_EQ(skif_reg_read(dev, SKIF_REG_SCRATCH, &v), 0);
    ASSERT_EQ(v, 0xA5A50004u + (uint32_t)t_rank);
    ASSERT_EQ(skif_reg_flush(dev), 0);

    /* the driver refuses offsets outside the map before sending them */
    ASSERT_EQ(skif_reg_read(dev, SKIF_REG_MAP_SIZE, &v), -EINVAL);
    ASSERT_EQ(skif_reg_read(dev, 0x2, &v), -EINVAL);
    ASSERT_EQ(skif_reg_write(dev, 0xFFC0, 1), -EINVAL);

    /* the adapter rejects them too, and says which */
    ASSERT_EQ(skif_reg_read(dev, SKIF_REG_STATUS, &v), 0);
    ASSERT_EQ(v & SKIF_STATUS_REG_ERR, 0);
    ASSERT_EQ(skif_reg_read_raw(dev, SKIF_REG_MAP_SIZE, &v), -EIO);
    ASSERT_EQ(skif_reg_read(dev, SKIF_REG_STATUS, &v), 0);
    ASSERT_TRUE(v & SKIF_STATUS_REG_ERR);
    ASSERT_EQ(skif_reg_read(dev, SKIF_REG_ERR_INFO, &v), 0);
    ASSERT_EQ(v, SKIF_REG_MAP_SIZE);
    ASSERT_EQ(skif_reg_read_raw(dev, 0x00A, &v), -EIO);    /* misaligned */
    ASSERT_EQ(skif_reg_read_raw(dev, 0x0F8, &v), -EIO);    /* unassigned inside the map */
    ASSERT_EQ(skif_reg_write_raw(dev, SKIF_REG_ID, 7), 0); /* posted: error comes at flush */
    ASSERT_EQ(skif_reg_flush(dev), -EIO);
    ASSERT_EQ(skif_reg_write_raw(dev, SKIF_REG_TX_SIZE, 30), 0); /* size out of range */
    ASSERT_EQ(skif_reg_flush(dev), -EIO);
    ASSERT_EQ(skif_reg_read(dev, SKIF_REG_ERR_INFO, &v), 0);
    ASSERT_EQ(v, SKIF_REG_TX_SIZE);
    ASSERT_EQ(skif_reg_read(dev, SKIF_REG_ID, &v), 0); /* unchanged */
    ASSERT_EQ(v, SKIF_ID_VALUE);
    /* STATUS error bits are write-1-to-clear */
    ASSERT_EQ(skif_reg_write(dev, SKIF_REG_STATUS, SKIF_STATUS_REG_ERR), 0);
    ASSERT_EQ(skif_reg_read(dev, SKIF_REG_STATUS, &v), 0);
    ASSERT_EQ(v & SKIF_STATUS_REG_ERR, 0);
    ASSERT_EQ(skif_reg_flush(dev), 0);

    /* DMA memory */
    struct skif_dma a, b, c;
    ASSERT_EQ(skif_dma_alloc(dev, 0, 64, &a), -EINVAL);
    ASSERT_EQ(skif_dma_alloc(dev, 64, 3, &a), -EINVAL);
    ASSERT_EQ(skif_dma_alloc(dev, 100, 4, &a), -EINVAL);
    ASSERT_EQ(skif_dma_alloc(dev, (size_t)1 << 40, 64, &a), -ENOMEM);
    ASSERT_EQ(skif_dma_alloc(dev, 100, 64, &a), 0);
    ASSERT_EQ(a.bus % 64, 0);
    ASSERT_EQ(((uintptr_t)a.va) % 64, 0);
    ASSERT_EQ(skif_dma_alloc(dev, 4096, 4096, &b), 0);
    ASSERT_EQ(b.bus % 4096, 0);
    ASSERT_TRUE(b.bus >= a.bus + 100);
    memset(b.va, 0x5a, 4096);
    skif_dma_free(dev, &b);
    ASSERT_EQ(skif_dma_alloc(dev, 4096, 4096, &c), 0);
    ASSERT_EQ(c.bus, b.bus);             /* the top of the stack is reused */
    ASSERT_EQ(((uint8_t *)c.va)[17], 0); /* and handed out zeroed */
    skif_dma_free(dev, &c);
    /* a freed block in the middle is handed out again to what fits */
    ASSERT_EQ(skif_dma_alloc(dev, 4096, 4096, &b), 0);
    ASSERT_EQ(skif_dma_alloc(dev, 64, 64, &c), 0);
    skif_dma_free(dev, &b);
    struct skif_dma d;
    ASSERT_EQ(skif_dma_alloc(dev, 1000, 1024, &d), 0);
    ASSERT_EQ(d.bus, b.bus);
    skif_dma_free(dev, &d);
    skif_dma_free(dev, &c);
    skif_dma_free(dev, &a);

    /* set-up and channels */
    struct skif_chan *ch, *ch2;
    ASSERT_EQ(skif_dev_channels(dev), 0);
    ASSERT_EQ(skif_chan_open(dev, 0, 12, &ch), -EINVAL); /* not set up */
    ASSERT_EQ(skif_dev_setup(dev, 11), -EINVAL);
    ASSERT_EQ(skif_dev_setup(dev, 25), -EINVAL);
    ASSERT_EQ(skif_tx_space(dev), 0);
    ASSERT_EQ(skif_dev_setup(dev, 12), 0);
    ASSERT_EQ(skif_dev_setup(dev, 12), -EBUSY);
    ASSERT_EQ(skif_reg_read(dev, SKIF_REG_CH_NUM, &v), 0);
    ASSERT_EQ((int)v, skif_dev_channels(dev));
    ASSERT_TRUE(v >= 64);
    ASSERT_EQ(skif_tx_space(dev), SKIF_MAX_MSG); /* capped at the largest message */
    ASSERT_EQ(skif_reg_read(dev, SKIF_REG_TX_SIZE, &v), 0);
    ASSERT_EQ(v, 12);
    ASSERT_EQ(skif_reg_read(dev, SKIF_REG_CTRL, &v), 0);
    ASSERT_EQ(v, SKIF_CTRL_TX_EN | SKIF_CTRL_RX_EN | SKIF_CTRL_IRQ_EN);
    int nch = skif_dev_channels(dev);
    ASSERT_EQ(skif_chan_open(dev, -1, 12, &ch), -EINVAL);
    ASSERT_EQ(skif_chan_open(dev, nch, 12, &ch), -EINVAL);
    ASSERT_EQ(skif_chan_open(dev, 3, 11, &ch), -EINVAL);
    ASSERT_EQ(skif_chan_open(dev, 3, 25, &ch), -EINVAL);
    ASSERT_EQ(skif_chan_open(dev, 3, 13, &ch), 0);
    ASSERT_EQ(skif_chan_id(ch), 3);
    ASSERT_EQ(skif_chan_open(dev, 3, 12, &ch2), -EBUSY);
    ASSERT_EQ(skif_rx_complete(ch), -ENOENT);
    struct skif_rx_msg m;
    ASSERT_EQ(skif_rx_next(ch, &m), 0);
    /* the adapter's table says what the driver set */
    ASSERT_EQ(skif_reg_write(dev, SKIF_REG_CH_SEL, 3), 0);
    ASSERT_EQ(skif_reg_read(dev, SKIF_REG_CH_CFG, &v), 0);
    ASSERT_EQ(v, 13 | SKIF_CH_CFG_EN);
    ASSERT_EQ(skif_reg_read(dev, SKIF_REG_CH_TAIL, &v), 0);
    ASSERT_EQ(v, 0);
    /* a channel that was never opened reads as closed */
    ASSERT_EQ(skif_reg_write(dev, SKIF_REG_CH_SEL, 4), 0);
    ASSERT_EQ(skif_reg_read(dev, SKIF_REG_CH_CFG, &v), 0);
    ASSERT_EQ(v, 0);
    /* bad channel-table accesses are rejected by the adapter */
    ASSERT_EQ(skif_reg_write_raw(dev, SKIF_REG_CH_SEL, (uint32_t)nch), 0);
    ASSERT_EQ(skif_reg_flush(dev), -EIO);
    ASSERT_EQ(skif_reg_write_raw(dev, SKIF_REG_CH_CFG, SKIF_CH_CFG_EN | 30), 0);
    ASSERT_EQ(skif_reg_flush(dev), -EIO);
    ASSERT_EQ(skif_reg_write_raw(dev, SKIF_REG_CH_CFG, 0x80000000u), 0);
    ASSERT_EQ(skif_reg_flush(dev), -EIO);
    ASSERT_EQ(skif_reg_write_raw(dev, SKIF_REG_CH_HEAD + 4u * (uint32_t)nch, 0), 0);
    ASSERT_EQ(skif_reg_flush(dev), -EIO);
    ASSERT_EQ(skif_reg_read_raw(dev, SKIF_REG_CH_HEAD, &v), -EIO); /* write-only */
    ASSERT_EQ(skif_reg_write(dev, SKIF_REG_STATUS, SKIF_STATUS_REG_ERR), 0);
    ASSERT_EQ(skif_chan_close(ch), 0);
    ASSERT_EQ(skif_reg_write(dev, SKIF_REG_CH_SEL, 3), 0);
    ASSERT_EQ(skif_reg_read(dev, SKIF_REG_CH_CFG, &v), 0);
    ASSERT_EQ(v, 0);
    ASSERT_EQ(skif_chan_open(dev, 3, 12, &ch), 0); /* open again */
    struct iovec iov = {"x", 1};
    ASSERT_EQ(skif_tx_post(dev, 0x01000000u, &iov, 1, 1), -EINVAL);       /* reserved bits */
    ASSERT_EQ(skif_tx_post(dev, 0x00FFFF00u, &iov, 1, 1), -EHOSTUNREACH); /* no such node */
    ASSERT_EQ(skif_tx_post(dev, (uint32_t)nch, &iov, 1, 1), -EINVAL);     /* no such channel */
    ASSERT_EQ(skif_tx_check(dev, (uint32_t)nch - 1), 0);
    ASSERT_EQ(skif_tx_post(dev, 0, &iov, 1, SKIF_MAX_MSG + 1), -EINVAL);
    ASSERT_EQ(skif_tx_post(dev, 0, &iov, 1, 2), -EINVAL); /* iov shorter than len */
    ASSERT_EQ(skif_dev_rank_node(dev, skif_dev_size(dev), &node), -EINVAL);

    /* a bounded wait with nothing to happen times out */
    uint64_t c0 = skif_dev_cycle(dev);
    ASSERT_EQ(skif_dev_wait(dev, 500), 0);
    ASSERT_TRUE(skif_dev_cycle(dev) >= c0 + 500);

    skif_dev_close(dev);
    printf("t_driver: node %d ok\n", t_rank);
    return 0;
}
