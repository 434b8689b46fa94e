// SPDX-License-Identifier: GPL-2.0-only
/// Print the facts the __ro_after_init finder needs, as TSV rows on stdout:
/// file-scope variable definitions, writes and escapes of file-scope
/// variables, function definitions and their sections, call edges,
/// function addresses taken, and module_param/core_param/sysctl/__setup/
/// early_param declarations. Each row starts with the name of its fact
/// file (defs, writes, funcs, funcrefs, calls, params); cocci/run-facts.sh
/// splits them into FACTS_DIR/*.tsv. The formats are in cocci/FACTS.md.
///
/// Facts, not verdicts: SmPL sees one file at a time, so whether a variable
/// is written only during init is decided tree-wide by candidates/.
//
// Confidence: High
// Copyright: (C) 2024 ro-campaign authors.
// Options: --no-includes --include-headers --disable-worth-trying-opt
// Comments: All rules live in this one file on purpose. Parsing dominates
//  spatch's time, and every .cocci file given to spatch reparses every C
//  file, so one file with several short expression-level rules costs one
//  parse per C file instead of six. No rule uses a function-body context
//  like <+... x = E ...+>: each pattern matches a single expression or
//  declaration, and the enclosing function comes from the position's
//  current_element. "global idexpression" matches identifiers that are not
//  locals or parameters, which is what makes a write a file-scope write.
//  Attributes (__init, __read_mostly, __initdata, __section(...)) are read
//  from the source text of the matched declaration, because spatch's
//  builtin macro file expands most of them to nothing.
//  The rules are ordered: defs and funcs fill per-file tables that the
//  later rules use (is the enclosing element a function; is a name a local
//  array; is a table a struct ctl_table).

virtual report
virtual org

@initialize:python@
@@
import re

ATTRS = {
	"__read_mostly": "read_mostly",
	"__ro_after_init": "ro_after_init",
	"__lsm_ro_after_init": "ro_after_init",
	"__initdata": "initdata",
	"__initdata_or_module": "initdata",
	"__net_initdata": "initdata",
	"__devinitdata": "initdata",
	"__cpuinitdata": "initdata",
	"__initconst": "initconst",
	"__meminitdata": "meminitdata",
	"__meminitconst": "meminitdata",
	"__refdata": "section=.ref.data",
	"__exitdata": "section=.exit.data",
	"__page_aligned_data": "section=.data..page_aligned",
	"__page_aligned_bss": "section=.bss..page_aligned",
	"__cacheline_aligned": "section=.data..cacheline_aligned",
	"__nosavedata": "section=.data..nosave",
	"__bss_decrypted": "section=.bss..decrypted",
	"__initdata_memblock": "initdata",
	"__tracepoint_string": "section=__tracepoint_str",
}

# attribute macros that cocci/macros.h defines empty and spatch then
# prints in the type: not part of it
TYPE_NOISE = ["__latent_entropy"]

FSECT = {
	"__init": "init",
	"__meminit": "meminit",
	"__ref": "ref",
	"__exit": "exit",
	"__cpuinit": "cpuinit",
	"__devinit": "devinit",
	"__init_or_module": "init_or_module",
	"__net_init": "net_init",
	"__net_exit": "net_exit",
	"__init_memblock": "init_memblock",
	"__head": "section=.head.text",
	"__kprobes": "section=.kprobes.text",
	"noinstr": "section=.noinstr.text",
	"__sched": "section=.sched.text",
	"__cpuidle": "section=.cpuidle.text",
	"__irq_entry": "section=.irqentry.text",
	"__softirq_entry": "section=.softirqentry.text",
}

QUOTE = chr(34)
SECTION_RE = re.compile(r"(?:__section|__attribute__\s*\(\s*\(\s*(?:__)?section(?:__)?)\s*\(\s*" +
			QUOTE + "([^" + QUOTE + "]*)" + QUOTE)
WORD_RE = re.compile(r'[A-Za-z_][A-Za-z0-9_]*')

# Writer functions and macros, by the argument they write (0-based): the
# form of the row is memcpy for the copy-like ones ("mem": they take a
# pointer), assign/field/element for the atomic read-modify-writes ("rmw":
# they take &x) and for the macros that take the lvalue itself ("lval":
# WRITE_ONCE(x, v), this_cpu_add(x, v)). An argument that is not a
# destination is a value: __set_bit(arr[i], bits) reads arr.
WSPEC = {}
for n in """memcpy memmove memset memzero_explicit memcpy_fromio memcpy_toio
memset_io copy_from_user __copy_from_user strcpy strncpy strlcpy strscpy
strscpy_pad strcat strncat strlcat sprintf snprintf scnprintf vsnprintf
vscnprintf bitmap_zero bitmap_fill bitmap_copy bitmap_set bitmap_clear
bitmap_or bitmap_and bitmap_andnot bitmap_xor bitmap_complement
bitmap_from_arr32 bitmap_shift_left bitmap_shift_right cpumask_copy
cpumask_and cpumask_or cpumask_andnot cpumask_xor cpumask_complement
cpumask_clear cpumask_setall INIT_LIST_HEAD INIT_HLIST_HEAD
init_waitqueue_head spin_lock_init mutex_init raw_spin_lock_init
refcount_set""".split():
	WSPEC[n] = ("mem", (0,))
for n in """set_bit clear_bit __set_bit __clear_bit change_bit __change_bit
test_and_set_bit test_and_clear_bit test_and_change_bit __test_and_set_bit
__test_and_clear_bit __test_and_change_bit assign_bit __assign_bit
set_bit_lock clear_bit_unlock cpumask_set_cpu cpumask_clear_cpu
__cpumask_set_cpu __cpumask_clear_cpu cpumask_test_and_set_cpu
cpumask_test_and_clear_cpu bitmap_parselist cpumask_parse cpulist_parse
kstrtobool get_option""".split():
	WSPEC[n] = ("mem", (1,))
for n in "bitmap_parse get_options kstrtobool_from_user".split():
	WSPEC[n] = ("mem", (2,))
for n in "sscanf vsscanf".split():
	WSPEC[n] = ("mem", 2)	# every argument from the third on
for n in "WRITE_ONCE __WRITE_ONCE smp_store_mb nodes_clear nodes_setall".split():
	WSPEC[n] = ("lval", (0,))
for n in "node_set node_clear".split():
	WSPEC[n] = ("lval", (1,))
WSPEC["smp_store_release"] = ("rmw", (0,))
# static keys: static_branch_enable(&k), static_key_slow_inc(&k.key)...
# write the key (its enabled count, and the jump entries it patches);
# they take its address like the atomics
SKEY_W_RE = re.compile(r"^static_(branch|key)_(enable|disable|inc|dec|"
		       r"slow_inc|slow_dec)(_cpuslocked)?$|^static_branch_"
		       r"(deferred_inc|slow_dec_deferred)$|^static_key_"
		       r"(slow_dec_deferred|deferred_flush)$|^jump_label_rate_limit$")
RMW_RE = re.compile(r"^(arch_)?(try_)?(xchg|cmpxchg|cmpxchg64|cmpxchg128|"
		    r"cmpxchg_local|cmpxchg64_local)(_relaxed|_acquire|_release)?$")
PCPU_RE = re.compile(r"^(__)?(this|raw)_cpu_(write|add|sub|inc|dec|and|or|"
		     r"xchg|cmpxchg|cmpxchg64|cmpxchg128|try_cmpxchg|add_return|"
		     r"sub_return|inc_return|dec_return|cmpxchg_double)$")
ATOMIC_RE = re.compile(r"^(arch_)?atomic(64|_long)?_((fetch_)?(add|sub|and|or|"
		       r"xor|andnot|inc|dec)(_return)?|set|xchg|cmpxchg|"
		       r"try_cmpxchg|read|(inc|dec|sub)_and_test|add_negative|"
		       r"(fetch_)?add_unless|inc_not_zero|inc_unless_negative|"
		       r"dec_unless_positive|dec_if_positive|set_release)"
		       r"(_relaxed|_acquire|_release)?$")
ATOMIC_IV = re.compile(r"^(fetch_)?(add|sub|and|or|xor|andnot)(_return|_negative)?$|^sub_and_test$|^add_negative$")
KSTRTO_RE = re.compile(r"^kstrto[a-z0-9]+(_from_user)?$")

def wspec(fn):
	"""(kind, destination indices) of writer fn, or None."""
	if fn in WSPEC:
		return WSPEC[fn]
	m = RMW_RE.match(fn)
	if m:
		return ("rmw", (0, 1) if m.group(2) else (0,))
	if SKEY_W_RE.match(fn):
		return ("rmw", (0,))
	m = PCPU_RE.match(fn)
	if m:
		return ("lval", (0, 1) if fn.endswith("_double") else (0,))
	m = ATOMIC_RE.match(fn)
	if m:
		op = m.group(3)
		if op.startswith("read"):
			return None
		if ATOMIC_IV.match(op):
			return ("mem", (1,))
		if op.startswith("try_cmpxchg"):
			return ("mem", (0, 1))
		return ("mem", (0,))
	m = KSTRTO_RE.match(fn)
	if m:
		return ("mem", (3,) if m.group(1) else (2,))
	return None

def is_dst(spec, i):
	return i >= spec[1] if isinstance(spec[1], int) else i in spec[1]

# Functions and macros that only read what the given arguments point to
# (all arguments if None): &x there is a read, not an escape, and so is an
# array passed there. Copy sources are reads.
READS = {
	"smp_load_acquire": (0,), "test_bit": (1,), "cpumask_test_cpu": (1,),
	"memcmp": None, "strcmp": None, "strncmp": None, "strcasecmp": None,
	"strncasecmp": None, "strlen": None, "strnlen": None,
	"sysfs_streq": None, "kmemdup": (0,), "kstrdup": (0,),
	"kstrndup": (0,), "kmemdup_nul": (0,), "kstrdup_const": (0,),
	"match_string": (0, 2), "bitmap_weight": (0,), "cpumask_weight": (0,),
	# read macros: the value, its size or its type, never a write
	"READ_ONCE": (0,), "__READ_ONCE": (0,), "ARRAY_SIZE": None,
	"__same_type": None, "sizeof_field": None, "__must_be_array": None,
}
for n in """memcpy memmove memcpy_toio strcpy strncpy strlcpy strscpy
strscpy_pad strcat strncat strlcat bitmap_copy bitmap_or bitmap_and
bitmap_andnot bitmap_xor bitmap_complement cpumask_copy cpumask_and
cpumask_or cpumask_andnot cpumask_xor cpumask_complement""".split():
	READS[n] = (1, 2)
# static keys: testing a key reads it (static_branch_unlikely(&k))
for n in """static_branch_likely static_branch_unlikely static_key_enabled
static_key_count static_key_true static_key_false""".split():
	READS[n] = (0,)
READS["static_branch_maybe"] = (1,)
for n in ("atomic_read", "atomic64_read", "atomic_long_read",
	  "atomic_read_acquire", "atomic64_read_acquire",
	  "atomic_long_read_acquire"):
	READS[n] = (0,)

# printing only reads its arguments (printk has no %n): "%pR", &res
for lvl in "emerg alert crit err warn warning notice info cont devel debug".split():
	for pre in ("pr_", "dev_", "netdev_"):
		for suf in ("", "_once", "_ratelimited"):
			READS[pre + lvl + suf] = None
for n in """printk _printk printk_deferred early_printk printk_once
printk_ratelimited dev_printk netdev_printk dev_err_probe""".split():
	READS[n] = None
# seq_printf(m, fmt, ...) writes the seq_file, reads the rest
READS["seq_printf"] = 2

# The call rules (mca, mcv, alwca, alwcv, tfca, tfcv) pick their function
# names with these regexes, supersets of wspec() and READS: spatch checks
# a regex constraint itself, while a script:python constraint costs a
# Python call for every call in the file (a fifth of spatch's CPU time on
# 40 files of the tree). The scripts still decide with wspec() and READS.
# SmPL cannot read a Python string, so the rules repeat the two regexes;
# cocci/tests/test-facts.sh checks that the copies are the same.
WRITER_CALL_RE = ("^(mem(cpy|move|set|zero_explicit|cpy_fromio|cpy_toio|set_io)|"
	"(__)?copy_from_user|str(n?cpy|l?cpy|scpy(_pad)?|n?cat|lcat)|"
	"v?s(c?n)?printf|v?sscanf|bitmap_[a-z0-9_]+|(__)?cpumask_[a-z_]+|"
	"cpulist_parse|INIT_H?LIST_HEAD|init_waitqueue_head|"
	"(raw_)?spin_lock_init|mutex_init|refcount_set|"
	"(__)?(test_and_)?(set|clear|change)_bit|(__)?assign_bit|"
	"set_bit_lock|clear_bit_unlock|get_options?|"
	"kstrto[a-z0-9]+(_from_user)?|(__)?WRITE_ONCE|smp_store_mb|"
	"smp_store_release|nodes_(clear|setall)|node_(set|clear)|"
	"(arch_)?(try_)?(xchg|cmpxchg)[a-z0-9_]*|static_(branch|key)_[a-z_]+|"
	"jump_label_rate_limit|(__)?(this|raw)_cpu_[a-z0-9_]+|"
	"(arch_)?atomic(64|_long)?_[a-z0-9_]+)$")
READER_CALL_RE = ("^(smp_load_acquire|test_bit|sysfs_streq|mem(cmp|dup_user)|"
	"str(n?cmp|n?casecmp|n?len)|kmemdup(_nul)?|kstrn?dup(_const)?|"
	"match_string|(__)?READ_ONCE|ARRAY_SIZE|__same_type|sizeof_field|"
	"__must_be_array|(pr|dev|netdev)_(emerg|alert|crit|err|warn|warning|"
	"notice|info|cont|devel|debug)(_once|_ratelimited)?|dev_err_probe|"
	"_?printk(_deferred|_once|_ratelimited)?|(early|dev|netdev)_printk|"
	"seq_printf)$")
# the families the regexes cover with a pattern, one example each
for n in list(WSPEC) + """xchg_relaxed try_cmpxchg64_release
arch_cmpxchg64_local static_key_slow_dec_deferred
static_branch_disable_cpuslocked jump_label_rate_limit
this_cpu_cmpxchg_double __raw_cpu_add_return atomic_long_fetch_andnot_relaxed
atomic64_dec_if_positive arch_atomic_set_release kstrtoul_from_user
kstrtou8""".split():
	assert wspec(n) is not None and re.match(WRITER_CALL_RE, n), n
