"""Mutation run of the money-critical core: does a test fail when one operator or constant of it is changed?

For each target module this makes *mutants*, each a copy of the module with one
small change a slip of the keyboard could make: a comparison swapped
(``<`` / ``<=``, ``>`` / ``>=``, ``==`` / ``!=``, ``is`` / ``is not``, ``in`` /
``not in``), an integer constant one up or one down, ``and`` / ``or`` swapped,
``+`` / ``-`` (and ``*`` / ``//``) swapped, a ``not`` or a unary minus removed,
a returned ``True``/``False`` flipped or a returned value replaced by ``None``.
Each mutant is run against only the tests that run its line (a mutant no test
runs *survives*); a test that fails *kills* it. The score of a module is
killed / (mutants - equivalent), where the equivalent mutants, those no test
could kill because they behave exactly like the original, are listed with the
reason in ``benchmarks/mutation_equivalents.toml`` (keyed by module, line and
the mutated text, so the list stays put while other lines move).

Why not mutmut 3 or cosmic-ray: both start by running the configured test
suite whole to learn which test runs which function, and mutmut copies the
tree into ``mutants/`` and rewrites every function into a trampoline; the house
rule here is never to run the whole suite more than once (two cores shared by
five engineers), and an equivalent mutant has to be listed with its reason by
line, which neither keeps. This one is ~300 lines over :mod:`ast`:

* Which tests run which line is learnt once, with coverage.py's contexts (a
  context per test node id, switched by the pytest plugin below), over the
  test folders given (``--tests``; by default those of the core).
* A mutant is run in a child ``pytest -x`` with this file as a plugin
  (``-p mutation``): an import hook compiles the mutated syntax tree in place of
  the module's source (line numbers kept), so the work tree is never touched.
  A child that runs past ``--timeout`` seconds counts as killed (a mutant that
  loops forever is noticed).

Usage::

    python benchmarks/mutation.py                      # every mutant, every target (~30-40 min on 2 cores)
    python benchmarks/mutation.py --module money.py    # the targets whose path ends so
    python benchmarks/mutation.py --sample 25 --seed 7 # a seeded sample (tests/edges/test_mutation_sample.py)
    python benchmarks/mutation.py --survivors          # also print each surviving mutant

It prints a table per module and exits 1 if a sampled or run non-equivalent
mutant survived when ``--strict`` is given.
"""

from __future__ import annotations

import argparse
import ast
import copy
import importlib.abc
import importlib.util
import json
import os
import random
import subprocess
import sys
import tempfile
import tomllib
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EQUIVALENTS = Path(__file__).with_name("mutation_equivalents.toml")
#: The money-critical core; a tuple of names limits a target to those functions (the fold: its transaction path).
TARGETS: dict[str, tuple[str, ...] | None] = {
    "banker/money.py": None,
    "banker/unit/entry.py": None,
    "banker/rules/rent.py": None,
    "banker/rules/mortgages.py": None,
    "banker/fold/undo.py": None,
    "banker/fold/game.py": ("apply", "_transaction", "_admit", "_moved", "_check_funds"),
    "banker/rules/buildings.py": None,
}
DEFAULT_TESTS = ("tests/edges", "tests/rules", "tests/fold")
MUTANT_ENV, COVER_ENV = "BANKER_MUTANT", "BANKER_MUTATION_COVER"

_SWAP_CMP = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq,
             ast.NotEq: ast.Eq, ast.Is: ast.IsNot, ast.IsNot: ast.Is, ast.In: ast.NotIn, ast.NotIn: ast.In}
_SWAP_BIN = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.FloorDiv, ast.FloorDiv: ast.Mult}


# -- making mutants ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Mutant:
    module: str  # "banker/money.py"
    index: int  # its place among the module's mutants (the import hook makes it again from this)
    line: int
    mutation: str  # "after < 0 -> after <= 0"

    @property
    def key(self) -> tuple[str, int, str]:
        return self.module, self.line, self.mutation


