#!/usr/bin/env python3
"""Regenerate the item list (items.tsv) of Numba's documented surface.

    tests/surface/gen-items.py NUMBA_GIT_DIR NUMBA_CUDA_GIT_DIR > tests/surface/items.tsv

The git dirs are clones of github:numba/numba and github:NVIDIA/numba-cuda
(read with `git show HEAD:PATH`).  One item per documented construct: every
bullet naming a function, method, attribute or class (``:func:`X```,
``:meth:`X```, a ``literal`` bullet), every row of the ufunc tables whose
nopython column says Yes, and every ``.. function::`` / ``.. autofunction::``
/ ``.. attribute::`` / ``.. class::`` directive of numba-cuda's reference
pages, in the sections mapped to a category below.  Constructs that the docs
describe in prose (statements, list/set/dict operations, tuples, the
numba.cuda.random functions) are the EXTRA rows at the end of this file.
Output: `category<TAB>item<TAB>source` (source = FILE:LINE section), sorted
by file order; a header line names the two commits.
"""
import re
import subprocess
import sys

NUMBA_FILES = ["docs/source/reference/pysupported.rst",
               "docs/source/reference/numpysupported.rst"]
CUDA_FILES = ["docs/source/reference/kernel.rst",
              "docs/source/reference/memory.rst",
              "docs/source/reference/host.rst",
              "docs/source/user/cudapysupported.rst",
              "docs/source/user/cooperative_groups.rst"]

# (file basename, section heading) -> category; sections not named here
# hold no items (prose, examples, limitations).
SECTIONS = {
    ("pysupported.rst", "int, bool"): "Python: numbers",
    ("pysupported.rst", "float, complex"): "Python: numbers",
    ("pysupported.rst", "str"): "Python: str",
    ("pysupported.rst", "bytes, bytearray, memoryview"): "Python: bytes/memoryview",
    ("pysupported.rst", "Built-in functions"): "Python: built-in functions",
    ("pysupported.rst", "``cmath``"): "Python: math/cmath",
    ("pysupported.rst", "``math``"): "Python: math/cmath",
    ("pysupported.rst", "``operator``"): "Python: operator",
    ("pysupported.rst", "``functools``"): "Python: stdlib other",
    ("pysupported.rst", "``collections``"): "Python: stdlib other",
    ("pysupported.rst", "``random``"): "Python: random",
    ("pysupported.rst", "``heapq``"): "Python: stdlib other",
    ("pysupported.rst", "``ctypes``"): "Python: stdlib other",
    ("numpysupported.rst", "Attributes"): "NumPy: array attributes",
    ("numpysupported.rst", "Calculation"): "NumPy: array methods",
    ("numpysupported.rst", "Other methods"): "NumPy: array methods",
    ("numpysupported.rst", "Linear algebra"): "NumPy: linalg",
    ("numpysupported.rst", "Reductions"): "NumPy: reductions",
    ("numpysupported.rst", "Polynomials"): "NumPy: polynomials",
    ("numpysupported.rst", "Other functions"): "NumPy: other functions",
    ("numpysupported.rst", "Generator Objects"): "NumPy: random",
    ("numpysupported.rst", "Initialization"): "NumPy: random",
    ("numpysupported.rst", "Simple random data"): "NumPy: random",
    ("numpysupported.rst", "Permutations"): "NumPy: random",
    ("numpysupported.rst", "Distributions"): "NumPy: random",
    ("numpysupported.rst", "``stride_tricks``"): "NumPy: other functions",
    ("numpysupported.rst", "Math operations"): "NumPy: ufuncs",
    ("numpysupported.rst", "Trigonometric functions"): "NumPy: ufuncs",
    ("numpysupported.rst", "Bit-twiddling functions"): "NumPy: ufuncs",
    ("numpysupported.rst", "Comparison functions"): "NumPy: ufuncs",
    ("numpysupported.rst", "Floating functions"): "NumPy: ufuncs",
    ("numpysupported.rst", "Datetime functions"): "NumPy: ufuncs",
    ("kernel.rst", "Kernel declaration"): "CUDA: kernels",
    ("kernel.rst", "Thread Indexing"): "CUDA: thread indexing",
    ("kernel.rst", "Memory Management"): "CUDA: kernel memory",
    ("kernel.rst", "Synchronization and Atomic Operations"): "CUDA: synchronization",
    ("kernel.rst", "Cooperative Groups"): "CUDA: cooperative groups",
    ("kernel.rst", "Memory Fences"): "CUDA: synchronization",
    ("kernel.rst", "Warp Intrinsics"): "CUDA: warp",
    ("kernel.rst", "Integer Intrinsics"): "CUDA: intrinsics",
    ("kernel.rst", "Floating Point Intrinsics"): "CUDA: intrinsics",
    ("kernel.rst", "16-bit Floating Point Intrinsics"): "CUDA: fp16",
    ("kernel.rst", "Control Flow Instructions"): "CUDA: intrinsics",
    ("kernel.rst", "Timer Intrinsics"): "CUDA: intrinsics",
    ("memory.rst", "Memory Management"): "CUDA: host memory",
    ("memory.rst", "Device Objects"): "CUDA: host memory",
    ("host.rst", "Device detection and enquiry"): "CUDA: host API",
    ("host.rst", "Context management"): "CUDA: host API",
    ("host.rst", "Device management"): "CUDA: host API",
    ("host.rst", "Compilation"): "CUDA: host API",
    ("host.rst", "Profiling"): "CUDA: host API",
    ("host.rst", "Events"): "CUDA: host API",
    ("host.rst", "Stream Management"): "CUDA: host API",
    ("cudapysupported.rst", "Built-in functions"): "CUDA: Python in kernels",
    ("cudapysupported.rst", "``cmath``"): "CUDA: math in kernels",
    ("cudapysupported.rst", "``math``"): "CUDA: math in kernels",
    ("cudapysupported.rst", "``operator``"): "CUDA: Python in kernels",
    ("cooperative_groups.rst", "Cooperative Launches"): "CUDA: cooperative groups",
}