for n in READS:
	assert re.match(WRITER_CALL_RE, n) or re.match(READER_CALL_RE, n), n

def reads_arg(fn, i):
	if fn not in READS:
		return False
	r = READS[fn]
	return r is None or (i >= r if isinstance(r, int) else i in r)

readpos = set()	# (file, line, col) of arguments that are only read

def arg_index(f, pf, pl):
	"""Index of the argument starting at position pl of the call whose
	function name is at position pf (depth-0 commas in between)."""
	text = span(f, int(pf.line), int(pf.column), int(pl.line), int(pl.column))
	i = text.find(chr(40))
	if i < 0:
		return -1
	depth = 0
	n = 0
	instr = None
	j = i + 1
	while j < len(text):
		ch = text[j]
		if instr:
			if ch == chr(92):
				j += 1
			elif ch == instr:
				instr = None
		elif ch == QUOTE or ch == chr(39):
			instr = ch
		elif ch in "([{":
			depth += 1
		elif ch in ")]}":
			depth -= 1
		elif ch == "," and depth == 0:
			n += 1
		j += 1
	return n

# typedefs of array types (cpumask_var_t without CPUMASK_OFFSTACK): the
# bare name passed to a writer is written
ARRAY_TYPEDEFS = set("cpumask_var_t jmp_buf sigjmp_buf".split())

texts = {}	# file -> list of source lines
funcs = {}	# file -> set of function names defined in it
defs = {}	# file -> {name: (array, type)}
done = set()	# (table, file, line, col) already printed
wpos = set()	# (file, line, col, var) already reported as a write
callpos = set()	# (file, line, col) of calls of functions of this file
exit_funcs = {}	# file -> its __exit functions
file_calls = {}	# file -> [(caller, callee)] of its calls rows
tf_pending = []	# type-field writes through a parameter or local (files with __exit)
local_alias_at = {}	# (file, line, col) of x in P = &x, P a local -> (function, P)
deref_pending = []	# addr rows that wait for deref_flush()
cmppos = set()	# (file, line, col) of &x compared with ==, !=
spans = {}	# file -> [(first line, last line, function)]
finished = set()	# files whose funcrefs were printed
COMMENT_RE = re.compile(r"/\*.*?\*/|//[^\n]*|" + QUOTE + r"(?:\\.|[^" +
			QUOTE + r"\\\n])*" + QUOTE, re.S)

def blank(m):
	return "\n" * m.group(0).count("\n")

def funcrefs(f):
	"""Every mention of a function of file f that is not followed by (,
	with the function it appears in. Text, not SmPL, so that mentions
	in macro arguments, initializers, casts and unparsed code all count:
	a missed reference would make a helper look init-only."""
	names = funcs.get(f)
	if not names or f in finished:
		return
	finished.add(f)
	text = COMMENT_RE.sub(blank, "\n".join(src(f)))
	pat = re.compile(r"\b(" + "|".join(sorted(names)) + r")\b(?!\s*\()")
	sp = sorted(spans.get(f, []))
	line = 1
	last = 0
	for m in pat.finditer(text):
		line += text.count("\n", last, m.start())
		last = m.start()
		where = "-"
		for l1, l2, fn in sp:
			if l1 <= line <= l2:
				where = fn
				break
		emit("funcrefs", f, line, m.group(1), where)
	# A call inside a #define body is no call edge (calls.tsv holds calls
	# in function bodies), and the macro may be expanded in any function:
	# "#define MH_DO() mh_helper()" used in runtime code calls mh_helper
	# after init.  So a function a #define body calls counts as referenced,
	# and so does one that a dropped function calls (dropped() below).
	pat = re.compile(r"\b(" + "|".join(sorted(names)) + r")\b(?=\s*\()")
	regions = [(d.start(), d.end()) for d in DEFINE_RE.finditer(text)]
	regions += [(a, b) for a, b, l1, l2, fn in dropped(f, text, sp)]
	for a, b in regions:
		for m in pat.finditer(text, a, b):
			if (f, m.group(1)) in macro_funcs and \
			   re.search(r"#\s*define\s+$", text[a:m.start()]):
				continue	# the name a writing macro defines
			line = text.count("\n", 0, m.start()) + 1
			where = "-"
			for l1, l2, fn in sp:
				if l1 <= line <= l2:
					where = fn
					break
			emit("funcrefs", f, line, m.group(1), where)

# a #define and its continuation lines
DEFINE_RE = re.compile(r"^[ \t]*#[ \t]*define\b(?:[^\n]*\\\n)*[^\n]*", re.M)

# A function spatch drops without a word: building its control flow
# graph failed ("FLOW: duplicate label", printed only with --debug), as
# for the same label in both branches of an #ifdef (mm/kfence/core.c,
# kfence_init_late). It has no funcs row, none of its writes, calls or
# escapes is seen, and no parse error says so. A kernel-style body, "{"
# and "}" alone in column 0 after a header that ends in ")", inside no
# function of the file, is such a function. Its lines become an unparsed
# region (an errors row, WHERE "dropped:NAME"): what it names gets
# unparsed rows and the file is partial. The calls in it count as
# references (funcrefs), like those of #define bodies.
BODY_RE = re.compile(r"^\{[ \t]*\n.*?^\}", re.M | re.S)
TRAILING_ATTR_RE = re.compile(r"\s*\b__\w+\s*\([^()]*\)\s*$")
NOT_A_FUNCTION = set("if for while switch return sizeof typeof".split())

def header_name(head):
	"""The name of the function whose header ends text head, or None."""
	head = "\n".join(l for l in head.split("\n")
			 if not l.lstrip().startswith("#")).rstrip()
	while True:
		h = TRAILING_ATTR_RE.sub("", head)
		if h == head:
			break
		head = h
	if not head.endswith(")") or "=" in head:
		return None
	depth = 0
	for i in range(len(head) - 1, -1, -1):
		if head[i] == ")":
			depth += 1
		elif head[i] == "(":
			depth -= 1
			if depth == 0:
				m = re.search(r"([A-Za-z_]\w*)\s*$", head[:i])
				if m and m.group(1) not in NOT_A_FUNCTION:
					return m.group(1)
				return None
	return None

PP_RE = re.compile(r"^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif)\b(.*)$", re.M)

def if0_spans(text):
	"""The character ranges of the #if 0 blocks of text (to their #else,
	#elif or #endif): spatch skips them, so a function there is not
	dropped (drivers/acpi/ec.c's acpi_ec_exit)."""
	out = []
	depth = 0
	start = None
	for m in PP_RE.finditer(text):
		kw = m.group(1)
		if start is None:
			if kw == "if" and re.match(r"\s*0\s*$", m.group(2)):
				start = m.end()
				depth = 0
		elif kw in ("if", "ifdef", "ifndef"):
			depth += 1
		elif depth and kw == "endif":
			depth -= 1
		elif not depth:
			out.append((start, m.start()))
			start = None
	return out

def dropped(f, text, sp):
	"""(start, end, first line, last line, name) of each function of f,
	text without comments and strings, whose body no span of sp covers;
	an errors row lists them."""
	out = []
	heads = []
	skip = if0_spans(text)
	# lines counted as the bodies go by: every file passes here
	pos, b1 = 0, 1
	for m in BODY_RE.finditer(text):
		b1 += text.count("\n", pos, m.start())
		pos = m.start()
		if any(l1 <= b1 <= l2 for l1, l2, fn in sp):
			continue
		if any(a <= m.start() < b for a, b in skip):
			continue
		cut = max(text.rfind(";", 0, m.start()),
			  text.rfind("}", 0, m.start()))
		head = text[cut + 1:m.start()]
		name = header_name(head)
		if name is None:
			continue
		h = text.rfind(name, cut + 1, m.start())
		out.append((h, m.end(), b1 - text.count("\n", h, m.start()),
			    b1 + text.count("\n", m.start(), m.end()), name))
		heads.append((head, m.start()))
	if out:
		emit("errors", f, "parse-error: %d unparsed region(s), %d outside "
		     "#define bodies: %s" % (len(out), len(out), " ".join(
			"%d-%d@dropped:%s" % r[2:] for r in out)))
	for (a, b, l1, l2, name), (head, body) in zip(out, heads):
		dropped_rows(f, text, head, body, b, l1, name)
	return out

# writes of x in code that is only text: x = , x += , x++, ++x, x[i] = ,
# x.f = (what spatch would have called assign, compound, incdec, element
# and field; x->f and *x write the pointee and stay unparsed mentions)
TEXT_WRITE_RE = r"(?<![\w.>])(%s)\s*((?:\[[^\]]*\]|\.\s*\w+)*)\s*(=(?!=)|[-+*/%%&|^]=|<<=|>>=|\+\+|--)|(?:\+\+|--)\s*(%s)\b"

def dropped_rows(f, text, head, body, b, l1, name):
	"""A funcs row for the dropped function name (lines from l1, its
	header text head, its body text body..b), with its storage and
	section from the header, and a writes row for each write of a
	variable of the file that its text shows."""
	words = WORD_RE.findall(head)
	sect = [FSECT[w] for w in words if w in FSECT]
	emit("funcs", f, l1, name, "static" if "static" in words else "global",
	     ",".join(sect) if sect else "-")
	funcs.setdefault(f, set()).add(name)
	names = sorted(defs.get(f, {}))
	if not names:
		return
	alt = "|".join(names)
	for line, var, form in text_writes(f, text, body, b):
		emit("writes", f, line, var, name, form)
	# &x passed or stored (unary &: after ( , = ? : { ; ! or return, not
	# the & of "a & x"): an escape in the dropped function; &p[i] of a
	# pointer p exposes the pointee
	for m in re.finditer(r"(?<![&\w)\]])&\s*(%s)\b\s*(\[?)" % alt,
			     text[body:b]):
		lead = text[body:body + m.start()].rstrip()
		if not lead or lead[-1] not in "(,=?:{;!" and \
		   not lead.endswith("return"):
			continue
		line = text.count("\n", 0, body + m.start()) + 1
		form = subscript_form(f, m.group(1), "addr") if m.group(2) \
		       else "addr"
		emit("writes", f, line, m.group(1), name, form)

def text_writes(f, text, a, b):
	"""(line, variable, form) of each write of a variable of file f that
	text[a:b] shows (TEXT_WRITE_RE)."""
	alt = "|".join(re.escape(n) for n in sorted(defs.get(f, {})))
	if not alt:
		return []
	pat = re.compile(TEXT_WRITE_RE % (alt, alt))
	return [(text.count("\n", 0, m.start()) + 1, m.group(4) or m.group(1),
		 text_write_form(m)) for m in pat.finditer(text, a, b)]

def text_write_form(m):
	"""The form of a TEXT_WRITE_RE match m."""
	if m.group(4):
		return "incdec"
	op = m.group(3)
	sub = m.group(2).strip()
	if sub.startswith("["):
		return "element"
	if sub.startswith("."):
		return "field"
	return "incdec" if op in ("++", "--") else \
	       ("assign" if op == "=" else "compound")

# "#define err_printk(...) do { error_count += 1; ... } while (0)": a
# function-like macro whose body writes a variable of the file (the
# text shows it: TEXT_WRITE_RE) writes it wherever it is expanded.  The
# macro becomes a static function of the file (a funcs row, no section)
# with a writes row for each write; its calls in function bodies are
# call edges (the call rule matches it like a function of the file), so
# the write is init-only only if every expansion is in init-only code.
# Any other mention (in another #define body, at file scope, not
# called) is a funcrefs row: a reference, never init-only.
MACRO_DEF_RE = re.compile(r"#[ \t]*define[ \t]+([A-Za-z_]\w*)\(")
macro_funcs = set()	# (file, name) of the writing macros

def macro_writers(f):
	"""Emit the funcs and writes rows of the writing macros of .c file
	f, and return their names."""
	out = set()
	if not defs.get(f) or not f.endswith(".c"):
		return out
	text = COMMENT_RE.sub(blank, "\n".join(src(f)))
	for d in DEFINE_RE.finditer(text):
		m = MACRO_DEF_RE.match(d.group(0).lstrip())
		if not m or m.group(1) in funcs.get(f, ()):
			continue
		macro = m.group(1)
		l1 = text.count("\n", 0, d.start()) + 1
		rows = text_writes(f, text, d.start(), d.end())
		if not rows:
			continue
		out.add(macro)
		macro_funcs.add((f, macro))
		emit("funcs", f, l1, macro, "static", "-")
		for line, var, form in rows:
			emit("writes", f, line, var, macro, form)
	return out

statics = {}	# file -> {static variable name: set of definition lines}
fsect = {}	# (file, function) -> its section list ("init", ...)
wlines = {}	# file -> {(line, variable)} of its write rows
reads_pending = []	# files whose static variables have no read rows yet
TAG_RE = re.compile(r"\b(struct|union|enum)\s+$")

def static_reads(f):
	"""A read row for mentions of a static variable of file f: the
	first one in each function (in an __init function, the first one on
	a line where no row writes the variable), and every one at file
	scope but its definitions and struct tags. Text, not SmPL, like
	funcrefs(): mentions in macro arguments, #define bodies and unparsed
	code all count, so a variable whose every read row is in __init
	code is read only there (candidates/: class initdata)."""
	names = statics.get(f)
	if not names:
		return
	text = COMMENT_RE.sub(blank, "\n".join(src(f)))
	# not a member: s.name, p->name
	pat = re.compile(r"(?<!\.)(?<!->)(?<!\w)(" + "|".join(sorted(names)) +
			 r")\b")
	sp = sorted(spans.get(f, []))
	wl = wlines.get(f, set())
	seen = set()
	line = 1
	last = 0
	for m in pat.finditer(text):
		line += text.count("\n", last, m.start())
		last = m.start()
		name = m.group(1)
		if TAG_RE.search(text, max(m.start() - 16, 0), m.start()):
			continue	# struct name, the tag
		where = "-"
		for l1, l2, fn in sp:
			if l1 <= line <= l2:
				where = fn
				break
		if where == "-":
			if line in names[name]:
				continue
			# an array named in another initializer (".resource =
			# foo_res") or a macro argument decays to its address,
			# which no SmPL rule sees at file scope
			# (an element, names[i], is a value, unless &names[i])
			if is_array(f, name) and not SIZE_OF_RE.search(
					text, max(m.start() - 40, 0), m.start()) and \
			   not (SUBSCRIPT_RE.match(text, m.end()) and not
				text[max(m.start() - 8, 0):m.start()].rstrip()
				.endswith("&")):
				emit("writes", f, line, name, "-", "array-arg")
				member_slot(f, line, name, text[max(m.start() - 200, 0):m.start()])
				h = holder_of(f, text, m.start(), name)
				if h:
					emit("params", f, line, name, "holder", "-", h)
			else:
				# module_platform_driver(foo_driver) registers
				# &foo_driver in the __init function it defines
				mac = file_macro_arg(text, m.start(), m.end())
				if mac:
					emit("writes", f, line, name, "-", "addr")
					emit("params", f, line, name, "macro", "-", mac)
		elif (name, where) in seen or ((line, name) in wl and "init" in
						fsect.get((f, where), "").split(",")):
			continue
		seen.add((name, where))
		emit("writes", f, line, name, where, "read")
