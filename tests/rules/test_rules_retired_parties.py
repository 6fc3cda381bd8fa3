"""A bankruptcy naming a player already out is refused in words that fit the unit's line in every language."""

from dataclasses import replace

import pytest

from banker.errors import Refused
from banker.rules import bankrupt
from banker.text.i18n import LANGUAGES, LINE_WIDTH, translate
from runtime.languages import translations_for
from tests.rules.table import Table

ALICE, BOB, CAROL = 1, 2, 3


@pytest.fixture
def table():
    """Carol is out (bankrupt before)."""
    table = Table.new(players=(ALICE, BOB, CAROL))
    return replace(table, estate=replace(table.estate, retired=frozenset({CAROL})))


@pytest.mark.parametrize("code", LANGUAGES)
@pytest.mark.parametrize("debtor, creditor", [(ALICE, CAROL), (CAROL, ALICE)])
def test_a_retired_party_is_refused_on_one_line(table, code, debtor, creditor):
    with pytest.raises(Refused) as refusal:
        table.deal(bankrupt, debtor=debtor, creditor=creditor)
    shown = str(translate(refusal.value.args[0], translations_for(code)))
    assert len(shown) <= LINE_WIDTH, shown
