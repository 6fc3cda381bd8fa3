"""The key's acts killed at every file-system call: a key import, an adoption, a restore onto a fresh card (an
adoption too), the PIN verifier's upgrade, and the keys folder's move from the config folder to the state folder
(one rename, or file by file when both are there).

The import is killed at every point; the others (40 to 85 calls each, two runs of the CLI per point) at an
evenly spread sample in the default run, at every point with ``BANKER_CRASH_ALL=1``. They are acts that running them again finishes
(tests/crash/harness.py ``finishes``): after a kill the world is the one after and verifies, or running the
same command again succeeds and leaves the one after, verifying. The counts are printed at the end of the session.
"""

import json
import shutil
from pathlib import Path

import pytest

from banker.fold.authority import hash_pin
from banker.journal.records import PinChange
from runtime.ledger import open_ledger
from store.backups import copy_database
from store.keys import Keyring
from tests.crash.harness import Operation, World, crash_every_call, file_print, sample, strace
from tests.crash.world import banker, played

PIN = "2468"


def with_pin(folder: Path) -> World:
    world = played(folder)
    banker(world, "pin", "set", "--new", PIN)
    return world


def key_elsewhere(folder: Path) -> World:
    """A machine without the ledger's key, the key exported to ``key.txt`` beside the ledger."""
    world = played(folder)
    banker(world, "key", "export", "-o", str(folder / "key.txt"))
    shutil.rmtree(world.keys)
    return world


def key_lost(folder: Path) -> World:
    """A ledger with a PIN whose key is gone (copied or restored onto a new card)."""
    world = with_pin(folder)
    shutil.rmtree(world.keys)
    return world


def fresh_card(folder: Path) -> World:
    """A backup (``backup.db``, PIN set) and nothing else: no ledger, no keys folder."""
    world = with_pin(folder)
    copy_database(world.ledger, folder / "backup.db")
    for gone in (world.ledger, world.keys, folder / "backups"):
        shutil.rmtree(gone) if gone.is_dir() else gone.unlink()
    return world


def old_verifier(folder: Path) -> World:
    """A ledger whose PIN is an older release's verifier (salted, not peppered with the key)."""
    world = played(folder)
    with open_ledger(world.ledger, keyring=Keyring(world.keys), backups=False) as ledger:
        ledger.store.append(PinChange(hash_pin(PIN, b"old-salt-16bytes"), time=1.0))
    return world


def key_kept_whole(world: World, pristine: World) -> list[str]:
    """The key file is the exported key, or absent: never another or a cut one."""
    text = (pristine.folder / "key.txt").read_text().strip()
    ledger_id, key = text.split(":")[2:]
    found = world.keys / f"{ledger_id}.key"
    return [] if not found.exists() or found.read_text().strip() == key else ["a key file that isn't the exported key"]


def backup_untouched(world: World, pristine: World) -> list[str]:
    return [] if file_print(world.folder / "backup.db") == file_print(pristine.folder / "backup.db") else [
        "the backup restored from was changed"]


def verifier_upgraded_only(before: list | None, after: list | None) -> list:
    """Killed between the verifier's upgrade and the enrolment: the PIN (the same) re-journalled, no card yet."""
    return [after[:len(before) + 1]] if before and after and after[len(before)][3] == "pin" else []


KEYS = [
    (Operation("key import", ["key", "import", "{dir}/key.txt"], acknowledged=lambda out: "is kept in" in out,
               finishes=True, extra=key_kept_whole), key_elsewhere),
    (Operation("key adopt", ["key", "adopt", "--pin", PIN, "--db", "{db}"],
               acknowledged=lambda out: out.startswith("adopted "), finishes=True, sampled=True), key_lost),
    (Operation("restore onto a fresh card", ["game", "restore", "--backup", "{dir}/backup.db", "--pin", PIN,
                                             "--db", "{db}"],
               acknowledged=lambda out: out.startswith("restored "), finishes=True, extra=backup_untouched,
               sampled=True),
     fresh_card),
    (Operation("pin upgrade", ["cards", "enrol", "Zed", "--uid", "0A0B", "--pin", PIN, "--db", "{db}"],
               acknowledged=lambda out: out.startswith("enrolled"), finishes=True, between=verifier_upgraded_only,
               sampled=True),
     old_verifier),
]


