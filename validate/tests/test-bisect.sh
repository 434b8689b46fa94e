#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test-bisect.sh - the search of a failing batch starts from what the
# failure names (issue 33), with real fast profile builds and QEMU boots.
# The fixture (fixtures/bisect.patch, applied with --extra-patch) adds
#   init/version.c          18 plain variables set by an initcall: safe
#                           __ro_after_init conversions in vmlinux
#   samples/kobject/kobject-example.c  (a module in the fast profile,
#                           whose example_kobj is a safe conversion) two
#                           charp parameters, rocm_name and rocm_alias,
#                           which made __initdata are read by
#                           param_free_charp() at unload after the init
#                           sections are freed: an oops that names no
#                           variable
# Run 1: 20 conversions, one culprit (rocm_name), killed with SIGKILL
# during the suspect step, then resumed: the oops faults on a not-present
# page at rocm_name itself, in the freed .init.data of the module (whose
# load address the modules exercise printed), so it is the one suspect;
# it is rejected by the suspect step ("suspects=rocm_name:1" in its
# evidence) in at most 4 builds (3: the batch, the suspect, the rest), the
# 19 others accepted.
# Run 2: 21 conversions, two culprits (rocm_name, rocm_alias): both
# rejected, the 19 others accepted, as a whole bisection would decide;
# without --batch, the progress line says the size and why.
# Every boot runs the modules exercise only.
#
# Environment: WORK, TREE (from the Makefile), VTREE (default WORK/vtree).

here=$(cd "$(dirname "$0")/.." && pwd)
top=$(cd "$here/.." && pwd)
WORK=${WORK:-$HOME/.cache/ro-campaign}
TREE=${TREE:-$WORK/linux}
VTREE=${VTREE:-$WORK/vtree}
bin=$here/validate
st=$WORK/bisect-test
fx=$here/tests/fixtures/bisect.patch
. "$top/lib/tap.sh"
. "$here/tests/vtree.sh"

make -C "$top" -s validate/validate qemu-boot/boot >/dev/null ||
	{ not_ok "build validate/validate" "make failed"; finish; }
vtree_add

# The fixture's files at core with the patch applied, for their lines.
fxt=$st/fixture
rm -rf "$st"
mkdir -p "$st/a" "$st/b" "$fxt/init" "$fxt/samples/kobject"
for f in init/version.c samples/kobject/kobject-example.c; do
	git -C "$TREE" show "core:$f" > "$fxt/$f"
done
(cd "$fxt" && git apply "$fx") ||
	{ not_ok "the fixture applies at core" "git apply failed"; finish; }
fx_line() {	# fx_line FILE NAME: the line of NAME's definition in FILE
	grep -n "^static [a-z ]*\**$2[ ;]" "$fxt/$1" | head -n 1 | cut -d: -f1
}
hdr='file\tline\tname\tstorage\tclass\tconfidence\treason\tevidence\n'
idr='read only by __init code: __initdata, freed with the init sections'
cands() {	# cands CULPRITS...: the fixture's candidates and the culprits
	printf "$hdr"
	for i in 01 02 03 04 05 06 07 08 09 10 11 12 13 14 15 16 17 18; do
		printf 'init/version.c\t%s\trocf_v%s\tstatic\tro_after_init\thigh\tinit-only\t-\n' \
			"$(fx_line init/version.c rocf_v$i)" $i
	done
	m=samples/kobject/kobject-example.c
	printf '%s\t%s\texample_kobj\tstatic\tro_after_init\thigh\tinit-only\t-\n' \
		$m "$(fx_line $m example_kobj)"
	for c in "$@"; do
		printf '%s\t%s\t%s\tstatic\tinitdata\t-\t%s\t-\n' $m \
			"$(fx_line $m "$c")" "$c" "$idr"
	done
}
cands rocm_name > "$st/a/candidates.tsv"
cands rocm_name rocm_alias > "$st/b/candidates.tsv"
bad=$(awk -F'\t' 'NR > 1 && $2 !~ /^[0-9]+$/' "$st/b/candidates.tsv")
[ -z "$bad" ] || { not_ok "the fixture's lines" "no line for: $bad"; finish; }

run() {	# run DIR: validate DIR/candidates.tsv into DIR/journal.tsv
	"$bin" --candidates "$1/candidates.tsv" --tree "$VTREE" --work "$WORK" \
		--tools "$top" --profile fast --exercise modules --batch 32 \
		--extra-patch "$fx" --journal "$1/journal.tsv"
}
verdict() {	# verdict JOURNAL NAME: "verdict<TAB>evidence" of NAME
	awk -F'\t' -v n="$2" '$2 == n { r = $6 "\t" $7 } END { print r }' "$1"
}
# accepted_others JOURNAL N: N rows accepted, all but the culprits
accepted_others() {
	a=$(awk -F'\t' 'NR > 1 && $6 == "accepted"' "$1" | wc -l)
	bad=$(awk -F'\t' 'NR > 1 && $6 != "accepted" && $2 !~ /^rocm_(name|alias)$/ { print $2 ": " $7 }' "$1")
	why="$a accepted, want $2; others: $bad"
	[ "$a" -eq "$2" ] && [ -z "$bad" ]
}