# NumPy "Other functions" that create arrays get their own category.
CREATION = set("""array asarray asfortranarray ascontiguousarray arange linspace
logspace geomspace empty empty_like zeros zeros_like ones ones_like full full_like
eye identity diag diagflat tri tril triu vander fromstring frombuffer copy
indices meshgrid""".split())

ROLE = re.compile(r":(?:func|meth|attr|class|data):`~?([^`<]+?)(?:\s*<[^>]*>)?`")
LITERAL = re.compile(r"``([^`]+)``")
DIRECTIVE = re.compile(r"^\.\. (?:auto)?(?:function|attribute|class|method)::\s*([\w.]+)")
UFUNC_ROW = re.compile(r"^ (\w+)\s+(Yes|No)\s+(Yes|No)\s*$")
UNDERLINE = re.compile(r"^([=\-~^'\"*])\1{2,}$")

EXTRA = [  # (category, item, source): constructs documented in prose
    ("Python: statements", s, "pysupported.rst Constructs") for s in [
        "if .. elif .. else", "while", "for .. in", "break", "continue",
        "yield (generator)", "assert", "try .. except", "raise",
        "try .. else .. finally", "with objmode", "list comprehension",
        "array comprehension", "f-string"]] + [
    ("Python: functions", s, "pysupported.rst Functions") for s in [
        "keyword arguments", "default arguments", "*args (tuple)",
        "functions as arguments", "inner function (closure)", "recursion",
        "generator iteration"]] + [
    ("Python: tuple", s, "pysupported.rst tuple") for s in [
        "tuple construction", "tuple unpacking", "tuple comparison",
        "tuple iteration (homogeneous)", "tuple indexing", "tuple concatenation",
        "tuple constant slice", "tuple.index", "tuple len"]] + [
    ("Python: list", s, "pysupported.rst list") for s in [
        "list literal", "list.append", "list.extend", "list.insert", "list.pop",
        "list.remove", "list.index", "list.count", "list.reverse", "list.sort",
        "list.copy", "list.clear", "list slicing", "list + list", "list * int",
        "in list", "len(list)", "list(iterable)", "sorted(list)", "numba.typed.List"]] + [
    ("Python: set", s, "pysupported.rst set") for s in [
        "set literal", "set.add", "set.discard", "set.remove", "set.pop",
        "set.clear", "set.update", "set.union", "set.intersection",
        "set.difference", "set.symmetric_difference", "set.issubset", "in set",
        "len(set)", "set(iterable)"]] + [
    ("Python: dict", s, "pysupported.rst Typed Dict") for s in [
        "dict literal", "dict()", "dict setitem/getitem", "dict.get", "dict.pop",
        "dict.items", "dict.keys", "dict.values", "in dict", "len(dict)",
        "dict.setdefault", "dict comprehension", "numba.typed.Dict.empty",
        "literal str-key dict"]] + [
    ("Python: numbers", "None identity", "pysupported.rst None")] + [
    ("CUDA: random", "numba.cuda.random." + s, "random.rst numba.cuda.random") for s in [
        "create_xoroshiro128p_states", "init_xoroshiro128p_states",
        "xoroshiro128p_uniform_float32", "xoroshiro128p_uniform_float64",
        "xoroshiro128p_normal_float32", "xoroshiro128p_normal_float64"]] + [
    ("NumPy: array attributes", "numpy.ndarray.flags." + s,
     "numpysupported.rst The ``flags`` object") for s in [
        "contiguous", "c_contiguous", "f_contiguous"]] + [
    ("NumPy: array attributes", "numpy.ndarray.flat (iterate, index)",
     "numpysupported.rst The ``flat`` object")]