def _variants(node: ast.AST) -> list[ast.AST]:
    """The mutated copies of one node (empty for a node no operator here changes)."""
    out: list[ast.AST] = []
    if isinstance(node, ast.Compare):
        for i, op in enumerate(node.ops):
            if type(op) in _SWAP_CMP:
                new = copy.deepcopy(node)
                new.ops[i] = _SWAP_CMP[type(op)]()
                out.append(new)
    elif isinstance(node, ast.BoolOp):
        new = copy.deepcopy(node)
        new.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        out.append(new)
    elif isinstance(node, ast.BinOp) and type(node.op) in _SWAP_BIN:
        new = copy.deepcopy(node)
        new.op = _SWAP_BIN[type(node.op)]()
        out.append(new)
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not | ast.USub):
        out.append(copy.deepcopy(node.operand))
    elif isinstance(node, ast.Constant) and type(node.value) is int:
        out += [ast.Constant(node.value + 1), ast.Constant(node.value - 1)]
    elif isinstance(node, ast.Return) and node.value is not None:
        value = node.value
        if isinstance(value, ast.Constant) and type(value.value) is bool:
            out.append(ast.Return(ast.Constant(not value.value)))
        elif not (isinstance(value, ast.Constant) and value.value is None):
            out.append(ast.Return(ast.Constant(None)))
    for new in out:
        ast.copy_location(new, node)
        ast.fix_missing_locations(new)
    return out


def _skipped_children(node: ast.AST) -> set[int]:
    """Nodes under ``node`` that are no code to mutate: annotations, f-string formats, docstrings."""
    skip: set[int] = set()
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        if node.returns is not None:
            skip.add(id(node.returns))
        for arg in [*node.args.args, *node.args.kwonlyargs, *node.args.posonlyargs]:
            if arg.annotation is not None:
                skip.add(id(arg.annotation))
    elif isinstance(node, ast.AnnAssign):
        skip.add(id(node.annotation))
    elif isinstance(node, ast.FormattedValue) and node.format_spec is not None:
        skip.add(id(node.format_spec))
    return skip


def _sites(tree: ast.AST, functions: tuple[str, ...] | None):
    """Every (parent, field, index, node) where a node may be replaced by one of its variants, in a fixed order."""
    def walk(node: ast.AST, inside: bool, skip: set[int]):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and functions is not None:
            inside = node.name in functions
        skip = skip | _skipped_children(node)
        for field, value in ast.iter_fields(node):
            items = value if isinstance(value, list) else [value]
            for i, child in enumerate(items):
                if not isinstance(child, ast.AST) or id(child) in skip:
                    continue
                if inside:
                    yield node, field, (i if isinstance(value, list) else None), child
                yield from walk(child, inside, skip)
    yield from walk(tree, functions is None, set())


def _tree(module: str) -> ast.Module:
    return ast.parse((ROOT / module).read_text(encoding="utf-8"), filename=str(ROOT / module))


def _docstrings(tree: ast.AST) -> set[int]:
    return {id(n.body[0].value) for n in ast.walk(tree)
            if isinstance(n, ast.Module | ast.FunctionDef | ast.ClassDef | ast.AsyncFunctionDef) and n.body
            and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}


def _each_variant(tree: ast.Module, functions: tuple[str, ...] | None):
    docs = _docstrings(tree)
    for parent, field, i, node in list(_sites(tree, functions)):
        if id(node) in docs:
            continue
        for new in _variants(node):
            yield parent, field, i, node, new


def mutants(module: str) -> list[Mutant]:
    """The module's mutants, numbered in a fixed order (the same on every run of the same source)."""
    tree = _tree(module)
    out = []
    for index, (_parent, _field, _i, node, new) in enumerate(_each_variant(tree, TARGETS[module])):
        out.append(Mutant(module, index, node.lineno, f"{ast.unparse(node)} -> {ast.unparse(new)}"))
    return out


def mutated_tree(module: str, index: int) -> ast.Module:
    """The module's syntax tree with mutant ``index`` applied."""
    tree = _tree(module)
    for n, (parent, field, i, _node, new) in enumerate(_each_variant(tree, TARGETS[module])):
        if n == index:
            if i is None:
                setattr(parent, field, new)
            else:
                getattr(parent, field)[i] = new
            return tree
    raise IndexError(f"{module} has no mutant {index}")


