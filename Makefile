# SPDX-License-Identifier: GPL-2.0
# ro-campaign: find, validate and queue __ro_after_init conversions.
# "make help" lists the targets.
#
# The stages, in pipeline order, each with its own make fragment:
#   setup/      prepare the tree: unpack, git init, apply setup/core
#   cocci/      facts by spatch (and the mentions prefilter)
#   candidates/ the whole-tree reasoning: candidates.tsv
#   validate/   batch build, section check and boots: journal.tsv
#   patches/    the accepted conversions as git format-patch series
#   campaign/   all of the above in one command, and the report
# qemu-boot/ is the boot service the stages use; lib/ is the C base layer
# every program links.  The formats between stages are in FORMATS.md.

# The kernel: KERNEL=6.12 (default) or 6.1 is Debian's linux-source-KERNEL
# tarball; TREE=/path/to/linux is your own kernel git checkout instead.
# Each kernel has its own work directory under CACHE (trees, builds,
# campaigns), so both versions and your trees live side by side; ccache
# and the build lock are shared.  Your checkout is never written to: the
# campaign works in WORK/linux, a clone that borrows its objects
# (setup/setup-tree.sh, README "Your own tree").
CACHE    ?= $(HOME)/.cache/ro-campaign
KERNEL   ?= 6.12
TARBALL  ?= /usr/src/linux-source-$(KERNEL).tar.xz
# shq: $(1) in single quotes for the shell, so that a path is never code
shq = '$(subst ','\'',$(1))'
ifneq ($(TREE),)
ifeq ($(origin TREE),command line)
# A prepared tree (setup's own, or a test's) is used as it is; any other
# git checkout is the user's, and setup clones it.
USER_TREE := $(shell sh setup/tree-key.sh --user $(call shq,$(TREE)) || echo '!')
ifeq ($(USER_TREE),!)
$(error TREE=$(TREE) is not usable (see the line above))
endif
endif
endif
ifneq ($(USER_TREE),)
WORK     ?= $(CACHE)/own/$(shell sh setup/tree-key.sh --key $(call shq,$(USER_TREE)))
override TREE := $(WORK)/linux
else
WORK     ?= $(CACHE)/$(KERNEL)
TREE     ?= $(WORK)/linux
endif
PROFILE  ?= fast
JOBS     ?= $(shell nproc)
CC       ?= cc
CFLAGS   ?= -O2 -g
CFLAGS   += -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror=implicit-function-declaration
# The same sources make the same binary in any clone: run-facts.sh keys
# its whole-tree tables by the programs' checksums, and the debug info
# would otherwise carry the clone's path (a fresh CI clone rescanned).
CFLAGS   += -ffile-prefix-map=$(CURDIR)=.

PACKAGES := coccinelle linux-source-6.12 linux-source-6.1 gcc make qemu-system-x86 \
	busybox-static sparse flex bison bc libelf-dev libssl-dev cpio \
	xz-utils ccache git perl python3 kmod util-linux gzip chromium time \
	distcc parallel rsync slurm-wlm munge iproute2 b4 git-email libmailtools-perl

export CACHE KERNEL WORK TREE USER_TREE PROFILE JOBS

# KVM stalls in the decompressor on these machines (qemu-boot/README.md,
# "Launcher"), so boots default to TCG; ACCEL=auto probes KVM first (about
# 20 s when it fails).
ACCEL ?= tcg

.PHONY: help setup packages programs test bench clean

help:
	@echo "ro-campaign - __ro_after_init annotation campaigns"
	@echo
	@echo "  make setup          install Debian packages, prepare TREE (pristine + setup/core/VERSION)"
	@echo "  make kernel         build the PROFILE kernel (fast|wide|cover) out of tree, with ccache"
	@echo "  make initramfs      build the busybox initramfs with the guest exercise suite"
	@echo "  make boot           boot the PROFILE kernel in QEMU and run the exercise suite"
	@echo "  make test           run all tests (real spatch, builds and QEMU boots)"
	@echo "  make campaign       find, validate, queue and report (SCOPE=, PROFILE=, NAME=)"
	@echo "  make facts          the spatch facts of SCOPE into FACTS"
	@echo "  make candidates     run the finder on SCOPE (default: the whole tree)"
	@echo "  make validate       boot-validate CANDIDATES=FILE in PROFILE"
	@echo "                     (and campaign: FARM=parallel|slurm runs the batches as jobs,"
	@echo "                     DISTCC_HOSTS=\"h1/8 h2/8\" builds through distcc: README, \"Running on a farm\")"
	@echo "  make cover-plan     the config symbols that compile CANDIDATES=FILE (seconds)"
	@echo "                     (PROFILE=cover: COVER_BASE=wide|fast COVER_FRAGMENT=FILE)"
	@echo "  make queue          turn a validation journal into patch series"
	@echo "  make bench          run the benchmarks, figures go to WORK/bench/results.tsv"
	@echo "  make clean          remove built programs from the repository"
	@echo
	@echo "  make test-slow      the slow tests make test leaves out (test-bisect.sh)"
	@echo "  make test-STAGE     the tests of one stage (lib setup cocci candidates"
	@echo "                      validate patches campaign qemu-boot)"
	@echo
	@echo "Variables: KERNEL=$(KERNEL) (6.12|6.1, Debian's linux-source) or TREE=YOUR-GIT-CHECKOUT"
	@echo "           WORK=$(WORK)"
	@echo "           TREE=$(TREE)  PROFILE=$(PROFILE)  JOBS=$(JOBS)"
	@echo "Exit codes: README.md, \"Exit codes\"."

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
			{ echo "setup: error: apt-get install failed" >&2; exit 70; }; \
	else echo "setup: all packages installed"; fi

