// SPDX-License-Identifier: GPL-2.0
/*
 * NAME "text" in a #define body, NAME a string macro spatch does not know
 * (cocci/builtins.h): arch/s390, drivers/ with DRV_NAME.
 */
#define KMSG_COMPONENT "st"
#define pr_fmt(fmt) KMSG_COMPONENT ": " fmt
#define DRV_NAME "st_drv"
#define st_info(fmt, ...) pr_info(DRV_NAME ": " fmt, ##__VA_ARGS__)

static int st_level;

static int __init st_init(void)
{
	st_level = 1;
	return 0;
}
