"""Keypad scripts: every scenario in tests/scripts and examples/ passes; bad scripts are refused."""

import json
from pathlib import Path

import pytest

from banker.errors import ScriptError
from banker.script.syntax import Enrol, ExpectBalance, ExpectScreen, Hold, Insert, Press, Remove, Wait, parse, parse_line
from tests.cli.support import banker

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted((ROOT / "tests" / "scripts").glob("*.kps")) + sorted((ROOT / "examples").glob("*.kps"))



@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.name)
def test_scenario_passes(path):
    result = banker("script", path)
    assert result.exit_code == 0, result.output


def test_there_are_scenarios():
    assert len(SCENARIOS) >= 10


def test_every_step_parses():
    text = """# comment
    enrol Alice 04:a1:b2:c3
    enrol Bob
    insert left Alice   # trailing comment
    remove right
    press 1 . 5 m GO fn
    hold C
    hold C 2.5
    wait 61
    expect balance Alice -1.5M
    expect screen Paid 500K
    """
    steps = [line.step for line in parse(text)]
    assert steps[0] == Enrol("Alice", "04A1B2C3")
    assert isinstance(steps[1], Enrol) and len(steps[1].uid) == 8
    assert steps[2:] == [
        Insert("left", "Alice"), Remove("right"), Press(("1", ".", "5", "M", "GO", "FN")),
        Hold("C", 3.0), Hold("C", 2.5), Wait(61.0), ExpectBalance("Alice", -1_500_000), ExpectScreen("Paid 500K"),
    ]


@pytest.mark.parametrize(
    "line, message",
    [("insert middle Alice", "left or right"), ("press X", "unknown key"), ("hold C soon", "seconds"),
     ("wait", "usage: wait"), ("expect balance Alice lots", "not an amount"), ("expect screen", "usage"),
     ("expect colour red", "usage"), ("enrol Alice zz", "not a card UID"), ("dance", "unknown step"),
     ("remove", "usage: remove"), ("wait -1", "out of range")],
)
def test_malformed_lines_are_refused_with_their_number(line, message):
    with pytest.raises(ScriptError, match=message) as err:
        parse_line(line, 7)
    assert err.value.line == 7


def test_a_malformed_line_exits_2_before_anything_runs(tmp_path):
    db = tmp_path / "l.db"
    script = tmp_path / "bad.kps"
    script.write_text("enrol Alice\ninsert left Alice\npress 1 M\npress Q\n")
    result = banker("script", script, "--db", db)
    assert result.exit_code == 2
    assert "line 4" in result.output and "unknown key" in result.output
    assert "Alice" not in banker("cards", "list", "--db", db).output


def test_a_failing_expect_exits_1_with_line_expected_and_actual(tmp_path):
    script = tmp_path / "s.kps"
    script.write_text("enrol Alice\ninsert left Alice\npress 1 M\nexpect balance Alice 17M\nexpect balance Alice 1\n")
    result = banker("script", script)
    assert result.exit_code == 1
    assert "line 4: expected balance Alice 17M, got 16M" in result.output


def test_a_failing_screen_expect_says_what_was_shown(tmp_path):
    script = tmp_path / "s.kps"
    script.write_text("expect screen Hello\n")
    result = banker("script", script)
    assert result.exit_code == 1
    assert "line 1" in result.output and "Insert a card" in result.output


def test_json_output(tmp_path):
    script = tmp_path / "s.kps"
    script.write_text("enrol Alice\nenrol Bob\ninsert left Alice\ninsert right Bob\npress 5 0 0 K\nremove left\nremove right\npress .\n")
    result = banker("script", script, "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out == {"balances": {"Alice": 15_500_000, "Bob": 14_500_000}, "volume": 3, "game": 1,
                   "screen": ["Volume", "high"]}


def test_with_db_a_script_continues_the_stored_game(tmp_path):
    db = tmp_path / "l.db"
    script = tmp_path / "s.kps"
    script.write_text("enrol Alice\ninsert left Alice\npress 1 M\n")
    assert banker("script", script, "--db", db).exit_code == 0
    assert banker("script", script, "--db", db).exit_code == 0  # enrol of Alice again does nothing
    check = tmp_path / "c.kps"
    check.write_text("expect balance Alice 17M\n")
    assert banker("script", check, "--db", db).exit_code == 0


def test_a_missing_script_file_is_a_clear_error():
    result = banker("script", "/no/such/file.kps")
    assert result.exit_code == 2
    assert "No such file" in result.output


def test_an_unknown_name_in_a_script_is_an_unknown_card(tmp_path):
    script = tmp_path / "s.kps"
    script.write_text("insert left Nobody\nexpect screen Unknown card\n")
    assert banker("script", script).exit_code == 0


def test_counts_and_seconds_take_ascii_digits_only():
    import pytest

    from banker.errors import ScriptError
    from banker.script.syntax import parse

    for text in ("wait ١٢", "wait ²", "wait nan", "hold C inf", "expect houses boardwalk ²", "expect bank-houses ٣"):
        with pytest.raises(ScriptError, match="line 1"):
            parse(text)
