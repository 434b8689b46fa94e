#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# campaign.sh - a whole __ro_after_init campaign: find, validate, queue,
# report.
#
# Usage: campaign.sh [--scope "PATH..."] [--profile fast|wide|cover] [--name NAME]
#                    [--batch N] TREE WORK
#
#   --scope    files and directories of TREE, separated by spaces (default
#              "init kernel/power"; "" is the whole tree).  Each must be
#              relative to TREE, made of letters, digits and . _ - + /,
#              with no empty, '.' or '..' component (else exit 64), and
#              must exist in TREE (else exit 65)
#   --name     the campaign directory's name: letters, digits, . _ -, not
#              starting with '.' or '-' (default "default")
#   --batch    conversions per validation batch, passed to validate only
#              when given (the default is validate's, lib/defaults.h)
#   --profile  the kernel that validates: fast (tinyconfig-based), wide
#              (x86_64_defconfig + kvm_guest) or cover: COVER_BASE (wide,
#              or fast) plus the config symbols the candidates' files
#              need (validate/cover-plan), tristates as modules, so that
#              the guest cycles them; in waves of COVER_WAVE (500)
#              candidates, each wave adding its symbols to the last one's
#
# Stages, in WORK/campaign/NAME:
#   find      cocci/run-facts.sh over SCOPE (phase 2 adds the files that
#             mention its globals), candidates/candidates over the facts;
#             scope.tsv keeps the rows of variables defined in SCOPE
#   validate  validate/validate on scope.tsv in a work tree of TREE at tag
#             core (WORK/vtree): journal.tsv
#   queue     patches/queue.sh: queue/, checkpatch-clean (unclean patches
#             are left out and listed in queue/README); with the fast
#             profile, medium-confidence conversions are left out too
#   report    campaign/report: report.html, report.tsv, funnel.tsv
# A stage whose inputs did not change since it last succeeded is skipped
# (its stamp in .stamps/).  Every stage resumes: facts are cached per file,
# verdicts are journaled as they are decided, so Ctrl-C or kill -9 loses
# at most the work in flight; run the same command again.
# summary.txt and times.tsv hold the closing summary and stage times.
# Every TSV file is read by column name (lib/tsv.sh, FORMATS.md).
# Environment: VTREE (WORK/vtree), JOBS (number of cores), COVER_BASE,
# COVER_WAVE, COVER_COMPILE_TEST=1 (--profile cover; the last plans with
# cover-plan --compile-test, for the drivers only ISA || COMPILE_TEST
# gates), QUEUE_ALLOW_BUILT=1 (queue accepted
# conversions that were only built, not booted through their code; see
# patches/QUEUE.md).
# FARM=parallel|slurm runs the validate stage's batches as jobs in
# CDIR/jobs on GNU parallel or Slurm and merges them (validate/farm/farm.sh,
# its FARM_* settings); DISTCC_HOSTS compiles every kernel build through
# distcc (qemu-boot/build-kernel.sh).  README, "Running on a farm".
# Exit: 0 done, 1 a stage failed (named), 64 usage, 65 bad input data (a
#   TREE that is not prepared, a scope entry missing from it, a TSV file
#   without a needed column), 70 host error (programs not built, spatch
#   missing), 130 interrupted.

set -u
# No pathname expansion anywhere: $scope is split into words, never globbed.
set -f

root=$(cd "$(dirname "$0")/.." && pwd)
prog_name=campaign
. "$root/lib/args.sh"

usage_error() {
	echo "campaign: $*" >&2
	echo "usage: campaign.sh [--scope \"PATH...\"] [--profile fast|wide|cover] [--name NAME] [--batch N] TREE WORK (--help for more)" >&2
	exit 64
}

scope="init kernel/power"
profile=fast
name=default
batch=
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) help_text "$0"; exit 0 ;;
	--scope | --profile | --name | --batch)
		[ $# -ge 2 ] || usage_error "$1 needs a value"
		case $1 in
		--scope) scope=$2 ;;
		--profile) profile=$2 ;;
		--name) name=$2 ;;
		--batch) batch=$2 ;;
		esac
		shift 2 ;;
	--) shift; break ;;
	-*) usage_error "unknown option '$1'" ;;
	*) break ;;
	esac
