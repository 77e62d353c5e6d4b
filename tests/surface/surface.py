#!/usr/bin/env python3
"""The item-by-item checker of Numba's documented surface (issues 24-26).

    surface.py probe-programs                       (internal: see run.sh)
    surface.py oracle                 expected/*.txt from CPython + Numba
    surface.py run KJIT [--check] [--update] [--markdown] [-v] [-j N] [CATEGORY...]

items.tsv lists the items (gen-items.py); probes/*.txt hold a probe per item:

    @@ ITEM
    code

ITEM is an item of items.tsv (its second column).  The code is, by the
item's category (see KIND):
  njit    the body of `@njit def probe():`, whose result the host prints;
          a one-line body without `return` is returned as is;
  kernel  the body of `@cuda.jit def probe(out):`, launched [1, 32] with
          out = np.zeros(32) (`%dtype T` on a line of its own: another dtype),
          then the host prints out;
  host    module-level statements that print.
A line `%%` splits module-level code (before it: helpers, kernels) from the
body.  `%program` as the first line: the rest is the whole program.
`%skip REASON` as the whole body: an item that cannot be probed as Numba
documents it, with the reason (counted, never run).  `%lines N...` on a
line of its own: only those lines of the output count (1-based, negative
from the end), for an item that prints the machine's own facts between
deterministic lines (cuda.detect()).

expected/*.txt hold, per item, what CPython + Numba 0.56 printed
(NUMBA_ENABLE_CUDASIM=1) as `@@ ITEM` blocks, or `!numba: ERROR` when
Numba (or its simulator) could not run the probe: such items are counted
as `no oracle`, never run by kjit.  Where CPython itself (@njit as the
identity: `surface.py oracle-cpython`) prints something else for an @njit
probe, the block holds CPython's output after Numba's as `#numba> ` lines;
kjit passes printing either (a seeded random stream, a Numba 0.56 quirk such
as `str.isalpha()` returning 0).
"""
import argparse
import collections
import concurrent.futures
import contextlib
import io
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
HEADER = """import numpy as np
from numba import njit, cuda
"""
# Standard modules a probe may use: imported only where it does, so that a
# probe of one module does not depend on another's support.
MODULES = ("math", "cmath", "operator", "random", "heapq", "functools")


def header(code):
    used = [m for m in MODULES if re.search(r"(?<![\w.])%s\." % m, code)]
    return "".join("import %s\n" % m for m in used) + HEADER
KIND = {"CUDA: host API": "host", "CUDA: host memory": "host",
        "CUDA: kernels": "host"}


def kind_of(category):
    if category in KIND:
        return KIND[category]
    return "kernel" if category.startswith("CUDA:") else "njit"


def slug(category):
    return re.sub(r"[^a-z0-9]+", "_", category.lower()).strip("_")


def read_items():
    items = []
    with open(os.path.join(HERE, "items.tsv")) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            cat, item, src = line.rstrip("\n").split("\t")
            items.append((cat, item, src))
    return items


def read_blocks(path):
    """`@@ KEY` blocks of a file: {KEY: text}."""
    blocks, key, buf = {}, None, []
    if not os.path.exists(path):
        return blocks
    with open(path) as f:
        for line in f:
            if line.startswith("@@ "):
                if key is not None:
                    blocks[key] = "".join(buf)
                key, buf = line[3:].rstrip("\n"), []
            elif key is not None:
                buf.append(line)
    if key is not None:
        blocks[key] = "".join(buf)
    return blocks


def indent(text):
    return "".join("    " + line + "\n" for line in text.rstrip("\n").split("\n"))


