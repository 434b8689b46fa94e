# SPDX-License-Identifier: GPL-2.0
# lib.sh - helpers sourced by every exercise in /rocampaign/exercises/.
#
# /init runs each exercise as "sh /rocampaign/exercises/NAME" with
# ROC_NAME, ROC_RESULT and ROC_PROGRESS in the environment.  An exercise
# ends with exactly one of pass, fail or skip, which write the result
# line to $ROC_RESULT for /init to turn into KTAP.  An exercise that dies
# without a result (killed by an oops, a timeout) is reported as not ok.
# ROC_MODTABLE is a file of "module init exit detail" rows that /init
# turns into the modules table on the console after the exercise, also
# when the exercise died (the modules exercise writes it).

ROC_DIR=/rocampaign

# note TEXT: a KTAP diagnostic line on the console.
note() {
	echo "# $ROC_NAME: $*"
}

# progress TEXT: what the exercise is doing now.  /init prints it when
# the exercise dies without a result, so an oops can be tied to a file.
progress() {
	echo "$*" > "$ROC_PROGRESS"
}

# one_line TEXT: TEXT with newlines folded, for a KTAP reason.
one_line() {
	printf '%s' "$*" | tr '\n\t' '  '
}

pass() {
	[ -n "${1:-}" ] && note "$1"
	echo "ok" > "$ROC_RESULT"
	exit 0
}

fail() {
	echo "fail $(one_line "$1")" > "$ROC_RESULT"
	exit 1
}

skip() {
	echo "skip $(one_line "$1")" > "$ROC_RESULT"
	exit 0
}

# cat1 FILE: the first line of FILE, or nothing.  Not the read builtin:
# it reads one byte per read(2), and a sysctl file reads as empty at any
# offset but 0, so read would see "3" in "3906".
cat1() {
	head -n 1 "$1" 2>/dev/null
}

# has_word WORD FILE: FILE contains WORD (optionally in [brackets]).
has_word() {
	tr -d '[]' < "$2" 2>/dev/null | tr ' ' '\n' | grep -qx "$1"
}

# try_write VALUE FILE: write VALUE to FILE; on error print the shell's
# message on stdout and return 1.
try_write() {
	_err=$( { printf '%s\n' "$1" > "$2"; } 2>&1 ) && return 0
	printf '%s' "$_err" | sed 's/^.*: //' | tr '\n' ' '
	return 1
}


# deny_filter DENYLIST: copy the paths on stdin to stdout, dropping those
# that match one of DENYLIST's shell patterns (one a line, '#' comments;
# '*' also matches '/').  The patterns become regex literals of a single
# awk program, compiled once: busybox awk compiles a regex held in a
# variable again at every match, which costs seconds over /sys under TCG.
deny_filter() {
	_prog=$(sed -e 's/[ \t]*#.*//; s/^[ \t]*//; /^$/d' \
		-e 's/[.+^$(){}|\\/]/\\&/g; s/[*]/.*/g; s/?/./g' \
		-e 's/.*/$0 ~ \/^&$\/ { next }/' "$1")
	awk "$_prog
{ print }"
}

# uptime_s: uptime in seconds with two decimals.
uptime_s() {
	_u=
	read -r _u _ < /proc/uptime
	echo "$_u"
}

# hotplug_cpus: the non-boot CPUs that can be taken offline.
hotplug_cpus() {
	for _d in /sys/devices/system/cpu/cpu[0-9]*; do
		[ -f "$_d/online" ] || continue
		[ "${_d##*/}" = cpu0 ] && continue
		echo "${_d##*/}"
	done
}
