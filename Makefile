# SPDX-License-Identifier: GPL-2.0
# ro-campaign: find, validate and queue __ro_after_init conversions.
# "make help" lists the targets.

WORK     ?= $(HOME)/.cache/ro-campaign
TARBALL  ?= /usr/src/linux-source-6.1.tar.xz
TREE     ?= $(WORK)/linux
PROFILE  ?= fast
JOBS     ?= $(shell nproc)
CC       ?= cc
CFLAGS   ?= -O2 -g
CFLAGS   += -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror=implicit-function-declaration

PACKAGES := coccinelle linux-source-6.1 gcc make qemu-system-x86 \
	busybox-static sparse flex bison bc libelf-dev libssl-dev cpio \
	xz-utils ccache git perl python3 kmod util-linux gzip chromium time

export WORK TREE PROFILE JOBS

.PHONY: help setup packages tree kernel initramfs boot test bench clean campaign \
	programs

help:
	@echo "ro-campaign - __ro_after_init annotation campaigns"
	@echo
	@echo "  make setup          install Debian packages, prepare TREE (pristine + patches/core)"
	@echo "  make kernel         build the PROFILE kernel (fast|wide) out of tree, with ccache"
	@echo "  make initramfs      build the busybox initramfs with the guest exercise suite"
	@echo "  make boot           boot the PROFILE kernel in QEMU and run the exercise suite"
	@echo "  make test           run all tests (real spatch, builds and QEMU boots)"
	@echo "  make campaign       find, validate, queue and report (SCOPE=, PROFILE=, NAME=)"
	@echo "  make candidates     run the finder on SCOPE (default: the whole tree)"
	@echo "  make validate       boot-validate CANDIDATES=FILE in PROFILE"
	@echo "  make queue          turn a validation journal into patch series"
	@echo "  make bench          run the benchmarks, figures go to WORK/bench/results.tsv"
	@echo "  make clean          remove built programs from the repository"
	@echo
	@echo "Variables: WORK=$(WORK)"
	@echo "           TREE=$(TREE)  PROFILE=$(PROFILE)  JOBS=$(JOBS)"

# ---- setup ---------------------------------------------------------------

setup: packages tree programs

