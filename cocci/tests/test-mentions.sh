#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# cocci/mentions, the phase-2 prefilter: a file is kept exactly when
# one of the names stands where facts.cocci could report a write or an
# escape, and never for reads, members, comments or strings.
set -u
cd "$(dirname "$0")/../.."
BIN=cocci/mentions
T=$(mktemp -d "${TMPDIR:-/tmp}/mentions.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
. lib/tap.sh

printf 'gval\t\ngarr\tarray\n' > "$T/names"

# case FILE-NAME EXPECT(keep|drop) LABEL: C text on stdin
case_() {
	cat > "$T/$1"
	out=$(cd "$T" && echo "$1" | "$OLDPWD/$BIN" "$T/names")
	if [ "$2" = keep ] && [ "$out" = "$1" ]; then
		ok "$3: kept"
	elif [ "$2" = drop ] && [ -z "$out" ]; then
		ok "$3: dropped"
	else
		not_ok "$3" "expected $2, got '$out'"
	fi
}

case_ assign.c keep "plain assignment" <<'C'
void f(void) { gval = 3; }
C
case_ compound.c keep "compound assignment through a chain" <<'C'
void f(int i) { gval.a[i].b |= 1; }
C
case_ incdec.c keep "prefix increment" <<'C'
void f(void) { ++gval; }
C
case_ postinc.c keep "postfix decrement" <<'C'
void f(void) { gval--; }
C
case_ addr.c keep "address taken" <<'C'
void f(void) { g(&gval); }
C
case_ arg.c keep "array passed as a whole argument" <<'C'
void f(void) { strscpy(garr, "x", 4); }
C
case_ rhs.c keep "stored as a whole right-hand side" <<'C'
void f(void) { char *p; p = garr; }
C
case_ member_arg.c keep "a member as a whole argument (strscpy(x.name, ...))" <<'C'
void f(void) { strscpy(gval.name, "x", 4); }
C
case_ scalar_arg.c drop "a scalar passed by value (time_after(jiffies, t))" <<'C'
int f(unsigned long t) { return time_after(gval, t); }
C
case_ scalar_rhs.c drop "a scalar as a right-hand side" <<'C'
void f(void) { int v; v = gval; }
C
case_ reads.c drop "reads only" <<'C'
int f(void) { if (gval) return gval + 1; return sizeof(garr) + garr[0]; }
C
case_ member.c drop "a member of the same name" <<'C'
void f(struct s *p) { p->gval = 1; p->garr.x = 2; }
C
case_ comment.c drop "comments and strings" <<'C'
/* gval = 1; */
// &gval
static const char *s = "gval = 2";
C
case_ cmpeq.c drop "== is not an assignment" <<'C'
int f(void) { return gval == 3; }
C
case_ ifparen.c drop "the parenthesis of if" <<'C'
void f(void) { if (gval) g(); while (gval) g(); }
C

# --asm: rows for .S files, asm for a destination operand, addr otherwise
cat > "$T/head.S" <<'S'
/* gval in a comment */
	btsq	$63, gval(%rip)
	movq	garr(%rip), %rax
	.quad	gval
S
(cd "$T" && echo head.S | "$OLDPWD/$BIN" --asm "$T/names") > "$T/asm.out"
printf 'head.S\t2\tgval\t-\tasm\nhead.S\t3\tgarr\t-\taddr\nhead.S\t4\tgval\t-\taddr\n' > "$T/asm.want"
if cmp -s "$T/asm.out" "$T/asm.want"; then
	ok "--asm: destination operand is asm, source and .quad are addr, comments ignored"
else
	not_ok "--asm: destination operand is asm, source and .quad are addr" "got: $(tr '\t\n' ' |' < "$T/asm.out")"
fi

(cd "$T" && printf 'missing.c\n' | "$OLDPWD/$BIN" "$T/names" \
	> "$T/o" 2> "$T/e"); rc=$?
if [ $rc -eq 1 ] && grep -q 'missing.c' "$T/e"; then
	ok "an unreadable file is named and gives exit 1"
else
	not_ok "an unreadable file is named and gives exit 1" "rc=$rc $(cat "$T/e")"
fi
"$BIN" > /dev/null 2>&1; rc=$?
[ $rc -eq 64 ] && ok "no NAMES_FILE is a usage error (exit 64)" ||
	not_ok "no NAMES_FILE is a usage error (exit 64)" "rc=$rc"

finish
