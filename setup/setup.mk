# SPDX-License-Identifier: GPL-2.0
# setup/: the first stage.  Unpack TARBALL into TREE, make it a git
# repository (tag pristine) and apply setup/core/series (tag core).
# A tree with uncommitted changes is never reset unless SETUP_FORCE=1.

SETUP_FORCE ?= 0

.PHONY: tree bench-core
tree:
	@sh setup/setup-tree.sh $(if $(filter 1,$(SETUP_FORCE)),--force) \
		$(if $(USER_TREE),--from-git "$(USER_TREE)") "$(TARBALL)" "$(TREE)" setup/core

# Boot+suite time with ro_after_init=warn against the default mode.
CORE_BENCH_RUNS ?= 3
bench-core: programs
	sh setup/bench-core.sh --runs $(CORE_BENCH_RUNS) "$(TREE)" "$(WORK)"
