"""The keypad-script steps for deeds and the rules: they parse, and a failing expectation says what was there."""

import pytest
from click.testing import CliRunner

from banker.errors import ScriptError
from banker.script.syntax import (
    EnrolDeed, ExpectBank, ExpectHouses, ExpectMortgaged, ExpectOwner, ExpectWorth, Tap, made_up_uid, parse,
    parse_line,
)
from banker_cli.main import cli


def test_the_deed_steps_parse():
    steps = [line.step for line in parse("""
    tap left boardwalk
    enrol-deed Boardwalk 04:aa
    enrol-deed park-place
    expect owner boardwalk Alice
    expect owner park-place bank
    expect houses boardwalk 5
    expect mortgaged boardwalk yes
    expect bank-houses 28
    expect bank-hotels 11
    expect worth Alice 14.5M
    """)]
    assert steps == [
        Tap("left", "boardwalk"), EnrolDeed("boardwalk", "04AA"), EnrolDeed("park-place", made_up_uid("park-place")),
        ExpectOwner("boardwalk", "Alice"), ExpectOwner("park-place", "bank"), ExpectHouses("boardwalk", 5),
        ExpectMortgaged("boardwalk", True), ExpectBank("houses", 28), ExpectBank("hotels", 11),
        ExpectWorth("Alice", 14_500_000),
    ]


@pytest.mark.parametrize("line, message", [
    ("tap middle boardwalk", "left or right"), ("tap left", "usage: tap"), ("enrol-deed", "usage: enrol-deed"),
    ("enrol-deed boardwalk zz", "not a card UID"), ("expect houses boardwalk 6", "0-5"),
    ("expect mortgaged boardwalk maybe", "yes or no"), ("expect bank-houses", "usage"),
    ("expect worth Alice lots", "not an amount"), ("expect owner boardwalk", "usage"),
])
def test_malformed_deed_steps_are_refused(line, message):
    with pytest.raises(ScriptError, match=message):
        parse_line(line, 3)


@pytest.mark.parametrize("expect, got", [
    ("expect owner boardwalk Bob", "expected owner boardwalk Bob, got Alice"),
    ("expect houses boardwalk 1", "expected houses boardwalk 1, got 0"),
    ("expect mortgaged boardwalk yes", "expected mortgaged boardwalk yes, got no"),
    ("expect bank-houses 3", "expected bank-houses 3, got 32"),
    ("expect bank-hotels 3", "expected bank-hotels 3, got 12"),
    ("expect worth Alice 1M", "expected worth Alice 1M, got 15M"),
    ("expect worth Nobody 1M", "expected worth Nobody 1M, got no such player"),
])
def test_a_failing_deed_expectation_exits_1_with_what_was_there(tmp_path, expect, got):
    script = tmp_path / "s.kps"
    script.write_text(f"enrol Alice\ninsert right Alice\npress FN 3 9 M\n{expect}\n")
    result = CliRunner().invoke(cli, ["script", str(script)])
    assert result.exit_code == 1
    assert f"line 4: {got}" in result.output


def test_an_unknown_deed_in_a_script_exits_2(tmp_path):
    script = tmp_path / "s.kps"
    script.write_text("expect owner nowhere bank\n")
    result = CliRunner().invoke(cli, ["script", str(script)])
    assert result.exit_code == 2 and "nowhere" in result.output
