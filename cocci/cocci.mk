# SPDX-License-Identifier: GPL-2.0
# cocci/: facts by spatch over SCOPE, the mentions prefilter, the
# annotation rule and the ro-writes checker.

PROGRAMS += cocci/mentions
cocci/mentions: cocci/mentions.c $(LIB)
	$(CC) $(CFLAGS) -o $@ cocci/mentions.c $(LIB)

# the type trap's table: which types embed, by value, what a keeper
# writes after init (cocci/layouts.c)
PROGRAMS += cocci/layouts
cocci/layouts: cocci/layouts.c $(LIB)
	$(CC) $(CFLAGS) -o $@ cocci/layouts.c $(LIB)

# whole-tree callers: the global functions that only init code calls
# (cocci/callers.c)
PROGRAMS += cocci/callers
CALLERS_SRC = cocci/callers.c cocci/callers-scan.c cocci/callers-fixpoint.c \
	cocci/callers-why.c
cocci/callers: $(CALLERS_SRC) cocci/callers.h $(LIB)
	$(CC) $(CFLAGS) -o $@ $(CALLERS_SRC) $(LIB)

# make facts SCOPE="kernel mm" FACTS=$(WORK)/facts: run cocci/facts.cocci
# (prefiltered, cached per file, -j JOBS) and write FACTS/*.tsv.
SCOPE ?=
FACTS ?= $(WORK)/facts
SPATCH_TIMEOUT ?= 120

.PHONY: facts ro-writes
facts: cocci/mentions cocci/layouts cocci/protos cocci/callers
	sh cocci/run-facts.sh -j $(JOBS) --timeout $(SPATCH_TIMEOUT) \
		"$(TREE)" "$(FACTS)" $(SCOPE)

# make ro-writes [SCOPE=...]: the checker over the files of TREE that
# define __ro_after_init variables; report in WORK/checker/report.txt.
ro-writes:
	sh cocci/run-checker.sh -j $(JOBS) "$(TREE)" "$(WORK)/checker" $(SCOPE)

# make bench-parse [PARSE_EVERY=30]: spatch's parse-error rate and its
# causes over every PARSE_EVERY-th .c file of TREE, fresh cache; rows in
# WORK/bench/results.tsv, buckets in WORK/parse-bench/buckets.tsv. Over
# the 5% target it says so and exits 1 (bench-parse.sh); make bench (which
# runs it) goes on.
PARSE_EVERY ?= 30
.PHONY: bench-parse
bench-parse: cocci/mentions
	@sh cocci/bench-parse.sh -j $(JOBS) --every $(PARSE_EVERY) "$(TREE)" "$(WORK)"; \
		rc=$$?; [ $$rc -le 1 ] || exit $$rc; \
		[ $$rc -eq 0 ] || echo "bench-parse: parse-error rate above the target"
bench: bench-parse

# protos: the arguments that every declaration of a function takes as a
# pointer to const (cocci/protos.c)
PROGRAMS += cocci/protos
cocci/protos: cocci/protos.c $(LIB)
	$(CC) $(CFLAGS) -o $@ cocci/protos.c $(LIB)
