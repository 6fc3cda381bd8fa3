"""``banker script --config`` reads the config as every command does: its ledger, and its language for the screen.

The one rule (docs/cli.md, "Keypad scripts"): ``expect screen`` reads the screen as the unit draws it, in the
game's language (FN 8), else the config's ``[unit] language``, else English.
"""

from __future__ import annotations

import json

import pytest

from tests.cli.support import banker

PLAYERS = "enrol Alice A1\nenrol Bob B2\n"


def _config(tmp_path, *, db=None, language=None):
    lines = ["[unit]"] + ([f'db = "{db}"'] if db else []) + ([f'language = "{language}"'] if language else [])
    path = tmp_path / "banker.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def _script(tmp_path, text, name="play.kps"):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_the_config_s_db_is_the_ledger_a_script_plays_on(tmp_path):
    db = tmp_path / "unit.db"
    config = _config(tmp_path, db=db)
    played = banker("script", _script(tmp_path, PLAYERS), "--config", config)
    assert played.exit_code == 0, played.output
    assert "in memory" not in played.output
    listed = banker("cards", "list", "--config", config)
    assert listed.exit_code == 0 and "Alice" in listed.output and "Bob" in listed.output


def test_banker_config_in_the_environment_gives_the_language_but_never_the_unit_s_game(tmp_path):
    """The Pi's banker on the PATH sets $BANKER_CONFIG for every command: a script tried there plays in memory."""
    db = tmp_path / "unit.db"
    config = _config(tmp_path, db=db, language="de")
    script = _script(tmp_path, PLAYERS + "expect screen Karte auflegen\n")
    played = banker("script", script, env={"BANKER_CONFIG": str(config)})
    assert played.exit_code == 0, played.output
    assert "(in memory: --db PATH keeps them)" in played.output
    assert not db.exists()


def test_db_still_wins_over_the_config_s(tmp_path):
    config = _config(tmp_path, db=tmp_path / "unit.db")
    other = tmp_path / "other.db"
    assert banker("script", _script(tmp_path, PLAYERS), "--config", config, "--db", other).exit_code == 0
    assert other.exists() and not (tmp_path / "unit.db").exists()


def test_a_config_without_a_db_still_plays_in_memory(tmp_path):
    config = _config(tmp_path, language="en")
    played = banker("script", _script(tmp_path, PLAYERS), "--config", config)
    assert played.exit_code == 0
    assert "(in memory: --db PATH keeps them)" in played.output


@pytest.mark.parametrize("backend", ["core", "hw-sim", "spy:core", "window"])
def test_the_screen_is_drawn_in_the_config_s_language(tmp_path, backend, monkeypatch):
    if backend == "window":
        pytest.importorskip("pygame")
        monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    config = _config(tmp_path, language="de")
    script = _script(tmp_path, PLAYERS + "expect screen Karte auflegen\n")
    played = banker("script", script, "--config", config, "--backend", backend)
    assert played.exit_code == 0, played.output
    assert "passed: 1 expectation held" in played.output


def test_an_english_expectation_fails_under_a_german_config_showing_what_was_drawn(tmp_path):
    config = _config(tmp_path, language="de")
    played = banker("script", _script(tmp_path, "expect screen Insert a card\n"), "--config", config)
    assert played.exit_code == 1
    assert "Karte auflegen" in played.output


def test_after_fn_8_the_script_reads_the_game_s_language_over_the_config_s(tmp_path):
    config = _config(tmp_path, language="fr")
    script = _script(tmp_path, "press FN 8 2\npress C\nexpect screen Karte auflegen\n")
    played = banker("script", script, "--config", config, "--json")
    assert played.exit_code == 0, played.output
    assert "Karte auflegen" in json.loads(played.stdout)["screen"]


def test_without_a_config_a_script_reads_english(tmp_path):
    played = banker("script", _script(tmp_path, "expect screen Insert a card\n"), env={"BANKER_CONFIG": ""})
    assert played.exit_code == 0, played.output


def test_help_says_the_config_s_db_and_the_screen_s_language():
    shown = " ".join(banker("script", "--help").output.split())
    assert "the [unit] db of a --config named here" in shown
    assert "'expect screen' reads the screen as the unit draws it" in shown
    assert "else the config's [unit] language, else English" in shown
    assert "else the [unit] db of a --config named here, else a fresh in-memory game" in shown  # --db's default
    assert "[env: BANKER_CONFIG: all but the ledger]" in shown


def test_banker_sim_s_script_reads_the_screen_in_the_config_s_language_too(tmp_path, monkeypatch):
    pytest.importorskip("pygame")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    config = _config(tmp_path, language="de")
    script = _script(tmp_path, PLAYERS + "expect screen Karte auflegen\n")
    played = banker("sim", "--script", script, "--screenshot", tmp_path / "end.png", "--config", config)
    assert played.exit_code == 0, played.output