def program(category, code):
    """The program of a probe, or None for %skip."""
    code = code.strip("\n")
    HEADER = header(code)
    if code.startswith("%skip"):
        return None
    if code.startswith("%program"):
        return HEADER + code.split("\n", 1)[1] + "\n"
    dtype = "np.float64"
    lines = []
    for line in code.split("\n"):
        if line.startswith("%dtype "):
            dtype = "np." + line.split()[1]
        elif line.startswith("%lines "):
            HEADER = "# surface-lines:" + line[len("%lines"):] + "\n" + HEADER
        else:
            lines.append(line)
    code = "\n".join(lines)
    module, body = "", code
    if "\n%%\n" in "\n" + code + "\n":
        module, body = (code + "\n").split("%%\n", 1)
    kind = kind_of(category)
    if kind == "host":
        return HEADER + module + body.rstrip("\n") + "\n"
    if kind == "njit":
        if "\n" not in body.strip() and not body.lstrip().startswith("return"):
            body = "return " + body.strip()
        return (HEADER + module + "\n\n@njit\ndef probe():\n" + indent(body)
                + "\n\nprint(probe())\n")
    return (HEADER + module + "\n\n@cuda.jit\ndef probe(out):\n" + indent(body)
            + "\n\nout = np.zeros(32, dtype=%s)\nprobe[1, 32](out)\nprint(out)\n" % dtype)


def probes():
    """[(category, item, source, program or None, reason)]"""
    out = []
    cache = {}
    for cat, item, src in read_items():
        s = slug(cat)
        if s not in cache:
            cache[s] = read_blocks(os.path.join(HERE, "probes", s + ".txt"))
        code = cache[s].get(item)
        if code is None:
            out.append((cat, item, src, None, "no probe"))
            continue
        prog = program(cat, code)
        out.append((cat, item, src, prog,
                    code.strip()[5:].strip() if prog is None else ""))
    return out


def keep_lines(prog, out):
    """The lines of out that the probe's `%lines` names (all without one)."""
    m = re.match(r"# surface-lines:([-0-9 ]+)\n", prog)
    if not m:
        return out
    lines = out.rstrip("\n").split("\n")
    picked = []
    for n in (int(t) for t in m.group(1).split()):
        k = n - 1 if n > 0 else len(lines) + n
        picked.append(lines[k] if 0 <= k < len(lines) else "<no line %d>" % n)
    return "".join(l + "\n" for l in picked)


def numba_error(exc):
    """The telling line of a Numba error (a TypingError's first lines
    only say which pipeline step failed)."""
    lines = [re.sub(r"\x1b\[[0-9;]*m", "", l).strip() for l in str(exc).split("\n")]
    lines = [l for l in lines if l and not l.startswith(("Failed in", "During:", "File ", "^"))
             and not re.match(r"^-+$", l)]
    # the simulator names the failing thread, which varies between runs
    line = re.sub(r"tid=\[[^]]*\] ctaid=\[[^]]*\]: ", "", lines[0] if lines else "")
    return line[:160]


def oracle(argv):
    """Run the probes under CPython + Numba; update expected/*.txt.

    Only the items without an expected output, unless --all; the files are
    rewritten after each item, so a stopped run keeps what it measured."""
    ap = argparse.ArgumentParser(prog="surface.py oracle")
    ap.add_argument("--all", action="store_true")
    ap.add_argument("--gpu", action="store_true",
                    help="on a machine with a GPU and a newer Numba: rerun only the items whose "
                    "expected output is `!numba`, without the simulator; record each one that "
                    "now runs, and where it ran, in gpu-oracle.tsv")
    ap.add_argument("items", nargs="*", help="categories or items (default: all)")
    args = ap.parse_args(argv)
    if not args.gpu:
        os.environ["NUMBA_ENABLE_CUDASIM"] = "1"
    where = gpu_oracle_source() if args.gpu else None
    if args.gpu:
        # NumPy 2.4+ removed these; Numba 0.68's CUDA target still names them
        # while typing any kernel (AttributeError: module 'numpy' has no
        # attribute 'row_stack'), so a missing one gets its successor.
        import numpy
        for old, new in (("row_stack", "vstack"), ("in1d", "isin"), ("trapz", "trapezoid")):
            if not hasattr(numpy, old) and hasattr(numpy, new):
                setattr(numpy, old, getattr(numpy, new))
    import signal

    def alarm(*_):
        raise TimeoutError("the probe ran over 240 s")
    signal.signal(signal.SIGALRM, alarm)
    for cat, item, _, prog, _ in probes():
        if prog is None or (args.items and cat not in args.items and item not in args.items):
            continue
        path = os.path.join(HERE, "expected", slug(cat) + ".txt")
        blocks = read_blocks(path)
        if args.gpu:
            if not blocks.get(item, "").startswith("!numba") or re.search(r"\b(row_stack|in1d|trapz)\b", prog):
                continue
        elif item in blocks and not args.all:
            continue
        buf = io.StringIO()
        signal.alarm(240)
        try:
            with contextlib.redirect_stdout(buf):
                exec(compile(prog, "probe.py", "exec"), {"__name__": "__main__"})
            res = keep_lines(prog, buf.getvalue())
        except BaseException as e:  # noqa: the oracle records every failure
            res = "!numba: %s: %s\n" % (type(e).__name__, numba_error(e))
        finally:
            signal.alarm(0)
        if args.gpu:
            if res.startswith("!numba"):
                sys.stderr.write("%-28s %-40s still %s\n" % (cat, item, res.split("\n")[0][:60]))
                continue
            record_gpu_oracle(item, where)
        blocks[item] = res
        sys.stderr.write("%-28s %-40s %s\n" % (cat, item, res.split("\n")[0][:60]))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            for key, text in blocks.items():
                f.write("@@ %s\n%s" % (key, text))


