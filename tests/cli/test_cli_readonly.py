"""Read-only commands never create a ledger, nor any file beside one (docs/cli.md, "Which ledger, which config").

Each runs with the home folder, the XDG folders and the keys folder in ``tmp_path``: with no ledger it says so
(or, like ``deeds list``, needs none), and either way it leaves no file or folder that was not there before.
"""

from __future__ import annotations

import pytest

from store.keys import KEY_ENV
from tests.cli.support import GAME, banker

#: Every command that only reads (the audit of banker_cli): (its words, exit code without a ledger).
READERS = [
    (["cards", "list"], 3),
    (["game", "list"], 3),
    (["game", "show"], 3),
    (["game", "show", "--json"], 3),
    (["game", "backups"], 3),
    (["deeds", "list"], 0),  # the edition's deeds need no ledger
    (["deeds", "list", "--json"], 0),
    (["deeds", "list", "--edition", "us"], 0),
    (["ledger", "show"], 3),
    (["ledger", "export", "--format", "csv"], 3),
    (["ledger", "export", "--format", "json"], 3),
    (["ledger", "verify"], 3),
    (["key", "export", "--qr"], 3),
    (["key", "export", "-o", "exported.key"], 3),
    (["doctor", "--backend", "hw-sim"], 0),
    (["web", "--port", "0"], 3),
]


@pytest.fixture
def home(tmp_path, monkeypatch):
    """The user's folders, all in ``tmp_path`` (made empty), and the commands run from there."""
    for name, sub in (("HOME", "home"), ("XDG_DATA_HOME", "data"), ("XDG_CONFIG_HOME", "config"),
                      ("XDG_STATE_HOME", "state"), ("XDG_CACHE_HOME", "cache"), (KEY_ENV, "keys")):
        monkeypatch.setenv(name, str(tmp_path / sub))
    for name in ("BANKER_DB", "BANKER_CONFIG", "BANKER_PIN"):
        monkeypatch.delenv(name, raising=False)
    (tmp_path / "home").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _everything(root) -> dict:
    return {str(p.relative_to(root)): p.stat().st_size if p.is_file() else None for p in root.rglob("*")}


@pytest.mark.parametrize("words, code", READERS, ids=lambda v: " ".join(v) if isinstance(v, list) else "")
def test_without_a_ledger_a_reader_says_so_and_creates_nothing(home, words, code):
    before = _everything(home)
    result = banker(*words)
    assert result.exit_code == code, result.output
    if code == 3:
        assert "no ledger at" in result.stderr
    assert "Traceback" not in result.output
    assert _everything(home) == before


def test_a_config_naming_a_ledger_that_is_not_there_creates_nothing(home):
    config = home / "banker.toml"
    config.write_text(f'[unit]\ndb = "{home / "unit" / "ledger.db"}"\n')
    before = _everything(home)
    for words, code in READERS:
        result = banker(*words, "--config", config) if words[0] != "doctor" else banker(*words)
        assert result.exit_code == code, (words, result.output)
    assert _everything(home) == before


@pytest.mark.parametrize("words, code", [r for r in READERS if r[0][0] != "web"],
                         ids=lambda v: " ".join(v) if isinstance(v, list) else "")
def test_on_a_ledger_a_reader_leaves_no_file_behind(home, words, code):
    script = home / "game.kps"
    script.write_text(GAME)
    assert banker("script", script, "--db", home / "data" / "monopoly-banker" / "ledger.db").exit_code == 0
    before = _everything(home)
    result = banker(*words)
    assert result.exit_code == 0, result.output
    after = _everything(home)
    if words[:2] == ["key", "export"] and "-o" in words:
        assert after.pop("exported.key")  # what it was asked to write, and nothing else
    assert after == before  # no -wal or -shm beside the ledger, no backup, no new key
