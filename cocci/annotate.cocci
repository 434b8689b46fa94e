// SPDX-License-Identifier: GPL-2.0-only
/// Add __ro_after_init to the file-scope variables named in a list of
/// (file, line, name) keys, in kernel style: after the declarator
/// (static int foo __ro_after_init = 1;), after the array bounds
/// (static int tbl[4] __ro_after_init;), after a function pointer's
/// parameter list, and in place of an existing __read_mostly, which would
/// put the variable in a second section. A static key defined by
/// DEFINE_STATIC_KEY_TRUE/FALSE/MAYBE(...) takes the macro's _RO form.
/// A key whose "annotation" column says initdata or initconst gets
/// __initdata or __initconst in the same place instead: a variable that
/// only init code reads and writes, freed with the init sections.
//
// Confidence: High
// Copyright: (C) 2024 ro-campaign authors.
// Options: --no-includes -D patch -D keys=LIST.tsv
// Comments: The list is TSV with the header "file line name", and an
//  optional column "annotation" (ro_after_init, initdata, initconst); line is the
//  line of the variable's name, as in defs.tsv. Only declarations whose
//  position and name are in the list change, so the diff touches nothing
//  else. Keys that match nothing are reported on stderr at the end.
//  The rules only make sense for candidates from candidates/: whether a
//  variable is written after init is not checked here. cocci/annotate.sh
//  drives this and turns the result into a git-apply-able diff.

virtual patch

@initialize:python@
listfile << virtual.keys;
@@
# key -> the annotation to add: ro_after_init (the default, and for a
# list without an "annotation" column), initdata or initconst
want = {}
with open(listfile) as fh:
	col = -1
	for n, row in enumerate(fh):
		cols = row.rstrip("\n").split("\t")
		if n == 0:
			col = cols.index("annotation") if "annotation" in cols else -1
			continue
		if len(cols) < 3:
			continue
		ann = cols[col] if 0 <= col < len(cols) else "ro_after_init"
		want[(cols[0], int(cols[1]), cols[2])] = ann
done = set()

def key(p, x):
	return (p[0].file, int(p[0].line), str(x).split()[0])

def wanted(p, x, skipdone, ann="ro_after_init"):
	k = key(p, x)
	return want.get(k) == ann and not (skipdone and k in done)

// A static key defined by DEFINE_STATIC_KEY_TRUE/FALSE/MAYBE(...) takes
// the _RO form of its macro, which adds __ro_after_init
// (include/linux/jump_label.h). DEFINE_STATIC_KEY_ARRAY_* has no _RO form:
// such a key is never listed (candidates/ skips it), and if it is, it is
// reported as not found. A plain struct static_key takes __ro_after_init
// like any variable (the rules below).
@sk depends on patch@
declarer name DEFINE_STATIC_KEY_TRUE, DEFINE_STATIC_KEY_FALSE;
declarer name DEFINE_STATIC_KEY_MAYBE;
declarer name DEFINE_STATIC_KEY_TRUE_RO, DEFINE_STATIC_KEY_FALSE_RO;
declarer name DEFINE_STATIC_KEY_MAYBE_RO;
identifier x;
expression C;
position p : script:python(x) { wanted(p, x, False) };
@@
(
- DEFINE_STATIC_KEY_TRUE@p(x);
+ DEFINE_STATIC_KEY_TRUE_RO(x);
|
- DEFINE_STATIC_KEY_FALSE@p(x);
+ DEFINE_STATIC_KEY_FALSE_RO(x);
|
- DEFINE_STATIC_KEY_MAYBE@p(C, x);
+ DEFINE_STATIC_KEY_MAYBE_RO(C, x);
)

@script:python depends on patch@
p << sk.p;
x << sk.x;
@@
done.add(key(p, x))

@ra depends on patch@
attribute name __read_mostly;
attribute name __ro_after_init;
identifier x;
type T;
expression E;
position p : script:python(x) { wanted(p, x, False) };
@@
(
T x@p[E]
- __read_mostly
+ __ro_after_init
  ;
|
T x@p[E]
- __read_mostly
+ __ro_after_init
  = ...;
|
T x@p[]
- __read_mostly
+ __ro_after_init
  = ...;
|
T x@p
- __read_mostly
+ __ro_after_init
  ;
|
T x@p
- __read_mostly
+ __ro_after_init
  = ...;
|
T
- __read_mostly
  x@p
+ __ro_after_init
  ;
|
T
- __read_mostly
  x@p
+ __ro_after_init
  = ...;
)

@script:python depends on patch@
p << ra.p;
x << ra.x;
@@
done.add(key(p, x))

@rc depends on patch@
attribute name __ro_after_init;
identifier x;
type T;
position p : script:python(x) { wanted(p, x, True) };
@@
(
T x@p[...]
+ __ro_after_init
  ;
|
T x@p[...]
+ __ro_after_init
  = ...;
|
T (*x@p)(...)
+ __ro_after_init
  ;
|
T (*x@p)(...)
+ __ro_after_init
  = ...;
|
T x@p
+ __ro_after_init
  ;
|
T x@p
+ __ro_after_init
  = ...;
)

@script:python depends on patch@
p << rc.p;
x << rc.x;
@@
done.add(key(p, x))

// __initdata: after the declarator like __ro_after_init (include/linux/init.h:
// "static int init_variable __initdata = 0;")
@r_initdata depends on patch@
attribute name __initdata;
identifier x;
type T;
position p : script:python(x) { wanted(p, x, True, "initdata") };
@@
(
T x@p[...]
+ __initdata
  ;
|
T x@p[...]
+ __initdata
  = ...;
|
T (*x@p)(...)
+ __initdata
  ;
|
T (*x@p)(...)
+ __initdata
  = ...;
|
T x@p
+ __initdata
  ;
|
T x@p
+ __initdata
  = ...;
)

@script:python depends on patch@
p << r_initdata.p;
x << r_initdata.x;
@@
done.add(key(p, x))

// __initconst: after the declarator like __ro_after_init (include/linux/init.h:
// "static int init_variable __initdata = 0;")
@r_initconst depends on patch@
attribute name __initconst;
identifier x;
type T;
position p : script:python(x) { wanted(p, x, True, "initconst") };
@@
(
T x@p[...]
+ __initconst
  ;
|
T x@p[...]
+ __initconst
  = ...;
|
T (*x@p)(...)
+ __initconst
  ;
|
T (*x@p)(...)
+ __initconst
  = ...;
|
T x@p
+ __initconst
  ;
|
T x@p
+ __initconst
  = ...;
)

@script:python depends on patch@
p << r_initconst.p;
x << r_initconst.x;
@@
done.add(key(p, x))

@finalize:python depends on patch@
@@
import sys
for k in sorted(set(want) - done):
	sys.stderr.write("annotate: not found: %s:%d %s\n" % k)
