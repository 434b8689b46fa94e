# SPDX-License-Identifier: GPL-2.0
# campaign/: the main job, every stage in order on one scope, and the
# report that joins their outputs.

PROGRAMS += campaign/report
REPORT_SRCS := campaign/report.c campaign/report-read.c campaign/report-html.c \
	campaign/report-tsv.c

campaign/report: $(REPORT_SRCS) campaign/report.h $(LIB) $(LIB_HDRS)
	$(CC) $(CFLAGS) -o $@ $(REPORT_SRCS) $(LIB) -lm

# The main job: make campaign [SCOPE="DIR..."] [PROFILE=fast|wide|cover]
# [NAME=...]: find, validate, queue and report in WORK/campaign/NAME.
# Without SCOPE it runs on a built-in scope the fast profile compiles.
NAME ?= default

.PHONY: campaign
campaign: programs
	sh campaign/campaign.sh $(if $(SCOPE),--scope "$(SCOPE)") \
		--profile $(PROFILE) --name "$(NAME)" $(if $(BATCH),--batch $(BATCH)) \
		"$(TREE)" "$(WORK)"

# What the cover profile buys on BENCH_COVER_SCOPE (default drivers/char
# sound/core): not-built in COVER_BASE (wide) and in cover, the two waves'
# build times, the evidence levels, verdicts per hour, what the boots,
# devices and hit counting cost.  A whole campaign, so it lives here.
# Hours with wide.
.PHONY: bench-cover
bench-cover: programs
	sh campaign/bench-cover.sh "$(TREE)" "$(WORK)"
