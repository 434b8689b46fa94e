# SPDX-License-Identifier: GPL-2.0
# campaign/: the main job, every stage in order on one scope, and the
# report that joins their outputs.

PROGRAMS += campaign/report
REPORT_SRCS := campaign/report.c

campaign/report: $(REPORT_SRCS) validate/util.c validate/validate.h
	$(CC) $(CFLAGS) -Ivalidate -o $@ $(REPORT_SRCS) validate/util.c -lm

# The main job: make campaign [SCOPE="DIR..."] [PROFILE=fast|wide]
# [NAME=...]: find, validate, queue and report in WORK/campaign/NAME.
# Without SCOPE it runs on a built-in scope the fast profile compiles.
NAME ?= default

.PHONY: campaign
campaign: programs
	sh campaign/campaign.sh $(if $(SCOPE),--scope "$(SCOPE)") \
		--profile $(PROFILE) --name "$(NAME)" $(if $(BATCH),--batch $(BATCH)) \
		"$(TREE)" "$(WORK)"
