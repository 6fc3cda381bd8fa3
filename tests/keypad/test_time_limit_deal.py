"""The official time-limit game starts with the deal (two deeds each at their printed prices), with the standard
hotels; a time-limit game journalled before the deal existed opens and plays as before."""

from dataclasses import replace

from banker.audit.checks import audit_records
from banker.fold import acts
from banker.journal.records import GameSettings, NewGame
from runtime.ledger import open_ledger
from tests.cli.support import banker


def dealt(game, name):
    return game.estate.deeds_of(game.card_by_name(name).id)


def test_a_new_time_limit_game_on_the_keypad_deals_two_deeds_each_at_their_prices(table):
    table.type("FN GO 1 5 9 0 M M")
    assert table.screen_lines()[2] == "Dealt 2 deeds each"
    game = table.ledger.game()
    assert game.settings.time_limit == 90 * 60 and game.settings.houses_for_hotel == 4  # the standard hotels
    for name in ("Alice", "Bob"):
        deeds = dealt(game, name)
        assert len(deeds) == 2
        assert table.balance(name) == 15_000_000 - sum(game.edition.deed(slug).price for slug in deeds)
    kinds = [tx.kind for tx in table.ledger.transactions() if tx.game == game.id]
    assert kinds == ["opening", "opening", "deal"]
    assert table.ledger.verify().ok


def test_holding_c_in_a_time_limit_game_deals_again(table):
    table.type("FN GO 1 5 9 0 M M")
    table.press("C")
    table.hold("C", 2.5)
    game = table.ledger.game()
    assert game.id == 3 and len(dealt(game, "Alice")) == 2


def test_game_new_time_limit_in_the_cli_deals(tmp_path):
    db = tmp_path / "ledger.db"
    for name in ("Alice", "Bob"):
        assert banker("cards", "enrol", name, "--db", db).exit_code == 0
    started = banker("game", "new", "--time-limit", "90", "--db", db)
    assert started.exit_code == 0, started.output
    with open_ledger(db) as ledger:
        game = ledger.game()
        assert [len(dealt(game, n)) for n in ("Alice", "Bob")] == [2, 2] and game.settings.houses_for_hotel == 4
        assert ledger.verify().ok


def test_an_old_time_limit_game_without_the_deal_opens_and_audits_clean(ledger):
    for name, uid in (("Alice", "A1"), ("Bob", "B2")):
        ledger.commit(acts.enrolment(ledger.game(), name, uid))
    enrolled = ledger.game()
    dealt_now = acts.new_game(enrolled, GameSettings(time_limit=3600), shuffle=bytes(16))
    old = replace(dealt_now, openings=tuple(tx for tx in dealt_now.openings if tx.kind != "deal"))
    assert isinstance(old, NewGame) and len(old.openings) == 2
    ledger.commit(old)
    after = ledger.game()
    assert after.settings.time_limit == 3600 and not after.estate.deeds_of(after.card_by_name("Alice").id)
    records = list(ledger.store.records(0))
    assert audit_records(enumerate(records, 1), editions=ledger.editions).ok