def line_at_col0(text, s, most, skip):
	"""Where the statement around text[s] starts: the last line at or
	before it, MOST lines up at most, whose first character is not in
	SKIP (kernel style indents what continues a statement)."""
	ls = text.rfind("\n", 0, s) + 1
	for _ in range(most):
		if ls == 0 or (ls < len(text) and text[ls] not in skip):
			break
		ls = text.rfind("\n", 0, ls - 1) + 1
	return ls

# a macro called at file scope, its name at column 0: MACRO(a, b);
MACRO_HEAD_RE = re.compile(r"([A-Za-z_]\w*)\s*\(")
# file-scope macros that take a variable as a value or a name: their
# rows come from params (module_param*, core_param), or none is needed;
# the OF_DECLARE family (IRQCHIP_DECLARE(name, compat, fn)) pastes its
# first argument into the name of a table entry: a variable of that name
# is another object
VALUE_MACRO_RE = re.compile(r"(?:module_param\w*|core_param\w*|\w+_param|"
			    r"\w+_param_cb|MODULE_\w+|EXPORT_SYMBOL\w*|__setup|"
			    r"early_param|static_assert|_Static_assert|"
			    r"BUILD_BUG_ON\w*|\w+_DECLARE)$")

def file_macro_arg(text, s, e):
	"""The macro, if the mention text[s:e] is a whole argument (x or &x)
	of a macro called at file scope, else None. The macro may take its
	address and hand it to code no SmPL rule sees:
	module_platform_driver(foo_driver) defines an __init function that
	registers &foo_driver, which the driver core writes; apic_driver(x)
	stores &x in a section."""
	b = text[max(s - 300, 0):s].rstrip()
	if b.endswith("&"):
		b = b[:-1].rstrip()
	if not b.endswith(("(", ",")) or \
	   not text[e:e + 80].lstrip().startswith((")", ",")):
		return None
	m = MACRO_HEAD_RE.match(text, line_at_col0(text, s, 30, " \t\n"))
	if not m or VALUE_MACRO_RE.match(m.group(1)):
		return None
	return m.group(1)

# the declarator of a definition with an initializer: NAME [N] __attr =
HOLDER_RE = re.compile(r"([A-Za-z_]\w*)\s*(?:\[[^\]]*\]\s*)*"
		       r"(?:__\w+(?:\s*\([^()]*\))?\s*)*=(?!=)")

def holder_of(f, text, s, name):
	"""The static of file f whose initializer holds text[s] (x named
	at file scope), or None: "static struct bin_attribute *attrs[] =
	{ &data_attr, NULL };". The definition starts at the last line
	before s that starts at column 0, and no ';' stands between."""
	head = text[line_at_col0(text, s, 400, " \t\n#"):s]
	m = HOLDER_RE.search(head)
	if not m or ";" in head or m.group(1) == name or \
	   m.group(1) not in defs.get(f, {}):
		return None
	return m.group(1)

# ".f = &x" or ".f = x" at file scope: x stored in member f of a table
MEMBER_SLOT_RE = re.compile(r"\.\s*([A-Za-z_]\w*)\s*=\s*&?\s*$")

def member_slot(f, line, name, before):
	"""A params row of kind member when the text BEFORE the mention of
	name (its address or the array itself) ends with ".f =": a
	designated initializer stores it in member f, and candidates/ reads
	that as a read if every struct declares f a pointer to const
	(protos.tsv). A cast in between (".f = (void *)&x") is no member."""
	m = MEMBER_SLOT_RE.search(before)
	if m:
		emit("params", f, line, name, "member", "-", m.group(1))

# the size or type of an array, the alias MODULE_DEVICE_TABLE() makes for
# modpost, a module parameter (its params row) and its MODULE_PARM_DESC()
# (a string made of the name): no address taken
SIZE_OF_RE = re.compile(r"\b(ARRAY_SIZE|sizeof|__must_be_array|typeof|"
			r"__typeof__|__typeof|MODULE_DEVICE_TABLE\s*\(\s*\w+\s*,|"
			r"MODULE_PARM_DESC\s*\(|"
			r"module_param\w*\s*\((?:\s*\w+\s*,)?)"
			r"\s*\(?\s*$")
SUBSCRIPT_RE = re.compile(r"\s*\[")
# a function defined by a macro: NAME( on its line before the function name
MACRO_FN_RE = re.compile(r"^\s*[A-Za-z_][A-Za-z0-9_]*\s*\(\s*$")
# functions defined in the file being processed; the fn rule runs on a
# file before the rules that use this, and files are processed in turn
CUR = {"file": None, "funcs": set()}

class Loc:
	"""A position with integer fields (spatch gives strings)."""
	def __init__(self, p):
		self.file = p.file
		self.current_element = p.current_element
		self.current_element_line = int(p.current_element_line)
		self.current_element_column = int(p.current_element_column)
		self.current_element_line_end = int(p.current_element_line_end)
		self.current_element_column_end = int(p.current_element_column_end)
		self.line = int(p.line)
		self.column = int(p.column)

def src(f):
	if f not in texts:
		try:
			with open(f, errors="replace") as fh:
				texts[f] = fh.read().split("\n")
		except OSError:
			texts[f] = []
	return texts[f]

def span(f, l1, c1, l2, c2):
	"""Source text from (l1, c1) to (l2, c2), lines 1-based, cols 0-based."""
	lines = src(f)
	if l1 < 1 or l1 > len(lines):
		return ""
	if l1 == l2:
		return lines[l1 - 1][c1:c2]
	out = [lines[l1 - 1][c1:]]
	out.extend(lines[l1:l2 - 1])
	if l2 - 1 < len(lines):
		out.append(lines[l2 - 1][:c2])
	return "\n".join(out)

def clean(s):
	return " ".join(str(s).replace("\t", " ").split())

def emit(table, *cols):
	print(table + "\t" + "\t".join(clean(c) if c != "" else "-" for c in cols))

def infunc(p):
	"""The enclosing function of position p, or - at file scope."""
	ce = p.current_element
	if ce in funcs.get(p.file, ()):
		return ce
	return "-"

# a cast spatch's isomorphisms let an idexpression match:
# set_bit(f, (unsigned long *)cpu_caps_cleared) binds x to the whole cast
CAST_PREFIX_RE = re.compile(r"^\(\s*[A-Za-z_][\w\s]*\**\s*\)\s*")

def uncast(s):
	"""Text s without the casts in front of it."""
	s = str(s).strip()
	while s.startswith("("):
		t = CAST_PREFIX_RE.sub("", s, 1)
		if t == s:
			break
		s = t
	return s

def int_cast(x):
	"""Is x cast to an integer type (no *): (unsigned long)arr passes a
	number to compare or print, not a pointer to write through."""
	m = CAST_PREFIX_RE.match(str(x).strip())
	return m is not None and "*" not in m.group(0)

def ident(x):
	# an idexpression prints with its attributes: "foo __read_mostly"
	return (uncast(x).split() or [""])[0]

def after_name(f, line, col):
	"""Text after a declarator up to the first = , ; at depth 0."""
	lines = src(f)
	out = []
	depth = 0
	l, c = line, col
	while l <= len(lines) and l < line + 40:
		s = lines[l - 1]
		while c < len(s):
			ch = s[c]
			if ch in "([{":
				depth += 1
			elif ch in ")]}":
				# the ")" closing "(*name" leaves the declarator
				depth = max(depth - 1, 0)
			elif depth == 0 and ch in "=,;":
				return "".join(out), ch == "="
			out.append(ch)
			c += 1
		out.append(" ")
		l += 1
		c = 0
	return "".join(out), False

# definitions by a macro that cocci/macros.h expands without what the
# kernel's macro adds (spatch cannot parse it there): macro -> (type,
# attribute); the definition is a static array
MACRO_DEFS = {
	# drivers/clk/rockchip/clk.h, drivers/clk/samsung/clk.h
	"PNAME": ("const char * const []", "initconst"),
}

# macros that put their definition in a section (spatch sees them
# through cocci/macros.h)
MACRO_SECT = {
	"DEFINE_LSM": ".lsm_info.init",
	"DEFINE_EARLY_LSM": ".early_lsm_info.init",
}
INIT_SECT_RE = re.compile(r"^\.init\.|\.init$")

def attrs_of(text):
	found = []
	for w in WORD_RE.findall(text):
		if w in MACRO_SECT and "section=" + MACRO_SECT[w] not in found:
			found.append("section=" + MACRO_SECT[w])
	for w in WORD_RE.findall(text):
		a = ATTRS.get(w)
		if a and a not in found:
			found.append(a)
	if re.search(r"\bDEFINE_(EARLY_)?PER_CPU", text) and "percpu" not in found:
		found.append("percpu")
	for m in SECTION_RE.finditer(text):
		a = "section=" + m.group(1)
		if a not in found:
			found.append(a)
	return found

def prefix(f, line, col):
	"""What precedes a definition that starts at (line, col) on its line
	and the line before, back to the previous ; } { or directive: spatch's
	builtin macros drop a leading __init, so current_element starts after
	it in "__init void f(void)"."""
	lines = src(f)
	if line < 1 or line > len(lines):
		return ""
	text = lines[line - 1][:col]
	if line >= 2 and not text.strip():
		text = lines[line - 2] + " " + text
	text = COMMENT_RE.sub(" ", text)
	for stop in ";{}":
		text = text.rsplit(stop, 1)[-1]
	return "" if text.lstrip().startswith("#") else text

DEF_STARTS = {}	# file -> [the last line <= L that starts at column 0 with a word]
INIT_MEMO = {}	# (file, definition line) -> ((line, column) of its "=", verdict)

def def_start(f, line):
	"""Where the file-scope definition around LINE starts: the last line
	at or before it that starts at column 0 with a word, 400 lines up at
	most (kernel style indents initializers)."""
	starts = DEF_STARTS.get(f)
	if starts is None:
		starts = []
		last = 1
		for i, s in enumerate(src(f), 1):
			if WORD_RE.match(s[:1]):
				last = i
			starts.append(last)
		DEF_STARTS[f] = starts
	l = starts[line - 1] if 0 < line <= len(starts) else line
	return max(l, line - 400, 1)

def in_init_data(q):
	"""Is file-scope position q inside the initializer of a definition
	that lives in init data (__initdata, __initconst, a .init section)?
	The definition starts at def_start(): current_element has no usable
	position when the definition comes from a macro such as DEFINE_LSM.
	Every row of a large table asks: the verdict is kept per definition
	once its "=" is known, so a table costs its length, not its square."""
	l = def_start(q.file, q.line)
	hit = INIT_MEMO.get((q.file, l))
	if hit and (q.line, q.column) > hit[0]:
		return hit[1]
	text = span(q.file, l, 0, q.line, q.column)
	eq = text.find("=")
	head = text if eq < 0 else text[:eq]
	found = False
	for a in attrs_of(head):
		if a in ("initdata", "initconst") or \
		   (a.startswith("section=") and INIT_SECT_RE.search(a[8:])):
			found = True
			break
	if eq >= 0:
		nl = text.rfind("\n", 0, eq)
		INIT_MEMO[(q.file, l)] = ((l + text.count("\n", 0, eq),
					   eq - nl - 1), found)
	return found

def in_macro(f, line):
	"""Is line part of a #define body (a continued line)?"""
	lines = src(f)
	bs = chr(92)
	l = line
	if not (1 <= l <= len(lines)):
		return False
	if not lines[l - 1].rstrip().endswith(bs) and \
	   not (l >= 2 and lines[l - 2].rstrip().endswith(bs)):
		return False
	while l >= 2 and lines[l - 2].rstrip().endswith(bs):
		l -= 1
	return lines[l - 1].lstrip().startswith("#")

def top_const(ty):
	t = re.sub(r"\[[^\]]*\]", " ", ty)
	if "*" in t:
		return "const" in WORD_RE.findall(t.rsplit("*", 1)[1])
	return "const" in WORD_RE.findall(t)

def chain_form(x, lv):
	"""Form of a write to lvalue text lv whose leftmost token is x:
	assign (bare), field (x.f...), element (x[i]...), arrow (x->, *x),
	or None if lv does not start with x."""
	s = uncast(lv)
	if not s.startswith(x):
		return None
	rest = s[len(x):].lstrip()
	if rest and (rest[0].isalnum() or rest[0] == "_"):
		return None
	if not rest:
		return "bare"
	if rest.startswith("->"):
		return "arrow"
	if rest[0] == ".":
		return "field"
	if rest[0] == "[":
		return "element"
	return None

# MACRO(x) = e: only a macro can be an lvalue call (RIP_REL_REF(x))
def macro_lvalue(x, lv):
	return re.match(r"^[A-Za-z_][A-Za-z0-9_]*\s*\(\s*" + re.escape(x) +
			r"\s*\)$", str(lv)) is not None

def lv_write(x, L, p, pl, bare_form):
	"""x starts the lvalue L of an assignment or increment (bare_form)."""
	q = Loc(p[0])
	name = ident(x)
	form = chain_form(name, L)
	first = (q.line, q.column) == (int(pl[0].line), int(pl[0].column))
	if not first and macro_lvalue(name, L):
		first, form = True, "bare"
	if not first or not form or infunc(q) == "-":
		return
	if form == "bare":
		form = bare_form
	elif form == "arrow":
		# p->f writes the pointee (x[0] if x is an array here)
		form = "element" if is_array(q.file, name) else "pointee"
	elif form == "element":
		form = subscript_form(q.file, name, "element")
	if form:
		report_write(q, name, form)