def gpu_oracle_source():
    """Where a --gpu oracle ran: Numba's version and the device's name."""
    import numba
    from numba import cuda
    name = cuda.get_current_device().name
    return "numba %s on %s" % (numba.__version__, name.decode() if isinstance(name, bytes) else name)


def record_gpu_oracle(item, where):
    """gpu-oracle.tsv: ITEM<TAB>where its expected output came from (the
    items the simulator or Numba 0.56 cannot run)."""
    path = os.path.join(HERE, "gpu-oracle.tsv")
    rows = {}
    if os.path.exists(path):
        with open(path) as f:
            rows = dict(l.rstrip("\n").split("\t", 1) for l in f if "\t" in l and not l.startswith("#"))
    rows[item] = where
    with open(path, "w") as f:
        f.write("# item\texpected output measured by `surface.py oracle --gpu` with (or plain NumPy: README)\n")
        for key in sorted(rows):
            f.write("%s\t%s\n" % (key, rows[key]))


def pure_python(prog):
    """The program with @njit as the identity: what CPython itself prints."""
    ident = ("def njit(*a, **k):\n"
             "    return a[0] if a and callable(a[0]) else (lambda f: f)\n")
    return prog.replace("from numba import njit, cuda\n", "from numba import cuda\n" + ident)


def oracle_cpython(argv):
    """Where CPython itself prints something else than Numba for an @njit
    probe, keep CPython's output (the language's semantics, which Numba
    documents it follows) and note Numba's in a `#numba printed:` line."""
    os.environ["NUMBA_ENABLE_CUDASIM"] = "1"
    for cat, item, _, prog, _ in probes():
        if prog is None or kind_of(cat) != "njit" or (argv and cat not in argv and item not in argv):
            continue
        path = os.path.join(HERE, "expected", slug(cat) + ".txt")
        blocks = read_blocks(path)
        exp = blocks.get(item)
        if exp is None or exp.startswith(("!numba", "#numba>")):
            continue
        buf = io.StringIO()
        try:
            with contextlib.redirect_stdout(buf):
                exec(compile(pure_python(prog), "probe.py", "exec"), {"__name__": "__main__"})
        except BaseException:  # noqa: CPython refuses what Numba runs: keep Numba's
            continue
        if buf.getvalue() == exp:
            continue
        blocks[item] = "".join("#numba> %s\n" % l for l in exp.rstrip("\n").split("\n")) + buf.getvalue()
        sys.stderr.write("%-28s %-40s numba %r, CPython %r\n" % (cat, item, exp.split("\n")[0][:40],
                                                                buf.getvalue().split("\n")[0][:40]))
        with open(path, "w") as f:
            for key, text in blocks.items():
                f.write("@@ %s\n%s" % (key, text))


