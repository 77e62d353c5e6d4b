"""From Python functions to one kjit compile unit (as Numba compiles from source).

A unit is the source of the decorated function, of every decorated function it
references (transitively, through its module's globals), the imports of their
modules that kjit knows (numba, numpy, math, ...) and the module-level values
they read, frozen now as Numba freezes globals: numbers, bools, strings and
tuples of them become assignments; signature and type objects keep the
assignment that made them. Every line of the unit remembers the file and line
it came from, so that kjit's diagnostics name the original file."""

import ast
import inspect
import linecache
import sys
import textwrap
import types as pytypes

import numpy as np

from . import _values_namedtuple

# Modules kjit's front end knows (docs/language.md, "Imports").
KNOWN_MODULES = {"numba", "numpy", "math", "time", "kjit", "mpi4py", "cmath", "random", "heapq", "operator",
                 "collections"}


# Element types of the module-level arrays kjit freezes (kjit_compile_globals).
FROZEN_DTYPES = {"bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                 "float32", "float64"}


class SourceError(Exception):
    """The source of a function cannot be had or used."""


def _module_tree(module):
    """(tree, lines, filename) of a module's source, or None."""
    filename = getattr(module, "__file__", None)
    if not filename:
        return None
    lines = linecache.getlines(filename, module.__dict__)
    if not lines:
        return None
    try:
        return ast.parse("".join(lines), filename), lines, filename
    except SyntaxError:
        return None


class Piece:
    """Lines of the unit and where they came from: (file, first line, column shift)."""

    def __init__(self, text, filename, first_line, col_shift=0):
        self.text = text if text.endswith("\n") else text + "\n"
        self.filename = filename
        self.first_line = first_line
        self.col_shift = col_shift


class Unit:
    """The text kjit compiles and the map of its lines back to the originals."""

    def __init__(self, pieces, unit_name):
        self.unit_name = unit_name
        self.text = ""
        self.map = []  # (unit first line, line count, Piece)
        line = 1
        for p in pieces:
            n = p.text.count("\n")
            self.map.append((line, n, p))
            self.text += p.text
            line += n

    def locate(self, line):
        """(file, line, column shift) of the unit's `line`, or None."""
        for first, n, p in self.map:
            if first <= line < first + n:
                if p.filename is None:
                    return None
                return p.filename, p.first_line + line - first, p.col_shift
        return None


def _names(tree):
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            out.add(node.id)
    return out


def _code_names(code):
    """The global (and attribute) names a function's code reads, nested code included."""
    out = set(code.co_names)
    for c in code.co_consts:
        if isinstance(c, pytypes.CodeType):
            out |= _code_names(c)
    return out


def _global_names(py_func, tree):
    """Module-level names the function reads: its code's, and its decorators' (run by the module)."""
    out = _code_names(py_func.__code__)
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for d in node.decorator_list:
                out |= _names(d)
    return out


def _import_pieces(module, wanted):
    """The module's top-level imports of modules kjit knows, one Piece each."""
    mt = _module_tree(module)
    if mt is None:
        return []
    tree, lines, filename = mt
    pieces = []
    for node in tree.body:
        if isinstance(node, ast.Import):
            roots = {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots = {node.module.split(".")[0]}
        else:
            continue
        if not roots <= KNOWN_MODULES:
            continue
        bound = {(a.asname or a.name.split(".")[0]) for a in node.names}
        if "*" not in bound and not (bound & wanted):
            continue
        text = "".join(lines[node.lineno - 1:node.end_lineno])
        pieces.append(Piece(text, filename, node.lineno))
    return pieces


def _bound_by(text):
    """Names an import statement binds."""
    node = ast.parse(textwrap.dedent(text)).body[0]
    return {(a.asname or a.name.split(".")[0]) for a in node.names}


def _constant_text(value):
    """Python source of a frozen global, or None when kjit cannot take it."""
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, (int, float)):
        if isinstance(value, float) and not np.isfinite(value):
            return None
        return repr(value)
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, tuple):
        items = [_constant_text(v) for v in value]
        if any(i is None for i in items):
            return None
        return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return repr(value)  # a list of signatures for a decorator
    return None


def _assignment_piece(module, name):
    """The one top-level assignment that binds `name` in the module, as a Piece."""
    mt = _module_tree(module)
    if mt is None:
        return None
    tree, lines, filename = mt
    found = []
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == name for t in node.targets):
            found.append(node)
    if len(found) != 1:
        return None
    node = found[0]
    return Piece("".join(lines[node.lineno - 1:node.end_lineno]), filename, node.lineno), node


