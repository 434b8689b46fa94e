#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test-hostile.sh - the farm scripts on hostile and careless input (issue
# 34): a --dir that holds the user's files, a jobs directory whose name
# is shell code, job names that leave DIR.  No kernel is built: the jobs
# fail in run-job.sh's first checks, which is far enough to see what ran.
# Seconds.

here=$(cd "$(dirname "$0")/.." && pwd)
top=$(cd "$here/.." && pwd)
WORK=${WORK:-$HOME/.cache/ro-campaign}
st=$WORK/test-validate-hostile
bin=$here/validate
farm=$here/farm
. "$top/lib/tap.sh"

# all "SHELL-CONDITION": for check, a condition of several commands
all() {
	eval "$1"
}

[ -x "$bin" ] || make -C "$top" -s validate/validate ||
	{ not_ok "build validate/validate" "make failed"; finish; }
rm -rf "$st"
mkdir -p "$st" || { not_ok "create $st" "mkdir failed"; finish; }

# ---- 1. farm.sh deletes only what validate wrote ----------------------------

# an interrupted emission (farm.tsv, no jobs.tsv) in a directory that
# also holds the user's files, at the top and inside a job
d=$st/farm1
mkdir -p "$d/base" "$d/job-0001/base" "$d/job-0001/boots/job-0001.1.1-1-warn"
echo thesis >"$d/thesis.txt"
echo notes >"$d/job-0001/notes.txt"
printf 'key\tvalue\n' >"$d/farm.tsv"
: >"$d/base/0001-0123456789abcdef0123456789abcdef01234567"
printf 'key\tvalue\n' >"$d/job-0001/job.tsv"
: >"$d/job-0001/base/0001-0123456789abcdef0123456789abcdef01234567"
: >"$d/job-0001/boots/job-0001.1.1-1-warn/console.log"
sh "$farm/farm.sh" --runner parallel --dir "$d" -- \
	--candidates "$st/none.tsv" >"$st/farm1.out" 2>&1
rc=$?
why="exit $rc: $(tr '\n' ' ' <"$st/farm1.out")"
check "farm.sh: the user's files in --dir survive (DIR/thesis.txt, DIR/job-0001/notes.txt)" \
	all '[ -f "$d/thesis.txt" ] && [ -f "$d/job-0001/notes.txt" ]'
check "farm.sh: what validate wrote there is removed, file by file" \
	all '[ ! -e "$d/farm.tsv" ] && [ ! -e "$d/base" ] &&
		[ ! -e "$d/job-0001/job.tsv" ] && [ ! -e "$d/job-0001/boots" ]'
check "farm.sh: exit 65, naming the file it left" \
	all '[ $rc -eq 65 ] && grep -q thesis.txt "$st/farm1.out"'

# the same emission without the user's files goes entirely, and validate
# runs (and refuses the missing candidates)
d=$st/farm2
mkdir -p "$d/base" "$d/job-0001"
printf 'key\tvalue\n' >"$d/farm.tsv"
: >"$d/base/0001-0123456789abcdef0123456789abcdef01234567"
printf 'key\tvalue\n' >"$d/job-0001/job.tsv"
: >"$d/job-0001/run.log"
sh "$farm/farm.sh" --runner parallel --dir "$d" -- \
	--candidates "$st/none.tsv" >"$st/farm2.out" 2>&1
rc=$?
why="exit $rc: $(tr '\n' ' ' <"$st/farm2.out")"
check "farm.sh: an emission of validate's files only is removed, then validate runs" \
	all '[ ! -e "$d" ] && [ $rc -ne 0 ] && [ $rc -ne 65 ]'

# a link in DIR is not followed: the files behind it stay
d=$st/farm3
mkdir -p "$d" "$st/user-base"
: >"$st/user-base/0001-0123456789abcdef0123456789abcdef01234567"
ln -s "$st/user-base" "$d/base"
printf 'key\tvalue\n' >"$d/farm.tsv"
sh "$farm/farm.sh" --runner parallel --dir "$d" -- \
	--candidates "$st/none.tsv" >"$st/farm3.out" 2>&1
rc=$?
why="exit $rc: $(tr '\n' ' ' <"$st/farm3.out")"
check "farm.sh: DIR/base a link to the user's directory: its files stay, exit 65" \
	all '[ -f "$st/user-base/0001-0123456789abcdef0123456789abcdef01234567" ] && [ $rc -eq 65 ]'

# ---- 2. run-parallel.sh: paths are data, not shell code -----------------------