def equivalents(path: Path = EQUIVALENTS) -> dict[tuple[str, int, str], str]:
    """The known-equivalent mutants: (module, line, mutation) -> why no test can tell them from the original."""
    if not path.exists():
        return {}
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return {(e["module"], e["line"], e["mutation"]): e["why"] for e in data.get("equivalent", [])}


# -- the pytest plugin (-p mutation): the mutant's import hook, or the coverage contexts ----------------


class _MutantLoader(importlib.abc.Loader):
    def __init__(self, module: str, index: int):
        self.module, self.index = module, index

    def create_module(self, spec):
        return None

    def exec_module(self, mod):
        code = compile(mutated_tree(self.module, self.index), str(ROOT / self.module), "exec")
        exec(code, mod.__dict__)  # noqa: S102 - the module's own source, one node changed


class _MutantFinder(importlib.abc.MetaPathFinder):
    def __init__(self, module: str, index: int):
        self.name = module.removesuffix(".py").replace("/", ".")
        self.loader = _MutantLoader(module, index)
        self.path = str(ROOT / module)

    def find_spec(self, fullname, path=None, target=None):
        if fullname != self.name:
            return None
        return importlib.util.spec_from_file_location(fullname, self.path, loader=self.loader)


_COVERAGE = None
if os.environ.get(MUTANT_ENV):
    _module, _index = os.environ[MUTANT_ENV].rsplit(":", 1)
    sys.meta_path.insert(0, _MutantFinder(_module, int(_index)))
elif os.environ.get(COVER_ENV):
    import coverage

    # config_file=False: pyproject's [tool.coverage] (parallel data files, subprocesses) is the suite's --cov, not this
    _COVERAGE = coverage.Coverage(data_file=os.environ[COVER_ENV], config_file=False,
                                  include=[str(ROOT / m) for m in TARGETS])
    _COVERAGE.start()


def pytest_runtest_setup(item):
    if _COVERAGE is not None:
        _COVERAGE.switch_context(item.nodeid)


def pytest_unconfigure(config):
    if _COVERAGE is not None:
        _COVERAGE.stop()
        _COVERAGE.save()


# -- running ------------------------------------------------------------------------------------------


