# SPDX-License-Identifier: GPL-2.0
# qemu-boot/: the service the stages use: kernel builds per profile, the
# initramfs with the guest exercise suite, and the boot launcher.

PROGRAMS += qemu-boot/boot
BOOT_SRCS := qemu-boot/boot.c qemu-boot/qemu.c qemu-boot/console.c \
	qemu-boot/qmp.c qemu-boot/tables.c

qemu-boot/boot: $(BOOT_SRCS) qemu-boot/boot.h $(LIB)
	$(CC) $(CFLAGS) -o $@ $(BOOT_SRCS) $(LIB)

BUILD_DIR = $(shell sh qemu-boot/build-kernel.sh --config-only $(PROFILE) $(call shq,$(TREE)) $(call shq,$(WORK)) | tail -n 1)

.PHONY: kernel initramfs boot
kernel:
	@sh qemu-boot/build-kernel.sh $(PROFILE) "$(TREE)" "$(WORK)"

initramfs: kernel
	@sh qemu-boot/mkinitramfs.sh "$(BUILD_DIR)/ro-campaign"

boot: programs initramfs
	qemu-boot/boot "$(BUILD_DIR)/ro-campaign/bzImage" --accel $(ACCEL) \
		--out "$(WORK)/boot/$(PROFILE)" $(BOOT_ARGS)