# A checkout and a jobs directory whose names are shell code; the job's
# base commit is bad, so run-job.sh stops at once with exit 65 and
# "bad base commit": that message is the proof it got the right path.
evil='a b$(touch PWN1)`touch PWN2`;touch PWN3;'"'"'q'
co=$st/co-$evil
mkdir -p "$co/validate/farm" "$co/lib" "$st/cwd" "$st/remote"
cp "$farm"/*.sh "$co/validate/farm/" && cp "$top/lib/args.sh" "$co/lib/" &&
	cp "$bin" "$co/validate/validate"
jd=$st/jobs-$evil
mkdir -p "$jd/job-0001"
printf 'job\tmembers\tcommand\njob-0001\t1\tsh validate/farm/run-job.sh job-0001\n' >"$jd/jobs.tsv"
printf 'key\tvalue\njob\tjob-0001\nbase\tnot-a-commit\nkernel\t6.12.0\n' >"$jd/job-0001/job.tsv"
pwned() {
	find "$st" -name 'PWN*' | grep -q . && why="$(find "$st" -name 'PWN*' | tr '\n' ' ')created: shell code ran"
}
(cd "$st/cwd" && sh "$co/validate/farm/run-parallel.sh" "$jd") >"$st/par1.out" 2>&1
rc=$?
why="exit $rc: $(tr '\n' ' ' <"$st/par1.out")"
check "run-parallel.sh: a checkout and DIR named \$(..), \`..\`, ;, ' and a space: nothing runs as code" \
	all '! pwned'
why="exit $rc: $(tr '\n' ' ' <"$st/par1.out")"
check "run-parallel.sh: the job got its own path (run-job.sh: bad base commit, exit 1)" \
	all '[ $rc -eq 1 ] && grep -q "bad base commit" "$st/par1.out"'

# over ssh: ssh is a local shell whose login directory is $st/remote
cat >"$st/ssh" <<SSH
#!/bin/sh
while [ \$# -gt 0 ]; do
	case \$1 in
	-l | -p | -o | -i | -F) shift 2 ;;
	-*) shift ;;
	*) break ;;
	esac
done
shift
[ "\${1:-}" = -- ] && shift
cd '$st/remote' || exit 255
exec sh -c "\$*"
SSH
chmod +x "$st/ssh"
echo "1/farmworker" >"$st/logins"
(cd "$st/cwd" && env -u SHELL PARALLEL_SSH="$st/ssh" sh "$co/validate/farm/run-parallel.sh" \
	--sshloginfile "$st/logins" --remote-tools "$co" "$jd") >"$st/par2.out" 2>&1
rc=$?
why="exit $rc: $(tr '\n' ' ' <"$st/par2.out")"
check "run-parallel.sh --sshloginfile: the same names over ssh: nothing runs as code" \
	all '! pwned'
why="exit $rc: $(tr '\n' ' ' <"$st/par2.out")"
check "run-parallel.sh --sshloginfile: the job was copied there and got its own path" \
	all '[ $rc -eq 1 ] && grep -q "bad base commit" "$st/par2.out" &&
		[ -f "$st/remote/jobs-$evil/job-0001/job.tsv" ]'

# a job name that leaves DIR: its status must not be removed
mkdir -p "$st/jobs3/job-1" "$st/outside"
printf 'job\tmembers\tcommand\n' >"$st/jobs3/jobs.tsv"
: >"$st/outside/job.tsv"
echo mine >"$st/outside/status"
sh "$farm/run-parallel.sh" "$st/jobs3" job-1/../../outside >"$st/par3.out" 2>&1
rc=$?
why="exit $rc: $(tr '\n' ' ' <"$st/par3.out")"
check "run-parallel.sh job-1/../../outside: refused (exit 64), nothing removed outside DIR" \
	all '[ $rc -eq 64 ] && [ -f "$st/outside/status" ]'
mkdir -p "$st/bin"
printf '#!/bin/sh\necho "sbatch $*" >>"%s/sbatch.calls"\n' "$st" >"$st/bin/sbatch"
chmod +x "$st/bin/sbatch"
SBATCH=$st/bin/sbatch sh "$farm/submit-slurm.sh" "$st/jobs3" job-1/../../outside >"$st/slurm3.out" 2>&1
rc=$?
why="exit $rc: $(tr '\n' ' ' <"$st/slurm3.out")"
check "submit-slurm.sh job-1/../../outside: refused (exit 64), nothing submitted" \
	all '[ $rc -eq 64 ] && [ ! -e "$st/sbatch.calls" ]'

# ---- 3. --merge takes a job's journal only as it was when the job finished ----

# fnv1a FILE: lib's 64-bit FNV-1a of FILE, as journal.hash records it
fnv1a() {
	_h=-3750763034362895579
	for _b in $(od -An -v -tu1 "$1"); do
		_h=$(( (_h ^ _b) * 1099511628211 ))
	done
	printf '%016x\n' "$_h"
}
TAB=$(printf '\t')
# an emission of one job of one member, x in init/main.c, rejected; the
# job finished (journal.hash)
mk_emission() {
	rm -rf "$1"
	mkdir -p "$1/job-0001" "$st/camp"
	printf 'key\tvalue\nemission\t1.1\nprofile\tfast\nconfig_hash\t0123456789ab\ncore_hash\tba9876543210\njournal\t%s\n' \
		"$st/camp/journal.tsv" >"$1/farm.tsv"
	printf 'job\tmembers\tcommand\njob-0001\t1\tsh validate/farm/run-job.sh job-0001\n' >"$1/jobs.tsv"
	printf 'file\tline\tname\tjob_role\ninit/main.c\t3\tx\tmember\n' >"$1/job-0001/candidates.tsv"
	printf 'time\tvariable\tfile\tline\tbatch\tverdict\tevidence\tlevel\tconfig_hash\tcore_hash\n2026-01-01T00:00:00Z\tx\tinit/main.c\t3\tjob-0001.1.1\trejected\tboot: oops\t-\t0123456789ab\tba9876543210\n' \
		>"$1/job-0001/journal.tsv"
	printf 'key\tvalue\nfnv1a\t%s\nbytes\t%s\n' "$(fnv1a "$1/job-0001/journal.tsv")" \
		"$(wc -c <"$1/job-0001/journal.tsv")" >"$1/job-0001/journal.hash"
	printf 'key\tvalue\nrc\t0\nhost\tw\nslot\t1\nseconds\t1\n' >"$1/job-0001/status"
	rm -f "$st/camp/journal.tsv"
}
mk_emission "$st/em"
"$bin" --merge "$st/em" >"$st/merge1.out" 2>&1
rc=$?
why="exit $rc: $(tr '\n' ' ' <"$st/merge1.out")"
check "--merge of a finished job: its rejection is merged (exit 0)" \
	all '[ $rc -eq 0 ] && grep -q "${TAB}rejected${TAB}" "$st/camp/journal.tsv"'

mk_emission "$st/em"
sed -i 's/\trejected\tboot: oops\t-\t/\taccepted\tbuilt=init\/main.o\tbuilt\t/' "$st/em/job-0001/journal.tsv"
"$bin" --merge "$st/em" >"$st/merge2.out" 2>&1
rc=$?
why="exit $rc: $(tr '\n' ' ' <"$st/merge2.out")"
check "--merge of a job whose rejection was edited into an acceptance: exit 65, naming the job, nothing merged" \
	all '[ $rc -eq 65 ] && grep -q "job-0001: .*changed after the job finished" "$st/merge2.out" &&
		! grep -q accepted "$st/camp/journal.tsv"'

# ---- 4. a refused run leaves no journal directory behind ------------------------

mkdir -p "$st/gtree" "$st/w4"
git -C "$st/gtree" init -q
printf 'file\tline\tname\n' >"$st/bad-cands.tsv"
# refused NAME ARG...: validate ARG... is refused with exit 65 (bad input,
# not usage: a candidates file or an --extra-patch that is not there, a
# malformed one), naming NAME, and the journal's directory is not made.
refused() {
	named=$1
	shift
	"$bin" "$@" --tree "$st/gtree" --work "$st/w4" --tools "$top" \
		--journal "$st/jdir/sub/journal.tsv" >"$st/jd.out" 2>&1
	rc=$?
	why="exit $rc: $(tr '\n' ' ' <"$st/jd.out")"
	check "validate refuses $named: exit 65, naming it; the journal's directory is not made" \
		all '[ $rc -eq 65 ] && grep -q "$named" "$st/jd.out" && [ ! -e "$st/jdir" ]'
}
refused no-such.tsv --candidates "$st/no-such.tsv"
refused bad-cands.tsv --candidates "$st/bad-cands.tsv"
refused no-such.patch --candidates "$st/bad-cands.tsv" \
	--extra-patch "$st/no-such.patch"

finish