# --- run 1: one culprit, killed during the suspect step, resumed ----------
ja=$st/a/journal.tsv
setsid sh -c 'exec "$0" "$@"' "$bin" --candidates "$st/a/candidates.tsv" \
	--tree "$VTREE" --work "$WORK" --tools "$top" --profile fast \
	--exercise modules --batch 32 --extra-patch "$fx" --journal "$ja" \
	> "$st/a/run1.out" 2>&1 &
pid=$!
# The suspect step begins with its line on stderr; kill the process group
# (validator, build, QEMU) once its boot has begun.  The builds wait
# for the shared build lock: up to 4 hours.
t=0
# Not during its build's reset: a kill -9 inside git checkout leaves
# git's index.lock behind, and no rerun can reset the tree then (git.c).
while kill -0 $pid 2>/dev/null && [ $t -lt 14400 ]; do
	grep -q ' suspects (' "$st/a/run1.out" &&
		[ "$(ls "$st/a/boots" 2>/dev/null | grep -vc baseline)" -ge 2 ] &&
		break
	sleep 1
	t=$((t + 1))
done
killed=0
grep -q ' suspects (' "$st/a/run1.out" && killed=1
kill -KILL -$pid 2>/dev/null
wait $pid 2>/dev/null
rows1=$(($(wc -l < "$ja" 2>/dev/null || echo 1) - 1))
why="$(tail -n 3 "$st/a/run1.out" | tr '\n' '|')"
check "run 1 killed during the suspect step ($rows1 verdicts journaled)" \
	[ $killed -eq 1 ]
run "$st/a" > "$st/a/run2.out" 2>&1
rc=$?
why="exit $rc; $(tail -n 3 "$st/a/run2.out" | tr '\n' '|')"
check "the resumed run exits 0" [ $rc -eq 0 ]
rows=$(($(wc -l < "$ja") - 1))
dups=$(cut -f2-4 "$ja" | sort | uniq -d | wc -l)
check "20 verdicts, none twice (got $rows, $dups twice)" \
	sh -c "[ $rows -eq 20 ] && [ $dups -eq 0 ]"
v=$(verdict "$ja" rocm_name)
why="rocm_name: $v"
check "the culprit is rejected through the suspect step, named by the faulting address" \
	sh -c "printf '%s\n' '$v' | grep -q '^rejected	warn boot: .*; suspects=rocm_name:1; bisect=0 steps; confirmed=[2-9] failures'"
check "the 19 others are accepted" accepted_others "$ja" 19
b=$(sed -n 's/^builds	//p' "$st/a/stats.tsv")
why="builds '$b' (stats.tsv)"
check "the resumed run found it in at most 4 builds" \
	sh -c "[ -n '$b' ] && [ '$b' -le 4 ]"
check "steps.tsv holds the suspect step" \
	grep -q '	suspects-warn	fail	1	' "$st/a/steps.tsv"
check "the guest printed the module's section addresses" \
	sh -c "cat '$st'/a/boots/*/console.log | grep -q '# rocampaign: module-sections kobject_example .*\.init\.data=0x[0-9a-f]*[1-9a-f]'"

# --- run 2: two culprits in one batch -------------------------------------
cp "$st"/a/baseline-*.tsv "$st/b/" 2>/dev/null
"$bin" --candidates "$st/b/candidates.tsv" --tree "$VTREE" --work "$WORK" \
	--tools "$top" --profile fast --exercise modules --extra-patch "$fx" \
	--journal "$st/b/journal.tsv" > "$st/b/run.out" 2>&1
rc=$?
jb=$st/b/journal.tsv
why="exit $rc; $(tail -n 3 "$st/b/run.out" | tr '\n' '|')"
check "two culprits: exit 0" [ $rc -eq 0 ]
va=$(verdict "$jb" rocm_name)
vb=$(verdict "$jb" rocm_alias)
why="rocm_name: $va; rocm_alias: $vb"
check "both culprits rejected, each by a search that began with suspects named by its own faulting address" \
	sh -c "printf '%s\n' '$va' | grep -q '^rejected	.*suspects=rocm_name:' && \
		printf '%s\n' '$vb' | grep -q '^rejected	.*suspects=rocm_alias:'"
check "the 19 others accepted, as a whole bisection decides" \
	accepted_others "$jb" 19
check "without --batch the progress line says the batch size and why" \
	grep -q '^validate: batch 1/1 (size [0-9]*[ ,]' "$st/b/run.out"
b=$(sed -n 's/^builds	//p' "$st/b/stats.tsv")
echo "# two culprits: $b builds, $(sed -n 's/^boots	//p' "$st/b/stats.tsv") boots"
# validate applies --extra-patch after every reset: the fixture stays
check "the work tree holds nothing but the fixture after the runs" \
	sh -c "[ \$(git -C '$VTREE' status --porcelain | wc -l) -eq 2 ] && \
		git -C '$VTREE' apply -R --check '$fx'"
finish
