// SPDX-License-Identifier: GPL-2.0-only
/// Find writes to __ro_after_init variables from code that can run after
/// init. Such variables are read-only once mark_rodata_ro() has run (for a
/// module: once its init function returned), so a write from a resume
/// handler, a CPU hotplug callback, a sysfs store or an exit function
/// faults. The write is fine in an __init function, and in a static helper
/// of the same file that only __init functions call and whose address is
/// never taken.
//
// Confidence: Moderate
// Copyright: (C) 2024 ro-campaign authors.
// Options: --no-includes --include-headers
// Comments: Intraprocedural, one file at a time: the variable must be
//  defined in the file, and a global helper called only from __init code
//  elsewhere is reported (false positive). Writes are x = e, x op= e,
//  x++, x.f = e, x[i] = e and memcpy/memset/strscpy/set_bit... into x.
//  Writes through a pointer to x are not seen. __meminit, __ref and
//  __exit code is not init code: memory hotplug, the section mismatch
//  whitelist and module unload all run after init.
//  Reports are printed once the whole file has been seen, because whether
//  a static helper is init-only depends on all its callers.

virtual report
virtual org
virtual context
virtual patch

@initialize:python@
@@
import re
from coccilib.report import print_report

WORD_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
RO_ATTRS = ("__ro_after_init", "__lsm_ro_after_init")
INIT_SECT = ("__init",)
WRITERS = re.compile(r"^(mem(cpy|move|set)|str(n?cpy|lcpy|scpy|n?cat|lcat)|"
		     r"v?s(n|cn)?printf|bitmap_[a-z0-9_]+|cpumask_(copy|and|or|"
		     r"andnot|clear|setall|set_cpu|clear_cpu)|"
		     r"(__)?(test_and_)?(set|clear|change)_bit|v?sscanf|"
		     r"kstrto[a-z0-9]+|WRITE_ONCE)$")

ANYARG = re.compile(r"^((__)?(test_and_)?(set|clear|change)_bit|"
		    r"cpumask_(set|clear)_cpu|v?sscanf|kstrto[a-z0-9]+)$")

def first_arg(loc):
	"""Is the expression at loc the first argument of a call?"""
	before = span(loc.file, int(loc.line), 0, int(loc.line),
		      int(loc.column)).rstrip()
	if before.endswith("&"):
		before = before[:-1].rstrip()
	return before.endswith("(")

texts = {}
CUR = {"file": None, "ro": set(), "funcs": {}, "calls": [], "writes": [],
       "spans": []}
done = set()

def src(f):
	if f not in texts:
		try:
			with open(f, errors="replace") as fh:
				texts[f] = fh.read().split("\n")
		except OSError:
			texts[f] = []
	return texts[f]

def span(f, l1, c1, l2, c2):
	lines = src(f)
	if l1 < 1 or l1 > len(lines):
		return ""
	if l1 == l2:
		return lines[l1 - 1][c1:c2]
	return "\n".join([lines[l1 - 1][c1:]] + lines[l1:l2 - 1] +
			 [lines[l2 - 1][:c2]])

def switch(f):
	"""Reset the per-file state when spatch moves on to file f."""
	if CUR["file"] != f:
		CUR.update(file=f, ro=set(), funcs={}, calls=[], writes=[],
			   spans=[])

def tail_text(f, line, col):
	lines = src(f)
	s = lines[line - 1][col:] if line <= len(lines) else ""
	return re.split(r"[=;,]", s, 1)[0]

def chain_ok(x, lv):
	s = str(lv)
	if not s.startswith(x):
		return False
	rest = s[len(x):].lstrip()
	return rest == "" or rest[0] in ".["

