"""banker deeds list|enrol and banker game show, on a ledger a keypad script has played."""

import json

import click
from click.testing import CliRunner

from banker_cli.main import cli as banker_cli
from banker_cli.rules_cli import deeds_group, game_show_command


@click.group()
def cli() -> None:
    """The commands under test, registered as the lead registers them in main.py."""


@cli.group()
def game() -> None:
    """game"""


cli.add_command(deeds_group, "deeds")
game.add_command(game_show_command, "show")


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def play(tmp_path, text):
    db = tmp_path / "l.db"
    script = tmp_path / "s.kps"
    script.write_text(text)
    result = CliRunner().invoke(banker_cli, ["script", str(script), "--db", str(db)])
    assert result.exit_code == 0, result.output
    return db


def test_deeds_list_json_gives_every_deed_at_electronic_banking_scale(tmp_path):
    result = run("deeds", "list", "--json", "--db", tmp_path / "l.db")
    assert result.exit_code == 0, result.output
    deeds = json.loads(result.output)
    assert len(deeds) == 28
    boardwalk = next(d for d in deeds if d["slug"] == "boardwalk")
    assert boardwalk == {"position": 39, "slug": "boardwalk", "name": "Boardwalk", "group": "dark-blue",
                         "kind": "street", "price": 4_000_000,
                         "rents": [500_000, 2_000_000, 6_000_000, 14_000_000, 17_000_000, 20_000_000],
                         "house_cost": 2_000_000, "mortgage": 2_000_000}
    reading = next(d for d in deeds if d["slug"] == "reading-railroad")
    assert reading["kind"] == "railroad" and len(reading["rents"]) == 4 and reading["house_cost"] == 0
    water = next(d for d in deeds if d["slug"] == "water-works")
    assert water["rents"] == [40_000, 100_000]


def test_deeds_list_text_and_an_unknown_edition(tmp_path):
    result = run("deeds", "list", "--db", tmp_path / "l.db")
    assert result.exit_code == 0
    assert "boardwalk" in result.output and "4M" in result.output
    assert run("deeds", "list", "--edition", "nowhere").exit_code == 2


def test_deeds_enrol_gives_a_deed_a_tag_that_then_chooses_it(tmp_path):
    db = tmp_path / "l.db"
    result = run("deeds", "enrol", "boardwalk", "--uid", "04:AA:BB:CC", "--db", db)
    assert result.exit_code == 0, result.output
    assert "04AABBCC" in result.output and "Boardwalk" in result.output
    db = play(tmp_path, "enrol Alice\ninsert right Alice\ninsert left Tag\nexpect screen Unknown card\n")
    from runtime.ledger import SqliteLedger

    with SqliteLedger(db) as ledger:
        assert ledger.game().deed_tags == {"04AABBCC": "boardwalk"}


def test_deeds_enrol_refuses_a_bad_uid_an_unknown_deed_and_a_player_card(tmp_path):
    db = play(tmp_path, "enrol Alice A1\n")
    assert run("deeds", "enrol", "boardwalk", "--uid", "zz", "--db", db).exit_code == 2
    assert run("deeds", "enrol", "nowhere", "--uid", "AA", "--db", db).exit_code == 2  # bad usage, as in a script
    result = run("deeds", "enrol", "boardwalk", "--uid", "A1", "--db", db)
    assert result.exit_code == 1 and "Alice" in result.output


def test_game_show_json_has_balances_deeds_buildings_mortgages_and_the_bank(tmp_path):
    db = play(tmp_path, """enrol Alice
enrol Bob
insert right Alice
press FN 0 1 M FN 0 3 M FN 0 1 1 FN 3 9 M FN 3 9 .
remove right
insert left Bob
press FN GO 4
""")
    result = run("game", "show", "--json", "--db", db)
    assert result.exit_code == 0, result.output
    state = json.loads(result.output)
    assert state["balances"] == {"Alice": 11_300_000, "Bob": 15_000_000}
    assert state["worth"]["Alice"] == 11_300_000 + 600_000 + 600_000 + 500_000 + 4_000_000
    assert state["end_worth"]["Alice"] == state["worth"]["Alice"] - 2_000_000
    assert {d["slug"]: (d["owner"], d["houses"], d["mortgaged"]) for d in state["deeds"]} == {
        "mediterranean-avenue": ("Alice", 1, False), "baltic-avenue": ("Alice", 0, False),
        "boardwalk": ("Alice", 0, True)}
    assert state["bank"] == {"houses": 31, "hotels": 12, "jail_cards": 1}
    assert state["jail_cards"] == {"Bob": 1}
    assert state["rules"]["short_game"] is False


def test_game_show_text(tmp_path):
    db = play(tmp_path, "enrol Alice\ninsert right Alice\npress FN 3 9 M FN 3 9 .\n")
    result = run("game", "show", "--db", db)
    assert result.exit_code == 0, result.output
    assert "Boardwalk" in result.output and "mortgaged" in result.output
    assert "32 houses, 12 hotels" in result.output