done
[ $# -eq 2 ] || usage_error "TREE and WORK are required"
tree=$1
work=$2
# after --, a TREE or WORK may start with "-": never let a tool take it for an option
case $tree in -*) tree=./$tree ;; esac
case $work in -*) work=./$work ;; esac
case $profile in fast | wide | cover) ;; *) usage_error "--profile must be fast, wide or cover" ;; esac
cover_base=${COVER_BASE:-wide}
cover_wave=${COVER_WAVE:-500}
cover_compile_test=${COVER_COMPILE_TEST:-}
case $cover_compile_test in '' | 0) cover_compile_test= ;; 1) ;; *) usage_error "COVER_COMPILE_TEST must be 1 or empty, not '$cover_compile_test'" ;; esac
case $cover_base in fast | wide) ;; *) usage_error "COVER_BASE must be fast or wide, not '$cover_base'" ;; esac
case $cover_wave in
0* | '' | *[!0-9]*) usage_error "COVER_WAVE must be a positive number, not '$cover_wave'" ;;
esac
case $name in
'' | [.-]* | *[!A-Za-z0-9._-]*)
	usage_error "--name must be a plain name (letters, digits, . _ -, not starting with . or -)" ;;
esac
case $batch in
'') ;;
0* | *[!0-9]*) usage_error "--batch must be a positive number, not '$batch'" ;;
esac
. "$root/lib/tsv.sh"
for d in $scope; do
	case $d in
	*[!A-Za-z0-9._/+-]*)
		usage_error "--scope entry '$d' has a character other than letters, digits and . _ - + /" ;;
	esac
	tree_path "$d" ||
		usage_error "--scope entry '$d' is not a path relative to TREE (absolute, starting with '-', or with an empty, '.' or '..' component)"
done
jobs=${JOBS:-$(nproc)}
case $jobs in 0* | '' | *[!0-9]*) usage_error "JOBS must be a positive number, not '$jobs'" ;; esac
case ${FARM:-} in
'' | parallel | slurm) ;;
*) usage_error "FARM must be parallel or slurm, not '$FARM'" ;;
esac

for p in candidates/candidates validate/validate validate/cover-plan campaign/report \
	 patches/queue qemu-boot/boot; do
	[ -x "$root/$p" ] || die 70 "$p is not built (run make programs)"
done
# validate owns the range of --batch: ask it before any work.
if [ -n "$batch" ]; then
	"$root/validate/validate" --batch "$batch" --help >/dev/null || exit 64
fi
command -v spatch >/dev/null || die 70 "spatch not found (run make setup)"
[ -f "$tree/Makefile" ] && [ -d "$tree/.git" ] ||
	die 65 "$tree: not a prepared kernel tree (run make setup)"
git -C "$tree" rev-parse -q --verify refs/tags/core >/dev/null ||
	die 65 "$tree: no tag 'core' (run make setup)"
for d in $scope; do
	[ -e "$tree/$d" ] || die 65 "scope entry '$d' does not exist in $tree"
done

# The kernel the campaign runs on, from setup's origin file (FORMATS.md).
origin=$tree/.git/ro-campaign-origin
origin_val() {
	awk -F '\t' -v k="$1" '$1 == k { print $2 }' "$origin" 2>/dev/null
}
kver=$(origin_val version)
[ -n "$kver" ] || kver=$(make -s -C "$tree" kernelversion 2>/dev/null | tail -n 1)
if [ "$(origin_val kind)" = git ]; then
	kernel_line="Linux $kver, $(origin_val source) at $(origin_val commit | cut -c1-12)"
else
	kernel_line="Linux $kver ($(origin_val source))"
fi
echo "campaign: kernel: $kernel_line" >&2

