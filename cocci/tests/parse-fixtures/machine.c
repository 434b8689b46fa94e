// SPDX-License-Identifier: GPL-2.0
/* arch/arm board files: MACHINE_START ... MACHINE_END */
static int board_rev;

static void __init board_init(void)
{
	board_rev = 2;
}

MACHINE_START(BOARD, "Board")
	.init_machine	= board_init,
MACHINE_END

static void board_poke(void)
{
	board_rev++;
}
