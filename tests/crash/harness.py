"""Kill a ``banker`` command at each of its file-system calls, the way SQLite's crash tests do, and check what is left.

An operation is a ``banker ...`` command run in a subprocess in a world of
its own (a folder with the ledger, its backups and the keys folder). The
harness first runs it whole under ``strace -f`` to enumerate the calls that
change what is on disk (writes, syncs, renames, unlinks, truncations, mkdir,
chmod: a call that only reads leaves the disk as the last change did, so
killing there adds no state), then, for each point N in turn, runs it again
in a fresh copy of the world with ``-e inject=<calls>:signal=SIGKILL:when=N``
(strace's fault injection: the process is killed on entering the Nth call,
named by its system call and its count among the calls of that name, before
the call runs). After each kill :func:`check_world` decides
whether the point held: the ledger verifies, its journal is the one before
or the one after, and a command that acknowledged its work (printed it and
exited 0) left the one after. All the checks live in :func:`check_world`,
so a change of what "held" means (an "accept"/"adopt" state) is one edit.

``BANKER_CRASH_ALL=1`` kills at every point of every operation; otherwise
the long operations are sampled (:data:`SAMPLE`). The counts are printed at
the end of the test session (tests/conftest.py hooks :func:`summary`).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: The calls that change the disk (``?``: not an error where the architecture lacks one, e.g. rename on arm64).
MUTATING = ("write", "pwrite64", "writev", "pwritev", "pwritev2", "fsync", "fdatasync", "sync_file_range",
            "rename", "renameat", "renameat2", "unlink", "unlinkat", "ftruncate", "truncate", "mkdir", "mkdirat",
            "rmdir", "chmod", "fchmod", "fchmodat", "link", "linkat", "symlink", "symlinkat", "fallocate")
CALLS = ",".join(f"?{name}" for name in MUTATING)
#: Points killed per long operation in the default run (evenly spread, the first and last always in).
SAMPLE = 24
ALL_ENV = "BANKER_CRASH_ALL"
#: How a test runs the CLI in a subprocess (the installed ``banker`` script does just this).
BANKER = (sys.executable, "-c", "from banker_cli.main import cli; cli(prog_name='banker')")
WORKERS = 2

#: name -> (calls enumerated, points killed, points held), for the session summary.
RESULTS: dict[str, tuple[int, int, int]] = {}


def strace() -> str:
    """The strace binary; a clear failure in CI (CI=true) when missing, a skip on a developer's machine."""
    found = shutil.which("strace")
    if found is None:
        message = ("the crash tests need strace (Debian package 'strace', installed by .ci/run): "
                   "apt-get install strace")
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(message)
        pytest.skip(message)
    probe = subprocess.run([found, "-f", "-qq", "-o", os.devnull, "-e", "trace=none", "true"],
                           capture_output=True, text=True)
    if probe.returncode != 0:
        pytest.fail(f"strace can't trace here (ptrace refused?): {probe.stderr.strip()}")
    return found


@dataclass
class World:
    """A folder holding a ledger, its backups and the keys folder: where one run happens."""

    folder: Path

    @property
    def ledger(self) -> Path:
        return self.folder / "ledger.db"

    @property
    def keys(self) -> Path:
        return self.folder / "keys"

    def env(self) -> dict[str, str]:
        return dict(os.environ, BANKER_KEY_DIR=str(self.keys), PYTHONPATH=str(ROOT), PYTHONDONTWRITEBYTECODE="1",
                    COLUMNS="200")

    def copy(self, to: Path) -> World:
        shutil.copytree(self.folder, to, symlinks=True, copy_function=shutil.copy2)
        return World(to)