def macro_out_write(x, L, p, pl):
	"""x (or x.f, x[i]) is the output argument L of a writer macro."""
	q = Loc(p[0])
	name = ident(x)
	form = chain_form(name, L)
	if (q.line, q.column) != (int(pl[0].line), int(pl[0].column)) or \
	   not form or infunc(q) == "-":
		return
	if form == "bare":
		form = "assign"
	elif form == "arrow":
		form = "element" if is_array(q.file, name) else "pointee"
	elif form == "element":
		form = subscript_form(q.file, name, "element")
	if form:
		report_write(q, name, form)

def is_array(f, x):
	d = defs.get(f, {}).get(x)
	return d is not None and d[0] == 1

def known_scalar(f, x):
	d = defs.get(f, {}).get(x)
	return d is not None and d[0] == 0

def subscript_form(f, x, form):
	"""Form of a write (element, memcpy) or escape (addr) through x[i]:
	unchanged if x is an array of this file, else pointee (pointee-addr
	for an escape): x may be a pointer, whose x[i] is its pointee. The
	aggregator reads defs.array to decide."""
	if is_array(f, x):
		return form
	return "pointee-addr" if form == "addr" else "pointee"

def array_arg(x, p):
	"""x passed or stored whole: an escape if it is an array (the
	aggregator reads defs.array for a name of another file)."""
	q = Loc(p[0])
	name = ident(x)
	if not known_scalar(q.file, name) and \
	   name not in funcs.get(q.file, ()) and infunc(q) != "-" and \
	   not name.isupper() and \
	   (q.file, q.line, q.column) not in readpos and not int_cast(x):
		report_write(q, name, "array-arg")
		object_slot(q, name, q.column)

# O.f = &x; O.f = x; O[i].f = x; in a function, O a variable of the file
OBJ_SLOT_RE = re.compile(r"(?<![\w.>])([A-Za-z_]\w*)\s*(?:\[[^\[\]]*\]\s*)?"
			 r"\.\s*([A-Za-z_]\w*)\s*=\s*&?\s*$")

def object_slot(q, name, col):
	"""x of the file stored in member f of O, a variable of the file, in
	a function (cb_clk.params = &cb_params): a type-store row T->f, T
	O's type, so that candidates/ can follow writes through the member
	(type-pointee rows) to x."""
	if infunc(q) == "-" or name not in defs.get(q.file, {}):
		return
	lines = src(q.file)
	if q.line > len(lines):
		return
	m = OBJ_SLOT_RE.search(lines[q.line - 1][:col])
	d = defs.get(q.file, {}).get(m.group(1)) if m else None
	if d is None or m.group(1) == name:
		return
	ty = re.sub(r"\s*\[.*$", "", d[1])
	ty = " ".join(w for w in ty.split() if w not in ("const", "volatile"))
	if not ty or "*" in ty or not WORD_RE.match(ty):
		return
	var = ty + "->" + m.group(2)
	key = (q.file, q.line, q.column, var)
	if key in wpos:
		return
	wpos.add(key)
	emit("writes", q.file, q.line, var, infunc(q), "type-store")

# "#define futex_hashsize (__futex_data.hashsize)": an object macro that
# names an lvalue of a variable of the file (x, x.f..., x[i]...) is that
# lvalue wherever the file writes it (kernel/futex/core.c writes the
# struct only through such macros).  One line, no parameters.
MACRO_ALIAS_RE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)[ \t]+"
			    r"\(*[ \t]*([A-Za-z_]\w*)[ \t]*((?:\.|\[)[^\\]*?)?"
			    r"[ \t)]*$")
macro_aliases = {}	# file -> {macro: (variable, bare|field|element)}

def macro_alias(f, name):
	if f not in macro_aliases:
		al = {}
		for s in src(f):
			m = MACRO_ALIAS_RE.match(s)
			if not m or m.group(2) not in defs.get(f, {}) or \
			   m.group(3) is not None and m.group(3).count("(") != \
			   m.group(3).count(")"):
				continue
			rest = m.group(3) or ""
			al[m.group(1)] = (m.group(2), "field" if rest.startswith(".")
					  else "element" if rest else "bare")
		macro_aliases[f] = al
	return macro_aliases[f].get(name)

# what a write of the macro is for the variable: a whole write of x.f is
# a field write of x; &x.f and an array x.f passed are escapes of x; a
# write through a pointer field (pointee) stays the pointee's
ALIAS_FORM = {"assign": None, "compound": None, "incdec": None,
	      "field": None, "element": None, "array-arg": "addr"}

def report_write(p, x, form):
	f = p.file
	al = macro_alias(f, x) if x not in defs.get(f, {}) else None
	if al is not None:
		x = al[0]
		if al[1] != "bare" and form in ALIAS_FORM:
			form = ALIAS_FORM[form] or al[1]
	key = (f, p.line, p.column, x)
	if key in wpos:
		return
	wpos.add(key)
	wlines.setdefault(f, set()).add((p.line, x))
	emit("writes", f, p.line, x, infunc(p), form)

def call_arg(fn, x, L, p, pl, pf, amp):
	"""x starts the argument L (after & if amp) of a call of fn at pf."""
	q = Loc(p[0])
	name = ident(x)
	form = chain_form(name, L)
	if (q.line, q.column) != (int(pl[0].line), int(pl[0].column)) or \
	   not form:
		return
	idx = arg_index(q.file, pf[0], pl[0])
	spec = wspec(fn)
	if not spec or not is_dst(spec, idx):
		if reads_arg(fn, idx) and form != "arrow":
			readpos.add((q.file, q.line, q.column))
		return
	kind = spec[0]
	if form == "arrow":
		# x->f writes the pointee (x[0] if x is an array here):
		# WRITE_ONCE(x->f, v), xchg(&x->f, v), memcpy(&x->f, ...)
		if is_array(q.file, name):
			if kind == "mem":
				return
			form = "element"
		else:
			if (kind == "mem" and not amp) or (kind == "lval" and amp):
				return
			report_write(q, name, "pointee")
			return
	if kind == "lval":
		# WRITE_ONCE(x, v), this_cpu_add(x.f, v): the lvalue itself
		if amp:
			return
		out = "assign" if form == "bare" else form
	elif amp or form != "bare":
		# xchg(&x.f, v), memcpy(&x, ...), memcpy(x.name, ...)
		out = "memcpy" if kind == "mem" else \
		      ("assign" if form == "bare" else form)
	elif is_array(q.file, name):
		out = "memcpy" if kind == "mem" else "element"
	elif known_scalar(q.file, name):
		# a pointer passed: the pointee is written, not x
		return
	else:
		out = "array-arg"
	if form == "element":
		# x[i]...: the pointee if x is a pointer
		out = subscript_form(q.file, name, out)
	report_write(q, name, out)

# Aliases: P = &x (or P = x for an array x), then P->f = e, P[i] = e or
# *P = e is a write of x. File-scope P: writes anywhere in the file;
# a local P: writes in the same function.
aliases = {}	# (file, P) or (file, func, P) -> set of (x, base)

def add_alias(P, V, L, pp, pv, pl, amp, local):
	q = Loc(pv[0])
	f = q.file
	v = ident(V)
	if v in funcs.get(f, ()) or v.isupper():
		return
	if amp:
		if (q.line, q.column) != (int(pl[0].line), int(pl[0].column)):
			return
		form = chain_form(v, L)
		if form not in ("bare", "field", "element"):
			return
		base = "ptr" if form == "bare" else form
		if base == "element":
			# P = &p[i] with a pointer p: P reaches the pointee of p
			base = subscript_form(f, v, base)
	elif is_array(f, v):
		base = "element"
	elif known_scalar(f, v):
		# P = ptr copies a pointer: writes through P hit the pointee
		return
	else:
		# defined elsewhere: counts only if it is an array there
		base = "array-arg"
	fn = infunc(Loc(pp[0]))
	if local:
		if fn == "-":
			return
		if amp:
			local_alias_at[(f, int(pl[0].line), int(pl[0].column))] = \
				(fn, ident(P))
		key = (f, fn, ident(P))
	else:
		key = (f, ident(P))
		if base in ("ptr", "field", "element") and \
		   ("alias", f, q.line, v, ident(P)) not in done:
			# other files write through P: params kind alias
			done.add(("alias", f, q.line, v, ident(P)))
			emit("params", f, q.line, v, "alias", "-", ident(P))
	aliases.setdefault(key, set()).add((v, base))

def alias_targets(q, P):
	fn = infunc(q)
	if fn == "-":
		return ()
	t = aliases.get((q.file, fn, P))
	if t is None:
		t = aliases.get((q.file, P))
	return t or ()

def through(q, P, L, pl):
	"""How the lvalue L reaches the pointer P at q: arrow (P->f...),
	element (P[i]...), deref (*P, (*P).f), or None."""
	lead = span(q.file, int(pl[0].line), int(pl[0].column), q.line,
		    q.column)
	if lead.strip() and set(lead) <= set("(* \t\n") and "*" in lead:
		return "deref"
	if lead.strip():
		return None
	form = chain_form(P, L)
	return form if form in ("arrow", "element") else None

def alias_write(P, L, p, pl, fn=None, pf=None, amp=False):
	"""An lvalue L through alias P, or P as argument of writer fn."""
	q = Loc(p[0])
	name = ident(P)
	targets = alias_targets(q, name)
	if not targets:
		return
	acc = through(q, name, L, pl)
	kind = None
	if fn is not None:
		spec = wspec(fn)
		idx = arg_index(q.file, pf[0], pl[0])
		if not spec or not is_dst(spec, idx):
			return
		kind = spec[0]
		if acc is None and not amp and chain_form(name, L) == "bare" \
		   and kind != "lval":
			acc = "deref"	# memcpy(P, ...), xchg(P, v)
		elif amp and acc == "arrow" and kind == "lval":
			return
	if acc is None:
		return
	for v, base in sorted(targets):
		if base != "ptr":
			form = base
		else:
			form = {"arrow": "field", "element": "element",
				"deref": "assign"}[acc]
		if kind == "mem" and form not in ("array-arg", "pointee"):
			form = "memcpy"
		report_write(q, v, form)



# Writes of a field through a typed pointer (type-field rows): the
# lvalue starts with E->fld and goes on only with .g and [i] (a later
# -> reaches another object); a writer function must write that
# argument, and a bare one (no &) must be WRITE_ONCE-like or take the
# field itself (memcpy(E->name, ...) writes an array field; for a pointer
# field it writes its pointee: counted, an over-approximation).
TF_TAIL_RE = re.compile(r"^(\s*(\.\s*[A-Za-z_]\w*|\[[^\[\]]*\]))*\s*$")

# Which pointers lead back to an object someone registered: a global
# pointer (cpufreq_driver->boost_enabled = state), a pointer held in
# such an object (priv->cdev), or a local the function got back from the
# core: container_of(), to_foo(dev), dev_get_drvdata(),
# file->private_data. Not a parameter or a local from anywhere else: a
# helper that fills in its argument (__cyc2ns_read(data), a resource
# parser) or a new object (kzalloc, kmemdup, &heap->attrs[i]) writes
# objects of the type that were never registered.
DERIVED = r"(container_of\w*|to_\w+|\w*get_drvdata|\w*_priv|from_\w+)\s*\(|" \
	  r"[A-Za-z_]\w*(\s*->\s*\w+)*\s*->\s*(private_data|private|i_private|" \
	  r"driver_data)\b"
DERIVED_RE = re.compile(r"^\s*(\([^()]*\)\s*)?(" + DERIVED + ")")

def registered_ptr(q, e):
	"""Does pointer expression e (text) lead back to a registered object?"""
	if not re.match(r"^[A-Za-z_]\w*$", e):
		# a call: to_foo(dev); a member chain by its base: cxt.cur_ops
		# (a global), priv->cdev (priv = dev_get_drvdata(dev)), not
		# seg->res of a new seg or state->user of a parameter
		if DERIVED_RE.match(e):
			return True
		m = re.match(r"^([A-Za-z_]\w*)\s*(->|\.)", e)
		return m is not None and registered_ptr(q, m.group(1))
	text = func_text(q)
	if text is None:
		return False
	for m in re.finditer(r"\b" + re.escape(e) + r"\s*=(?!=)", text):
		if DERIVED_RE.match(text[m.end():]):
			return True
	# a parameter or a local: declared as *e in the function
	# (attributes allowed: *table __free(kfree) = kzalloc(...))
	return re.search(r"\*\s*" + re.escape(e) +
			 r"\s*(__\w+\s*(\([^()]*\))?\s*)*[=;,)\[]",
			 text) is None

func_texts = {}	# (file, first line) -> text, for the current file only

def func_text(q):
	"""The text of the function around position q, comments and strings
	blanked, or None at file scope."""
	fn = infunc(q)
	for l1, l2, name in spans.get(q.file, ()):
		if name == fn and l1 <= q.line <= l2:
			key = (q.file, l1)
			if key not in func_texts:
				if any(k[0] != q.file for k in func_texts):
					func_texts.clear()
				func_texts[key] = COMMENT_RE.sub(blank, "\n".join(
					src(q.file)[l1 - 1:l2]))
			return func_texts[key]
	return None

