// SPDX-License-Identifier: GPL-2.0
/* block macros of net/ipv4 and drivers/md/bcache */
static int blk_retrans;

static void blk_retransmit(struct sk_buff *skb)
{
	BKEY_PADDED(key) k;

	tcp_skb_tsorted_save(skb) {
		blk_retrans++;
	} tcp_skb_tsorted_restore(skb);
}

static int __init blk_init(void)
{
	blk_retrans = 0;
	return 0;
}
