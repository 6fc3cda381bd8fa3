"""A seeded sample of the mutation run (benchmarks/mutation.py): each sampled mutant of the core is killed.

A mutant is the money-critical core with one operator or constant changed
(``after < 0`` made ``after <= 0``, ``or`` made ``and``...). The sample runs
against the edge tests and the rules' and fold's tests, in a child process of
its own; ``BANKER_MUTATION_ALL=1`` runs every mutant against the default test
folders instead (some 30 minutes on 2 cores) and asks 97% of the non-equivalent
ones killed. The equivalent mutants are listed, with why, in
``benchmarks/mutation_equivalents.toml``.
"""

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "mutation.py"
SAMPLE, SEED = 24, 32
SAMPLE_TESTS = ["tests/edges", "tests/rules/test_money.py", "tests/rules/test_rules_buildings.py",
                "tests/rules/test_rules_mortgages.py", "tests/rules/test_rules_buy_rent.py", "tests/fold"]


def _mutation():
    spec = importlib.util.spec_from_file_location("mutation_tool", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[spec.name]
    return module


def _run(*args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("BANKER_MUTA")}
    return subprocess.run([sys.executable, str(SCRIPT), "--survivors", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=3000)


def test_every_sampled_mutant_of_the_core_is_killed():
    if os.environ.get("BANKER_MUTATION_ALL") == "1":
        done = _run()
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
        score = float(done.stdout.splitlines()[[i for i, line in enumerate(done.stdout.splitlines())
                                                 if line.startswith("all ")][0]].split()[-1].rstrip("%"))
        assert score >= 97.0, done.stdout
        return
    done = _run("--sample", str(SAMPLE), "--seed", str(SEED), "--strict", "--tests", *SAMPLE_TESTS)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "SURVIVED" not in done.stdout
    assert done.stdout.splitlines()[-1].startswith("all ") and f" {SAMPLE} " in done.stdout.splitlines()[-1]


def test_each_listed_equivalent_mutant_is_one_the_run_makes_and_says_why():
    """A stale entry (its line moved or the code changed) would hide nothing, but would count wrongly: none is."""
    tool = _mutation()
    made = {m.key for module in tool.TARGETS for m in tool.mutants(module)}
    listed = tool.equivalents()
    assert set(listed) <= made, sorted(set(listed) - made)
    assert all(len(why) > 20 for why in listed.values())


def test_a_mutant_is_made_again_the_same_from_its_number():
    tool = _mutation()
    found = tool.mutants("banker/fold/game.py")
    check = next(m for m in found if m.mutation == "after < 0 -> after <= 0")
    source = compile(tool.mutated_tree(check.module, check.index), check.module, "exec")
    assert source.co_filename == check.module
    assert {m.module for module in tool.TARGETS for m in tool.mutants(module)} == set(tool.TARGETS)
