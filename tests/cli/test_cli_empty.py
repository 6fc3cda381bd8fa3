"""What the CLI says when there is nothing to list, and a port another program holds (docs/cli.md)."""

import shutil
import socket

from tests.cli.support import banker


def _fresh_ledger(tmp_path):
    script = tmp_path / "volume.kps"
    script.write_text("press .\n")  # a ledger with a setting and no transaction
    db = tmp_path / "empty.db"
    assert banker("script", script, "--db", db).exit_code == 0
    return db


def test_ledger_show_of_a_game_with_no_transactions_says_so(tmp_path):
    result = banker("ledger", "show", "--db", _fresh_ledger(tmp_path))
    assert result.exit_code == 0
    assert result.stdout == ""
    assert "game 1 has no transactions yet" in result.stderr


def test_game_backups_with_none_says_so(tmp_path):
    db = _fresh_ledger(tmp_path)
    shutil.rmtree(tmp_path / "backups", ignore_errors=True)
    result = banker("game", "backups", "--db", db)
    assert result.exit_code == 0
    assert result.stdout == ""
    assert "no backups of" in result.stderr and "yet" in result.stderr


def test_banker_web_on_a_port_another_program_holds_exits_3(tmp_path):
    db = _fresh_ledger(tmp_path)
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        result = banker("web", "--db", db, "--host", "127.0.0.1", "--port", port)
    assert result.exit_code == 3
    assert "cannot listen on 127.0.0.1:" in result.stderr