PROGRAMS :=
# The stage that tests itself first comes first: make test runs them in
# this order.
STAGES := lib setup cocci candidates validate patches campaign qemu-boot

include lib/lib.mk
include setup/setup.mk
include qemu-boot/qemu-boot.mk
include cocci/cocci.mk
include candidates/candidates.mk
include validate/validate.mk
include patches/patches.mk
include campaign/campaign.mk

programs: $(PROGRAMS)

# ---- tests and benchmarks -----------------------------------------------

# Every STAGE/tests/test-*.sh prints TAP (lib/tap.sh) and exits non-zero on
# failure; the runner counts the ok, "ok ... # SKIP" and not ok lines over
# all of them (a script that prints "1..0 # SKIP" and exits 0 counts one
# skip), and ends with "N skipped" and "N passed, N failed" (.ci/run reads
# the last line; a skip is not a pass).  TESTS= selects a subset.
# SLOW_TESTS are left out of make test (and CI) and run by make test-slow:
# test-bisect.sh does about 12 kernel builds (some 10 minutes idle).
SLOW_TESTS := validate/tests/test-bisect.sh
TESTS ?= $(filter-out $(SLOW_TESTS),$(foreach s,$(STAGES),$(sort $(wildcard $(s)/tests/test-*.sh))))

define run-tests
	@passed=0; failed=0; skipped=0; start=$$(date +%s); \
	mkdir -p "$(WORK)/test-logs"; : >"$(WORK)/test-logs/times"; \
	for t in $(1); do \
		log="$(WORK)/test-logs/$$(echo $$t | tr / _).log"; \
		echo "== $$t"; \
		t0=$$(date +%s); sh $$t > "$$log" 2>&1; rc=$$?; \
		grep -E '^((not )?ok |1\.\.0( |$$))' "$$log" | sed 's/^/   /'; \
		s=$$(grep -ciE '^ok .*#[[:space:]]*skip([^[:alnum:]]|$$)' "$$log"); \
		p=$$(($$(grep -c '^ok ' "$$log") - s)); \
		[ $$rc -ne 0 ] || \
			s=$$((s + $$(grep -c '^1\.\.0\( \|$$\)' "$$log"))); \
		f=$$(grep -c '^not ok ' "$$log"); \
		if [ $$rc -ne 0 ] && [ $$f -eq 0 ]; then \
			f=1; echo "   not ok - $$t exited $$rc (log: $$log)"; \
			tail -n 5 "$$log" | sed 's/^/   # /'; fi; \
		echo "   # $$t took $$(( $$(date +%s) - t0 )) s"; \
		echo "$$(( $$(date +%s) - t0 )) $$t" >>"$(WORK)/test-logs/times"; \
		passed=$$((passed + p)); failed=$$((failed + f)); \
		skipped=$$((skipped + s)); \
	done; \
	echo "# the slowest, in s (all in $(WORK)/test-logs/times):"; \
	sort -rn "$(WORK)/test-logs/times" | head -n 12 | sed 's/^/#   /'; \
	echo "tests took $$(( $$(date +%s) - start )) s"; \
	echo "$$skipped skipped"; \
	echo "$$passed passed, $$failed failed"; \
	[ $$failed -eq 0 ]
endef

test: programs
	$(call run-tests,$(TESTS))

$(addprefix test-,$(STAGES)): test-%: programs
	$(call run-tests,$(sort $(wildcard $*/tests/test-*.sh)))

.PHONY: $(addprefix test-,$(STAGES))

# make test-slow: the SLOW_TESTS, which make test leaves out
.PHONY: test-slow
test-slow: programs
	$(call run-tests,$(SLOW_TESTS))

# Benchmarks append "bench metric value unit date" rows to the results
# file.  BENCH_PROFILES=fast skips the 20-minute cold wide build.
BENCH_PROFILES ?= fast wide

bench: programs
	sh qemu-boot/bench-harness.sh "$(TREE)" "$(WORK)" "$(BENCH_PROFILES)"
	@echo "bench: results in $(WORK)/bench/results.tsv"

bench: bench-loo bench-finder bench-validate bench-core bench-cover

clean:
	rm -f $(PROGRAMS) $(CLEAN_FILES)
