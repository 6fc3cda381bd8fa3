"""The command line's input rules (docs/cli.md): numbers in ASCII digits, no contradicting options, editions by name.

Each refusal is exit 2 with one line naming what was wrong, and the ledger
is as it was (the game list and the journal unchanged).
"""

from __future__ import annotations

import pytest

from .support import a_ledger, banker
from cards import available_editions


def state(db) -> tuple[str, str]:
    """What a refused command must not change: the games and the current game's journal."""
    return banker("game", "list", "--db", db).output, banker("ledger", "show", "--db", db).output


@pytest.mark.parametrize("args, says", [
    (["game", "new", "--time-limit", "９０"], "'--time-limit': '９０' is not a number (the digits 0-9 only)"),
    (["game", "new", "--time-limit", "١٢"], "is not a number (the digits 0-9 only)"),
    (["game", "restore", "１"], "'１' is not a number (the digits 0-9 only)"),
    (["game", "restore", "²"], "'²' is not a number (the digits 0-9 only)"),
    (["ledger", "undo", "１"], "'１' is not a number (the digits 0-9 only)"),
    (["ledger", "show", "--game", "１"], "'--game': '１' is not a number"),
    (["ledger", "export", "--game", "١"], "'--game': '١' is not a number"),
    (["game", "new", "--end-at", "２１:３０"], "an hour as HH:MM (21:30)"),
])
def test_a_number_in_other_digits_is_refused_and_changes_nothing(tmp_path, args, says):
    db = a_ledger(tmp_path)
    banker("game", "new", "--db", db)  # game 1 archived: a restore of it would change the ledger
    before = state(db)
    result = banker(*args, "--db", db)
    assert result.exit_code == 2, result.output
    assert says in result.output
    assert state(db) == before


def test_ascii_numbers_are_still_read(tmp_path):
    db = a_ledger(tmp_path)
    assert banker("game", "new", "--time-limit", "90", "--db", db).exit_code == 0
    assert "time limit 1h 30m" in banker("game", "list", "--db", db).output
    assert banker("game", "restore", "1", "--db", db).output == "game 1 is current again\n"


@pytest.mark.parametrize("args, says", [
    (["--free-parking", "500K", "--no-free-parking"], "give --free-parking or --no-free-parking, not both"),
    (["--time-limit", "30", "--no-time-limit"], "give --time-limit or --no-time-limit, not both"),
    (["--end-at", "21:30", "--no-time-limit"], "give --end-at or --no-time-limit, not both"),
    (["--time-limit", "30", "--end-at", "21:30"], "give --time-limit or --end-at, not both"),
    (["--short-game", "--standard-game"], "give --short-game or --standard-game, not both"),
    (["--no-negative", "--allow-negative"], "give --allow-negative or --no-negative, not both"),
    (["--income-tax-choice", "--flat-income-tax"], "give --income-tax-choice or --flat-income-tax, not both"),
])
def test_contradicting_options_are_refused_and_change_nothing(tmp_path, args, says):
    db = a_ledger(tmp_path)
    before = state(db)
    result = banker("game", "new", *args, "--db", db)
    assert result.exit_code == 2, result.output
    assert f"banker: {says}" in result.output
    assert state(db) == before


def test_a_flag_given_twice_the_same_way_is_fine(tmp_path):
    db = a_ledger(tmp_path)
    assert banker("game", "new", "--short-game", "--short-game", "--db", db).exit_code == 0
    assert "short game" in banker("game", "list", "--db", db).output


@pytest.mark.parametrize("command", [["sim"], ["run", "--seconds", "1"]])
def test_web_and_no_web_together_are_refused(tmp_path, command):
    result = banker(*command, "--web", "--no-web", "--db", tmp_path / "ledger.db")
    assert result.exit_code == 2, result.output
    assert "banker: give --web or --no-web, not both" in result.output


@pytest.mark.parametrize("name", ["../editions/us", "editions/us", "EXTRA", "us.toml", "x"])
def test_an_edition_is_a_name_never_a_path_and_both_commands_say_so_alike(tmp_path, name):
    db = a_ledger(tmp_path)
    before = state(db)
    said = []
    for args in (["deeds", "list", "--edition", name], ["game", "new", "--edition", name]):
        result = banker(*args, "--db", db)
        assert result.exit_code == 2, result.output
        said.append(result.output.splitlines()[0])
    assert said[0] == said[1] == f"banker: invalid value for '--edition': no edition '{name}' (known: {', '.join(available_editions())})"
    assert state(db) == before


def test_an_edition_named_by_an_absolute_path_is_not_loaded(tmp_path):
    from importlib.resources import files

    forged = tmp_path / "forged.toml"  # the packaged deeds with one price changed: a file anyone could put anywhere
    text = files("cards").joinpath("editions", "us.toml").read_text(encoding="utf-8")
    forged.write_text(text.replace("Boardwalk", "Forged Walk"), encoding="utf-8")
    result = banker("deeds", "list", "--edition", forged.with_suffix(""), "--db", tmp_path / "none.db")
    assert result.exit_code == 2, result.output
    assert "Forged Walk" not in result.output
    assert "no edition" in result.output


def every_command(group, ctx_name="banker"):
    """Each command of ``group`` as the entry point loads it (through its lazy table), with its path."""
    import click

    ctx = click.Context(group, info_name=ctx_name)
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        yield f"{ctx_name} {name}", command
        if isinstance(command, click.Group):
            yield from every_command(command, f"{ctx_name} {name}")


def test_every_number_of_every_command_reads_ascii_digits_only():
    import click

    from banker_cli.main import cli

    numbers = [(path, param.name, param.type) for path, command in every_command(cli) for param in command.params
               if isinstance(param.type, (click.types.IntParamType, click.types.FloatParamType))]
    assert len(numbers) >= 8  # time limit, game and tx ids, --game twice, --scale, --speed, --seconds, --port
    for path, name, number in numbers:
        with pytest.raises(click.BadParameter, match="the digits 0-9 only"):
            number.convert("８", None, None)
        assert number.convert("8", None, None) == 8, (path, name)