def type_field(T, E, fld, L, p, pl, fn=None, pf=None, amp=False, V=None):
	q = Loc(p[0])
	if (q.line, q.column) != (int(pl[0].line), int(pl[0].column)) or \
	   infunc(q) == "-":
		return
	ty = clean(T)
	if "*" in ty or not WORD_RE.match(ty):
		return
	ty = " ".join(w for w in ty.split() if w not in ("const", "volatile"))
	s = clean(L)
	e = clean(E)
	if not s.startswith(e):
		return
	rest = s[len(e):].lstrip()
	m = re.match(r"^->\s*" + re.escape(str(fld)) + r"\b", rest)
	if not m:
		return
	tail = rest[m.end():]
	flat = TF_TAIL_RE.match(tail) is not None
	# E->fld[i]..., E->fld->g...: through the member, if it is a
	# pointer, into the object it points to (type-pointee)
	through = re.match(r"^\s*(\[|->)", tail) is not None
	if not flat and not through:
		return
	if fn is not None:
		spec = wspec(fn)
		if not spec or not is_dst(spec, arg_index(q.file, pf[0], pl[0])):
			return
		if amp and spec[0] == "lval":
			return
		# memcpy(E->fld, ...): the pointee of a pointer member
		if not amp and spec[0] != "lval" and not tail.strip():
			through = True
	if through and registered_ptr(q, e):
		type_pointee(q, ty + "->" + str(fld))
	elif flat and re.match(r"^[A-Za-z_]\w*$", e):
		# p = c->fld (&c->fld[i], c->fld + i), then p->g = v
		held = member_alias(q, e)
		if held is not None:
			type_pointee(q, held)
	if not flat:
		return
	# input->keycode = keymap: a file-scope object stored in the field
	# (candidates/registrations.tsv kind store), whatever input is
	rhs = re.sub(r"^&\s*", "", clean(V)) if V is not None else ""
	form = "type-field"
	if not registered_ptr(q, e):
		if rhs not in defs.get(q.file, {}):
			if q.file in exit_funcs:
				tf_pending.append((q.file, q.line, q.column,
						   ty + "->" + str(fld),
						   infunc(q)))
			return
		form = "type-store"
	var = ty + "->" + str(fld)
	key = (q.file, q.line, q.column, var)
	if key in wpos:
		return
	wpos.add(key)
	emit("writes", q.file, q.line, var, infunc(q), form)

def type_pointee(q, var):
	"""A type-pointee row: a write through member f of a registered T
	into the object the member points to (var T->f)."""
	key = (q.file, q.line, q.column, var, "pointee")
	if key in wpos:
		return
	wpos.add(key)
	emit("writes", q.file, q.line, var, infunc(q), "type-pointee")

# p = c->f;  p = &c->f[i];  p = c->f + i;  (T *p = ...; too)
MEMBER_ALIAS_RE = r"\s*=\s*(?:\(\s*[^()]*\)\s*)?(&\s*)?([A-Za-z_]\w*)\s*->\s*" \
		  r"([A-Za-z_]\w*)\s*(\[[^\[\];]*\]|\+[^;]*)?\s*;"

def member_alias(q, e):
	"""Local e set from a member of a registered object in its function
	(struct foo_params *p = c->params, with c = to_foo(hw)): "T->f" of
	that member, T the holder's type as the function declares it, or
	None. A write through e then writes what the member points to."""
	text = func_text(q)
	if text is None:
		return None
	for m in re.finditer(r"(?<![\w.>])" + re.escape(e) + MEMBER_ALIAS_RE,
			     text):
		if m.group(1) and not m.group(4):
			continue	# &c->f: the member itself, not its pointee
		x = m.group(2)
		if x == e or not registered_ptr(q, x):
			continue
		t = re.search(r"\b((?:struct|union)\s+[A-Za-z_]\w*|[A-Za-z_]\w*)"
			      r"\s*\*\s*" + re.escape(x) + r"\b", text)
		if t is None or t.group(1) in ("return", "sizeof"):
			continue
		return " ".join(t.group(1).split()) + "->" + m.group(3)
	return None

# A module's exit path tears down what its init registered, and what
# init registered may be a static object of the file, whose address
# escaped there: "type->pmus = NULL" in uncore_type_exit(), reached from
# the __exit intel_uncore_exit() (arch/x86/events/intel/uncore.c),
# writes every intel_uncore_type that init put in the uncore tables,
# after the module's __ro_after_init data went read-only.  So a write
# of a field through a parameter or local of type T *, in a function
# that the file's __exit functions reach by calls in the file, is a
# type-field row too (elsewhere such a pointer may point to anything,
# and type_field() keeps only pointers derived from a registered
# object).
def exit_writes():
	reach = {}
	for f, line, col, var, fn in tf_pending:
		if f not in reach:
			seen = set(exit_funcs.get(f, ()))
			todo = list(seen)
			calls = {}
			for c, g in file_calls.get(f, ()):
				calls.setdefault(c, set()).add(g)
			while todo:
				for g in calls.get(todo.pop(), ()):
					if g not in seen:
						seen.add(g)
						todo.append(g)
			reach[f] = seen
		key = (f, line, col, var)
		if fn in reach[f] and key not in wpos:
			wpos.add(key)
			emit("writes", f, line, var, fn, "type-field")
	del tf_pending[:]

# "if (!b) b = &kmalloc_caches[type]; ... return (*b)[index];"
# (mm/slab.h kmalloc_slab): &x stored in a local or parameter P is no
# escape when every other mention of P in the function dereferences it
# (P->f, P[i], *P, not as a call argument and not under &), assigns P,
# steps it (P++) or tests it (!P, P == NULL, if (P)).  Writes through P
# are the alias rules' rows of x; anything else (P passed, returned or
# stored) keeps the addr row.
CALL_OPEN_RE = re.compile(r"(\w+|[\]\)])\s*\($")
NOT_CALLS = ("return", "if", "while", "switch", "sizeof", "typeof")

def call_open(before):
	"""Does text before end with the ( of a call?"""
	m = CALL_OPEN_RE.search(before)
	return m is not None and m.group(1) not in NOT_CALLS

TEST_OPEN_RE = re.compile(r"\b(if|while)\s*\($")

def deref_only(body, P, f=None):
	for m in re.finditer(r"(?<![\w.>])%s\b" % re.escape(P), body):
		before = body[:m.start()].rstrip()
		after = body[m.end():].lstrip()
		arg = before.endswith(",") or call_open(before)
		if arg and after.startswith((",", ")")) and f is not None:
			# P passed whole to a function of the file that only
			# reads through that parameter (reader_param)
			G, idx = enclosing_call(body, m.start())
			if G in funcs.get(f, ()) and reader_param(f, G, idx):
				continue
			return False
		if after.startswith(("->", "[")):
			if before.endswith("&") or arg:
				return False
		elif before.endswith("*"):
			pre = before[:-1].rstrip()
			if pre.endswith("&") or pre.endswith(",") or \
			   call_open(pre):
				return False
		elif re.match(r"=(?!=)|\+\+|--|[-+]=", after) or \
		     before.endswith(("++", "--", "!")):
			pass
		elif re.match(r"[=!]=\s*NULL\b", after) or \
		     TEST_OPEN_RE.search(before) and after.startswith(")"):
			pass
		else:
			return False
	return True

def deref_flush():
	for q, name, form, P in deref_pending:
		text = func_text(q)
		if text is None or not deref_only(text, P, q.file):
			report_write(q, name, form)
	del deref_pending[:]

# What follows a pointer's mention: its chain (->f, .f, [i]) and then an
# assignment, ++ or --: a write through it
WRITE_AFTER_RE = re.compile(r"^(?:\s*(?:->|\.)\s*\w+|\s*\[[^\[\];]*\])*\s*"
			    r"(=(?!=)|\+\+|--|[-+*/%&|^]=|<<=|>>=)")
CHAIN_RE = re.compile(r"^(?:\s*(?:->|\.)\s*\w+|\s*\[[^\[\];]*\])*")
readers = {}	# (file, function, argument) -> only reads through it

def split_params(head):
	"""The parameter declarations of a function header (its text up to
	the body's {): the depth-0 comma-separated parts of the last
	top-level parentheses."""
	end = head.rfind(")")
	depth, i = 0, end
	while i >= 0:
		if head[i] == ")":
			depth += 1
		elif head[i] == chr(40):
			depth -= 1
			if depth == 0:
				break
		i -= 1
	if i < 0:
		return None
	parts, depth, cur = [], 0, ""
	for c in head[i + 1:end]:
		if c in "([":
			depth += 1
		elif c in ")]":
			depth -= 1
		if c == "," and depth == 0:
			parts.append(cur)
			cur = ""
		else:
			cur += c
	parts.append(cur)
	return parts

def enclosing_call(text, pos):
	"""(name, argument index) of the call whose argument list holds
	text[pos], or (None, -1)."""
	depth, idx = 0, 0
	for i in range(pos - 1, -1, -1):
		c = text[i]
		if c in ")]":
			depth += 1
		elif c == "[":
			depth -= 1
		elif c == "," and depth == 0:
			idx += 1
		elif c == chr(40):
			if depth == 0:
				m = re.search(r"(\w+)\s*$", text[:i])
				if m is None or m.group(1) in NOT_CALLS:
					return None, -1
				return m.group(1), idx
			depth -= 1
		elif c in ";{}" and depth == 0:
			return None, -1
	return None, -1

def reader_param(f, G, idx):
	"""Does G, a function of file f, only read through its pointer
	parameter number idx (0-based)? Every mention of it in the body must
	be a read through it: P->f..., P[i]...
	or *P not followed by an assignment, ++ or --, not under & or ++/--,
	not a whole argument (except of a reader of READS), and tests
	(P == NULL, if (P)). P passed, stored or returned is no read. A
	pointer to const is not enough: the callee may keep it (a clock's
	ops given to the register function that stores them), which is no
	write, but keeps __initconst out; its arg row and protos.tsv make it
	a read (candidates/ const_read)."""
	key = (f, G, idx)
	if key in readers:
		return readers[key]
	readers[key] = False
	# every definition (#ifdef variants) must only read
	bodies = [(l1, l2) for l1, l2, name in spans.get(f, ()) if name == G]
	if not bodies:
		return False
	for l1, l2 in bodies:
		if not reader_body(f, l1, l2, idx):
			return False
	readers[key] = True
	return True

array_members = {}	# file -> names declared as arrays in it

def array_member(f, name):
	"""Does file f declare name as an array anywhere (a struct member
	"int regs[4];")? Then p->name used as a value is a pointer into the
	object. Members of a header's struct are not seen: a limit."""
	if f not in array_members:
		text = COMMENT_RE.sub(blank, "\n".join(src(f)))
		array_members[f] = set(re.findall(
			r"\b([A-Za-z_]\w*)\s*\[[^\[\];=]*\]\s*[;,]", text))
	return name in array_members[f]

def reader_body(f, l1, l2, idx):
	"""reader_param() for one definition, lines l1 to l2 of f."""
	text = COMMENT_RE.sub(blank, "\n".join(src(f)[l1 - 1:l2]))
	brace = text.find("{")
	params = split_params(text[:brace]) if brace > 0 else None
	if not params or idx < 0 or idx >= len(params) or "*" not in params[idx]:
		return False
	words = WORD_RE.findall(params[idx])
	if not words:
		return False
	P = words[-1]
	body = text[brace:]
	for m in re.finditer(r"(?<![\w.>])%s\b" % re.escape(P), body):
		before = body[:m.start()].rstrip()
		after = body[m.end():]
		if before.endswith(("&", "++", "--")) or WRITE_AFTER_RE.match(after):
			return False
		chain = CHAIN_RE.match(after).group(0)
		rest = after[len(chain):].lstrip()
		if before.endswith("*"):
			# *P: a read unless written (WRITE_AFTER_RE above) or
			# passed (*P as an argument is a value)
			continue
		if chain.strip():
			last = re.search(r"(\w+)\s*$", chain)
			if last and rest.startswith((";", ",", ")", "?", ":")) \
			   and array_member(f, last.group(1)):
				# p->arr used as a value: a pointer into x
				return False
			if not (rest.startswith((",", ")")) and
				(before.endswith(",") or call_open(before))):
				continue
			# P->f passed whole: a reader's argument only
			if enclosing_call(body, m.start())[0] not in READS:
				return False
			continue
		if re.match(r"^\s*[=!]=", after) or \
		   TEST_OPEN_RE.search(before) and rest.startswith(")") or \
		   before.endswith("!"):
			continue
		return False
	return True

def element_arg(G, x, p, pf):
	"""&x[i] (or x + i) of an array x of the file as argument N of a call
	of G in a function: a read when G is a function of the file that
	only reads through its parameter N (reader_param), else a params
	row of kind arg (reg_arg: protos.tsv may make it a read)."""
	q = Loc(p[0])
	name = ident(x)
	if infunc(q) == "-" or not is_array(q.file, name) or \
	   wspec(G) is not None or G in READS:
		return
	idx = arg_index(q.file, pf[0], p[0])
	if G in funcs.get(q.file, ()) and reader_param(q.file, G, idx):
		readpos.add((q.file, q.line, q.column))
		return
	key = ("arg", q.file, q.line, q.column)
	if key in done:
		return
	done.add(key)
	emit("params", q.file, q.line, name, "arg", idx, G)


def reg_arg(G, x, p, pf):
	"""&x, or an array x of this file, as argument N of a call of G:
	params kind arg, perm N (0-based), handler G. Writers and readers
	(wspec, READS) have their own rows."""
	q = Loc(p[0])
	name = ident(x)
	if infunc(q) == "-" or name in funcs.get(q.file, ()) or \
	   name.isupper() or wspec(G) is not None or G in READS:
		return
	lead = src(q.file)[q.line - 1][:q.column].rstrip()
	if not lead.endswith("&") and not is_array(q.file, name):
		return
	key = ("arg", q.file, q.line, q.column)
	if key in done:
		return
	done.add(key)
	emit("params", q.file, q.line, name, "arg",
	     arg_index(q.file, pf[0], p[0]), G)

# A file-scope alias P carries its targets' addresses: P passed to a
# function that is not a reader (READS), stored (E = P) or returned, or
# &P->f passed, in a function, is an escape of every target there: the
# function keeps or writes what P points to (kernel/printk/printk.c:
# prb = &printk_rb_dynamic in __init setup_log_buf(), then
# prb_reserve(&e, prb, &r) in every printk). Not for a pointer to const.
ESC_FORM = {"ptr": "addr", "field": "addr", "element": "addr",
	    "pointee": "pointee-addr", "array-arg": "array-arg"}

def pointee_const(ty):
	"""Is ty a pointer to const (a const before its last *)?"""
	t = str(ty)
	return "*" in t and "const" in WORD_RE.findall(t.rsplit("*", 1)[0])

def alias_escape(P, L, p, pl):
	q = Loc(p[0])
	f = q.file
	name = ident(P)
	if infunc(q) == "-" or (f, q.line, q.column) in readpos:
		return
	targets = aliases.get((f, name))
	d = defs.get(f, {}).get(name)
	if not targets or (d is not None and pointee_const(d[1])):
		return
	if pl:
		# &P->f, &P[i], &P as an argument
		if (q.line, q.column) != (int(pl[0].line), int(pl[0].column)) \
		   or chain_form(name, L) is None:
			return
	for v, base in sorted(targets):
		report_write(q, v, ESC_FORM[base])