def _block_lines(py_func):
    """(lines, first line number) of a function's source read from its file through linecache, its end found by
    indentation and checked by ast: inspect.getsourcelines does the same through tokenize, whose first use in a
    process compiles tokenize's large regular expressions (a few ms to tens of ms of the first call). None where
    this cannot be sure (a lambda, a def on one line with others, a block that does not parse): inspect then."""
    code = getattr(py_func, "__code__", None)
    if code is None:
        return None
    lines = linecache.getlines(code.co_filename, py_func.__globals__)
    start = code.co_firstlineno - 1
    if not lines or not 0 <= start < len(lines):
        return None
    head = lines[start]
    indent = head[:len(head) - len(head.lstrip())]
    k = start
    while k < len(lines) and lines[k].startswith(indent + "@"):
        k += 1  # the decorators (one line each; anything else: inspect)
    if k >= len(lines) or not lines[k][len(indent):].startswith(("def ", "async def ")):
        return None
    end = k + 1
    for j in range(k + 1, len(lines)):
        s = lines[j]
        body = s.strip()
        if body and not body.startswith("#") and len(s) - len(s.lstrip()) <= len(indent) and \
                not body.startswith((")", "]", "}")):
            break
        if body and not body.startswith("#"):
            end = j + 1
    block = lines[start:end]
    try:
        tree = ast.parse(textwrap.dedent("".join(block)))
    except SyntaxError:
        return None
    if len(tree.body) != 1 or not isinstance(tree.body[0], (ast.FunctionDef, ast.AsyncFunctionDef)) or \
            tree.body[0].name != py_func.__name__:
        return None
    return block, start + 1


def function_piece(py_func):
    """The Piece of a function's source (decorators included), dedented."""
    try:
        found = _block_lines(py_func)
        lines, first = found if found is not None else inspect.getsourcelines(py_func)
        filename = py_func.__code__.co_filename if found is not None else \
            inspect.getsourcefile(py_func) or inspect.getfile(py_func)
    except (OSError, TypeError) as e:
        raise SourceError(f"kjit compiles from source, and the source of '{py_func.__qualname__}' "
                          f"cannot be found ({e}): define it in a file, not in a REPL or through exec") from None
    text = "".join(lines)
    dedented = textwrap.dedent(text)
    shift = len(text.splitlines()[0]) - len(dedented.splitlines()[0])
    return Piece(dedented, filename, max(first, 1), shift)


def build_unit(root, is_dispatcher):
    """The Unit for dispatcher `root`: its function, the dispatchers it reaches, imports, constants.

    `is_dispatcher(obj)` tells kjit's dispatchers apart. Returns (unit, dispatchers included)."""
    seen = []
    todo = [root]
    bodies, header, consts = [], {}, {}
    while todo:
        d = todo.pop()
        if any(d is s for s in seen):
            continue
        seen.append(d)
        piece = d.source_piece()
        bodies.append(piece)
        for extra in d.extra_pieces():
            if extra.filename is None and extra.text.startswith("import "):
                header.setdefault((None, extra.text), extra)
            else:
                bodies.append(extra)
        try:
            tree = ast.parse(piece.text)
        except SyntaxError as e:
            raise SourceError(f"{piece.filename}:{piece.first_line + (e.lineno or 1) - 1}: {e.msg}") from None
        module = sys.modules.get(d.py_func.__module__)
        g = d.py_func.__globals__
        wanted = set()
        for name in _global_names(d.py_func, tree) | d.extra_names():
            if name not in g or name == d.kjit_name:
                continue
            value = g[name]
            if is_dispatcher(value):
                todo.append(value)
                continue
            if _values_namedtuple.is_class(value):
                _values_namedtuple.register(value)  # its instances returned come back as it
            wanted.add(name)
            if isinstance(value, pytypes.ModuleType) or name in consts:
                continue
            _freeze(name, value, module, consts, d, wanted)
        bound = set()
        if module is not None:
            for p in _import_pieces(module, wanted):
                header.setdefault((p.filename, p.first_line), p)
                bound |= _bound_by(p.text)
        for name in sorted(wanted - bound):
            # A module bound otherwise (inside an `if`, by an assignment): import it under that name.
            value = g[name]
            if isinstance(value, pytypes.ModuleType):
                real = {"kjit": "numba", "kjit.cuda": "numba.cuda", "kjit.types": "numba.types",
                        "kjit._cuda_random": "numba.cuda.random"}.get(
                    value.__name__, value.__name__)
                if real.split(".")[0] in KNOWN_MODULES:
                    text = f"import {real} as {name}\n" if "." not in real else \
                        f"from {real.rsplit('.', 1)[0]} import {real.rsplit('.', 1)[1]} as {name}\n"
                    header.setdefault((None, text), Piece(text, None, 0))
    unique = {}
    for p in bodies:
        unique.setdefault((p.filename, p.first_line, p.text), p)
    arrays = {n: v for n, v in consts.items() if isinstance(v, np.ndarray)}
    pieces = list(header.values()) + [p for p in consts.values() if isinstance(p, Piece)] + list(unique.values())
    unit = Unit(pieces, root.py_func.__code__.co_filename)
    unit.arrays = arrays  # module-level arrays, frozen through kjit_compile_globals
    return unit, seen


