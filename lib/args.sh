# SPDX-License-Identifier: GPL-2.0-only
# args.sh - the shell base layer every script shares: the error message
# with README.md's exit codes, and the checks of numbers and paths given
# on the command line.  Set prog_name, then source it:
#   prog_name=run-facts
#   . "$here/../lib/args.sh"

# die CODE MESSAGE...: "PROG: error: MESSAGE" on stderr, exit CODE
die() {
	_code=$1
	shift
	echo "$prog_name: error: $*" >&2
	exit "$_code"
}

# posint NAME VALUE MAX: VALUE is a whole number from 1 to MAX, else 64
posint() {
	case $2 in
	'' | *[!0-9]* | 0*) die 64 "$1 wants a number from 1 to $3, not '$2'" ;;
	esac
	[ ${#2} -le ${#3} ] && [ "$2" -le "$3" ] ||
		die 64 "$1 wants a number from 1 to $3, not '$2'"
}

# tree_path S: S is a path inside a tree: relative, not an option, no
# "." or ".." or empty component
tree_path() {
	case /$1/ in
	// | *//* | */./* | */../*) return 1 ;;
	esac
	case $1 in
	/* | -*) return 1 ;;
	esac
	return 0
}

# fmt_time SECONDS: "4m05s", for progress lines
fmt_time() {
	printf '%dm%02ds' $(($1 / 60)) $(($1 % 60))
}

# help_text FILE: what --help prints, the comment at the top of FILE
# after its SPDX line, up to the first line that is no comment (or is a
# "#SBATCH" directive), without the "# "
help_text() {
	awk 'NR > 3 && (!/^#/ || /^#SBATCH/) { exit }
		NR > 3 { sub(/^# ?/, ""); print }' "$1"
}

# help_maybe FILE ARG...: when ARG (the script's first argument) is -h or
# --help, print FILE's help_text and exit 0; scripts call it right after
# sourcing this file:
#   help_maybe "$0" "$@"
help_maybe() {
	_file=$1
	shift
	case ${1-} in
	-h | --help) help_text "$_file"; exit 0 ;;
	esac
}
