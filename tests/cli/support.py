"""The ``banker`` command as the CLI tests run it (click's runner), and the small game they start from."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from banker_cli.main import cli

#: Two players and one payment: what most CLI tests play first.
GAME = "enrol Alice A1\nenrol Bob B2\ninsert left Alice\ninsert right Bob\npress 2 M\nremove left\nremove right\n"
#: The banker's PIN the tests set.
PIN = "2468"


def banker(*args, env=None, input=None):
    """Run ``banker ARGS`` in this process; the result has ``exit_code`` and ``output``."""
    return CliRunner().invoke(cli, [str(a) for a in args], env=env, input=input)


def a_ledger(tmp_path: Path, name: str = "ledger.db", *, pin: str | None = None) -> Path:
    """A ledger at ``tmp_path/name`` holding :data:`GAME`, with the banker's ``pin`` set when one is given."""
    db = tmp_path / name
    script = tmp_path / "setup.kps"
    script.write_text(GAME)
    assert banker("script", script, "--db", db).exit_code == 0
    if pin:
        assert banker("pin", "set", "--new", pin, "--db", db).exit_code == 0
    return db