cdir=$work/campaign/$name
mkdir -p "$cdir/.stamps" || die 70 "cannot create $cdir"
# Absolute from here on: git -C TREE reads a relative path from TREE, and
# a relative WORK or VTREE would land inside it.
work=$(cd "$work" && pwd) || die 70 "cannot enter $work"
tree=$(cd "$tree" && pwd) || die 65 "cannot enter $tree"
cdir=$work/campaign/$name
vtree=${VTREE:-$work/vtree}
case $vtree in
/*) ;;
*) vtree=$(pwd)/$vtree ;;
esac
times=$cdir/times.tsv
printf 'stage\tseconds\tstatus\n' >"$times"
t_start=$(date +%s)

# need_cols FILE NAME...: exit 65 naming FILE unless it has each column
need_cols() {
	_nf=$1
	shift
	for _nc; do
		tsv_colnum "$_nf" "$_nc" >/dev/null
	done
}

# stamp_of FILE...: one hash of the settings and the named files
stamp_of() {
	{
		echo "$scope|$profile|$batch|$cover_base|$cover_wave${cover_compile_test:+|compile-test}|$(git -C "$tree" rev-parse refs/tags/core)"
		cat "$@" 2>/dev/null
	} | sha1sum | cut -c1-16
}

# stage_begin N NAME: progress line; sets st_t0
stage_begin() {
	st_t0=$(date +%s)
	echo "campaign: [$1/4] $2 (campaign elapsed $(fmt_time $((st_t0 - t_start))))" >&2
}

# stage_end NAME STATUS TEXT: progress line and times.tsv row
stage_end() {
	s=$(($(date +%s) - st_t0))
	printf '%s\t%d\t%s\n' "$1" "$s" "$2" >>"$times"
	echo "campaign: [$1] $2 in $(fmt_time $s): $3" >&2
}

fail() {	# fail STAGE RC
	printf '%s\t%d\tfailed\n' "$1" $(($(date +%s) - st_t0)) >>"$times"
	[ "$2" -eq 130 ] && { echo "campaign: interrupted in $1; run the same command again to resume" >&2; exit 130; }
	die 1 "stage $1 failed (exit $2); fix the cause named above and run the same command again: finished work is kept"
}

trap 'echo "campaign: interrupted; run the same command again to resume" >&2; exit 130' INT TERM

# ---- find ----------------------------------------------------------------

stage_begin 1 "find: facts and candidates for scope '${scope:-whole tree}'"
find_stamp=$(stamp_of "$root/cocci/facts.cocci" "$root/cocci/macros.h" \
	"$root/cocci/run-facts.sh" "$root/candidates/candidates" \
	"$root/cocci/layouts" "$root/cocci/protos" "$root/cocci/callers" \
	"$root/cocci/builtins.h" \
	"$root/candidates/registrations.tsv")
if [ -f "$cdir/scope.tsv" ] &&
   [ "$(cat "$cdir/.stamps/find" 2>/dev/null)" = "$find_stamp" ]; then
	stage_end find skipped "inputs unchanged"
else
	# $scope is split into its checked entries (no globbing: set -f)
	# shellcheck disable=SC2086
	sh "$root/cocci/run-facts.sh" -j "$jobs" "$tree" "$cdir/facts" $scope ||
		fail find $?
	"$root/candidates/candidates" --facts "$cdir/facts" \
		--out "$cdir/candidates.tsv" || fail find $?
	need_cols "$cdir/candidates.tsv" file
	tsv_awk "$cdir/candidates.tsv" '
		BEGIN { n = split(scope, s, " ") }
		NR == 1 { print; next }
		{
			if (n == 0) { print; next }
			for (i = 1; i <= n; i++)
				if ($c_file == s[i] || index($c_file, s[i] "/") == 1) { print; next }
		}' -v scope="$scope" >"$cdir/scope.tsv.new" || fail find $?
	mv "$cdir/scope.tsv.new" "$cdir/scope.tsv"
	echo "$find_stamp" >"$cdir/.stamps/find"
	stage_end find done "see $cdir/scope.tsv"
fi
need_cols "$cdir/scope.tsv" file name class confidence
cands_line=$(tsv_awk "$cdir/scope.tsv" 'NR > 1 {
		n++; c[$c_class]++; if ($c_class == "ro_after_init") k[$c_confidence]++ }
	END { printf "%d variables: ro_after_init %d (high %d, medium %d), initdata %d, const %d, rejected %d, already %d",
		n, c["ro_after_init"], k["high"], k["medium"], c["initdata"], c["const"], c["rejected"], c["already"] }') ||
	die 70 "awk failed on $cdir/scope.tsv"
# The conversions validate takes (its default classes), by kind.
ncand_kinds=$(tsv_awk "$cdir/scope.tsv" 'NR > 1 { c[$c_class]++ }
	END { printf "%d ro_after_init, %d initdata", c["ro_after_init"], c["initdata"] }') ||
	die 70 "awk failed on $cdir/scope.tsv"
ncand=$(tsv_awk "$cdir/scope.tsv" 'NR > 1 && ($c_class == "ro_after_init" || $c_class == "initdata") { n++ }
	END { print n + 0 }') || die 70 "awk failed on $cdir/scope.tsv"
echo "campaign: find: $cands_line" >&2

# ---- validate ------------------------------------------------------------

# cover_waves VALIDATE-OPTION...: the cover profile, in waves of
# COVER_WAVE candidates.  Wave K's fragment holds the symbols of waves 1
# to K (validate/cover-plan over them, against the base profile's
# .config), so each wave's build adds to the last one's objects and kbuild
# compiles only what the new symbols gate.  A wave holds both kinds of
# conversion, ro_after_init and initdata rows (validate's default
# classes); cover-plan plans the files of ro_after_init rows only, so its
# input (upto.tsv) names the initdata rows ro_after_init: it needs only
# their files.  The fragment and the plan of
# each wave stay in cover/wave-K/, beside the journal; cover.config is the
# last one.  validate journals wave K's candidates with the plan's reasons.
cover_waves() {
	# cover-plan reads the work tree's Makefiles and Kconfig files: move a
	# clean tree to the base validate will use (a tree that a killed
	# validate left dirty is validate's to reset; its build files are the
	# base's either way).
	if [ -z "$(git -C "$vtree" status --porcelain)" ]; then
		git -C "$vtree" checkout -q --detach core || return 70
	fi
	_base=$(sh "$root/qemu-boot/build-kernel.sh" --config-only "$cover_base" \
		"$vtree" "$work" | tail -n 1) || return $?
	_n=$ncand
	_waves=$(( (_n + cover_wave - 1) / cover_wave ))
	_k=1
	while [ $_k -le $_waves ]; do
		_wd=$cdir/cover/wave-$_k
		mkdir -p "$_wd" || return 70
		for _part in upto only; do
			tsv_awk "$cdir/scope.tsv" 'NR == 1 { print; next }
				$c_class != "ro_after_init" && $c_class != "initdata" { next }
				{ w = int(i / size) + 1; i++ }
				part == "upto" && w <= k {
					if ($c_class == "initdata") $c_class = "ro_after_init"
					print
				}
				part == "only" && w == k { print }' \
				-v size="$cover_wave" -v k="$_k" -v part="$_part" -v OFS='\t' \
				>"$_wd/$_part.tsv.tmp" &&
				mv "$_wd/$_part.tsv.tmp" "$_wd/$_part.tsv" || return 70
		done
		echo "campaign: validate: cover wave $_k/$_waves ($(($(wc -l <"$_wd/only.tsv") - 1)) candidates, base $cover_base)" >&2
		"$root/validate/cover-plan" ${cover_compile_test:+--compile-test} \
			--candidates "$_wd/upto.tsv" \
			--tree "$vtree" --config "$_base/.config" --out "$_wd" ||
			return $?
		cp "$_wd/cover.config" "$cdir/cover.config.tmp" &&
			mv "$cdir/cover.config.tmp" "$cdir/cover.config" || return 70
		(
			COVER_BASE=$cover_base COVER_FRAGMENT=$_wd/cover.config
			export COVER_BASE COVER_FRAGMENT
			validate_run --candidates "$_wd/only.tsv" \
				--cover-plan "$_wd/plan.tsv" "$@"
		) || return $?
		_k=$((_k + 1))
	done
}

# validate_run OPTION...: validate, or its batches as jobs on a farm (FARM)
validate_run() {
	if [ -n "${FARM:-}" ]; then
		sh "$root/validate/farm/farm.sh" --runner "$FARM" --dir "$cdir/jobs" -- "$@"
	else
		"$root/validate/validate" "$@"
	fi
}

stage_begin 2 "validate: $ncand candidates ($ncand_kinds), profile $profile"
val_stamp=$(stamp_of "$cdir/scope.tsv" "$root/validate/validate" \
	"$root/qemu-boot/configs/common.config" \
	"$root/qemu-boot/configs/$profile.config" \
	"$root/qemu-boot/configs/$cover_base.config" "$root/validate/cover-plan")
if [ -f "$cdir/journal.tsv" ] &&
   [ "$(cat "$cdir/.stamps/validate" 2>/dev/null)" = "$val_stamp" ]; then
	stage_end validate skipped "inputs unchanged"
elif [ "$ncand" -eq 0 ]; then
	printf 'time\tvariable\tfile\tline\tbatch\tverdict\tevidence\tlevel\tconfig_hash\tcore_hash\n' >"$cdir/journal.tsv"
	echo "$val_stamp" >"$cdir/.stamps/validate"
	stage_end validate done "no candidates to validate"
else
	if [ ! -d "$vtree" ]; then
		git -C "$tree" worktree add --detach "$vtree" core >/dev/null ||
			fail validate $?
	fi
	set -- --tree "$vtree" --work "$work" --tools "$root" \
		--profile "$profile" --journal "$cdir/journal.tsv"
	[ -n "$batch" ] && set -- "$@" --batch "$batch"
	if [ "$profile" = cover ]; then
		cover_waves "$@" || fail validate $?
	else
		validate_run --candidates "$cdir/scope.tsv" "$@" ||
			fail validate $?
	fi
	echo "$val_stamp" >"$cdir/.stamps/validate"
	stage_end validate done "journal $cdir/journal.tsv"
fi
# The final verdict of each (file, variable) is its last row; a torn last
# row (no newline, counted out by wc -l) was never a verdict.
need_cols "$cdir/journal.tsv" variable file verdict evidence
nj=$(($(wc -l <"$cdir/journal.tsv")))
[ "$(tail -c 1 "$cdir/journal.tsv" | wc -l)" -eq 1 ] ||
	echo "campaign: warning: $cdir/journal.tsv:$((nj + 1)): skipping a torn last row (no newline)" >&2
verdicts=$(tsv_awk "$cdir/journal.tsv" 'NR > 1 && NR <= nj {
		k = $c_file "\t" $c_variable; v[k] = $c_verdict; e[k] = $c_evidence
		l[k] = c_level ? $c_level : "-" }
	END {
		for (k in v) {
			c[v[k]]++
			# "exercised" is the old name of booted
			if (v[k] == "accepted") lv[l[k] == "exercised" ? "booted" : l[k]]++
			if (v[k] == "rejected") { r = e[k]; sub(/:.*/, "", r); why[r]++ }
		}
		printf "accepted %d (reached %d, device-bound %d, module-cycled %d, booted %d, built %d), rejected %d, not-built %d",
			c["accepted"], lv["reached"], lv["device-bound"], lv["module-cycled"],
			lv["booted"], lv["built"],
			c["rejected"], c["not-built"]
		for (r in why) printf "\n  rejected by %s: %d", r, why[r]
	}' -v nj="$nj") || die 70 "awk failed on $cdir/journal.tsv"

