# SPDX-License-Identifier: GPL-2.0
# patches/: the accepted rows of a journal as per-maintainer git
# format-patch series, checked with checkpatch and git am.

PROGRAMS += patches/queue
QUEUE_SRCS := $(addprefix patches/,queue.c queue-join.c queue-writers.c \
	queue-msg.c queue-why.c queue-notes.c queue-cover.c queue-plan.c \
	queue-base.c queue-maint.c queue-prefix.c)

patches/queue: $(QUEUE_SRCS) $(wildcard patches/queue-*.h) $(LIB)
	$(CC) $(CFLAGS) -o $@ $(QUEUE_SRCS) $(LIB)

# make queue [QJOURNAL=FILE] [QCANDIDATES=FILE] [QUEUE_DIR=DIR]: the
# accepted rows of the journal as per-maintainer series in QUEUE_DIR,
# checked with checkpatch.pl --strict and git am onto core and pristine.
# QUEUE_DROP_UNCLEAN=1 leaves out (and lists) what checkpatch rejects.
# QUEUE_ALLOW_BUILT=1 queues accepted conversions of evidence level built
# (only compiled, not booted through their code) too; by default only
# exercised and module-cycled ones are queued.
# MAX_VARS's default is in lib/defaults.h.
# make queue-check-boot: build the queued tree in PROFILE and boot it;
# QUEUE_BOOT_IN_TREE=1 builds it in TREE (warm objects, TREE restored).
# make queue-check-bisect: each patch alone on core, built in PROFILE and
# booted (QUEUE_BISECT_SAMPLE=N: N of them, evenly spaced; 0 all);
# QUEUE_BOOT_IN_TREE=1 as above.  The README says which were checked.
# QUEUE_MAX_PATCHES caps the patches per posting (default 15, queue --help).
# make queue-branches: one branch ro-queue/DIR per posting in TREE (the
# campaign's own tree, never the user's checkout), for b4 prep -e pristine.
QJOURNAL    ?= $(VJOURNAL)
QCANDIDATES ?= $(if $(CANDIDATES),$(CANDIDATES),$(CAND_DIR)/candidates.tsv)
QUEUE_DIR   ?= $(WORK)/queue
QUEUE_DROP_UNCLEAN ?= 0
QUEUE_ALLOW_BUILT ?= 0
QUEUE_BISECT_SAMPLE ?= 0
QUEUE_MAX_PATCHES ?=
MAX_VARS    ?=

.PHONY: queue queue-check-boot queue-check-bisect queue-branches
queue: patches/queue
	QUEUE_DROP_UNCLEAN=$(QUEUE_DROP_UNCLEAN) MAX_VARS=$(MAX_VARS) \
		QUEUE_ALLOW_BUILT=$(QUEUE_ALLOW_BUILT) \
		QUEUE_MAX_PATCHES=$(QUEUE_MAX_PATCHES) \
		sh patches/queue.sh "$(QJOURNAL)" "$(QCANDIDATES)" "$(TREE)" \
		"$(WORK)" "$(QUEUE_DIR)"

queue-branches:
	sh patches/queue-branches.sh "$(QUEUE_DIR)" "$(TREE)" "$(WORK)"

queue-check-boot: programs
	ACCEL=$(ACCEL) sh patches/queue-boot.sh $(if $(filter 1,$(QUEUE_BOOT_IN_TREE)),--in-tree) \
		"$(QUEUE_DIR)" "$(TREE)" "$(WORK)" $(PROFILE)

queue-check-bisect: programs
	ACCEL=$(ACCEL) sh patches/queue-bisect.sh $(if $(filter 1,$(QUEUE_BOOT_IN_TREE)),--in-tree) \
		--sample "$(QUEUE_BISECT_SAMPLE)" \
		"$(QUEUE_DIR)" "$(TREE)" "$(WORK)" $(PROFILE)
