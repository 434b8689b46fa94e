#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bench-bisect.sh - the cost of a failing batch, before and after the
# search that starts from the failure (issue 33).
#
# Usage: bench-bisect.sh TREE WORK
#
# The batches of validate/tests/test-bisect.sh (its fixture: 18 safe
# conversions in vmlinux, a module's safe one, and one or two __initdata
# module parameters that oops at unload), validated in the fast profile
# with the modules exercise by validate/validate as it is, and by the
# validate of BEFORE (a git revision of this checkout; default: the
# parent of the commit that added validate/suspects.c), each into a fresh
# journal.  The baseline is booted once and shared.
# Appends "bench metric value unit date" rows to WORK/bench/results.tsv:
# for each of before and after and each batch (one, two culprits): builds,
# boots, wall seconds and verdicts per hour.
# Exit: 0 measured, 1 a run failed, 64 usage, 70 the old validate did not
# build.

set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
prog_name=bench-bisect
. "$top/lib/args.sh"
help_maybe "$0" "$@"
[ $# -eq 2 ] || { echo "usage: bench-bisect.sh TREE WORK" >&2; exit 64; }
tree=$1
work=$2
vtree=${VTREE:-$work/vtree}
fx=$here/tests/fixtures/bisect.patch
out=$work/bench
res=$out/results.tsv
st=$out/bisect
date=$(date -u +%Y-%m-%dT%H:%M:%SZ)

before=${BEFORE:-}
if [ -z "$before" ]; then
	added=$(git -C "$top" log --diff-filter=A --format=%H -- validate/suspects.c | tail -n 1)
	[ -n "$added" ] || die 70 "no commit adds validate/suspects.c: set BEFORE=REV"
	before=$added~1
fi
rm -rf "$st"
mkdir -p "$st/old" "$out"
[ -f "$res" ] || printf 'bench\tmetric\tvalue\tunit\tdate\n' > "$res"
git -C "$top" archive "$before" | tar -x -C "$st/old" ||
	die 70 "git archive $before failed"
make -s -C "$st/old" validate/validate qemu-boot/boot >/dev/null 2>&1 ||
	die 70 "validate of $before does not build"
if [ ! -d "$vtree" ]; then
	git -C "$tree" worktree add --detach "$vtree" core >/dev/null 2>&1 ||
		die 70 "git worktree add $vtree failed"
fi
emit() {
	printf 'bisect\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$date" >> "$res"
	printf 'bisect\t%s\t%s\t%s\n' "$1" "$2" "$3"
}

# The candidates, as test-bisect.sh writes them, from the fixture's files
# at core with the patch applied.
fxt=$st/fixture
mkdir -p "$fxt/init" "$fxt/samples/kobject"
for f in init/version.c samples/kobject/kobject-example.c; do
	git -C "$tree" show "core:$f" > "$fxt/$f" || die 70 "$tree: no $f at core"
done
(cd "$fxt" && git apply "$fx") || die 70 "$fx does not apply at core"
eval "$(sed -n '/^fx_line() {/,/^}/p; /^hdr=/p; /^idr=/p; /^cands() {/,/^}/p' \
	"$here/tests/test-bisect.sh")"
fail=0
# The bare kernel's build and boots, once (--max 0 decides nothing): each
# run below starts from its files, so its figures are the batch's alone.
mkdir -p "$st/base"
cands rocm_name > "$st/base/candidates.tsv"
"$top/validate/validate" --candidates "$st/base/candidates.tsv" \
	--tree "$vtree" --work "$work" --tools "$top" --profile fast \
	--exercise modules --extra-patch "$fx" --max 0 \
	--journal "$st/base/journal.tsv" > "$st/base/run.out" 2>&1 ||
	die 70 "the baseline failed, see $st/base/run.out"
for who in after before; do
	bin=$top/validate/validate
	tools=$top
	[ $who = before ] && { bin=$st/old/validate/validate; tools=$st/old; }
	for k in 1 2; do
		d=$st/$who-$k
		mkdir -p "$d"
		if [ $k -eq 1 ]; then
			cands rocm_name > "$d/candidates.tsv"
		else
			cands rocm_name rocm_alias > "$d/candidates.tsv"
		fi
		cp "$st"/base/baseline-*.tsv "$d/" 2>/dev/null
		t0=$(date +%s)
		"$bin" --candidates "$d/candidates.tsv" --tree "$vtree" \
			--work "$work" --tools "$tools" --profile fast \
			--exercise modules --batch 32 --extra-patch "$fx" \
			--journal "$d/journal.tsv" > "$d/run.out" 2>&1 ||
			{ echo "bench-bisect: $who, $k culprits: exit $?, see $d/run.out" >&2
			  fail=1; continue; }
		wall=$(($(date +%s) - t0))
		builds=$(sed -n 's/^builds	//p' "$d/stats.tsv")
		boots=$(sed -n 's/^boots	//p' "$d/stats.tsv")
		n=$(($(wc -l < "$d/journal.tsv") - 1))
		emit "$who-$k-culprit-builds" "$builds" builds
		emit "$who-$k-culprit-boots" "$boots" boots
		emit "$who-$k-culprit-wall" "$wall" s
		emit "$who-$k-culprit-verdicts-per-hour" \
			"$((n * 3600 / (wall > 0 ? wall : 1)))" verdicts/h
	done
done
exit $fail
