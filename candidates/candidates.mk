# SPDX-License-Identifier: GPL-2.0
# candidates/: merge the facts tree-wide, the init-only closure, classify:
# candidates.tsv.

PROGRAMS += candidates/candidates
CAND_SRCS := $(addprefix candidates/,main.c map.c facts.c \
	closure.c classify.c perm.c report.c link.c value.c)
CAND_HDRS := $(wildcard candidates/*.h)

candidates/candidates: $(CAND_SRCS) $(CAND_HDRS) $(LIB)
	$(CC) $(CFLAGS) -o $@ $(CAND_SRCS) $(LIB)

# make candidates SCOPE="kernel mm arch/x86": facts by cocci/run-facts.sh,
# then the aggregator.  Output in CAND_DIR (default WORK/candidates).
CAND_DIR ?= $(WORK)/candidates
# extra run-facts.sh options, e.g. FACTS_OPTS=--no-extend
FACTS_OPTS ?=

.PHONY: candidates bench-loo bench-finder bench-precision
candidates: candidates/candidates cocci/mentions cocci/layouts cocci/protos cocci/callers
	@mkdir -p "$(CAND_DIR)/facts"
	sh cocci/run-facts.sh -j $(JOBS) $(FACTS_OPTS) "$(TREE)" "$(CAND_DIR)/facts" $(SCOPE)
	candidates/candidates --facts "$(CAND_DIR)/facts" \
		--out "$(CAND_DIR)/candidates.tsv"

# Leave-one-out recall over LOO_SCOPE (default: a core subset).  Below the
# target it says so and exits 1 (bench-loo.sh); make bench goes on.
LOO_SCOPE ?= kernel mm init arch/x86/kernel arch/x86/mm security
bench-loo: candidates/candidates cocci/mentions cocci/layouts cocci/protos cocci/callers
	@sh candidates/bench-loo.sh -j $(JOBS) "$(TREE)" "$(WORK)" $(LOO_SCOPE); \
		rc=$$?; [ $$rc -ne 64 ] || exit 64; \
		[ $$rc -eq 0 ] || echo "bench-loo: recall below the target"

# Finder speed: run-facts + candidates with an empty cache over
# FINDER_SCOPE (default: the whole tree; the target is 30 minutes).
FINDER_SCOPE ?=
bench-finder: candidates/candidates cocci/mentions cocci/layouts cocci/protos cocci/callers
	@sh candidates/bench-finder.sh -j $(JOBS) "$(TREE)" "$(WORK)" $(FINDER_SCOPE); \
		rc=$$?; [ $$rc -ne 64 ] || exit 64; \
		[ $$rc -eq 0 ] || echo "bench-finder: slower than the target"

# Precision per confidence level, and recall, on the hand-labelled sample
# of the tree's version, candidates/tests/labelled/MAJOR.MINOR/labels.tsv:
# the finder over the sample's files (and its own extension) into
# WORK/bench/precision/, mismatches.tsv there.  Part of make bench.
bench-precision: candidates/candidates cocci/mentions cocci/layouts cocci/protos cocci/callers
	@sh candidates/bench-precision.sh -j $(JOBS) "$(TREE)" "$(WORK)"; \
		rc=$$?; [ $$rc -ne 64 ] || exit 64; \
		[ $$rc -eq 0 ] || echo "bench-precision: not measured (exit $$rc)"
bench: bench-precision

# Grep cross-check of candidates.tsv (default: the last make candidates):
# no ro_after_init candidate may be written at runtime by WRITE_ONCE,
# smp_store_release, xchg/cmpxchg, this_cpu_*...; violations.tsv in
# WORK/bench/lvalue/.  Part of make bench.
LVALUE_CANDIDATES ?= $(CAND_DIR)/candidates.tsv
.PHONY: bench-lvalue
bench-lvalue:
	@sh candidates/bench-lvalue.sh "$(TREE)" "$(WORK)" "$(LVALUE_CANDIDATES)"; \
		rc=$$?; [ $$rc -ne 64 ] || exit 64; \
		[ $$rc -ne 1 ] || echo "bench-lvalue: candidates written by lvalue macros at runtime"; \
		[ $$rc -le 1 ] || echo "bench-lvalue: not measured (exit $$rc)"
bench: bench-lvalue
