// SPDX-License-Identifier: GPL-2.0
/*
 * devplan - validate's device plan (devices.c), for test-devices-plan.sh:
 * match a build's modules.alias and modules.dep against
 * qemu-boot/devices.tsv and print what each boot group attaches.
 *
 * Usage: devplan TOOLS BUILD STATE
 *   TOOLS  the ro-campaign checkout (its qemu-boot/devices.tsv)
 *   BUILD  a build directory: BUILD/ro-campaign/kernelrelease and
 *          BUILD/ro-campaign/modroot/lib/modules/RELEASE/modules.{alias,dep}
 *   STATE  where devices-plan.tsv goes
 * Output: "groups N", then per group "args A" and "append P" ("-" when
 * empty), then "cpu MODEL" or "cpu -".  Exit 0, 64 usage.
 */
#include <stdio.h>
#include <stdlib.h>

#include "../validate.h"

const char *const mode_name[] = { "warn", "default" };

int main(int argc, char **argv)
{
	struct ctx x = { 0 };
	const char *cpu;
	char *a, *p;
	int g, n;

	if (argc != 4) {
		fprintf(stderr, "usage: devplan TOOLS BUILD STATE\n");
		return 64;
	}
	prog_name = "devplan";
	x.tools = argv[1];
	x.build_dir = argv[2];
	x.state = argv[3];
	n = dev_groups(&x);
	printf("groups %d\n", n);
	for (g = 0; g < (n ? n : 1); g++) {
		dev_boot_args(&x, g, &a, &p);
		printf("args %s\nappend %s\n", a ? a : "-", p ? p : "-");
		free(a);
		free(p);
	}
	cpu = dev_cpu(&x);
	printf("cpu %s\n", cpu ? cpu : "-");
	return 0;
}
