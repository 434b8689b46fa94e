// SPDX-License-Identifier: GPL-2.0
/*
 * asm goto (arch/x86/kvm/vmx/vmx.c, arch/riscv/lib/crc32.c): spatch
 * 1.1.1 cannot parse it; run-facts.sh reads the file from a scratch copy
 * with goto blanked, lines and columns unchanged.
 */
static int ag_enabled;
static int ag_count;

static int ag_vmxon(unsigned long addr)
{
	asm goto("1: vmxon %[addr]\n\t"
		 : : [addr] "m"(addr) : "memory", "cc" : fault);
	ag_count++;
	return 0;
fault:
	return -1;
}

static int ag_probe(void)
{
	asm volatile goto("jmp %l[out]" : : : : out);
	ag_enabled = 1;
	return 0;
out:
	return 1;
}

int ag_start(void)
{
	return ag_vmxon(0) + ag_probe();
}