@dataclass
class Operation:
    """A command to crash: ``args`` after ``banker`` (``{db}`` and ``{dir}`` filled in), and its checks.

    ``acknowledged(stdout)``: the output says the work is done. ``extra(world, before)``: problems beyond
    the ledger's (the backup read was changed, a stray file), given the pristine world.
    """

    name: str
    args: list[str]
    acknowledged: Callable[[str], bool]
    sampled: bool = False
    extra: Callable[[World, World], list[str]] | None = None
    #: Running it again finishes what a kill cut short (an import, an adoption): after a kill the world is
    #: the one after and verifies, or (the one before, or a documented state between) running it again
    #: succeeds and leaves the one after, verifying.
    finishes: bool = False
    #: Journals allowed between before and after, from (before, after): e.g. the PIN's verifier upgraded,
    #: the act it came with not done (the same PIN, nothing acknowledged lost).
    between: Callable[[list | None, list | None], list] | None = None

    def argv(self, world: World) -> list[str]:
        return [*BANKER, *(a.format(db=world.ledger, dir=world.folder) for a in self.args)]


@dataclass
class Report:
    name: str
    enumerated: int
    killed: int = 0
    held: int = 0
    failures: list[str] = field(default_factory=list)


def journal(path: Path) -> list[tuple] | None:
    """The journal's rows as (entry, game, transaction, kind), None when the file isn't a readable ledger.

    A rerun stamps its rows with another time and salt; whether the chain holds is verify's to say."""
    if not path.exists():
        return None
    try:
        conn = sqlite3.connect(path)  # read-write: a hot journal or WAL is recovered, as the unit would
        try:
            return conn.execute("SELECT seq, game, tx, kind FROM journal ORDER BY seq").fetchall()
        finally:
            conn.close()
    except sqlite3.Error:
        return None


def verify(world: World) -> tuple[int, str]:
    result = subprocess.run([*BANKER, "ledger", "verify", "--db", str(world.ledger)],
                            capture_output=True, text=True, env=world.env(), cwd=world.folder)
    return result.returncode, (result.stdout + result.stderr).strip()


def check_world(world: World, before: list | None, after: list | None, acknowledged: bool,
                again: Callable[[], subprocess.CompletedProcess] | None = None, finishes: bool = False,
                between: list | None = None) -> list[str]:
    """Why the world left by a kill is not acceptable ([] when it held). The one place that says what 'held' is.

    Held: ``banker ledger verify`` exits 0, and the journal is the one before or the one after (the one after
    if the command acknowledged its work). Where there was no ledger before (a fresh card), a kill may leave
    none, a file without a journal or only the new ledger's opening rows: then running the command ``again``
    must work and leave one that verifies. An operation that ``finishes`` on a rerun (key import, adoption,
    a restore onto a fresh card, a PIN upgrade): a world killed before it is whole (``between`` lists the
    journals allowed on the way) must be finished by running the command ``again``.
    """
    state = journal(world.ledger)
    if finishes and not acknowledged and again is not None:
        if state not in (before, after, *(between or [])):
            return [f"the journal is neither before, between nor after ({None if state is None else len(state)} rows)"]
        if state == after and verify(world)[0] == 0:
            return []
        rerun = again()
        if rerun.returncode != 0:
            return [f"cut short ({'no ledger' if state is None else f'{len(state)} rows'}), and running it again "
                    f"failed (exit {rerun.returncode}): {(rerun.stdout + rerun.stderr).strip()[-300:]}"]
        acknowledged, state = True, journal(world.ledger)
    if (before is None and not acknowledged and again is not None
            and (not state or (len(state) < len(after or []) and state == (after or [])[:len(state)]))):
        rerun = again()
        if rerun.returncode != 0:
            return [f"nothing was written, and running it again failed (exit {rerun.returncode}): "
                    f"{(rerun.stdout + rerun.stderr).strip()[-300:]}"]
        state = journal(world.ledger)
        before = state  # what the rerun wrote is checked below like any ledger
    problems = []
    code, said = verify(world)
    if code != 0:
        problems.append(f"verify exit {code}: {said[-300:]}")
    if acknowledged and state != after:
        problems.append("acknowledged, but the journal is not the one after")
    elif state not in (before, after):
        problems.append(f"the journal is neither before nor after ({None if state is None else len(state)} rows)")
    return problems