# ---- queue ---------------------------------------------------------------

stage_begin 3 "queue: per-subsystem patch series"
# A medium-confidence variable's address escapes to a callee that may keep
# it and write through it later (misc_register() links the miscdevice
# into a list, and a later register or deregister writes its list_head).
# The fast profile builds and loads too few modules to rule that out, so
# those are only queued on the evidence of a wide validation.
printf 'file\tline\tname\treason\n' >"$cdir/exclude.tsv"
if [ "$profile" = fast ]; then
	tsv_awk "$cdir/scope.tsv" 'NR > 1 && $c_class == "ro_after_init" && $c_confidence == "medium" {
		printf "%s\t%s\t%s\tmedium confidence (its address escapes; a callee may keep it): fast-profile boots are not enough evidence, validate with PROFILE=wide\n", $c_file, $c_line, $c_name }' \
		>>"$cdir/exclude.tsv" || die 70 "awk failed on $cdir/scope.tsv"
fi
q_stamp=$(stamp_of "$cdir/journal.tsv" "$cdir/scope.tsv" "$cdir/exclude.tsv" \
	"$root/patches/queue" "$root/patches/queue.sh")-allow-built=${QUEUE_ALLOW_BUILT:-0}
if [ -f "$cdir/queue/README" ] &&
   [ "$(cat "$cdir/.stamps/queue" 2>/dev/null)" = "$q_stamp" ]; then
	stage_end queue skipped "inputs unchanged"