# debugfs_create_*(name, mode, parent, data, ...): a debugfs file on the
# variable that data points to; with write bits in mode, a runtime
# writer (params kind debugfs). The other debugfs_create_* have no mode.
DEBUGFS_NOT = set("debugfs_create_automount debugfs_create_devm_seqfile".split())
CAST_AMP_RE = re.compile(r"^\s*(\(\s*[A-Za-z_][\w\s]*\*+\s*\)\s*)?(&)?\s*")

def debugfs_fn(fn):
	return fn.startswith("debugfs_create_") and fn not in DEBUGFS_NOT

def debugfs_row(F, M, x, L, p, pl, pf):
	q = Loc(p[0])
	f = q.file
	name = ident(x)
	lead = span(f, int(pl[0].line), int(pl[0].column), q.line, q.column)
	m = CAST_AMP_RE.match(lead)
	if infunc(q) == "-" or m is None or m.end() != len(lead):
		return
	amp = m.group(2) is not None
	form = chain_form(name, CAST_AMP_RE.sub("", str(L), 1))
	if amp and form in ("bare", "field") or \
	   amp and form == "element" and is_array(f, name) or \
	   not amp and form == "bare" and is_array(f, name):
		names = [name]
	elif not amp and form == "bare":
		# a file-scope alias P = &x given as data
		names = [v for v, base in sorted(aliases.get((f, name), ()))
			 if base in ("ptr", "field", "element")]
	else:
		return
	line = int(pf[0].line)
	for v in names:
		if ("debugfs", f, line, v) not in done:
			done.add(("debugfs", f, line, v))
			emit("params", f, line, v, "debugfs", M, F)

def sysctl_rows(f, name, l1, c1, l2, c2):
	"""Rows for every { .data = &x, .mode = M } entry of a ctl_table."""
	text = span(f, l1, c1, l2, c2)
	base = l1
	for m in re.finditer(r"\.data\s*=\s*(&\s*)?([A-Za-z_][A-Za-z0-9_]*)", text):
		# the entry is the innermost { } around the match
		start = text.rfind("{", 0, m.start())
		depth = 0
		end = len(text)
		for i in range(start, len(text)):
			if text[i] == "{":
				depth += 1
			elif text[i] == "}":
				depth -= 1
				if depth == 0:
					end = i
					break
		entry = text[start:end]
		mm = re.search(r"\.mode\s*=\s*([^,}]+)", entry)
		mode = mm.group(1).strip() if mm else "-"
		hm = re.search(r"\.proc_handler\s*=\s*&?\s*([A-Za-z_][A-Za-z0-9_]*)", entry)
		handler = hm.group(1) if hm else "-"
		line = base + text.count("\n", 0, m.start())
		emit("params", f, line, m.group(2), "sysctl", mode, handler)

def macro_args(f, line, col):
	"""Split the arguments of the macro call at (line, col)."""
	lines = src(f)
	text = "\n".join(lines[line - 1:line + 10])
	i = text.find("(", col)
	if i < 0:
		return []
	args = []
	cur = []
	depth = 0
	instr = False
	for ch in text[i + 1:]:
		if instr:
			cur.append(ch)
			if ch == QUOTE and (len(cur) < 2 or cur[-2] != chr(92)):
				instr = False
			continue
		if ch == QUOTE:
			instr = True
		elif ch in "([{":
			depth += 1
		elif ch in ")]}":
			if depth == 0:
				args.append("".join(cur).strip())
				return args
			depth -= 1
		elif ch == "," and depth == 0:
			args.append("".join(cur).strip())
			cur = []
			continue
		cur.append(ch)
	return args

def var_of(a):
	a = a.strip()
	a = re.sub(r"^&\s*", "", a)
	a = re.sub(r"^\(\s*(.*)\s*\)$", r"\1", a)
	m = re.match(r"[A-Za-z_][A-Za-z0-9_]*", a)
	return m.group(0) if m else "-"

# macro -> (index of variable argument, index of perm, index of &nump)
PARAMS = {
	"module_param": (0, 2, None),
	"module_param_unsafe": (0, 2, None),
	"module_param_named": (1, 3, None),
	"module_param_named_unsafe": (1, 3, None),
	"module_param_array": (0, 3, 2),
	"module_param_array_named": (1, 4, 3),
	"module_param_string": (1, 3, None),
	"module_param_cb": (2, 3, None),
	"module_param_cb_unsafe": (2, 3, None),
	"module_param_named_cb": (2, 3, None),
	"module_param_call": (3, 4, None),
	"module_param_hw": (0, 3, None),
	"module_param_hw_named": (1, 4, None),
	"module_param_hw_array": (0, 4, 3),
	"core_param": (1, 3, None),
	"core_param_unsafe": (1, 3, None),
}

# Static keys defined by macro, which spatch sees as declarers: macro ->
# (type, index of the name argument, array). The attrs say static_key=
# the macro, so the aggregator and the annotate step know the form.
SKEY_DEFS = {
	"DEFINE_STATIC_KEY_TRUE": ("struct static_key_true", 0, 0),
	"DEFINE_STATIC_KEY_FALSE": ("struct static_key_false", 0, 0),
	"DEFINE_STATIC_KEY_ARRAY_TRUE": ("struct static_key_true []", 0, 1),
	"DEFINE_STATIC_KEY_ARRAY_FALSE": ("struct static_key_false []", 0, 1),
	"DEFINE_STATIC_KEY_MAYBE": ("struct static_key_true or false", 1, 0),
}
for n in list(SKEY_DEFS):
	if "ARRAY" not in n:
		SKEY_DEFS[n + "_RO"] = SKEY_DEFS[n]
SKEY_TYPES = set(["struct static_key", "struct static_key_true",
		  "struct static_key_false"])
SKEY_MACRO_RE = re.compile(r"\b(DEFINE_STATIC_KEY_\w+)\s*\([^()]*$")
stripped = {}	# file -> its text without comments and strings

def exported(f, name):
	"""Does file f export name (EXPORT_SYMBOL*, _GPL, _NS)?"""
	if f not in stripped:
		stripped[f] = COMMENT_RE.sub(blank, "\n".join(src(f)))
	return re.search(r"\bEXPORT_SYMBOL\w*\s*\(\s*" + re.escape(name) +
			 r"\s*[,)]", stripped[f]) is not None

def skey_def(f, line, col, d):
	"""The defs row of the static key defined by macro d at (line, col)."""
	ty, ni, arr = SKEY_DEFS[d]
	args = macro_args(f, line, col)
	name = var_of(args[ni]) if len(args) > ni else "-"
	if name == "-" or (f, line, col) in done or in_macro(f, line):
		return
	done.add((f, line, col))
	words = WORD_RE.findall(prefix(f, line, col))
	at = attrs_of(" ".join(words))
	if d.endswith("_RO") and "ro_after_init" not in at:
		at.append("ro_after_init")
	skey_attrs(f, name, d, at)
	emit("defs", f, line, name, "static" if "static" in words else
	     "global", ty, arr, ",".join(at), 1)
	defs.setdefault(f, {})[name] = (arr, ty)

def skey_attrs(f, name, macro, at):
	"""attrs of a static key: static_key=MACRO (struct for a plain
	struct static_key definition), exported if the file exports it."""
	at.append("static_key=" + macro)
	if exported(f, name):
		at.append("exported")
	return at

// ---- definitions ---------------------------------------------------------

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
|
T (*x@p)(...) = ...;
)

@script:python@
x << defs.x;
T << defs.T;
p << defs.p;
@@
q = Loc(p[0])
f = q.file
name = ident(x)
# locals: the current element is the enclosing function
if q.current_element in (name, "something_else"):
	head = span(f, q.current_element_line, q.current_element_column,
		    q.line, q.column)
	if src(f)[q.line - 1][:q.column].rstrip()[-1:] in (chr(40), ","):
		# a definition by macro (DEFINE_LSM(x), DEFINE_PER_CPU(t, x)):
		# the position of the current element is not in the source, so
		# read only what precedes the macro on its line
		head = prefix(f, q.line, q.column)
	words = WORD_RE.findall(head)
	tail, init = after_name(f, q.line, q.column + len(name))
	# a prototype (static int foo(void);, or a function in a header without
	# extern) matches T x; with T a function type: it is no variable
	proto = tail.lstrip()[:1] == chr(40)
	# locals of a macro body (#define m() { int val; ... }) parse as
	# file-scope definitions: they are not variables of the file
	# DEFINE_STATIC_KEY_*(x), if a macro file makes it a declaration:
	# the row of the skdef rule
	skm = SKEY_MACRO_RE.search(src(f)[q.line - 1][:q.column])
	if skm and skm.group(1) in SKEY_DEFS:
		skey_def(f, q.line, skm.start(1), skm.group(1))
	if "extern" not in words and "typedef" not in words and not proto \
	   and (f, q.line, q.column) not in done and not in_macro(f, q.line) \
	   and not skm:
		done.add((f, q.line, q.column))
		ty = clean(T)
		for a in list(ATTRS) + TYPE_NOISE:
			ty = re.sub(r"\b" + a + r"\b", "", ty)
		ty = re.sub(r"__attribute__\s*\(\(.*?\)\)", "", ty)
		ty = clean(ty)
		ty = re.sub(r"\{.*\}", "{...}", ty)
		arr = 1 if "[" in tail else 0
		if arr and not ty.endswith("]"):
			ty = ty + " []"
		if set(WORD_RE.findall(ty)) & ARRAY_TYPEDEFS:
			# cpumask_and(mask, ...) writes a cpumask_var_t in place
			arr = 1
		at = attrs_of(head + " " + tail)
		if top_const(ty) or "const" in WORD_RE.findall(tail.split("[")[0]):
			at.insert(0, "const")
		if re.sub(r"\s*\[.*$", "", ty) in SKEY_TYPES:
			skey_attrs(f, name, "struct", at)
		storage = "static" if "static" in words else "global"
		mdef = [MACRO_DEFS[w] for w in words if w in MACRO_DEFS]
		if mdef:
			ty, arr, storage = mdef[0][0], 1, "static"
			at = ["const", mdef[0][1]] + [a for a in at if a not in
						      ("const", mdef[0][1])]
		emit("defs", f, q.line, name, storage, ty, arr,
		     ",".join(at) if at else "-", 1 if init else 0)
		defs.setdefault(f, {})[name] = (arr, ty)
		if storage == "static" and f.endswith(".c"):
			if f not in statics:
				reads_pending.append(f)
			statics.setdefault(f, {}).setdefault(name, set()).add(q.line)
		if "ctl_table" in ty and init:
			sysctl_rows(f, name, q.line, q.column,
				    q.current_element_line_end,
				    q.current_element_column_end)

// DEFINE_STATIC_KEY_TRUE(k), static DEFINE_STATIC_KEY_ARRAY_FALSE(k, n),
// DEFINE_STATIC_KEY_MAYBE(CONFIG_X, k), their _RO forms
@skdef@
declarer D =~ "^DEFINE_STATIC_KEY_(TRUE|FALSE|ARRAY_TRUE|ARRAY_FALSE|MAYBE)(_RO)?$";
position p;
@@
D@p(...);

@script:python@
D << skdef.D;
p << skdef.p;
@@
q = Loc(p[0])
skey_def(q.file, q.line, q.column, str(D))

// ---- functions -----------------------------------------------------------

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
q = Loc(p[0])
lead = src(q.file)[q.line - 1][:q.column] if q.line <= len(src(q.file)) else ""
if MACRO_FN_RE.match(lead):
	# SYSCALL_DEFINE2(swapon, ...): the function comes from a macro and
	# current_element points into its expansion, not at this definition
	# (it took the __init and static of an earlier function)
	head = prefix(q.file, q.line, 0) + " " + lead
else:
	head = prefix(q.file, q.current_element_line,
		      q.current_element_column)
	head += " " + span(q.file, q.current_element_line,
			   q.current_element_column, q.line, q.column)
words = WORD_RE.findall(head)
sect = []
for w in words:
	s = FSECT.get(w)
	if s and s not in sect:
		sect.append(s)
for m in SECTION_RE.finditer(head):
	sect.append("section=" + m.group(1))
funcs.setdefault(q.file, set()).add(str(f))
fsect[(q.file, str(f))] = ",".join(sect)
if "exit" in sect:
	exit_funcs.setdefault(q.file, set()).add(str(f))
first = q.line if MACRO_FN_RE.match(lead) else q.current_element_line
spans.setdefault(q.file, []).append((first, q.current_element_line_end,
				     str(f)))
if CUR["file"] != q.file:
	CUR["file"] = q.file
	CUR["funcs"] = macro_writers(q.file)
	funcs[q.file] |= CUR["funcs"]
CUR["funcs"].add(str(f))
emit("funcs", q.file, q.line, f, "static" if "static" in words else "global",
     ",".join(sect) if sect else "-")

// ---- calls and function references ---------------------------------------

@call@
identifier g : script:python() { str(g) in CUR["funcs"] };
position p;
@@
g@p(...)

@script:python@
g << call.g;
p << call.p;
@@
q = Loc(p[0])
callpos.add((q.file, q.line, q.column))
c = infunc(q)
if c != "-" and q.file == CUR["file"]:
	emit("calls", q.file, q.line, c, g)
	file_calls.setdefault(q.file, []).append((c, str(g)))

// ---- module_param, core_param, __setup, early_param ----------------------

@param@
declarer D =~ "^(module_param.*|core_param.*|__setup|early_param)$";
position p;
@@
D@p(...);

@script:python@
D << param.D;
p << param.p;
@@
q = Loc(p[0])
d = str(D)
args = macro_args(q.file, q.line, q.column)
if d in ("__setup", "early_param"):
	kind = "setup" if d == "__setup" else "early_param"
	if len(args) >= 2:
		emit("params", q.file, q.line, "-", kind, "-", var_of(args[1]))
elif d in PARAMS:
	vi, pi, ni = PARAMS[d]
	if len(args) > max(vi, pi):
		kind = "core_param" if d.startswith("core_param") else \
		       "module_param"
		handler = "-"
		if d == "module_param_call":
			handler = var_of(args[1])
		emit("params", q.file, q.line, var_of(args[vi]), kind,
		     args[pi], handler)
		if ni is not None and len(args) > ni and \
		   args[ni].lstrip().startswith("&"):
			emit("params", q.file, q.line, var_of(args[ni]), kind,
			     args[pi], "-")

