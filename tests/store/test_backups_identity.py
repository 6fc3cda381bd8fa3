"""A backup is its ledger's: a restore verifies the whole chain it brings in, and the rotation, the listing and
``--backup latest`` go by the ledger id inside each file, never by its name."""

import sqlite3
from pathlib import Path

from click.testing import CliRunner

from banker_cli.main import cli
from store import list_backups
from tests.crash.harness import World, verify
from tests.crash.world import banker, played


def rows(path: Path) -> list[tuple]:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return conn.execute("SELECT seq, body, hash FROM journal ORDER BY seq").fetchall()
    finally:
        conn.close()


def run(world: World, *args: str):
    return CliRunner(env={"BANKER_KEY_DIR": str(world.keys)}).invoke(cli, [*args, "--db", str(world.ledger)])


def test_a_backup_edited_inside_is_refused_by_a_restore_while_its_key_is_here(tmp_path):
    world = played(tmp_path / "w", after_backup=True)
    backup = list_backups(world.ledger)[0]
    conn = sqlite3.connect(backup)
    with conn:  # Bob's 1M to the bank (a row in the middle of the chain) tripled, its hash left as it was
        changed = conn.execute("UPDATE journal SET body = replace(body, '1000000', '3000000') "
                               "WHERE kind = 'tx' AND body LIKE '%Bob paid bank%'").rowcount
    conn.close()
    assert changed
    before = rows(world.ledger)
    result = run(world, "game", "restore", "--backup", str(backup))
    assert result.exit_code == 3, result.output
    assert "doesn't verify" in result.output and "nothing was changed" in result.output
    assert rows(world.ledger) == before
    assert verify(world)[0] == 0


def test_a_whole_backup_is_still_restored(tmp_path):
    world = played(tmp_path / "w", after_backup=True)
    backup = list_backups(world.ledger)[0]
    banker(world, "game", "restore", "--backup", str(backup))
    assert rows(world.ledger) == rows(backup)
    assert verify(world)[0] == 0
