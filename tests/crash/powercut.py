"""Cut the power under a ``banker`` command: what the kernel had not made durable is lost, not only the process.

A kill (tests/crash/harness.py) never loses a write the kernel had in its
page cache, so it can't find a missing fsync. This harness, after ALICE and
CrashMonkey, records the command once under ``strace -f -y -xx`` in a copy
of its world (tests/crash/trace.py reads the log as the changes asked of
the file system) and then, at each crash point k (before the k-th change),
builds the disks a power cut could leave:

- *durable*: only what a sync had made durable by k (a content change once
  its inode was fsynced, a directory entry once its folder was fsynced);
- *kill*: everything asked before k (what a SIGKILL leaves);
- *mixed*: seeded random subsets of the changes not yet durable, kept in
  their order, the last write kept torn to a prefix of its 512-byte sectors.

Each state is written out in a folder of its own and judged by the kill
harness's :func:`~tests.crash.harness.check_world` (the ledger verifies, its
journal is the one before or after, and the one after once the command had
printed its acknowledgement: a state cut after that write to stdout must
keep the work) and the operation's own ``extra`` check. States alike in
every byte are judged once. The default run samples the crash points
(:data:`SAMPLE`); ``BANKER_POWERCUT_ALL=1`` takes every point and more
random subsets. Figures per operation: :func:`summary` (the session's end),
``python -m tests.crash.powercut`` (every point of every operation).
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from tests.crash.harness import Operation, World, check_world, journal, strace
from tests.crash.trace import CONTENT, ENTRIES, SECTOR, TRACED, Disk, Op, Parser, digest, durable_at, write_out

ALL_ENV = "BANKER_POWERCUT_ALL"
#: Crash points per operation in the default run (evenly spread over those after a sync, a rename or a print).
SAMPLE = 6
#: Random subsets of the changes not yet durable, per crash point (default run, whole run).
MIXED, MIXED_ALL = 1, 3
WORKERS = 2

#: name -> (changes recorded, crash points, states judged, held), for the session summary.
RESULTS: dict[str, tuple[int, int, int, int]] = {}


@dataclass
class Report:
    name: str
    ops: int
    points: int = 0
    states: int = 0
    held: int = 0
    failures: list[str] = field(default_factory=list)


@dataclass
class Recording:
    ops: list[Op]
    durable: list[int | None]
    ack: int | None  # the index of the write to stdout after which the command had said its work was done
    root: str


def record(operation: Operation, pristine: World, scratch: Path) -> tuple[Recording, World]:
    """Run ``operation`` once in a copy of ``pristine`` under strace; its changes, and the world it left."""
    tracer = strace()
    world = pristine.copy(scratch / "p000000")
    log = scratch / "record.strace"
    done = subprocess.run([tracer, "-f", "-qq", "-y", "-xx", "-s", "16777216", "-e", "abbrev=none", "-o", str(log),
                           "-e", f"trace={TRACED}", *operation.argv(world)],
                          capture_output=True, text=True, env=world.env(), cwd=world.folder)
    assert done.returncode == 0, f"{operation.name} failed: {done.stdout}{done.stderr}"
    assert operation.acknowledged(done.stdout), done.stdout
    root = str(world.folder.resolve())
    disk = Disk(pristine.folder, root)
    links = {str(p.resolve()): f"{root}/{p.name}" for p in world.folder.iterdir() if p.is_symlink() and p.is_dir()}
    parser = Parser(root, dict(disk.names), set(disk.dirs), disk.sizes(), aliases=links)
    with log.open(errors="replace") as lines:
        for line in lines:
            parser.line(line)
    ops = parser.ops
    printed, ack = b"", None
    for i, op in enumerate(ops):
        if op.kind == "stdout":
            printed += op.data
            if ack is None and operation.acknowledged(printed.decode(errors="replace")):
                ack = i
    if ack is None and operation.acknowledged(done.stdout):  # said nothing (an export to a file): done at exit
        ack = len(ops) - 1
    assert ack is not None, "the acknowledgement was not seen in the trace"
    return Recording(ops, durable_at(ops), ack, root), world


def crash_points(rec: Recording, every: bool) -> list[int]:
    """Where to cut (before change k): all of them, or a sample spread over those after a sync, a change of
    a directory entry or a print (where what a cut keeps changes most), the very end always in."""
    n = len(rec.ops)
    if every:
        return list(range(n + 1))
    found = [k for k in range(1, n + 1) if rec.ops[k - 1].kind in ("sync", "stdout", *ENTRIES)]
    if len(found) > SAMPLE:
        step = (len(found) - 1) / (SAMPLE - 1)
        found = [found[round(i * step)] for i in range(SAMPLE)]
    return sorted({*found, n})


def states_at(rec: Recording, k: int, rng: random.Random, mixed: int) -> list[tuple[str, list[Op], int | None]]:
    """The disks a cut before change k may leave: (what it is, the changes kept in order, a torn last write)."""
    changes = [i for i in range(k) if rec.ops[i].kind in (*CONTENT, *ENTRIES)]
    kept = [i for i in changes if rec.durable[i] is not None and rec.durable[i] < k]
    loose = [i for i in changes if i not in set(kept)]
    states = [("durable", kept, None), ("kill", changes, None)]
    for n in range(mixed):
        chosen = sorted([*kept, *(i for i in loose if rng.random() < 0.5)])
        last = next((i for i in reversed(chosen) if i in set(loose)), None)
        torn = None
        if last is not None and rec.ops[last].kind == "write" and len(rec.ops[last].data) > SECTOR:
            chosen = [i for i in chosen if i <= last]  # the torn write is the last kept
            torn = rng.randrange(len(rec.ops[last].data) // SECTOR + (len(rec.ops[last].data) % SECTOR > 0))
        states.append((f"mixed {n}", chosen, torn))
    return [(name, [rec.ops[i] for i in chosen], torn) for name, chosen, torn in states]


def cut_power(operation: Operation, pristine: World, scratch: Path, *, every: bool | None = None,
              seed: int = 1) -> Report:
    """Record ``operation`` in ``pristine`` (a copy), then judge the disks a power cut could leave at its points."""
    every = bool(os.environ.get(ALL_ENV)) if every is None else every
    before = journal(pristine.ledger)
    rec, whole = record(operation, pristine, scratch)
    after = journal(whole.ledger)
    disk = Disk(pristine.folder, rec.root)
    rng = random.Random(seed)
    report = Report(operation.name, sum(op.kind != "stdout" for op in rec.ops))
    judged: dict[tuple[str, bool], list[str]] = {}
    jobs: list[tuple[str, bool, dict, str]] = []
    for k in crash_points(rec, every):
        report.points += 1
        acked = k > rec.ack
        for name, ops, torn in states_at(rec, k, rng, MIXED_ALL if every else MIXED):
            state = disk.state(ops, torn)
            key = (digest(state), acked)
            if key not in judged:
                judged[key] = []
                jobs.append((f"cut before change {k}/{len(rec.ops)} ({name}{'' if torn is None else f', torn at sector {torn}'}"
                             f"{', acknowledged' if acked else ''})", acked, state, key[0]))
    kind = type(pristine)

    def judge(job: tuple[str, bool, dict, str], n: int) -> tuple[str, list[str]]:
        label, acked, state, _ = job
        world = kind(scratch / f"p{n:06d}")
        write_out(state, rec.root, world.folder)

        def again() -> subprocess.CompletedProcess:
            return subprocess.run(operation.argv(world), capture_output=True, text=True, env=world.env(),
                                  cwd=world.folder)

        problems = check_world(world, before, after, acked, again=again, finishes=operation.finishes,
                               between=operation.between(before, after) if operation.between else None)
        if operation.extra:
            problems += operation.extra(world, pristine)
        if not problems:
            shutil.rmtree(world.folder, ignore_errors=True)
        return label, problems

    with ThreadPoolExecutor(WORKERS) as pool:
        for label, problems in pool.map(judge, jobs, range(1, len(jobs) + 1)):
            report.states += 1
            if problems:
                report.failures.append(f"{label}: " + "; ".join(problems))
            else:
                report.held += 1
    RESULTS[operation.name] = (report.ops, report.points, report.states, report.held)
    return report


def summary() -> list[str]:
    return [f"power cuts {name}: {ops} changes recorded, {points} crash points, {states} states judged, {held} held"
            for name, (ops, points, states, held) in sorted(RESULTS.items())]