packages:
	@missing=""; for p in $(PACKAGES); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | \
			grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "setup: installing$$missing"; \
		if [ "$$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi; \
		$$SUDO apt-get update -q && \
		DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -q \
			--no-install-recommends $$missing || \
			{ echo "setup: error: apt-get install failed" >&2; exit 1; }; \
	else echo "setup: all packages installed"; fi

tree:
	@sh patches/setup-tree.sh "$(TARBALL)" "$(TREE)" patches/core

# ---- programs ------------------------------------------------------------

PROGRAMS := qemu-boot/boot
PROGRAMS += candidates/candidates
PROGRAMS += validate/validate

programs: $(PROGRAMS)

BOOT_SRCS := qemu-boot/boot.c qemu-boot/qemu.c qemu-boot/console.c \
	qemu-boot/qmp.c

qemu-boot/boot: $(BOOT_SRCS) qemu-boot/boot.h
	$(CC) $(CFLAGS) -o $@ $(BOOT_SRCS)

# ---- kernel and boot -----------------------------------------------------

BUILD_DIR = $(shell sh qemu-boot/build-kernel.sh --config-only $(PROFILE) "$(TREE)" "$(WORK)" | tail -n 1)

kernel:
	@sh qemu-boot/build-kernel.sh $(PROFILE) "$(TREE)" "$(WORK)"

initramfs: kernel
	@sh qemu-boot/mkinitramfs.sh "$(BUILD_DIR)/ro-campaign"

# KVM stalls in the decompressor on these machines (DESIGN.md), so boots
# default to TCG; ACCEL=auto probes KVM first (about 20 s when it fails).
ACCEL ?= tcg

boot: programs initramfs
	qemu-boot/boot "$(BUILD_DIR)/ro-campaign/bzImage" --accel $(ACCEL) \
		--out "$(WORK)/boot/$(PROFILE)" $(BOOT_ARGS)

# ---- tests and benchmarks -----------------------------------------------

# Every DIR/tests/test-*.sh prints TAP and exits non-zero on failure; the
# runner counts ok / not ok lines over all of them.  TESTS= selects a subset.
TESTS ?= $(sort $(wildcard */tests/test-*.sh))

test: programs
	@passed=0; failed=0; start=$$(date +%s); mkdir -p "$(WORK)/test-logs"; \
	for t in $(TESTS); do \
		log="$(WORK)/test-logs/$$(echo $$t | tr / _).log"; \
		echo "== $$t"; \
		sh $$t > "$$log" 2>&1; rc=$$?; \
		grep -E '^(not )?ok ' "$$log" | sed 's/^/   /'; \
		p=$$(grep -c '^ok ' "$$log"); f=$$(grep -c '^not ok ' "$$log"); \
		if [ $$rc -ne 0 ] && [ $$f -eq 0 ]; then \
			f=1; echo "   not ok - $$t exited $$rc (log: $$log)"; \
			tail -n 5 "$$log" | sed 's/^/   # /'; fi; \
		passed=$$((passed + p)); failed=$$((failed + f)); \
	done; \
	echo "tests took $$(( $$(date +%s) - start )) s"; \
	echo "$$passed passed, $$failed failed"; \
	[ $$failed -eq 0 ]

# Benchmarks append "bench metric value unit date" rows to the results
# file.  BENCH_PROFILES=fast skips the 20-minute cold wide build.
BENCH_PROFILES ?= fast wide

bench: programs
	sh qemu-boot/bench-harness.sh "$(TREE)" "$(WORK)" "$(BENCH_PROFILES)"
	@echo "bench: results in $(WORK)/bench/results.tsv"

# The main job: make campaign [SCOPE="DIR..."] [PROFILE=fast|wide]
# [NAME=...]: find, validate, queue and report in WORK/campaign/NAME.
# Without SCOPE it runs on a built-in scope the fast profile compiles.
NAME ?= default
campaign: programs
	sh validate/campaign.sh $(if $(SCOPE),--scope "$(SCOPE)") \
		--profile $(PROFILE) --name "$(NAME)" "$(TREE)" "$(WORK)"

clean:
	rm -f $(PROGRAMS) validate/tests/symbolize

# ---- finder: candidates/ (issue 5) ---------------------------------------

CAND_SRCS := $(addprefix candidates/,main.c tsv.c strtab.c map.c facts.c \
	closure.c classify.c perm.c report.c link.c)
CAND_HDRS := $(wildcard candidates/*.h)

candidates/candidates: $(CAND_SRCS) $(CAND_HDRS)
	$(CC) $(CFLAGS) -o $@ $(CAND_SRCS)

# the phase-2 prefilter of cocci/run-facts.sh
PROGRAMS += candidates/mentions
programs: candidates/mentions

candidates/mentions: candidates/mentions.c candidates/strtab.c candidates/strtab.h
	$(CC) $(CFLAGS) -o $@ candidates/mentions.c candidates/strtab.c

# make candidates SCOPE="kernel mm arch/x86": facts by cocci/run-facts.sh,
# then the aggregator.  Output in CAND_DIR (default WORK/candidates).
SCOPE    ?=
CAND_DIR ?= $(WORK)/candidates
# extra run-facts.sh options, e.g. FACTS_OPTS=--no-extend
FACTS_OPTS ?=

.PHONY: candidates bench-loo
candidates: candidates/candidates candidates/mentions
	@test -x cocci/run-facts.sh || test -f cocci/run-facts.sh || \
		{ echo "candidates: cocci/run-facts.sh is missing" >&2; exit 1; }
	@mkdir -p "$(CAND_DIR)/facts"
	sh cocci/run-facts.sh -j $(JOBS) $(FACTS_OPTS) "$(TREE)" "$(CAND_DIR)/facts" $(SCOPE)
	candidates/candidates --facts "$(CAND_DIR)/facts" \
		--out "$(CAND_DIR)/candidates.tsv"

# Leave-one-out recall over LOO_SCOPE (default: a core subset).  Below the
# target it says so and exits 1 (bench-loo.sh); make bench goes on.
LOO_SCOPE ?= kernel mm init arch/x86/kernel arch/x86/mm security
bench-loo: candidates/candidates candidates/mentions
	@sh candidates/bench-loo.sh -j $(JOBS) "$(TREE)" "$(WORK)" $(LOO_SCOPE); \
		rc=$$?; [ $$rc -ne 2 ] || exit 2; \
		[ $$rc -eq 0 ] || echo "bench-loo: recall below the target"

bench: bench-loo

# Finder speed: run-facts + candidates with an empty cache over
# FINDER_SCOPE (default: the whole tree; the target is 30 minutes).
FINDER_SCOPE ?=
.PHONY: bench-finder
bench-finder: candidates/candidates candidates/mentions
	@sh candidates/bench-finder.sh -j $(JOBS) "$(TREE)" "$(WORK)" $(FINDER_SCOPE); \
		rc=$$?; [ $$rc -ne 2 ] || exit 2; \
		[ $$rc -eq 0 ] || echo "bench-finder: slower than the target"

bench: bench-finder

# ---- validator: validate/ (issue 6) --------------------------------------

VAL_SRCS := $(addprefix validate/,main.c util.c cand.c journal.c elfcheck.c \
	run.c plan.c)

validate/validate: $(VAL_SRCS) validate/validate.h
	$(CC) $(CFLAGS) -o $@ $(VAL_SRCS)

# test-elfcheck.sh's window into elf_symbolize()
validate/tests/symbolize: validate/tests/symbolize.c validate/elfcheck.c \
		validate/util.c validate/validate.h
	$(CC) $(CFLAGS) -o $@ validate/tests/symbolize.c validate/elfcheck.c \
		validate/util.c

# make validate CANDIDATES=FILE [PROFILE=fast|wide] [BATCH=N]: batch
# validation in a private work tree of TREE (VTREE, created at tag core).
# Verdicts go to VJOURNAL; a rerun resumes.
CANDIDATES ?=
BATCH      ?= 128
VTREE      ?= $(WORK)/vtree
VJOURNAL   ?= $(WORK)/validate/$(PROFILE)/journal.tsv

.PHONY: validate bench-validate
validate: validate/validate qemu-boot/boot
	@test -n "$(CANDIDATES)" || \
		{ echo "make validate: set CANDIDATES=FILE (a candidates TSV)" >&2; exit 2; }
	@test -d "$(VTREE)" || git -C "$(TREE)" worktree add --detach "$(VTREE)" core
	validate/validate --candidates "$(CANDIDATES)" --tree "$(VTREE)" \
		--work "$(WORK)" --profile $(PROFILE) --batch $(BATCH) \
		--journal "$(VJOURNAL)" --accel $(ACCEL) $(VALIDATE_ARGS)

REPORT_SRCS := validate/report.c validate/util.c
PROGRAMS += validate/report

programs: validate/report

validate/report: $(REPORT_SRCS) validate/validate.h
	$(CC) $(CFLAGS) -o $@ $(REPORT_SRCS) -lm

# Batch validation against the naive cycle, in the fast profile, on the
# candidates in CAND_DIR (made over BENCH_VALIDATE_SCOPE if there are none).
BENCH_VALIDATE_SCOPE ?= init kernel mm
bench-validate: validate/validate qemu-boot/boot candidates/candidates candidates/mentions
	@test -f "$(CAND_DIR)/candidates.tsv" || \
		$(MAKE) --no-print-directory candidates SCOPE="$(BENCH_VALIDATE_SCOPE)"
	sh validate/bench-validate.sh "$(TREE)" "$(WORK)" "$(CAND_DIR)/candidates.tsv"
bench: bench-validate

# ---- core series: patches/core (issue 4) ---------------------------------

# Boot+suite time with ro_after_init=warn against the default mode.
CORE_BENCH_RUNS ?= 3
.PHONY: bench-core
bench-core: programs
	sh patches/bench-core.sh --runs $(CORE_BENCH_RUNS) "$(TREE)" "$(WORK)"

bench: bench-core

# ---- patch queue: patches/queue (issue 7) --------------------------------

QUEUE_SRCS := $(addprefix patches/,queue.c queue-plan.c queue-maint.c \
	queue-prefix.c queue-tsv.c queue-util.c)
PROGRAMS += patches/queue

programs: patches/queue

patches/queue: $(QUEUE_SRCS) $(wildcard patches/queue-*.h)
	$(CC) $(CFLAGS) -o $@ $(QUEUE_SRCS)

# make queue [QJOURNAL=FILE] [QCANDIDATES=FILE] [QUEUE_DIR=DIR]: the
# accepted rows of the journal as per-maintainer series in QUEUE_DIR,
# checked with checkpatch.pl --strict and git am onto core and pristine.
# QUEUE_DROP_UNCLEAN=1 leaves out (and lists) what checkpatch rejects.
# make queue-check-boot: build the queued tree in PROFILE and boot it;
# QUEUE_BOOT_IN_TREE=1 builds it in TREE (warm objects, TREE restored).
QJOURNAL    ?= $(VJOURNAL)
QCANDIDATES ?= $(if $(CANDIDATES),$(CANDIDATES),$(CAND_DIR)/candidates.tsv)
QUEUE_DIR   ?= $(WORK)/queue
QUEUE_DROP_UNCLEAN ?= 0
MAX_VARS    ?= 8

.PHONY: queue queue-check-boot
queue: patches/queue
	QUEUE_DROP_UNCLEAN=$(QUEUE_DROP_UNCLEAN) MAX_VARS=$(MAX_VARS) \
		sh patches/queue.sh "$(QJOURNAL)" "$(QCANDIDATES)" "$(TREE)" \
		"$(WORK)" "$(QUEUE_DIR)"

queue-check-boot: programs
	ACCEL=$(ACCEL) sh patches/queue-boot.sh $(if $(filter 1,$(QUEUE_BOOT_IN_TREE)),--in-tree) \
		"$(QUEUE_DIR)" "$(TREE)" "$(WORK)" $(PROFILE)

# ---- facts and checker: cocci/ (issue 5) ---------------------------------

# make facts SCOPE="kernel mm" FACTS=$(WORK)/facts: run cocci/facts.cocci
# (prefiltered, cached per file, -j JOBS) and write FACTS/*.tsv.
FACTS ?= $(WORK)/facts
SPATCH_TIMEOUT ?= 120

.PHONY: facts ro-writes
facts:
	sh cocci/run-facts.sh -j $(JOBS) --timeout $(SPATCH_TIMEOUT) \
		"$(TREE)" "$(FACTS)" $(SCOPE)

# make ro-writes [SCOPE=...]: the checker over the files of TREE that
# define __ro_after_init variables; report in WORK/checker/report.txt.
ro-writes:
	sh cocci/run-checker.sh -j $(JOBS) "$(TREE)" "$(WORK)/checker" $(SCOPE)
