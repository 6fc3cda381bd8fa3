"""The worlds the crash tests start from: a ledger played a little, its backups and its keys, in one folder."""

import os
from pathlib import Path

from click.testing import CliRunner

from banker_cli.main import cli
from tests.crash.harness import World

GAME = "enrol Alice A1\nenrol Bob B2\ninsert left Alice\ninsert right Bob\npress 2 M\npress 5 0 0 K\nremove left\npress 1 M\n"
PAY = "insert left Alice\npress 9 M\n"


def banker(world: World, *args: str) -> str:
    result = CliRunner(env={"BANKER_KEY_DIR": str(world.keys)}).invoke(cli, [*args, "--db", str(world.ledger)])
    assert result.exit_code == 0, result.output
    return result.output


def play(world: World, name: str, text: str) -> None:
    script = world.folder / name
    script.write_text(text)
    banker(world, "script", str(script))


def played(folder: Path, *, after_backup: bool = False) -> World:
    """Two players and a payment; with ``after_backup``, a new game (its backup) and a payment after it."""
    folder.mkdir(parents=True)
    world = World(folder)
    (folder / "pay.kps").write_text(PAY)
    play(world, "game.kps", GAME)
    if after_backup:
        play(world, "new.kps", "hold C 3\n")
        play(world, "pay.kps", PAY)
    os.sync()
    return world


def empty(folder: Path) -> World:
    """No ledger yet (a fresh card): the keys folder isn't there either."""
    folder.mkdir(parents=True)
    return World(folder)