else
	QUEUE_EXCLUDE=$cdir/exclude.tsv QUEUE_DROP_UNCLEAN=1 \
		QUEUE_ALLOW_BUILT=${QUEUE_ALLOW_BUILT:-0} \
		PROFILE=$profile sh "$root/patches/queue.sh" \
		"$cdir/journal.tsv" "$cdir/scope.tsv" "$tree" "$work" \
		"$cdir/queue" || fail queue $?
	echo "$q_stamp" >"$cdir/.stamps/queue"
	stage_end queue done "$cdir/queue"
fi
nseries=0
npatch=0
if [ -s "$cdir/queue/series" ]; then
	npatch=$(grep -c . "$cdir/queue/series")
	nseries=$(cut -d / -f 1 "$cdir/queue/series" | sort -u | wc -l)
fi

# ---- report --------------------------------------------------------------

stage_begin 4 "report"
"$root/campaign/report" --candidates "$cdir/scope.tsv" \
	--journal "$cdir/journal.tsv" --queue "$cdir/queue" \
	--facts "$cdir/facts" --out "$cdir" \
	--title "ro-campaign: ${scope:-whole tree} ($profile profile)" >&2 ||
	fail report $?
stage_end report done "$cdir/report.html"
# Each kind of conversion through its funnel (the report's kinds.tsv).
kinds_line=$(tsv_awk "$cdir/kinds.tsv" 'NR > 1 {
		printf "%s%s %d candidates, %d validated, %d accepted, %d queued",
			sep, $c_annotation, $c_candidates, $c_validated, $c_accepted, $c_queued
		sep = "; " }') || die 70 "awk failed on $cdir/kinds.tsv"

# ---- summary -------------------------------------------------------------

total=$(($(date +%s) - t_start))
nfiles=$(wc -l <"$cdir/facts/files.txt" 2>/dev/null || echo 0)
{
	echo "ro-campaign summary: $name (scope '${scope:-whole tree}', profile $profile)"
	echo "kernel:         $kernel_line"
	echo "files scanned:  $nfiles (the scope and the files that mention its globals)"
	echo "candidates:     $cands_line"
	echo "validated:      $verdicts"
	echo "by annotation:  $kinds_line"
	echo "queue:          $npatch patches in $nseries series, $cdir/queue"
	echo "report:         $cdir/report.html"
	echo "wall time:      $(fmt_time $total) in all;$(tsv_awk "$times" 'NR > 1 { printf " %s %ds (%s)", $c_stage, $c_seconds, $c_status }')"
} >"$cdir/summary.txt"
cat "$cdir/summary.txt"
[ "$npatch" -gt 0 ] ||
	echo "campaign: warning: no conversion was accepted; the queue is empty" >&2
exit 0
