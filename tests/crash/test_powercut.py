"""Every writing operation with the power cut at its crash points: what no fsync had made durable is lost or torn.

tests/crash/powercut.py records each command once and judges the disks a
power cut could leave at each point (only what was durable; all of it, as a
kill leaves it; random mixes with the last write torn), with the kill
harness's checks. The default run samples the points; ``BANKER_POWERCUT_ALL=1``
takes them all. The figures per operation are printed at the end of the session.
"""

import shutil
import sqlite3
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from banker.journal.records import Posting, Transaction
from banker_cli.main import cli
from runtime.ledger import open_ledger
from store import KEEP
from store.backups import latest_good_backup, list_backups
from store.keys import Keyring
from tests.crash.harness import Operation, World, file_print, strace
from tests.crash.powercut import cut_power
from tests.crash.test_crash_backup import BACKUP, backup_rows, previous_backups_hold
from tests.crash.test_crash_keys import KEYS, MOVES, PIN, with_pin
from tests.crash.test_crash_long import LONG
from tests.crash.test_crash_short import PAYMENT, RESTORE
from tests.crash.world import banker, empty, played

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


class StickWorld(World):
    """A world whose config sends every backup to a second folder too, ``stick``: a link to a folder on another
    device (/dev/shm), as a USB stick is (docs/backups.md). Each copy gets a stick of its own."""

    @property
    def stick(self) -> Path:
        return self.folder / "stick"

    def env(self) -> dict[str, str]:
        return {**super().env(), "BANKER_CONFIG": str(self.folder / "banker.toml")}

    def plug(self) -> None:
        target = Path(tempfile.mkdtemp(prefix="banker-stick-", dir="/dev/shm" if Path("/dev/shm").is_dir() else None))
        if self.stick.is_symlink():
            shutil.copytree(self.stick.resolve(), target, dirs_exist_ok=True, copy_function=shutil.copy2)
            self.stick.unlink()
        self.stick.symlink_to(target)
        (self.folder / "banker.toml").write_text(f'[backups]\nsecond_folder = "{self.stick}"\n')

    def copy(self, to: Path) -> World:
        shutil.copytree(self.folder, to, symlinks=True, copy_function=shutil.copy2)
        world = StickWorld(to)
        world.plug()
        return world


def unplug(folder: Path) -> None:
    """Remove the sticks (folders in /dev/shm) the worlds under ``folder`` were given."""
    for link in [p for p in folder.glob("*/stick") if p.is_symlink()]:
        shutil.rmtree(link.resolve(), ignore_errors=True)


def on_a_stick(folder: Path) -> StickWorld:
    """Played, with the rotation full on the card and on the stick (the next backup brings the oldest forward)."""
    played(folder, after_backup=True)
    world = StickWorld(folder)
    world.plug()
    for _ in range(KEEP):
        result = CliRunner(env=world.env()).invoke(cli, ["game", "new", "--db", str(world.ledger)])
        assert result.exit_code == 0, result.output
    assert len(list_backups(world.ledger, world.stick)) == KEEP
    return world


def stick_holds(world: World, pristine: World) -> list[str]:
    """On the card as after any backup (test_crash_backup); on the stick: its other backups untouched and its
    latest good one the one before or one at the ledger's head."""
    problems = previous_backups_hold(world, pristine)
    before = list_backups(pristine.ledger, pristine.stick)
    now = {p.name: p for p in list_backups(world.ledger, world.stick)}
    if [p.name for p in before[:-1] if p.name not in now or file_print(now[p.name]) != file_print(p)]:
        problems.append("backups on the stick other than the oldest changed")
    latest = latest_good_backup(world.ledger, world.stick)
    if latest is None or backup_rows(latest) not in (backup_rows(before[0]), backup_rows(world.ledger)):
        problems.append(f"the latest good backup on the stick ({latest}) is neither the one before nor at the head")
    return problems


def snapshot_due(folder: Path) -> World:
    """A ledger built in bulk: more than SNAPSHOT_EVERY records since its last snapshot, so the next writer's
    open takes one (then the payment)."""
    import runtime.ledger

    world = played(folder)
    close, runtime.ledger.SNAPSHOT_AT_CLOSE = runtime.ledger.SNAPSHOT_AT_CLOSE, 10**9
    try:
        with open_ledger(world.ledger, keyring=Keyring(world.keys), backups=False) as ledger:
            alice, bob = (card.id for card in ledger.game().cards)
            for _ in range(runtime.ledger.SNAPSHOT_EVERY):
                ledger.post(Transaction("transfer", (Posting(alice, bob, 1_000, "transfer"),), "paid"))
    finally:
        runtime.ledger.SNAPSHOT_AT_CLOSE = close
    return world


def old_release(folder: Path) -> World:
    """A ledger of the release before the keyed chain (schema 2), never opened by this one: no keys folder."""
    folder.mkdir(parents=True)
    shutil.copyfile(FIXTURES / "ledger-v2.db", folder / "ledger.db")
    return World(folder)


def snapshot_only(before: list | None, after: list | None) -> list:
    """Cut between the snapshot the open took and the payment: the snapshot (of the game as it was), no payment."""
    return [after[:len(before) + 1]] if before and after and after[len(before)][3] == "snapshot" else []


SNAPSHOT = Operation("snapshot", ["script", "{dir}/pay.kps", "--db", "{db}"],
                     acknowledged=lambda out: "1 transaction posted" in out, between=snapshot_only, finishes=True)
STICK = Operation("backup to a stick", ["game", "new", "--start", "20M", "--db", "{db}"],
                  acknowledged=lambda out: "started" in out, extra=stick_holds)
PIN_CHANGE = Operation("pin change", ["pin", "set", "--new", "1357", "--pin", PIN, "--db", "{db}"],
                       acknowledged=lambda out: "PIN set" in out)
MIGRATION = Operation("migration", ["ledger", "upgrade", "--db", "{db}"],
                      acknowledged=lambda out: "bound into the keyed chain" in out, finishes=True)

OPERATIONS = [
    (PAYMENT, played), (RESTORE, lambda f: played(f, after_backup=True)), (SNAPSHOT, snapshot_due),
    (LONG[0], played), (LONG[1], empty), (LONG[2], played), (STICK, on_a_stick),
    (PIN_CHANGE, with_pin), (MIGRATION, old_release), *KEYS, *MOVES,
]


def full_rotation(folder: Path) -> World:
    world = played(folder, after_backup=True)
    for _ in range(KEEP):
        banker(world, "game", "new")
    return world


OPERATIONS.insert(3, (BACKUP, full_rotation))


def test_the_snapshot_world_takes_a_snapshot_on_open(tmp_path):
    """The snapshot operation is one: the payment's open appends a snapshot before the payment."""
    world = snapshot_due(tmp_path / "w")
    banker(world, "script", str(world.folder / "pay.kps"))
    kinds = [k for k, in sqlite3.connect(world.ledger).execute("SELECT kind FROM journal ORDER BY seq DESC LIMIT 2")]
    assert kinds == ["tx", "snapshot"]


@pytest.mark.parametrize("operation,start", OPERATIONS, ids=[op.name for op, _ in OPERATIONS])
def test_a_power_cut_at_any_point_leaves_a_ledger_that_verifies_before_or_after(operation, start, tmp_path):
    strace()
    try:
        report = cut_power(operation, start(tmp_path / "pristine"), tmp_path)
    finally:
        unplug(tmp_path)
    print(f"{operation.name}: {report.ops} changes, {report.points} points, {report.states} states, "
          f"{report.held} held")
    assert report.states > 0
    assert not report.failures, "\n".join(report.failures)