def show(gitdir, path):
    return subprocess.run(["git", "--git-dir", gitdir, "show", "HEAD:" + path],
                          check=True, capture_output=True, text=True).stdout


def head(gitdir):
    return subprocess.run(["git", "--git-dir", gitdir, "rev-parse", "HEAD"],
                          check=True, capture_output=True, text=True).stdout.strip()


def item_of(base, section, line):
    """The construct a bullet names, or None."""
    m = ROLE.search(line)
    if m:
        name = m.group(1).strip()
        if base == "pysupported.rst" and "." not in name and section in ("str",):
            return None
        return name
    m = LITERAL.search(line)
    if not m:
        return None
    name = m.group(1).strip()
    if section == "str":
        return "str" + name if name.startswith(".") else "str " + name
    if section in ("int, bool", "float, complex"):
        return section.split(",")[0] + name
    return name


def items_of(base, text):
    lines = text.split("\n")
    section = ""
    seen = set()
    for i, line in enumerate(lines):
        if i + 1 < len(lines) and UNDERLINE.match(lines[i + 1]) and line.strip() \
                and len(lines[i + 1]) >= len(line.strip()) - 1:
            section = line.strip()
            continue
        cat = SECTIONS.get((base, section))
        if cat is None:
            continue
        name = None
        m = DIRECTIVE.match(line)
        if m:
            name = m.group(1)
        elif re.match(r"^\s*[*-] ", line) and not line.startswith("  "):
            name = item_of(base, section, line)
        else:
            m = UFUNC_ROW.match(line)
            if m and m.group(3) == "Yes":
                name = "numpy." + m.group(1)
        if not name:
            continue
        if cat == "NumPy: other functions" and name.split(".")[-1] in CREATION:
            cat = "NumPy: creation"
        if ".atomic." in name:
            cat = "CUDA: atomics"
        if (cat, name) in seen:
            continue
        seen.add((cat, name))
        yield cat, name, "%s:%d %s" % (base, i + 1, section)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: gen-items.py NUMBA_GIT_DIR NUMBA_CUDA_GIT_DIR")
    numba, cuda = sys.argv[1], sys.argv[2]
    print("# generated by tests/surface/gen-items.py from numba %s, numba-cuda %s"
          % (head(numba)[:12], head(cuda)[:12]))
    print("# category\titem\tsource")
    for gitdir, files in ((numba, NUMBA_FILES), (cuda, CUDA_FILES)):
        for path in files:
            for row in items_of(path.rsplit("/", 1)[1], show(gitdir, path)):
                print("\t".join(row))
    for row in EXTRA:
        print("\t".join(row))


if __name__ == "__main__":
    main()