def init_only():
	"""__init functions, plus static functions whose every caller is
	init-only and whose name appears nowhere but in calls."""
	f = CUR["file"]
	funcs = CUR["funcs"]
	good = set(n for n, (st, init) in funcs.items() if init)
	text = "\n".join(src(f))
	text = re.sub(r"/\*.*?\*/|//[^\n]*", " ", text, flags=re.S)
	refd = set()
	if funcs:
		pat = re.compile(r"\b(" + "|".join(sorted(funcs)) +
				 r")\b(?!\s*\()")
		refd = set(m.group(1) for m in pat.finditer(text))
	callers = {}
	for caller, callee in CUR["calls"]:
		callers.setdefault(callee, set()).add(caller)
	changed = True
	while changed:
		changed = False
		for n, (st, init) in funcs.items():
			if n in good or not st or n in refd or n not in callers:
				continue
			if callers[n] <= good:
				good.add(n)
				changed = True
	return good

@defs@
type T;
identifier x;
position p;
@@
(
T x@p;
|
T x@p = ...;
|
T (*x@p)(...);
)

@script:python@
x << defs.x;
p << defs.p;
@@
q = p[0]
switch(q.file)
name = str(x).split()[0]
if q.current_element in (name, "something_else"):
	head = span(q.file, int(q.current_element_line),
		    int(q.current_element_column), int(q.line), int(q.column))
	words = WORD_RE.findall(head + " " + tail_text(q.file, int(q.line),
		int(q.column) + len(name)))
	if any(a in words for a in RO_ATTRS):
		CUR["ro"].add(name)

@fn@
identifier f;
type T;
position p;
@@
T f@p(...) { ... }

@script:python@
f << fn.f;
p << fn.p;
@@
q = p[0]
switch(q.file)
head = span(q.file, int(q.current_element_line),
	    int(q.current_element_column), int(q.line), int(q.column))
words = WORD_RE.findall(head)
CUR["funcs"][str(f)] = ("static" in words,
			any(s in words for s in INIT_SECT))

@call@
identifier g : script:python() { str(g) in CUR["funcs"] };
position p;
@@
g@p(...)

@script:python@
g << call.g;
p << call.p;
@@
q = p[0]
if q.file == CUR["file"] and q.current_element in CUR["funcs"]:
	CUR["calls"].append((q.current_element, str(g)))

@w@
global idexpression x : script:python() { str(x).split()[0] in CUR["ro"] };
expression L, E;
identifier F;
assignment operator aop;
position p, pl;
@@
(
\( L@pl \& <+... x@p ...+> \) aop E
|
\( L@pl \& <+... x@p ...+> \)++
|
\( L@pl \& <+... x@p ...+> \)--
|
 ++\( L@pl \& <+... x@p ...+> \)
|
 --\( L@pl \& <+... x@p ...+> \)
|
F(&\( L@pl \& <+... x@p ...+> \), ...)
|
F(\( L@pl \& <+... x@p ...+> \), ...)
|
F(..., &\( L@pl \& <+... x@p ...+> \), ...)
|
F(..., \( L@pl \& <+... x@p ...+> \), ...)
)

@script:python@
x << w.x;
L << w.L;
p << w.p;
pl << w.pl;
F << w.F = "";
@@
q = p[0]
name = str(x).split()[0]
if q.file == CUR["file"] and (q.line, q.column) == (pl[0].line, pl[0].column) \
   and chain_ok(name, L) and q.current_element in CUR["funcs"] and \
   (F == "" or (WRITERS.match(str(F)) and
		(ANYARG.match(str(F)) or first_arg(q)))):
	how = "written" if F == "" else "written by " + str(F) + "()"
	CUR["writes"].append((p[0], name, q.current_element, how))

@script:python fin@
@@
if CUR["file"] is not None and CUR["file"] not in done:
	done.add(CUR["file"])
	good = init_only()
	seen = set()
	for loc, name, fn, how in CUR["writes"]:
		if fn in good or (loc.line, loc.column) in seen:
			continue
		seen.add((loc.line, loc.column))
		print_report(loc, "WARNING: __ro_after_init variable %s %s in "
			     "%s(), which is not init-only code" % (name, how, fn))
