#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# ro_after_init_writes.cocci in report mode on the checker fixture.
set -u
here=$(cd "$(dirname "$0")" && pwd)
fx=$here/fixtures
. "$here/../../lib/tap.sh"
got=$(cd "$fx" && spatch --sp-file "$here/../ro_after_init_writes.cocci" \
	-D report --no-includes --very-quiet ro_writes.c | LC_ALL=C sort)
[ "$got" = "$(cat "$fx/ro_writes.report")" ] && ok "report equals ro_writes.report" ||
	not_ok "report equals ro_writes.report" "$(echo "$got" | tr '\n' '|')"
echo "$got" | grep -q 'cfg written in foo_resume' && ok "field write in resume handler" ||
	not_ok "field write in resume handler" missing
echo "$got" | grep -q 'mask written by memset() in foo_resume' && ok "memset in resume handler" ||
	not_ok "memset in resume handler" missing
echo "$got" | grep -q 'in setup()' && not_ok "__init writer not reported" found ||
	ok "__init writer not reported"
echo "$got" | grep -q 'in helper()' && not_ok "static helper called only from __init not reported" found ||
	ok "static helper called only from __init not reported"
echo "$got" | grep -q '^ro_writes.c:[0-9]*:[0-9]*-[0-9]*: WARNING' && ok "coccicheck report format" ||
	not_ok "coccicheck report format" "$got"
echo "$got" | grep -q "in shadow()" && not_ok "a parameter shadowing the variable is not it" found ||
	ok "a parameter shadowing the variable is not it"
finish
