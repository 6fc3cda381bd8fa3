"""What a newcomer meets on the command line: a typo gets the nearest name, a mistake one line and its exit code."""

import re
from pathlib import Path

import pytest

from banker.text.words import did_you_mean, plural
from runtime.config import known_settings
from click.testing import CliRunner

from banker_cli.main import cli
from tests.cli.support import a_ledger, banker

ROOT = Path(__file__).resolve().parents[2]


def typed(*args):
    """``banker ARGS`` as a person types it (the usage line names the program ``banker``)."""
    return CliRunner().invoke(cli, [str(a) for a in args], prog_name="banker")


def _lines(result) -> list[str]:
    return result.output.strip("\n").split("\n")


# -- commands --------------------------------------------------------------------------------


@pytest.mark.parametrize("words, meant", [
    (["crads", "list"], "cards"), (["game", "shwo"], "show"), (["ledger", "shw"], "show"),
    (["cards", "lsit"], "list"), (["deeds", "lst"], "list"), (["doctr"], "doctor"), (["pin", "st"], "set"),
])
def test_a_mistyped_command_of_any_group_gets_the_nearest_name_in_one_line(words, meant):
    result = typed(*words)
    assert result.exit_code == 2
    first, usage = _lines(result)
    assert first.startswith("banker: no such command") and f"did you mean '{meant}'?" in first
    assert usage.startswith("Usage: banker")


def test_a_name_nothing_is_near_gets_no_guess():
    result = banker("frobnicate")
    assert result.exit_code == 2 and "did you mean" not in result.output


def test_a_usage_error_is_one_banker_line_and_the_usage_never_click_s_three():
    result = typed("cards", "list", "--dbb", "x.db")
    assert result.exit_code == 2
    assert _lines(result) == ["banker: no such option '--dbb' (did you mean '--db'?)",
                              "Usage: banker cards list [OPTIONS]  ('banker cards list --help' says more)"]
    missing = typed("cards", "enrol")
    assert missing.exit_code == 2 and _lines(missing)[0] == "banker: missing argument 'NAME'"
    assert "Error:" not in missing.output and "Try '" not in missing.output


def test_a_group_called_alone_still_shows_its_help():
    result = banker("game")
    assert "Commands:" in result.output and "banker:" not in result.output


# -- deeds and players -----------------------------------------------------------------------


def test_a_mistyped_deed_names_the_nearest_deed(tmp_path):
    db = a_ledger(tmp_path)
    result = banker("deeds", "enrol", "boardwalkk", "--uid", "0A0B", "--db", db)
    assert result.exit_code == 2 and "No deed 'boardwalkk' (did you mean 'boardwalk'?)" in result.output
    spaced = banker("deeds", "enrol", "Park Place", "--uid", "0A0B", "--db", db)
    assert spaced.exit_code == 2 and "did you mean 'park-place'?" in spaced.output


def test_a_mistyped_deed_in_a_script_names_the_nearest_deed(tmp_path):
    play = tmp_path / "d.kps"
    play.write_text("enrol-deed reading-railraod\n")
    result = banker("script", play)
    assert result.exit_code == 2 and "line 1" in result.output and "did you mean 'reading-railroad'?" in result.output


def test_a_mistyped_player_names_the_nearest_player(tmp_path):
    db = a_ledger(tmp_path)
    result = banker("cards", "rename", "alcie", "Ada", "--db", db)
    assert result.exit_code == 1 and "no card is enrolled as 'alcie' (did you mean 'Alice'?)" in result.output
    assert "did you mean" not in banker("cards", "remove", "Zed", "--db", db).output


def test_an_expectation_about_a_mistyped_player_names_the_nearest(tmp_path):
    play = tmp_path / "e.kps"
    play.write_text("enrol Alice\nexpect balance Alcie 15M\n")
    result = banker("script", play)
    assert result.exit_code == 1 and "no such player (did you mean 'Alice'?)" in result.output


# -- the config ------------------------------------------------------------------------------


