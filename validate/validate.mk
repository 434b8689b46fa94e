# SPDX-License-Identifier: GPL-2.0
# validate/: batch, annotate (spatch), build, section check and boot each
# conversion of a candidates TSV: journal.tsv.

PROGRAMS += validate/validate
VAL_SRCS := $(addprefix validate/,main.c util.c cand.c record.c git.c tree.c \
	jobs-emit.c jobs-run.c jobs-merge.c \
	build.c section.c boot.c bootparse.c strategy.c suspects.c baseline.c plan.c \
	run.c elfcheck.c modules.c devices.c reach.c)
VAL_HDRS := $(wildcard validate/*.h)

validate/validate: $(VAL_SRCS) $(VAL_HDRS) $(LIB)
	$(CC) $(CFLAGS) -o $@ $(VAL_SRCS) $(LIB)

# test-elfcheck.sh's window into elf_symbolize()
CLEAN_FILES += validate/tests/symbolize
validate/tests/symbolize: validate/tests/symbolize.c validate/elfcheck.c \
		$(VAL_HDRS) $(LIB)
	$(CC) $(CFLAGS) -o $@ validate/tests/symbolize.c validate/elfcheck.c \
		$(LIB)

# make validate CANDIDATES=FILE [PROFILE=fast|wide|cover] [BATCH=N]: batch
# validation in a private work tree of TREE (VTREE, created at tag core).
# Verdicts go to VJOURNAL; a rerun resumes.  BATCH's default is in
# lib/defaults.h.
# The work tree is added at its absolute path: git -C TREE would read a
# relative VTREE (a relative WORK) from inside TREE.
CANDIDATES ?=
BATCH      ?=
VTREE      ?= $(WORK)/vtree
VJOURNAL   ?= $(WORK)/validate/$(PROFILE)/journal.tsv
# FARM=parallel|slurm: the batches as jobs in FARM_DIR, run by GNU parallel
# or Slurm and merged into VJOURNAL (validate/farm/farm.sh; README,
# "Running on a farm").
FARM       ?=
FARM_DIR   ?= $(dir $(VJOURNAL))jobs
VALIDATE_CMD = $(if $(FARM),sh validate/farm/farm.sh --runner $(FARM) --dir "$(FARM_DIR)" --,validate/validate)

.PHONY: validate bench-validate
validate: validate/validate qemu-boot/boot
	@test -n "$(CANDIDATES)" || \
		{ echo "make validate: set CANDIDATES=FILE (a candidates TSV)" >&2; exit 64; }
	@test -d "$(VTREE)" || git -C "$(TREE)" worktree add --detach "$$(realpath -m -- "$(VTREE)")" core
	$(VALIDATE_CMD) --candidates "$(CANDIDATES)" --tree "$(VTREE)" \
		--work "$(WORK)" --profile $(PROFILE) $(if $(BATCH),--batch $(BATCH)) \
		--journal "$(VJOURNAL)" --accel $(ACCEL) $(if $(COVER_PLAN),--cover-plan "$(COVER_PLAN)") \
		$(VALIDATE_ARGS)

# Batch validation against the naive cycle, in the fast profile, on the
# candidates in CAND_DIR (made over BENCH_VALIDATE_SCOPE if there are none).
BENCH_VALIDATE_SCOPE ?= init kernel mm
bench-validate: validate/validate qemu-boot/boot candidates/candidates cocci/mentions
	@test -f "$(CAND_DIR)/candidates.tsv" || \
		$(MAKE) --no-print-directory candidates SCOPE="$(BENCH_VALIDATE_SCOPE)"
	sh validate/bench-validate.sh "$(TREE)" "$(WORK)" "$(CAND_DIR)/candidates.tsv"

# The job path (emit, GNU parallel, merge) against the sequential validator
# on the same candidates (BENCH_JOBS_MAX, BENCH_JOBS_BATCH), in one run.
.PHONY: bench-jobs
bench-jobs: validate/validate qemu-boot/boot candidates/candidates cocci/mentions
	@test -f "$(CAND_DIR)/candidates.tsv" || \
		$(MAKE) --no-print-directory candidates SCOPE="$(BENCH_VALIDATE_SCOPE)"
	sh validate/bench-jobs.sh "$(TREE)" "$(WORK)" "$(CAND_DIR)/candidates.tsv"
bench: bench-jobs

# make cover-plan CANDIDATES=FILE: the build-need resolver.  For the file
# of each ro_after_init candidate, the config symbols that compile it, and
# whether olddefconfig keeps them on top of the COVER_BASE profile's
# .config (wide by default; the cover profile's base):
# WORK/cover/plan.tsv and WORK/cover/cover.config.  Seconds, no build.
PROGRAMS += validate/cover-plan
COVER_DIR ?= $(WORK)/cover
COVER_BASE ?= wide

COVER_SRCS := $(addprefix validate/,cover-plan.c cover-kbuild.c cover-need.c \
	cover-kconfig.c cover-deps.c)

validate/cover-plan: $(COVER_SRCS) validate/cover.h validate/cover-kbuild.h $(LIB)
	$(CC) $(CFLAGS) -o $@ $(COVER_SRCS) $(LIB)

# COVER_COMPILE_TEST=1: cover-plan --compile-test (README, "The cover
# profile").  TREE, WORK, COVER_DIR and CANDIDATES reach the recipe through
# the environment and are made absolute there: make -C TREE O=DIR reads a
# relative DIR from inside TREE.
COVER_COMPILE_TEST ?=
.PHONY: cover-plan
cover-plan: export CP_TREE = $(TREE)
cover-plan: export CP_WORK = $(WORK)
cover-plan: export CP_OUT = $(COVER_DIR)
cover-plan: export CP_CAND = $(CANDIDATES)
cover-plan: validate/cover-plan
	@test -n "$$CP_CAND" || \
		{ echo "make cover-plan: set CANDIDATES=FILE (a candidates TSV)" >&2; exit 64; }
	@abs() { case $$1 in /*) printf '%s\n' "$$1" ;; *) printf '%s/%s\n' "$$PWD" "$$1" ;; esac; } && \
	tree=$$(abs "$$CP_TREE") && work=$$(abs "$$CP_WORK") && \
	out=$$(sh qemu-boot/build-kernel.sh --config-only $(COVER_BASE) "$$tree" "$$work") && \
	dir=$$(echo "$$out" | tail -n 1) && \
	validate/cover-plan $(if $(COVER_COMPILE_TEST),--compile-test) \
		--candidates "$$(abs "$$CP_CAND")" --tree "$$tree" \
		--config "$$dir/.config" --out "$$(abs "$$CP_OUT")"

# test-devices-plan.sh's window into devices.c
CLEAN_FILES += validate/tests/devplan
validate/tests/devplan: validate/tests/devplan.c validate/devices.c \
		validate/modules.c validate/util.c validate/run.c \
		$(VAL_HDRS) $(LIB)
	$(CC) $(CFLAGS) -o $@ validate/tests/devplan.c validate/devices.c \
		validate/modules.c validate/util.c validate/run.c $(LIB)

# The cost of a failing batch before and after the search from the
# failure (issue 33): test-bisect.sh's batches, old and new validate.
.PHONY: bench-bisect
bench-bisect: validate/validate qemu-boot/boot
	sh validate/bench-bisect.sh "$(TREE)" "$(WORK)"
bench: bench-bisect