def oracle_numpy(argv):
    """`oracle-numpy REASON ITEM...`: for @njit items Numba documents but
    neither Numba 0.56 nor the GPU machine's NumPy 2 can run (np.in1d and
    np.round_ are gone from NumPy 2), the expected output is plain NumPy
    1.24's (the probe with @njit as the identity), recorded with REASON in
    gpu-oracle.tsv as the Generator items are (README)."""
    import numpy
    reason, items = argv[0], argv[1:]
    for cat, item, _, prog, _ in probes():
        if prog is None or kind_of(cat) != "njit" or item not in items:
            continue
        path = os.path.join(HERE, "expected", slug(cat) + ".txt")
        blocks = read_blocks(path)
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            exec(compile(pure_python(prog), "probe.py", "exec"), {"__name__": "__main__"})
        blocks[item] = buf.getvalue()
        record_gpu_oracle(item, "numpy %s, the probe with @njit as the identity (%s)" % (numpy.__version__, reason))
        sys.stderr.write("%-28s %-40s %s\n" % (cat, item, buf.getvalue().split("\n")[0][:60]))
        with open(path, "w") as f:
            for key, text in blocks.items():
                f.write("@@ %s\n%s" % (key, text))


def split_numba(exp):
    """(CPython's output, Numba's) of a block where they differ."""
    lines = exp.split("\n")
    numba = [l[8:] for l in lines if l.startswith("#numba> ")]
    rest = [l for l in lines if not l.startswith("#numba> ")]
    return "\n".join(rest), "\n".join(numba) + "\n"


def run_one(kjit, prog, tmo):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "probe.py")
        with open(path, "w") as f:
            f.write(prog)
        try:
            p = subprocess.run([kjit, "run", "--target", "cpu", "--diag-format=short", path],
                               capture_output=True, text=True, timeout=tmo,
                               stdin=subprocess.DEVNULL, errors="replace")
        except subprocess.TimeoutExpired:
            return None, "", "timeout after %ds" % tmo
        return p.returncode, p.stdout, p.stderr


def first_error(err):
    for line in err.split("\n"):
        if re.search(r"error|Error|Exception", line):
            return re.sub(r"^\S*probe\.py:\d+:\d+: ", "", line.strip())
    return err.strip().split("\n")[0] if err.strip() else ""


def classify(expected, rc, out, err):
    """expected: Numba's output, or (CPython's, Numba's) where they differ
    (either passes: a seeded random stream, a Numba quirk)."""
    if isinstance(expected, tuple):
        if rc == 0 and out in expected:
            return "pass", ""
        expected = expected[0]
    if rc == 0:
        if out == expected:
            return "pass", ""
        got = out.strip().split("\n")[0][:60]
        return "wrong", "printed %r, Numba %r" % (got, expected.strip().split("\n")[0][:60])
    if rc == 1:
        return "refused", first_error(err)
    return "crash", ("exit %s: " % rc if rc is not None else "") + first_error(err)


def run(argv):
    ap = argparse.ArgumentParser(prog="surface.py run")
    ap.add_argument("kjit")
    ap.add_argument("--check", action="store_true",
                    help="run only the items of pass.cpu; fail when one does not pass")
    ap.add_argument("--update", action="store_true", help="rewrite pass.cpu")
    ap.add_argument("--markdown", action="store_true", help="the table as markdown")
    ap.add_argument("-v", action="store_true", help="a line per item")
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("categories", nargs="*")
    args = ap.parse_intermixed_args(argv)
    kjit = os.path.abspath(args.kjit)
    tmo = int(os.environ.get("KJIT_SURFACE_TIMEOUT", "30"))
    passlist = set()
    pass_path = os.path.join(HERE, "pass.cpu")
    if os.path.exists(pass_path):
        with open(pass_path) as f:
            passlist = {tuple(l.rstrip("\n").split("\t")[:2]) for l in f
                        if l.strip() and not l.startswith("#")}
    expected = {}
    rows = []  # [category, item, class, note]
    jobs = []
    for cat, item, _, prog, reason in probes():
        if args.categories and cat not in args.categories:
            continue
        if args.check and (cat, item) not in passlist:
            continue
        s = slug(cat)
        if s not in expected:
            expected[s] = read_blocks(os.path.join(HERE, "expected", s + ".txt"))
        exp = expected[s].get(item)
        if exp is not None and exp.startswith("#numba> "):
            exp = split_numba(exp)
        row = [cat, item, None, ""]
        rows.append(row)
        if prog is None:
            row[2:] = ["unprobed", reason]
        elif exp is None:
            row[2:] = ["unprobed", "no expected output: run surface.py oracle"]
        elif isinstance(exp, str) and exp.startswith("!numba:"):
            row[2:] = ["no-oracle", exp.strip()]
        else:
            jobs.append((row, prog, exp))
    with concurrent.futures.ThreadPoolExecutor(max(1, args.j)) as pool:
        futs = {pool.submit(run_one, kjit, prog, tmo): (row, prog, exp) for row, prog, exp in jobs}
        for fut in concurrent.futures.as_completed(futs):
            row, prog, exp = futs[fut]
            rc, out, err = fut.result()
            row[2:] = classify(exp, rc, keep_lines(prog, out), err)
    report(rows, args)
    status = 0
    if args.check:
        for cat, item, cls, note in rows:
            if cls != "pass":
                print("FAIL: %s | %s is listed in pass.cpu but is %s (%s)" % (cat, item, cls, note))
                status = 1
        for cat, item in sorted(passlist - {(r[0], r[1]) for r in rows}):
            if not args.categories or cat in args.categories:
                print("FAIL: pass.cpu lists %s | %s, which has no probe" % (cat, item))
                status = 1
    if args.update:
        # Only the categories that ran are re-measured: entries of the others
        # stay, so `--update CATEGORY` after one feature keeps the rest.
        ran = {cat for cat, _, _, _ in rows}
        keep = {p for p in passlist if p[0] not in ran}
        keep |= {(cat, item) for cat, item, cls, _ in rows if cls == "pass"}
        with open(pass_path, "w") as f:
            f.write("# items whose probe passes on `kjit run --target cpu` "
                    "(tests/surface/run.sh KJIT --update)\n")
            for cat, item in sorted(keep):
                f.write("%s\t%s\n" % (cat, item))
    return status


