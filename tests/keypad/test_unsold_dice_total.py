"""A dice total typed on an unsold utility, then GO: refused as keypad.md says, never an auction that drops it."""


#: The fix is three lines in banker/unit/flows/deed.py (DeedMode.press: GO with a typed number on an unsold deed
#: refuses "{deed} is unsold" / "Buyer -, GO: auction"), a file another engineer owns this round: the lead applies
#: it at merge (issue 32, flowrules' report) and removes this marker; strict, so the fix makes these tests fail.


def test_a_dice_total_then_go_on_an_unsold_deed_is_refused_not_auctioned(table):
    table.insert("right", "Bob")
    table.type("FN 1 2")  # Electric Company, unsold
    table.type("8")
    table.press("GO")
    assert "Electric Co is unsold" in table.shown and "Auction" not in table.shown
    assert table.owner("electric-company") == "bank" and table.balance("Bob") == 15_000_000


def test_a_dice_total_then_go_with_no_card_is_refused_too(table):
    table.type("FN 1 2 8")
    table.press("GO")
    assert "Electric Co is unsold" in table.shown and "Auction" not in table.shown


def test_go_alone_on_an_unsold_deed_still_opens_its_auction(table):
    table.type("FN 1 2")
    table.press("GO")
    assert table.screen_lines()[0].startswith("Auction")
