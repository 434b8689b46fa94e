# SPDX-License-Identifier: GPL-2.0
# seed-tables.sh - sourced by the campaign tests:
#   seed_tables CACHE SRCWORK
#
# cocci/run-facts.sh keeps the whole-tree tables (cocci/layouts, protos
# and callers: token scans of every file of the tree, 20-40 s of one core
# each) in its facts cache, one cache per campaign, under names that carry
# their inputs' key (NAME-KEY.tsv: the tree's commit, its uncommitted
# changes and untracked files, the program's checksum).  They run beside
# spatch, but a campaign test whose spatch results are cached waits for
# them: about 45 s of both cores, 85 s before they ran in the background.
# A campaign test on the prepared tree would scan the tree again for
# tables that candidates/tests/test-loo.sh (its first run-facts, on the
# same tree) or test-campaign.sh computed earlier in the same make test.
# seed_tables hard-links the table files of the caches under SRCWORK (the
# test-loo cache and every campaign's) into CACHE, a campaign's facts
# cache.  run-facts reads a seeded table only when its name is the key of
# its own inputs, so a table made from another commit or another build of
# a program is never used; when no earlier test left one (a test run
# alone) run-facts scans the tree as before.
# The per-file spatch results are not seeded: the campaign tests' scopes
# differ, and test-campaign.sh's 91 files take 15 s.  Nothing is
# overwritten; a failed link falls back to a copy, then to nothing
# (run-facts computes what is missing).

seed_tables() {
	_st_dst=$1
	mkdir -p "$_st_dst" || return 0
	for _st_c in "$2"/test-loo/loo/cache "$2"/campaign/*/facts/cache; do
		[ -d "$_st_c" ] || continue
		[ "$(cd "$_st_c" && pwd -P)" != "$(cd "$_st_dst" && pwd -P)" ] || continue
		for _st_f in "$_st_c"/*; do
			_st_b=${_st_f##*/}
			case $_st_b in
			layouts-*.tsv | protos-*.tsv | callers-*.tsv)
				[ -f "$_st_f" ] && [ ! -e "$_st_dst/$_st_b" ] || continue
				ln "$_st_f" "$_st_dst/" 2>/dev/null ||
					cp "$_st_f" "$_st_dst/" 2>/dev/null ;;
			esac
		done
	done
	return 0
}