def _pytest(args: list[str], env: dict[str, str], timeout: float | None) -> subprocess.CompletedProcess | None:
    base = [sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "-p", "no:cacheprovider",
            "-p", "mutation", "-o", "addopts=", "--no-header", "--tb=no",
            "--ignore=tests/edges/test_mutation_sample.py"]  # the test that runs this tool: not again in its children
    env = dict(env, PYTHONPATH=os.pathsep.join([str(ROOT / "benchmarks"), env.get("PYTHONPATH", "")]),
               PYTHONDONTWRITEBYTECODE="1")
    try:
        return subprocess.run(base + args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None


def line_tests(tests: list[str]) -> dict[str, dict[int, list[str]]]:
    """Which test node ids run each line of each target (one test run under coverage)."""
    with tempfile.TemporaryDirectory() as tmp:
        data_file = str(Path(tmp) / "coverage")
        env = dict(os.environ, **{COVER_ENV: data_file})
        env.pop(MUTANT_ENV, None)
        done = _pytest(tests, env, None)
        if done is None or done.returncode not in (0, 1):
            raise SystemExit(f"the covered run failed:\n{done and done.stdout[-2000:]}")
        import coverage

        data = coverage.CoverageData(basename=data_file)
        data.read()
        out: dict[str, dict[int, list[str]]] = {}
        for module in TARGETS:
            contexts = data.contexts_by_lineno(str(ROOT / module))
            out[module] = {line: sorted(c for c in ctx if c) for line, ctx in contexts.items()}
        return out


def _tests_for(mutant: Mutant, lines: dict[str, dict[int, list[str]]]) -> list[str]:
    by_line = lines.get(mutant.module, {})
    found = by_line.get(mutant.line, [])
    if found == [] and mutant.line in by_line:  # a line run only at import (a module constant): the module's tests
        found = sorted({t for ts in by_line.values() for t in ts})
    return found


def run_mutant(mutant: Mutant, tests: list[str], timeout: float) -> str:
    """``killed``, ``survived`` (no test failed, or none runs the line) or ``timeout`` (counted as killed)."""
    if not tests:
        return "survived"
    with tempfile.NamedTemporaryFile("w", suffix=".args", delete=False) as f:
        f.write("\n".join(tests))
    try:
        env = dict(os.environ, **{MUTANT_ENV: f"{mutant.module}:{mutant.index}"})
        env.pop(COVER_ENV, None)
        done = _pytest(["-x", f"@{f.name}"], env, timeout)
    finally:
        os.unlink(f.name)
    if done is None:
        return "timeout"
    if done.returncode == 0:
        return "survived"
    if done.returncode in (1, 2):  # a test failed, or the mutant broke an import (collection interrupted)
        return "killed"
    raise RuntimeError(f"pytest exited {done.returncode} on {mutant}:\n{done.stdout[-1500:]}{done.stderr[-1500:]}")


def run(chosen: list[Mutant], tests: list[str], *, jobs: int, timeout: float) -> dict[Mutant, str]:
    known = equivalents()
    todo = [m for m in chosen if m.key not in known]
    lines = line_tests(tests) if todo else {}
    done: list[Mutant] = []

    def one(mutant: Mutant) -> str:
        result = run_mutant(mutant, _tests_for(mutant, lines), timeout)
        done.append(mutant)
        print(f"[{len(done)}/{len(todo)}] {result:8} {mutant.module}:{mutant.line} {mutant.mutation}", file=sys.stderr,
              flush=True)
        return result

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        results = dict(zip(todo, pool.map(one, todo), strict=True))
    return {m: ("equivalent" if m.key in known else results[m]) for m in chosen}


def report(results: dict[Mutant, str], *, survivors: bool) -> tuple[int, int]:
    """Print the table; (killed, non-equivalent) over all modules."""
    print(f"{'module':28} {'mutants':>7} {'killed':>6} {'survived':>8} {'equiv':>5} {'score':>7}")
    total_killed = total_counted = 0
    for module in TARGETS:
        mine = [s for m, s in results.items() if m.module == module]
        if not mine:
            continue
        killed = sum(s in ("killed", "timeout") for s in mine)
        equivalent = mine.count("equivalent")
        counted = len(mine) - equivalent
        score = f"{100 * killed / counted:.1f}%" if counted else "-"
        print(f"{module:28} {len(mine):7} {killed:6} {mine.count('survived'):8} {equivalent:5} {score:>7}")
        total_killed, total_counted = total_killed + killed, total_counted + counted
    print(f"{'all':28} {len(results):7} {total_killed:6} {list(results.values()).count('survived'):8} "
          f"{list(results.values()).count('equivalent'):5} {100 * total_killed / max(total_counted, 1):6.1f}%")
    if survivors:
        for m, s in sorted(results.items(), key=lambda kv: kv[0].key):
            if s == "survived":
                print(f"SURVIVED {m.module}:{m.line}  {m.mutation}")
    return total_killed, total_counted


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--module", action="append", help="only the targets whose path ends so (repeatable)")
    parser.add_argument("--tests", nargs="+", default=list(DEFAULT_TESTS), help="the test paths to map and run")
    parser.add_argument("--sample", type=int, help="run only this many mutants, drawn with --seed")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", "-j", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per mutant before it counts as killed")
    parser.add_argument("--survivors", action="store_true", help="print each surviving mutant")
    parser.add_argument("--strict", action="store_true", help="exit 1 if any non-equivalent mutant survived")
    parser.add_argument("--json", help="write each mutant's result to this file")
    args = parser.parse_args(argv)
    modules = [m for m in TARGETS if not args.module or any(m.endswith(s) for s in args.module)]
    chosen = [m for module in modules for m in mutants(module)]
    if args.sample is not None and args.sample < len(chosen):
        chosen = sorted(random.Random(args.seed).sample(chosen, args.sample), key=lambda m: m.key)
    results = run(chosen, args.tests, jobs=args.jobs, timeout=args.timeout)
    killed, counted = report(results, survivors=args.survivors)
    if args.json:
        Path(args.json).write_text(json.dumps([{"module": m.module, "line": m.line, "mutation": m.mutation,
                                                "result": s} for m, s in results.items()], indent=1))
    return 1 if args.strict and killed < counted else 0


if __name__ == "__main__":
    sys.exit(main())