def kill_points(log: Path) -> list[tuple[str, int]]:
    """Each call of the set as (name, its number among that thread's calls of that name), in order, once each.

    strace's ``when=`` counts the calls of each name apart, per thread: the Nth call in all is named by
    its system call and that count.
    """
    seen: Counter = Counter()
    found: list[tuple[str, int]] = []
    for line in log.read_text().splitlines():
        parts = line.split(None, 1)
        if len(parts) < 2 or not parts[0].isdigit() or parts[1].startswith(("<...", "+++", "---")):
            continue
        name = parts[1].split("(", 1)[0]
        seen[parts[0], name] += 1
        point = (name, seen[parts[0], name])
        if point not in found:
            found.append(point)
    return found


def sample(found: list, sampled: bool) -> list:
    if not sampled or len(found) <= SAMPLE or os.environ.get(ALL_ENV):
        return found
    step = (len(found) - 1) / (SAMPLE - 1)
    return [found[i] for i in sorted({round(i * step) for i in range(SAMPLE)})]


def crash_every_call(operation: Operation, pristine: World, scratch: Path) -> Report:
    """Enumerate ``operation``'s calls in ``pristine`` (a copy of it), then kill at each (or a sample) and check."""
    tracer = strace()
    before = journal(pristine.ledger)
    whole = pristine.copy(scratch / "whole")
    log = scratch / "whole.strace"
    done = subprocess.run([tracer, "-f", "-qq", "-o", str(log), "-e", f"trace={CALLS}", *operation.argv(whole)],
                          capture_output=True, text=True, env=whole.env(), cwd=whole.folder)
    assert done.returncode == 0, f"{operation.name} failed without a kill: {done.stdout}{done.stderr}"
    assert operation.acknowledged(done.stdout), done.stdout
    after = journal(whole.ledger)
    found = kill_points(log)
    report = Report(operation.name, len(found))
    clean = check_world(whole, before, after, True) + (operation.extra(whole, pristine) if operation.extra else [])
    if clean:
        report.failures.append("without a kill: " + "; ".join(clean))

    def kill_at(point: tuple[str, int]) -> tuple[str, bool, list[str]]:
        call, n = point
        world = pristine.copy(scratch / f"kill-{call}-{n}")
        run = subprocess.run([tracer, "-f", "-qq", "-o", os.devnull, "-e", f"trace={CALLS}",
                              "-e", f"inject={call}:signal=SIGKILL:when={n}", *operation.argv(world)],
                             capture_output=True, text=True, env=world.env(), cwd=world.folder)
        killed = run.returncode in (-9, 137)
        acked = run.returncode == 0 and operation.acknowledged(run.stdout)
        problems = check_world(world, before, after, acked, again=lambda: subprocess.run(
            operation.argv(world), capture_output=True, text=True, env=world.env(), cwd=world.folder),
            finishes=operation.finishes, between=operation.between(before, after) if operation.between else None)
        if operation.extra:
            problems += operation.extra(world, pristine)
        if not problems:
            shutil.rmtree(world.folder, ignore_errors=True)
        return f"{call} #{n}", killed, problems

    with ThreadPoolExecutor(WORKERS) as pool:
        for n, killed, problems in pool.map(kill_at, sample(found, operation.sampled)):
            report.killed += killed
            if problems:
                report.failures.append(f"killed at {n}: " + "; ".join(problems))
            else:
                report.held += killed
    RESULTS[operation.name] = (report.enumerated, report.killed, report.held)
    return report


def file_print(path: Path) -> tuple[int, str] | None:
    """A file's mtime and content hash (None when it is gone): 'untouched' means equal prints."""
    try:
        return path.stat().st_mtime_ns, hashlib.sha256(path.read_bytes()).hexdigest()
    except FileNotFoundError:
        return None


def summary() -> list[str]:
    return [f"crash points {name}: {calls} calls enumerated, {killed} points killed, {held} held"
            for name, (calls, killed, held) in sorted(RESULTS.items())]
