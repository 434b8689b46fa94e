// SPDX-License-Identifier: GPL-2.0
/*
 * queue-prefix: the subject prefix a maintainer expects for a file.
 *
 * The tarball has no git history to learn prefixes from, so they come
 * from a table of the conventions the subsystems use in their own logs
 * (x86/cpu, sched/fair, mm, ACPI, ...).  The first entry whose path is a
 * prefix of the file wins.  How the prefix continues:
 *   FIXED  the prefix as given ("mm" for every file below mm/);
 *   BASE   prefix + "/" + the file's base name without extension
 *          ("x86/tsc" for arch/x86/kernel/tsc.c);
 *   DIR    prefix + "/" + the next directory below the entry, or the
 *          base name if the file sits directly in it;
 *   NEXT   the next path component alone ("ext4" for fs/ext4/super.c,
 *          "fs" for a file directly in fs/).
 * A file that matches no entry gets its top-level directory.
 */
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "queue-prefix.h"

enum how { FIXED, BASE, DIR, NEXT };

struct rule {
	const char *path;
	const char *prefix;
	enum how how;
};

static const struct rule rules[] = {
	{ "arch/x86/kernel/cpu/mce/", "x86/mce", FIXED },
	{ "arch/x86/kernel/cpu/resctrl/", "x86/resctrl", FIXED },
	{ "arch/x86/kernel/cpu/microcode/", "x86/microcode", FIXED },
	{ "arch/x86/kernel/cpu/mtrr/", "x86/mtrr", FIXED },
	{ "arch/x86/kernel/cpu/sgx/", "x86/sgx", FIXED },
	{ "arch/x86/kernel/cpu/", "x86/cpu", FIXED },
	{ "arch/x86/kernel/apic/", "x86/apic", FIXED },
	{ "arch/x86/kernel/fpu/", "x86/fpu", FIXED },
	{ "arch/x86/kernel/acpi/", "x86/ACPI", FIXED },
	{ "arch/x86/kernel/", "x86", BASE },
	{ "arch/x86/events/", "perf/x86", FIXED },
	{ "arch/x86/kvm/", "KVM: x86", FIXED },
	{ "arch/x86/pci/", "x86/PCI", FIXED },
	{ "arch/x86/", "x86", DIR },
	{ "arch/", "", NEXT },
	{ "mm/kasan/", "kasan", FIXED },
	{ "mm/kfence/", "kfence", FIXED },
	{ "mm/damon/", "mm/damon", FIXED },
	{ "mm/", "mm", FIXED },
	{ "kernel/audit", "audit", FIXED },
	{ "kernel/sched/", "sched", BASE },
	{ "kernel/locking/", "locking", BASE },
	{ "kernel/irq/", "genirq", FIXED },
	{ "kernel/rcu/", "rcu", FIXED },
	{ "kernel/printk/", "printk", FIXED },
	{ "kernel/trace/", "tracing", FIXED },
	{ "kernel/bpf/", "bpf", FIXED },
	{ "kernel/events/", "perf/core", FIXED },
	{ "kernel/power/", "PM", FIXED },
	{ "kernel/cgroup/", "cgroup", FIXED },
	{ "kernel/time/", "time", FIXED },
	{ "kernel/module/", "module", FIXED },
	{ "kernel/dma/", "dma-mapping", FIXED },
	{ "kernel/futex/", "futex", FIXED },
	{ "kernel/", "", NEXT },
	{ "drivers/acpi/", "ACPI", FIXED },
	{ "drivers/pci/", "PCI", FIXED },
	{ "drivers/base/", "driver core", FIXED },
	{ "drivers/tty/serial/", "serial", FIXED },
	{ "drivers/tty/", "tty", FIXED },
	{ "drivers/clocksource/", "clocksource/drivers", FIXED },
	{ "drivers/char/random.c", "random", FIXED },
	{ "drivers/", "", NEXT },
	{ "virt/kvm/", "KVM", FIXED },
	{ "sound/", "ALSA", FIXED },
	{ "net/core/", "net", FIXED },
	{ "net/", "", NEXT },
	{ "fs/", "", NEXT },
	{ "security/", "", NEXT },
	{ "lib/", "lib", BASE },
	{ "init/", "init", FIXED },
	{ "block/", "block", FIXED },
	{ "crypto/", "crypto", FIXED },
	{ "ipc/", "ipc", FIXED },
};

/* The base name of FILE without its extension. */
static char *base_name(const char *file)
{
	const char *b = strrchr(file, '/');
	const char *dot;

	b = b ? b + 1 : file;
	dot = strrchr(b, '.');
	return xstrndup(b, dot && dot != b ? (size_t)(dot - b) : strlen(b));
}

/* The component of FILE after REST; the base name if it is the last. */
static char *next_part(const char *rest)
{
	const char *slash = strchr(rest, '/');

	if (!slash)
		return base_name(rest);
	return xstrndup(rest, slash - rest);
}

char *subject_prefix(const char *file)
{
	size_t i;
	struct sb s;
	char *part;

	for (i = 0; i < ARRAY_SIZE(rules); i++) {
		const struct rule *r = &rules[i];
		size_t n = strlen(r->path);
		const char *rest = file + n;

		if (strncmp(file, r->path, n))
			continue;
		sb_init(&s);
		switch (r->how) {
		case FIXED:
			sb_add(&s, r->prefix);
			break;
		case BASE:
			part = base_name(file);
			sb_addf(&s, "%s/%s", r->prefix, part);
			free(part);
			break;
		case DIR:
			part = next_part(rest);
			sb_addf(&s, "%s/%s", r->prefix, part);
			free(part);
			break;
		case NEXT:
			/* A file directly in a top-level directory. */
			if (!strchr(rest, '/')) {
				part = xstrndup(file, strcspn(file, "/"));
				if (!strcmp(part, "kernel")) {
					free(part);
					part = base_name(file);
				}
			} else {
				part = next_part(rest);
			}
			sb_add(&s, part);
			free(part);
			break;
		}
		return s.buf;
	}
	return xstrndup(file, strcspn(file, "/"));
}
