// SPDX-License-Identifier: GPL-2.0
/* declarations made by macros, attribute macros */
static char __nonstring decl_tag[4];
static int decl_mode;

static void decl_links(void)
{
	__ETHTOOL_DECLARE_LINK_MODE_MASK(mask) = { 0, };

	decl_mode = 1;
}

static int __init decl_init(void)
{
	decl_mode = 0;
	return 0;
}

DECLARE_VM_GET_PAGE_PROT