// ---- writes --------------------------------------------------------------

// Calls of writers (WSPEC, wspec) and readers (READS), one rule for
// arguments written &L and one for the others: a disjunction stops at its
// first matching branch, which would hide the second argument of
// __set_bit(arr[i], bits).
@mca@
identifier F =~ "^(mem(cpy|move|set|zero_explicit|cpy_fromio|cpy_toio|set_io)|(__)?copy_from_user|str(n?cpy|l?cpy|scpy(_pad)?|n?cat|lcat)|v?s(c?n)?printf|v?sscanf|bitmap_[a-z0-9_]+|(__)?cpumask_[a-z_]+|cpulist_parse|INIT_H?LIST_HEAD|init_waitqueue_head|(raw_)?spin_lock_init|mutex_init|refcount_set|(__)?(test_and_)?(set|clear|change)_bit|(__)?assign_bit|set_bit_lock|clear_bit_unlock|get_options?|kstrto[a-z0-9]+(_from_user)?|(__)?WRITE_ONCE|smp_store_mb|smp_store_release|nodes_(clear|setall)|node_(set|clear)|(arch_)?(try_)?(xchg|cmpxchg)[a-z0-9_]*|static_(branch|key)_[a-z_]+|jump_label_rate_limit|(__)?(this|raw)_cpu_[a-z0-9_]+|(arch_)?atomic(64|_long)?_[a-z0-9_]+)$|^(smp_load_acquire|test_bit|sysfs_streq|mem(cmp|dup_user)|str(n?cmp|n?casecmp|n?len)|kmemdup(_nul)?|kstrn?dup(_const)?|match_string|(__)?READ_ONCE|ARRAY_SIZE|__same_type|sizeof_field|__must_be_array|(pr|dev|netdev)_(emerg|alert|crit|err|warn|warning|notice|info|cont|devel|debug)(_once|_ratelimited)?|dev_err_probe|_?printk(_deferred|_once|_ratelimited)?|(early|dev|netdev)_printk|seq_printf)$";
global idexpression x;
expression L;
position p, pl, pf;
@@
F@pf(..., &\( L@pl \& <+... x@p ...+> \), ...)

@script:python@
F << mca.F;
x << mca.x;
L << mca.L;
p << mca.p;
pl << mca.pl;
pf << mca.pf;
@@
call_arg(str(F), x, L, p, pl, pf, True)

@mcv@
identifier F =~ "^(mem(cpy|move|set|zero_explicit|cpy_fromio|cpy_toio|set_io)|(__)?copy_from_user|str(n?cpy|l?cpy|scpy(_pad)?|n?cat|lcat)|v?s(c?n)?printf|v?sscanf|bitmap_[a-z0-9_]+|(__)?cpumask_[a-z_]+|cpulist_parse|INIT_H?LIST_HEAD|init_waitqueue_head|(raw_)?spin_lock_init|mutex_init|refcount_set|(__)?(test_and_)?(set|clear|change)_bit|(__)?assign_bit|set_bit_lock|clear_bit_unlock|get_options?|kstrto[a-z0-9]+(_from_user)?|(__)?WRITE_ONCE|smp_store_mb|smp_store_release|nodes_(clear|setall)|node_(set|clear)|(arch_)?(try_)?(xchg|cmpxchg)[a-z0-9_]*|static_(branch|key)_[a-z_]+|jump_label_rate_limit|(__)?(this|raw)_cpu_[a-z0-9_]+|(arch_)?atomic(64|_long)?_[a-z0-9_]+)$|^(smp_load_acquire|test_bit|sysfs_streq|mem(cmp|dup_user)|str(n?cmp|n?casecmp|n?len)|kmemdup(_nul)?|kstrn?dup(_const)?|match_string|(__)?READ_ONCE|ARRAY_SIZE|__same_type|sizeof_field|__must_be_array|(pr|dev|netdev)_(emerg|alert|crit|err|warn|warning|notice|info|cont|devel|debug)(_once|_ratelimited)?|dev_err_probe|_?printk(_deferred|_once|_ratelimited)?|(early|dev|netdev)_printk|seq_printf)$";
global idexpression x;
expression L;
position p, pl, pf;
@@
F@pf(..., \( L@pl \& <+... x@p ...+> \), ...)

@script:python@
F << mcv.F;
x << mcv.x;
L << mcv.L;
p << mcv.p;
pl << mcv.pl;
pf << mcv.pf;
@@
call_arg(str(F), x, L, p, pl, pf, False)

// Aliases (see add_alias): P = &x, P = x, T *P = &x;
@alias_g@
global idexpression P;
global idexpression V;
expression L, E;
position pp, pv, pl;
@@
(
P@pp = &\( L@pl \& <+... V@pv ...+> \)
|
P@pp = V@pv
|
P@pp = V@pv + E
)

@script:python@
P << alias_g.P;
V << alias_g.V;
L << alias_g.L = "";
pp << alias_g.pp;
pv << alias_g.pv;
pl << alias_g.pl = [];
@@
add_alias(P, V, L, pp, pv, pl, len(pl) > 0, False)

@alias_l@
local idexpression P;
global idexpression V;
expression L, E;
position pp, pv, pl;
@@
(
P@pp = &\( L@pl \& <+... V@pv ...+> \)
|
P@pp = V@pv
|
P@pp = V@pv + E
)

@script:python@
P << alias_l.P;
V << alias_l.V;
L << alias_l.L = "";
pp << alias_l.pp;
pv << alias_l.pv;
pl << alias_l.pl = [];
@@
add_alias(P, V, L, pp, pv, pl, len(pl) > 0, True)

@alias_d@
type T;
identifier P;
global idexpression V;
expression L, E;
position pp, pv, pl;
@@
(
T P@pp = &\( L@pl \& <+... V@pv ...+> \);
|
T P@pp = V@pv;
|
T P@pp = V@pv + E;
)

@script:python@
P << alias_d.P;
V << alias_d.V;
L << alias_d.L = "";
pp << alias_d.pp;
pv << alias_d.pv;
pl << alias_d.pl = [];
@@
add_alias(P, V, L, pp, pv, pl, len(pl) > 0, infunc(Loc(pp[0])) != "-")

// Assignments and increments are two rules: a disjunction stops at the
// first branch that matches anywhere in a statement, so one rule would
// miss the x++ of 'idx = n + x++;'.
@lv@
global idexpression x;
expression L, E;
assignment operator aop;
position p, pl;
@@
\( L@pl \& <+... x@p ...+> \) aop E

@script:python@
x << lv.x;
L << lv.L;
p << lv.p;
pl << lv.pl;
aop << lv.aop;
@@
lv_write(x, L, p, pl, "assign" if str(aop).strip() == "=" else "compound")

@lvinc@
global idexpression x;
expression L;
position p, pl;
@@
(
\( L@pl \& <+... x@p ...+> \)++
|
\( L@pl \& <+... x@p ...+> \)--
|
 ++\( L@pl \& <+... x@p ...+> \)
|
 --\( L@pl \& <+... x@p ...+> \)
)

@script:python@
x << lvinc.x;
L << lvinc.L;
p << lvinc.p;
pl << lvinc.pl;
@@
lv_write(x, L, p, pl, "incdec")

// macros that assign an argument: rdmsrl(msr, x) is x = rdmsr(msr).  Two
// rules, because a disjunction stops at its first matching branch and
// rdmsr(msr, lo, hi) writes two arguments.
@lvm@
global idexpression x;
expression L, E, E2;
position p, pl;
@@
(
rdmsrl(E, \( L@pl \& <+... x@p ...+> \))
|
rdmsr(E, \( L@pl \& <+... x@p ...+> \), E2)
|
savesegment(E, \( L@pl \& <+... x@p ...+> \))
|
get_user(\( L@pl \& <+... x@p ...+> \), E)
|
__get_user(\( L@pl \& <+... x@p ...+> \), E)
|
do_div(\( L@pl \& <+... x@p ...+> \), E)
|
swap(\( L@pl \& <+... x@p ...+> \), E)
)

@script:python@
x << lvm.x;
L << lvm.L;
p << lvm.p;
pl << lvm.pl;
@@
macro_out_write(x, L, p, pl)

@lvm2@
global idexpression x;
expression L, E, E2;
position p, pl;
@@
(
rdmsr(E, E2, \( L@pl \& <+... x@p ...+> \))
|
swap(E, \( L@pl \& <+... x@p ...+> \))
)

@script:python@
x << lvm2.x;
L << lvm2.L;
p << lvm2.p;
pl << lvm2.pl;
@@
macro_out_write(x, L, p, pl)

// Writes through an alias (alias_write): only in files that have one
@alw depends on alias_g || alias_l || alias_d@
idexpression P;
expression L, E;
assignment operator aop;
position p, pl;
@@
\( L@pl \& <+... P@p ...+> \) aop E

@script:python@
P << alw.P;
L << alw.L;
p << alw.p;
pl << alw.pl;
@@
alias_write(P, L, p, pl)

@alwinc depends on alias_g || alias_l || alias_d@
idexpression P;
expression L;
position p, pl;
@@
(
\( L@pl \& <+... P@p ...+> \)++
|
\( L@pl \& <+... P@p ...+> \)--
|
 ++\( L@pl \& <+... P@p ...+> \)
|
 --\( L@pl \& <+... P@p ...+> \)
)

@script:python@
P << alwinc.P;
L << alwinc.L;
p << alwinc.p;
pl << alwinc.pl;
@@
alias_write(P, L, p, pl)

@alwca depends on alias_g || alias_l || alias_d@
identifier F =~ "^(mem(cpy|move|set|zero_explicit|cpy_fromio|cpy_toio|set_io)|(__)?copy_from_user|str(n?cpy|l?cpy|scpy(_pad)?|n?cat|lcat)|v?s(c?n)?printf|v?sscanf|bitmap_[a-z0-9_]+|(__)?cpumask_[a-z_]+|cpulist_parse|INIT_H?LIST_HEAD|init_waitqueue_head|(raw_)?spin_lock_init|mutex_init|refcount_set|(__)?(test_and_)?(set|clear|change)_bit|(__)?assign_bit|set_bit_lock|clear_bit_unlock|get_options?|kstrto[a-z0-9]+(_from_user)?|(__)?WRITE_ONCE|smp_store_mb|smp_store_release|nodes_(clear|setall)|node_(set|clear)|(arch_)?(try_)?(xchg|cmpxchg)[a-z0-9_]*|static_(branch|key)_[a-z_]+|jump_label_rate_limit|(__)?(this|raw)_cpu_[a-z0-9_]+|(arch_)?atomic(64|_long)?_[a-z0-9_]+)$";
idexpression P;
expression L;
position p, pl, pf;
@@
F@pf(..., &\( L@pl \& <+... P@p ...+> \), ...)

@script:python@
F << alwca.F;
P << alwca.P;
L << alwca.L;
p << alwca.p;
pl << alwca.pl;
pf << alwca.pf;
@@
alias_write(P, L, p, pl, str(F), pf, True)

@alwcv depends on alias_g || alias_l || alias_d@
identifier F =~ "^(mem(cpy|move|set|zero_explicit|cpy_fromio|cpy_toio|set_io)|(__)?copy_from_user|str(n?cpy|l?cpy|scpy(_pad)?|n?cat|lcat)|v?s(c?n)?printf|v?sscanf|bitmap_[a-z0-9_]+|(__)?cpumask_[a-z_]+|cpulist_parse|INIT_H?LIST_HEAD|init_waitqueue_head|(raw_)?spin_lock_init|mutex_init|refcount_set|(__)?(test_and_)?(set|clear|change)_bit|(__)?assign_bit|set_bit_lock|clear_bit_unlock|get_options?|kstrto[a-z0-9]+(_from_user)?|(__)?WRITE_ONCE|smp_store_mb|smp_store_release|nodes_(clear|setall)|node_(set|clear)|(arch_)?(try_)?(xchg|cmpxchg)[a-z0-9_]*|static_(branch|key)_[a-z_]+|jump_label_rate_limit|(__)?(this|raw)_cpu_[a-z0-9_]+|(arch_)?atomic(64|_long)?_[a-z0-9_]+)$";
idexpression P;
expression L;
position p, pl, pf;
@@
F@pf(..., \( L@pl \& <+... P@p ...+> \), ...)

@script:python@
F << alwcv.F;
P << alwcv.P;
L << alwcv.L;
p << alwcv.p;
pl << alwcv.pl;
pf << alwcv.pf;
@@
alias_write(P, L, p, pl, str(F), pf, False)

// A file-scope alias P passed, stored or returned (alias_escape)
@ale depends on alias_g || alias_d@
global idexpression P;
expression G, E;
position p;
@@
(
G(..., P@p, ...)
|
E = P@p
)

@script:python@
P << ale.P;
p << ale.p;
@@
alias_escape(P, None, p, None)

@aler depends on alias_g || alias_d@
global idexpression P;
position p;
@@
return P@p;

@script:python@
P << aler.P;
p << aler.p;
@@
alias_escape(P, None, p, None)

@alea depends on alias_g || alias_d@
global idexpression P;
expression G, L;
position p, pl;
@@
G(..., &\( L@pl \& <+... P@p ...+> \), ...)

@script:python@
P << alea.P;
L << alea.L;
p << alea.p;
pl << alea.pl;
@@
alias_escape(P, L, p, pl)

// debugfs_create_*(name, mode, parent, &x, ...) (debugfs_row)
@dbgfs@
identifier F =~ "^debugfs_create_";
expression N, M, D, L;
global idexpression x;
position p, pl, pf;
@@
F@pf(N, M, D, \( L@pl \& <+... x@p ...+> \), ...)

@script:python@
F << dbgfs.F;
M << dbgfs.M;
x << dbgfs.x;
L << dbgfs.L;
p << dbgfs.p;
pl << dbgfs.pl;
pf << dbgfs.pf;
@@
if debugfs_fn(str(F)):
	debugfs_row(str(F), M, x, L, p, pl, pf)

// &x compared with a pointer is a read, not an escape
@cmp@
expression L, E;
position pl;
@@
(
 &L@pl == E
|
 &L@pl != E
|
E == &L@pl
|
E != &L@pl
)

@script:python@
pl << cmp.pl;
@@
for p in pl:
	cmppos.add((p.file, int(p.line), int(p.column)))