@pytest.mark.parametrize("text, said", [
    ("[unit]\nsleep_afer = 30\n", "unknown setting unit.sleep_afer (did you mean 'unit.sleep_after'?)"),
    ("[unit]\nstart_balance = '20M'\n", "unknown setting unit.start_balance (did you mean 'house_rules.start_balance'?)"),
    ("[unit]\ntheme = 'dark'\n", "unknown setting unit.theme (docs/config.md lists every setting)"),
    ("[dispaly]\nchip = 'sh1106'\n", "unknown section [dispaly] (did you mean 'display'?)"),
    ("[readers.left]\nreset = 5\n", "did you mean 'readers.left.reset_pin'?"),
])
def test_an_unknown_config_key_is_refused_naming_the_nearest_setting(tmp_path, text, said):
    config = tmp_path / "banker.toml"
    config.write_text(text)
    db = a_ledger(tmp_path)
    for command in (["cards", "list", "--db", db], ["script", ROOT / "examples" / "first-game.kps"],
                    ["doctor", "--backend", "hw-sim"]):
        result = banker(*command, "--config", config)
        assert result.exit_code == 2, (command, result.output)
        assert _lines(result) == [f"banker: {config}: {said}"] if "(" in said else said in result.output


def test_every_setting_the_readers_take_is_known_and_documented():
    settings = known_settings()
    assert {"unit.sleep_after", "unit.db", "readers.left.reset_pin", "keypad.keys", "buzzer.enabled",
            "web.port", "house_rules.allow_negative"} <= set(settings)
    documented = (ROOT / "docs" / "config.md").read_text(encoding="utf-8")
    for name in settings:
        key = name.rsplit(".", 1)[-1]
        assert f"`{key}`" in documented, f"{name} is read but docs/config.md doesn't document it"


def test_a_gpio_given_twice_names_both_devices(tmp_path):
    config = tmp_path / "banker.toml"
    config.write_text("[buzzer]\npin = 5\n")
    result = banker("doctor", "--backend", "hw-sim", "--config", config)
    assert result.exit_code == 2 and "GPIO5 is given to two devices: keypad.rows and buzzer.pin" in result.output
    config.write_text("[display]\nbus = 'spi'\ndc_pin = 25\n")
    result = banker("doctor", "--backend", "hw-sim", "--config", config)
    assert "GPIO25 is given to two devices: readers.left.reset_pin and display.dc_pin" in result.output


# -- exit codes, empty listings, plurals -----------------------------------------------------


def test_an_export_to_a_place_that_cant_be_written_is_exit_3(tmp_path):
    db = a_ledger(tmp_path)
    result = banker("ledger", "export", "-o", tmp_path / "no-such-folder" / "out.csv", "--db", db)
    assert result.exit_code == 3 and result.output.startswith("banker: cannot write")
    folder = banker("ledger", "export", "-o", tmp_path, "--db", db)
    assert folder.exit_code == 2  # a folder named as the file: bad usage (docs/cli.md)


def test_game_show_says_when_no_card_is_enrolled(tmp_path):
    db = tmp_path / "empty.db"
    assert banker("game", "new", "--db", db).exit_code == 0
    result = banker("game", "show", "--db", db)
    assert result.exit_code == 0 and "no cards are enrolled in this game yet" in result.output


def test_counts_are_said_in_the_right_number(tmp_path):
    play = tmp_path / "one.kps"
    play.write_text("enrol Alice\nexpect balance Alice 15M\n")
    result = banker("script", play)
    assert "passed: 1 expectation held, 1 transaction posted" in result.output
    shown = banker("game", "show", "--db", a_ledger(tmp_path)).output
    assert re.search(r"bank: 32 houses, 12 hotels, \d+ jail cards?$", shown.strip())
    assert [plural(n, "jail card") for n in (0, 1, 2)] == ["0 jail cards", "1 jail card", "2 jail cards"]


def test_did_you_mean_reads_whole_either_way():
    assert did_you_mean("Bobb", ["Alice", "Bob"]) == " (did you mean 'Bob'?)"
    assert did_you_mean("xyz", ["Alice", "Bob"]) == ""
    assert did_you_mean("bob", ["Alice", "Bob"]) == ""  # the name itself, only differently cased: no guess
