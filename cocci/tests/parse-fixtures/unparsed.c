// SPDX-License-Identifier: GPL-2.0
/* what spatch 1.1.1 cannot parse: two attributes in one __attribute__ */
static int up_ok;

struct up_desc {
	int a;
} __attribute__((packed, aligned(32)));

static int __init up_init(void)
{
	up_ok = 1;
	return 0;
}