def report(rows, args):
    if args.v:
        for cat, item, cls, note in sorted(rows):
            print("%-26s %-44s %-9s %s" % (cat, item, cls, note))
        print()
    classes = ["pass", "refused", "wrong", "crash", "no-oracle", "unprobed"]
    per = collections.OrderedDict()
    for cat, _, cls, _ in rows:
        per.setdefault(cat, collections.Counter())[cls] += 1
    total = collections.Counter()
    for c in per.values():
        total.update(c)
    def pct(c):
        n = sum(c.values())
        return "%d%%" % round(100 * c["pass"] / n) if n else "-"
    if args.markdown:
        print("| category | items | passing | % | refused | wrong | crash | no oracle | unprobed |")
        print("|---|--:|--:|--:|--:|--:|--:|--:|--:|")
        for cat, c in list(per.items()) + [("**all**", total)]:
            print("| %s | %d | %d | %s | %s |" % (cat, sum(c.values()), c["pass"], pct(c),
                  " | ".join(str(c[k]) for k in classes[1:])))
    else:
        print("%-28s %5s %5s %5s  %s" % ("category", "items", "pass", "%",
                                         "  ".join(k for k in classes[1:])))
        for cat, c in list(per.items()) + [("all", total)]:
            print("%-28s %5d %5d %5s  %s" % (cat, sum(c.values()), c["pass"], pct(c),
                  "  ".join("%*d" % (len(k), c[k]) for k in classes[1:])))
    blockers = collections.Counter(re.sub(r"\d+", "N", note) for _, _, cls, note in rows
                                   if cls in ("refused", "crash"))
    if blockers and not args.check:
        print("\nblockers (items stopped by each first error, most common first):")
        for note, n in blockers.most_common(15):
            print("  %4d %s" % (n, note[:110]))
    print("surface: %d of %d" % (total["pass"], sum(total.values())))


def main():
    if len(sys.argv) < 2 or sys.argv[1] not in ("run", "oracle", "oracle-cpython", "oracle-numpy", "show"):
        sys.exit("usage: surface.py run|oracle|oracle-cpython|oracle-numpy|show ...")
    if sys.argv[1] == "oracle-numpy":
        return oracle_numpy(sys.argv[2:])
    if sys.argv[1] == "oracle-cpython":
        return oracle_cpython(sys.argv[2:])
    if sys.argv[1] == "oracle":
        return oracle(sys.argv[2:])
    if sys.argv[1] == "show":
        for cat, item, _, prog, _ in probes():
            if item in sys.argv[2:]:
                print(prog)
        return 0
    return run(sys.argv[2:])


if __name__ == "__main__":
    sys.exit(main())
