# SPDX-License-Identifier: GPL-2.0
# profile.sh - function hit counts after init, sourced by /init.
#
# When the initramfs holds /rocampaign/profile-functions (one function
# name a line: validate appends it to the initramfs of each batch boot,
# the functions that use the batch's variables), /init counts their
# hits with ftrace's function profiler (CONFIG_FUNCTION_PROFILER),
# exercise by exercise: profile_start before an exercise resets and
# enables the counts, profile_stop after it adds "exercise function
# count" rows to /tmp/profile.tsv, and profile_table prints them on the
# console between "# rocampaign: profile-begin" and "profile-end".
# set_ftrace_filter limits the profiler to those functions, so a boot
# pays only for the calls it counts.  Without the file, or when none of
# its functions is traceable (an empty filter would count every
# function), nothing is counted and no table is printed.

ROC_TRACE=/sys/kernel/debug/tracing
ROC_PROFILE=
ROC_PROFILE_NOTE=

profile_setup() {
	_list=$ROC_DIR/profile-functions
	[ -f "$_list" ] || return 0
	if [ ! -f "$ROC_TRACE/function_profile_enabled" ]; then
		ROC_PROFILE_NOTE="no function profiler (CONFIG_FUNCTION_PROFILER)"
		return 0
	fi
	echo 0 > "$ROC_TRACE/function_profile_enabled"
	: > "$ROC_TRACE/set_ftrace_filter"
	# One name per write: a name ftrace does not know (inlined,
	# notrace) fails its own write and no other.
	while read -r _f; do
		[ -n "$_f" ] && echo "$_f" >> "$ROC_TRACE/set_ftrace_filter"
	done < "$_list" 2>/dev/null
	# An empty filter reads "#### all functions enabled ####".
	if ! grep -qv '^#' "$ROC_TRACE/set_ftrace_filter"; then
		ROC_PROFILE_NOTE="none of the functions is traceable"
		return 0
	fi
	ROC_PROFILE=1
	# "- FUNCTION 0": the functions ftrace took, the ones it can count.
	grep -v '^#' "$ROC_TRACE/set_ftrace_filter" | sed 's/[ \t].*//' | LC_ALL=C sort -u |
		awk '{ print "-\t" $1 "\t0" }' > /tmp/profile.tsv
}

# profile_start: reset the counts and count (writing 1 resets them).
profile_start() {
	[ -n "$ROC_PROFILE" ] || return 0
	echo 1 > "$ROC_TRACE/function_profile_enabled"
}

# profile_stop NAME: stop counting, add NAME's rows, summed over CPUs.
# A stat row is "  FUNCTION  HIT  TIME  ..."; the name is cut at 30
# characters.
profile_stop() {
	[ -n "$ROC_PROFILE" ] || return 0
	echo 0 > "$ROC_TRACE/function_profile_enabled"
	cat "$ROC_TRACE"/trace_stat/function[0-9]* 2>/dev/null |
	awk -v ex="$1" '
	$1 == "Function" || $1 ~ /^-/ || NF < 2 || $2 !~ /^[0-9]+$/ { next }
	{ hit[$1] += $2 }
	END { for (f in hit) if (hit[f] > 0) print ex "\t" f "\t" hit[f] }' |
	LC_ALL=C sort >> /tmp/profile.tsv
}

profile_table() {
	if [ -z "$ROC_PROFILE" ]; then
		[ -n "$ROC_PROFILE_NOTE" ] && echo "# rocampaign: profile-off $ROC_PROFILE_NOTE"
		return 0
	fi
	echo "# rocampaign: profile-begin"
	printf 'exercise\tfunction\tcount\n'
	cat /tmp/profile.tsv
	echo "# rocampaign: profile-end"
}