def _freeze(name, value, module, consts, d, wanted):
    """Add the module-level value `name` to `consts` when kjit must see it."""
    text = _constant_text(value)
    if text is not None:
        consts[name] = Piece(f"{name} = {text}\n", None, 0)
        return
    if isinstance(value, np.ndarray):
        # frozen by kjit_compile_globals: its elements are copied now, as Numba freezes a global array
        if value.dtype.name not in FROZEN_DTYPES or not 1 <= value.ndim <= 4:
            raise SourceError(f"'{d.py_func.__qualname__}' reads the module-level NumPy array '{name}' "
                              f"({value.dtype}, {value.ndim}d): kjit freezes arrays of 1 to 4 dimensions of "
                              "bool, integers or floats; pass it as an argument")
        consts[name] = value
        return
    if module is None:
        return
    hit = _assignment_piece(module, name)
    if hit is not None:
        piece, node = hit
        # Names the assignment reads that kjit must see too (T = float32[:] reads float32).
        for n in _names(node.value):
            if n in d.py_func.__globals__ and n not in consts and n != name:
                wanted.add(n)
                v = d.py_func.__globals__[n]
                if not isinstance(v, pytypes.ModuleType):
                    _freeze(n, v, module, consts, d, wanted)
        consts[name] = piece


def lambda_piece(py_func):
    """(name, Piece) of a lambda made inside a function (`njit(lambda x: x + 1)`, `cuda.reduce(lambda a, b:
    a + b)`) written as the def kjit compiles: `def _kjit_lambda_L_C(x):\\n    return x + 1`, its return line
    mapped to the lambda's line and its column to the lambda body's. The lambda is found in its file's
    syntax tree by line and parameter names, and by the body's columns where a line has several."""
    code = py_func.__code__
    lines = linecache.getlines(code.co_filename, py_func.__globals__)
    try:
        tree = ast.parse("".join(lines), code.co_filename)
    except SyntaxError:
        tree = None
    params = list(code.co_varnames[:code.co_argcount + code.co_kwonlyargcount])
    found = [n for n in ast.walk(tree) if isinstance(n, ast.Lambda) and n.lineno == code.co_firstlineno and
             [a.arg for a in n.args.posonlyargs + n.args.args + n.args.kwonlyargs] == params] if tree else []
    if len(found) > 1:  # several on the line: the one whose body holds the code's first position
        cols = [p[2] for p in code.co_positions()  # RESUME's empty (col 0, end 0) position is no one's
                if p[0] == code.co_firstlineno and p[2] is not None and p[3] is not None and p[3] > p[2]]
        found = [n for n in found if cols and n.body.col_offset <= min(cols) and
                 (n.body.end_lineno > n.lineno or min(cols) < n.body.end_col_offset)]
    if len(found) != 1:
        raise SourceError(f"kjit compiles from source, and the lambda at {code.co_filename}:{code.co_firstlineno} "
                          "cannot be told apart from the others on its line: bind it to a name with def")
    node = found[0]
    name = f"_kjit_lambda_{node.lineno}_{node.col_offset}"
    body = ast.get_source_segment("".join(lines), node.body) or ast.unparse(node.body)
    text = f"def {name}({ast.unparse(node.args)}):\n    return {body}\n"
    return name, Piece(text, code.co_filename, node.lineno - 1, node.body.col_offset - len("    return "))