class XdgWorld(World):
    """A world with no $BANKER_KEY_DIR: the keys folder is the XDG one, under the world's own config and state."""

    @property
    def old_keys(self) -> Path:
        return self.folder / "config" / "monopoly-banker" / "keys"

    @property
    def keys(self) -> Path:
        return self.folder / "state" / "monopoly-banker" / "keys"

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in super().env().items() if k != "BANKER_KEY_DIR"}
        return {**env, "XDG_CONFIG_HOME": str(self.folder / "config"), "XDG_STATE_HOME": str(self.folder / "state")}

    def copy(self, to: Path) -> World:
        shutil.copytree(self.folder, to, symlinks=True, copy_function=shutil.copy2)
        return XdgWorld(to)


def keys_in_the_old_place(folder: Path) -> XdgWorld:
    """An earlier release's machine: the ledger (PIN set) with its key, anchor and PIN in ~/.config's folder."""
    world = with_pin(folder)
    xdg = XdgWorld(folder)
    xdg.old_keys.parent.mkdir(parents=True)
    world.keys.rename(xdg.old_keys)
    return xdg


def keys_in_both_places(folder: Path) -> XdgWorld:
    """The old folder and a new one already holding another ledger's key and registry entry: merged file by file."""
    world = keys_in_the_old_place(folder)
    other = Keyring(world.keys)
    other.new_key("other1")
    other.register(folder / "other.db", "other1")
    return world


def no_key_lost(world: World, pristine: World) -> list[str]:
    """After the kill and a run since: every file of both places is in the new one, whole; the old one gone."""
    problems = [f"{world.old_keys} is still there"] if world.old_keys.exists() else []
    wanted = {p.name: p.read_bytes() for folder in (pristine.keys, pristine.old_keys) if folder.is_dir()
              for p in folder.iterdir() if p.name != "ledgers.json"}
    for name, data in wanted.items():
        found = world.keys / name
        if not found.is_file() or found.read_bytes() != data:
            problems.append(f"{name} is {'cut or another' if found.exists() else 'lost'}")
    registry = json.loads((world.keys / "ledgers.json").read_text())
    if not {"other1", *(k.removesuffix(".key") for k in wanted if k.endswith(".key"))} >= set(registry.values()):
        problems.append(f"the registry lost a ledger: {registry}")
    # a temporary file a killed write left (".<name>.<pid>.<random>.tmp") is never read as a key, and the next
    # writer's open removes it (store.backups.clean_stale_files, tests/crash/test_crash_files.py), as after any key write
    modes = [p.name for p in [world.keys, *world.keys.iterdir()] if p.stat().st_mode & 0o077]
    return problems + [f"{name} is open to others" for name in modes]


MOVES = [
    (Operation("keys folder moved", ["key", "export", "-o", "{dir}/exported.txt", "--db", "{db}"],
               acknowledged=lambda out: "is in" in out, finishes=True, extra=no_key_lost), keys_in_the_old_place),
    (Operation("keys folders merged", ["key", "export", "-o", "{dir}/exported.txt", "--db", "{db}"],
               acknowledged=lambda out: "is in" in out, finishes=True, extra=no_key_lost, sampled=True),
     keys_in_both_places),
]


@pytest.mark.parametrize("operation,start", KEYS + MOVES, ids=[op.name for op, _ in KEYS + MOVES])
def test_a_key_act_killed_at_any_call_is_finished_by_running_it_again(operation, start, tmp_path):
    strace()
    report = crash_every_call(operation, start(tmp_path / "pristine"), tmp_path)
    print(f"{operation.name}: {report.enumerated} calls, {report.killed} killed, {report.held} held")
    assert report.killed == len(sample(list(range(report.enumerated)), operation.sampled))
    assert not report.failures, "\n".join(report.failures)