// &x[i] or x + i passed: a read if the callee, a function of the file,
// only reads through that parameter (element_arg); before ad and aa,
// which read readpos
@elarg@
identifier G;
global idexpression x;
expression I;
identifier fld;
position p, pf;
@@
(
G@pf(..., &x@p[I], ...)
|
G@pf(..., &x@p[I].fld, ...)
|
G@pf(..., x@p + I, ...)
)

@script:python@
G << elarg.G;
x << elarg.x;
p << elarg.p;
pf << elarg.pf;
@@
element_arg(str(G), x, p, pf)

@ad@
global idexpression x;
expression L;
position p, pl;
@@
\( &L@pl \& &<+... x@p ...+> \)

@script:python@
x << ad.x;
L << ad.L;
p << ad.p;
pl << ad.pl;
@@
q = Loc(p[0])
name = ident(x)
form = chain_form(name, L)
ce = q.current_element
d = defs.get(q.file, {}).get(ce)
in_sysctl = infunc(q) == "-" and d is not None and "ctl_table" in d[1]
if (q.line, q.column) == (int(pl[0].line), int(pl[0].column)) and form and \
   form != "arrow" and not in_sysctl and \
   name not in funcs.get(q.file, ()) and \
   (q.file, q.line, q.column) not in cmppos and \
   (q.file, q.line, q.column) not in readpos:
	at_file = infunc(q) == "-"
	init_data = at_file and in_init_data(q)
	la = local_alias_at.get((q.file, int(pl[0].line), int(pl[0].column)))
	out = "initdata-addr" if init_data else \
	      subscript_form(q.file, name, "addr") if form == "element" else "addr"
	if la is not None and la[0] == infunc(q):
		# P = &x... with P a local: an escape unless P is only
		# dereferenced (deref_flush)
		deref_pending.append((q, name, out, la[1]))
	else:
		report_write(q, name, out)
		if not at_file:
			object_slot(q, name, int(pl[0].column))
	if at_file and not init_data:
		l0 = int(pl[0].line)
		member_slot(q.file, q.line, name, span(q.file, max(l0 - 2, 1), 0, l0,
						      int(pl[0].column)))
		if ce != name and ce in defs.get(q.file, {}):
			emit("params", q.file, q.line, name, "holder", "-", ce)

// An array x passed or stored (x + i too: &x[i]). Two rules, like lv and
// lvinc: a disjunction stops at the first branch that matches anywhere
// in a statement, so "hybrid(pmu, f) = x;" (an lvalue macro, x86 perf)
// matched the call branch on f and never stored x.
@aa@
global idexpression x;
expression G, I;
position p;
@@
(
G(..., x@p, ...)
|
G(..., x@p + I, ...)
)

@script:python@
x << aa.x;
p << aa.p;
@@
array_arg(x, p)

@aas@
global idexpression x;
expression E, I;
position p;
@@
(
E = x@p
|
E = x@p + I
)

@script:python@
x << aas.x;
p << aas.p;
@@
array_arg(x, p)

// ---- writes through typed pointers (form type-field) -----------------------
// E->f = v, E->f[i].g++, WRITE_ONCE(E->f, v), memcpy(&E->f, ...) where
// spatch knows E's type is T * (a local, a parameter, a cast, a function
// of the file): a write of field f of some T object. The row's var is
// "T->f" (T as spatch prints it); candidates/ rejects a T variable whose
// address escapes when code that is not init-only writes such a field.

@tfa@
type T;
T *E;
identifier fld;
expression L, V;
assignment operator aop;
position p, pl;
@@
\( L@pl \& <+... E@p->fld ...+> \) aop V

@script:python@
T << tfa.T;
E << tfa.E;
fld << tfa.fld;
L << tfa.L;
V << tfa.V;
p << tfa.p;
pl << tfa.pl;
@@
type_field(T, E, fld, L, p, pl, V=V)

@tfi@
type T;
T *E;
identifier fld;
expression L;
position p, pl;
@@
(
\( L@pl \& <+... E@p->fld ...+> \)++
|
\( L@pl \& <+... E@p->fld ...+> \)--
|
 ++\( L@pl \& <+... E@p->fld ...+> \)
|
 --\( L@pl \& <+... E@p->fld ...+> \)
)

@script:python@
T << tfi.T;
E << tfi.E;
fld << tfi.fld;
L << tfi.L;
p << tfi.p;
pl << tfi.pl;
@@
type_field(T, E, fld, L, p, pl)

@tfca@
identifier F =~ "^(mem(cpy|move|set|zero_explicit|cpy_fromio|cpy_toio|set_io)|(__)?copy_from_user|str(n?cpy|l?cpy|scpy(_pad)?|n?cat|lcat)|v?s(c?n)?printf|v?sscanf|bitmap_[a-z0-9_]+|(__)?cpumask_[a-z_]+|cpulist_parse|INIT_H?LIST_HEAD|init_waitqueue_head|(raw_)?spin_lock_init|mutex_init|refcount_set|(__)?(test_and_)?(set|clear|change)_bit|(__)?assign_bit|set_bit_lock|clear_bit_unlock|get_options?|kstrto[a-z0-9]+(_from_user)?|(__)?WRITE_ONCE|smp_store_mb|smp_store_release|nodes_(clear|setall)|node_(set|clear)|(arch_)?(try_)?(xchg|cmpxchg)[a-z0-9_]*|static_(branch|key)_[a-z_]+|jump_label_rate_limit|(__)?(this|raw)_cpu_[a-z0-9_]+|(arch_)?atomic(64|_long)?_[a-z0-9_]+)$";
type T;
T *E;
identifier fld;
expression L;
position p, pl, pf;
@@
F@pf(..., &\( L@pl \& <+... E@p->fld ...+> \), ...)

@script:python@
F << tfca.F;
T << tfca.T;
E << tfca.E;
fld << tfca.fld;
L << tfca.L;
p << tfca.p;
pl << tfca.pl;
pf << tfca.pf;
@@
type_field(T, E, fld, L, p, pl, str(F), pf, True)

@tfcv@
identifier F =~ "^(mem(cpy|move|set|zero_explicit|cpy_fromio|cpy_toio|set_io)|(__)?copy_from_user|str(n?cpy|l?cpy|scpy(_pad)?|n?cat|lcat)|v?s(c?n)?printf|v?sscanf|bitmap_[a-z0-9_]+|(__)?cpumask_[a-z_]+|cpulist_parse|INIT_H?LIST_HEAD|init_waitqueue_head|(raw_)?spin_lock_init|mutex_init|refcount_set|(__)?(test_and_)?(set|clear|change)_bit|(__)?assign_bit|set_bit_lock|clear_bit_unlock|get_options?|kstrto[a-z0-9]+(_from_user)?|(__)?WRITE_ONCE|smp_store_mb|smp_store_release|nodes_(clear|setall)|node_(set|clear)|(arch_)?(try_)?(xchg|cmpxchg)[a-z0-9_]*|static_(branch|key)_[a-z_]+|jump_label_rate_limit|(__)?(this|raw)_cpu_[a-z0-9_]+|(arch_)?atomic(64|_long)?_[a-z0-9_]+)$";
type T;
T *E;
identifier fld;
expression L;
position p, pl, pf;
@@
F@pf(..., \( L@pl \& <+... E@p->fld ...+> \), ...)

@script:python@
F << tfcv.F;
T << tfcv.T;
E << tfcv.E;
fld << tfcv.fld;
L << tfcv.L;
p << tfcv.p;
pl << tfcv.pl;
pf << tfcv.pf;
@@
type_field(T, E, fld, L, p, pl, str(F), pf, False)

// ---- arguments: &x or an array x passed to a function (params kind arg) ---
// candidates/registrations.tsv names the functions that keep an argument
// that the kernel writes after init (the input core's keycode tables).
@rarg@
identifier G;
global idexpression x;
position p, pf;
@@
G@pf(..., \( &x@p \| x@p \), ...)

@script:python@
G << rarg.G;
x << rarg.x;
p << rarg.p;
pf << rarg.pf;
@@
reg_arg(str(G), x, p, pf)

// ---- once per file, after the rules above --------------------------------

@script:python fin@
@@
exit_writes()
deref_flush()
if CUR["file"] is not None:
	funcrefs(CUR["file"])
for rf in reads_pending:
	static_reads(rf)
del reads_pending[:]

// ---- uses: how code reads the file's own variables (candidates/value.c) ---
// A text pass, like static_reads(): for each variable the file defines,
// the first use of each kind in each function, as a uses row.  The kinds
// are the finder's evidence for the value column (FACTS.md uses.tsv).

@initialize:python@
@@
USE_ALLOC = set("""kmalloc kzalloc kcalloc kmalloc_array kvmalloc kvzalloc
kvcalloc kvmalloc_array vmalloc vzalloc vmalloc_array vcalloc kmalloc_node
kzalloc_node kcalloc_node kvmalloc_node vmalloc_node vzalloc_node devm_kzalloc
devm_kcalloc devm_kmalloc devm_kmalloc_array memblock_alloc memblock_alloc_raw
memblock_alloc_node memblock_alloc_try_nid memblock_alloc_low memblock_phys_alloc
alloc_large_system_hash alloc_pages alloc_pages_node __get_free_pages
get_order kmem_cache_create kmem_cache_create_usercopy alloc_percpu
__alloc_percpu bitmap_zalloc bitmap_alloc kfifo_alloc mempool_create
mempool_create_kmalloc_pool dma_alloc_coherent""".split())
USE_SHIFT = set("""BIT BIT_ULL BIT_ULL_MASK GENMASK GENMASK_ULL hash_32
hash_64 hash_long hash_ptr hash_min runtime_const_shift_right_32""".split())
USE_COND = set("""if while switch WARN_ON WARN_ON_ONCE BUG_ON likely unlikely
static_branch_likely static_branch_unlikely static_key_enabled
static_branch_maybe""".split())
USE_LOOP = set("for while".split())
USE_CMP_RE = re.compile(r"(?:(?<![<>=!-])[<>]=?|!=)\s*$")
USE_CMP_AFTER_RE = re.compile(r"^\s*(?:[<>](?![<>])=?|!=)")
USE_FNPTR_RE = re.compile(r"\(\s*\*\s*(?:const\s+)?(?:__\w+\s+)*$")
uses_done = set()

def use_operand_end(text, e):
	"""The end of the postfix chain x[i].f->g that starts before e."""
	n = len(text)
	while True:
		k = e
		while k < n and text[k] in " \t\n":
			k += 1
		if k < n and text[k] == "[":
			d = 0
			while k < n:
				if text[k] == "[":
					d += 1
				elif text[k] == "]":
					d -= 1
					if d == 0:
						break
				k += 1
			e = k + 1
			continue
		m = re.match(r"(?:\.|->)\s*\w+", text[k:k + 80])
		if m:
			e = k + m.end()
			continue
		return e

def use_openers(text, s):
	"""The unmatched ( and [ before s, innermost first, back to the
	enclosing { or }: (char, the word before it)."""
	out = []
	d = 0
	k = s - 1
	lim = max(s - 600, 0)
	while k >= lim:
		c = text[k]
		if c in ")]":
			d += 1
		elif c in "([":
			if d:
				d -= 1
			else:
				w = re.search(r"(\w+)\s*$", text[max(k - 40, 0):k])
				out.append((c, w.group(1) if w else ""))
		elif c in "{}" and not d:
			break
		k -= 1
	return out

def use_kinds(text, s, e):
	"""The use kinds of the mention text[s:e] (with its postfix chain)."""
	kinds = set()
	before = text[max(s - 80, 0):s].rstrip()
	after = text[e:e + 40].lstrip()
	if after.startswith("(") and not before.endswith("&"):
		kinds.add("call")
	ops = use_openers(text, s)
	for c, w in ops:
		if c == "[" and (c, w) == ops[0] and before.endswith("[") and \
		   after.startswith("]"):
			kinds.add("subscript")	# a[x]: x is the whole index
		elif c == "[":
			kinds.add("index")	# a[h & x], a[i % x], a[x - 1]
		elif w in USE_ALLOC:
			kinds.add("size")
		elif w in USE_SHIFT:
			kinds.add("shift")
	if before.endswith("<<") or before.endswith(">>") or \
	   before.endswith("<<=") or before.endswith(">>="):
		kinds.add("shift")
	if before.endswith("%") or before.endswith("%=") or \
	   before.endswith("&=") or (before.endswith("&") and
	   re.search(r"[\w)\]]\s*&$", before) and not before.endswith("&&")):
		kinds.add("mask")
	if ops and ops[-1][0] == "(" and ops[-1][1] in USE_LOOP and \
	   (USE_CMP_RE.search(before) or USE_CMP_AFTER_RE.match(after)):
		kinds.add("loop")
	if any(c == "(" and w in USE_COND for c, w in ops) or \
	   after[:1] == "?" or after[:2] in ("&&", "||") or \
	   before.endswith("&&") or before.endswith("||") or \
	   (before.endswith("!") and not before.endswith("!=")):
		kinds.add("cond")
	return kinds

def value_uses(f):
	names = defs.get(f)
	if not names or f in uses_done:
		return
	uses_done.add(f)
	text = COMMENT_RE.sub(blank, "\n".join(src(f)))
	pat = re.compile(r"(?<![\w.])(?<!->)(" + "|".join(sorted(names)) +
			 r")\b")
	sp = sorted(spans.get(f, []))
	seen = set()
	line = 1
	last = 0
	for m in pat.finditer(text):
		line += text.count("\n", last, m.start())
		last = m.start()
		name = m.group(1)
		if TAG_RE.search(text, max(m.start() - 16, 0), m.start()):
			continue
		where = "-"
		for l1, l2, fn in sp:
			if l1 <= line <= l2:
				where = fn
				break
		e = use_operand_end(text, m.end())
		if where == "-":
			# int (*hook)(int): defs says int, the return type
			if USE_FNPTR_RE.search(text, max(m.start() - 40, 0),
					       m.start()) and \
			   re.match(r"\s*\)\s*\(", text[e:e + 20]) and \
			   (name, "fnptr") not in seen:
				seen.add((name, "fnptr"))
				emit("uses", f, line, name, "-", "fnptr")
			continue
		for k in sorted(use_kinds(text, m.start(), e)):
			if (name, where, k) not in seen:
				seen.add((name, where, k))
				emit("uses", f, line, name, where, k)

@script:python uses@
@@
for uf in list(defs):
	value_uses(uf)
