"""The docs and the code agree on which acts need the banker's PIN: docs/security.md's marked list is the AUTHORITY table."""

import re
from dataclasses import replace
from pathlib import Path

from banker.fold.authority import AUTHORITY, needs_authority
from banker.journal.records import NewGame

SECURITY = Path(__file__).resolve().parents[2] / "docs" / "security.md"


def listed_kinds() -> list[str]:
    """The record kinds (in backticks) of docs/security.md's list of PIN-guarded acts, in order."""
    text = SECURITY.read_text(encoding="utf-8")
    block = re.search(r"<!-- pin-guarded acts: begin -->(.*?)<!-- pin-guarded acts: end -->", text, re.S)
    assert block, "docs/security.md lost its marked list of PIN-guarded acts"
    items = re.split(r"\n- ", block.group(1))[1:]
    return [re.search(r"\(`(\w+)`", item).group(1) for item in items]


def test_the_docs_list_every_act_of_the_authority_table_and_no_other():
    kinds = listed_kinds()
    assert len(kinds) == len(set(kinds))
    assert set(kinds) == {kind.__name__ for kind in AUTHORITY}


def test_a_new_game_needs_the_pin_only_when_its_rules_differ(ledger):
    game = replace(ledger.game(), id=1)  # a game under way
    assert needs_authority(game, NewGame(2, game.settings)) is None  # holding C
    assert needs_authority(game, NewGame(2, replace(game.settings, start_balance=20_000_000))) == "changing the game's rules"
    assert "A new game with the same rules needs no PIN" in SECURITY.read_text(encoding="utf-8")
