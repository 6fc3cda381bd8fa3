"""The table page's house rules and modes (issue 21): the Free Parking pot, the time left, the modes, the sentences.

Records are built directly (the core's acts and rules, :func:`banker.fold.game.apply`);
the sources are checked to publish a state for a play-clock record as they do
for a transaction.
"""

from __future__ import annotations

import json

import pytest

from banker.fold import acts
from banker.fold.game import apply, replay
from banker.journal.records import GameSettings, PlayClock
from banker.rules.jackpot import pay_pot, take_pot
from banker.rules.taxes import income_tax, jail_fine
from banker.fold.undo import undo_last
from cards import editions
from runtime.ledger import SqliteLedger
from web.demo import play_house_rules_demo
from web.journal import says
from web.source import FileSource, SnapshotSource
from web.view import EntryCache, WorthHistory, state

HOUSE_RULES = GameSettings(houses_for_hotel=3, jackpot=500_000, time_limit=3600)


def started(settings: GameSettings = HOUSE_RULES, names=("Alice", "Bob", "Cleo")):
    """A game of ``names`` started with ``settings`` (a short game's deal shuffled by fixed bytes), and its journal."""
    game = replay((), editions=editions())
    game = apply(game, acts.new_game(game))
    for i, name in enumerate(names):
        game = apply(game, acts.enrolment(game, name, f"C{i}"))
    record = acts.new_game(game, settings, shuffle=bytes(range(16)))
    return apply(game, record), list(record.openings)


class Table:
    """A game and its journal, played on by rules and records, read as the page reads it."""

    def __init__(self, settings: GameSettings = HOUSE_RULES, names=("Alice", "Bob", "Cleo")) -> None:
        self.game, self.journal = started(settings, names)
        self.entries = EntryCache()

    def id(self, name: str) -> int:
        return self.game.card_by_name(name).id

    def play(self, rule, **args):
        tx = self.game.numbered(rule(self.game, **args).to_transaction())
        return self.record(tx)

    def record(self, record):
        self.game = apply(self.game, record)
        if hasattr(record, "postings"):
            self.journal.append(record)
        return record

    def state(self) -> dict:
        return state(self.game, self.journal, WorthHistory.of(self.game, self.journal), seq=1, entries=self.entries)

    def said(self, tx) -> str:
        return "".join(says(self.game, tx))


@pytest.fixture
def table() -> Table:
    return Table()


def test_the_pot_and_the_time_left_are_in_the_state(table):
    g = table.state()["game"]
    assert (g["pot"], g["pot_text"], g["jackpot"]) == (500_000, "500K", 500_000)
    assert (g["time_limit"], g["time_left"], g["time_left_text"], g["time_up"]) == (3600, 3600, "1h 00m left", False)
    table.play(income_tax, player=table.id("Alice"))
    assert table.state()["game"]["pot_text"] == "2.5M"
    table.record(PlayClock(table.game.id, 18 * 60.0))
    g = table.state()["game"]
    assert (g["time_left"], g["time_left_text"]) == (42 * 60, "42 min left")


def test_the_game_line_names_the_modes():
    g = Table().state()["game"]
    assert g["modes"] == ["short game (hotels after 3 houses, deeds dealt)", "Free Parking (seed 500K)",
                          "time limit 1h 00m"]
    g = Table(GameSettings(jackpot=0, time_limit=5400, sums="ask")).state()["game"]
    assert g["modes"] == ["Free Parking (seed 0)", "time limit 1h 30m", "sums asked"]
    assert not g["dealt"] and g["pot_text"] == "0"
    assert Table(GameSettings(time_limit=2700, sums="show")).state()["game"]["modes"] == ["time limit 45 min",
                                                                                         "sums shown"]


def test_a_game_without_the_house_rules_shows_none_of_them():
    g = Table(GameSettings()).state()["game"]
    assert (g["pot"], g["pot_text"], g["time_left"], g["time_left_text"], g["modes"]) == (None, None, None, None, [])
    assert g["over"] is None and not g["time_up"]


def test_a_short_game_started_before_any_player_had_no_deal():
    game, journal = started(HOUSE_RULES, names=())
    s = state(game, journal, WorthHistory.of(game, journal), seq=1)
    assert s["game"]["modes"][0] == "short game (hotels after 3 houses)"


def test_when_time_is_up_the_richest_by_end_value_wins(table):
    table.play(income_tax, player=table.id("Alice"))
    table.record(PlayClock(table.game.id, 3600.0))
    s = table.state()
    assert s["game"]["time_up"] and s["game"]["time_left_text"] == "Time is up"
    assert [(r["place"], r["name"]) for r in s["standings"]][:2] == [(1, "Bob"), (1, "Cleo")]  # equal end values
    assert s["game"]["over"] == "Time is up: Bob & Cleo win"
    assert s["standings"][0]["value"] > s["standings"][-1]["value"]


def test_the_pot_taken_paid_into_and_taxed_into_as_sentences(table):
    alice, bob, cleo = table.id("Alice"), table.id("Bob"), table.id("Cleo")
    assert table.said(table.play(income_tax, player=alice)) == "Alice paid Income Tax 2M into Free Parking"
    assert table.said(table.play(jail_fine, player=cleo)) == "Cleo paid the jail fine 500K into Free Parking"
    assert table.said(table.play(pay_pot, player=cleo, amount=1_000_000)) == "Cleo paid 1M into Free Parking"
    taken = table.play(take_pot, player=bob)
    assert table.said(taken) == "Bob took the Free Parking pot (4M); the bank put 500K back in"
    assert says(table.game, taken)[:2] == ["", "Bob"]  # the player set apart as a name, the pot as text
    assert table.state()["game"]["pot"] == 500_000


def test_a_new_games_openings_say_the_seed_and_the_deal(table):
    seed, deal = table.journal[-2:]
    assert table.said(seed) == "The bank put 500K into Free Parking to start"
    sentence = says(table.game, deal)
    assert "".join(sentence).startswith("The short game's deal: Alice got ")
    assert sentence[1::2] == ["Alice", "Bob", "Cleo"]  # each player a name of its own
    owned = {p: [d.name for d in table.game.edition.deeds if table.game.estate.owner(d.slug) == table.id(p)]
             for p in ("Alice", "Bob", "Cleo")}
    for text, name in zip(sentence[2::2], ("Alice", "Bob", "Cleo")):
        assert all(deed in text for deed in owned[name]) and " for " in text


def test_no_posting_of_the_pot_shows_card_0(table):
    table.play(income_tax, player=table.id("Alice"))
    table.play(take_pot, player=table.id("Bob"))
    undo = table.record(table.game.numbered(undo_last(table.game)))
    assert "card 0" not in table.said(undo) and "Free Parking" in table.said(undo)
    s = table.state()
    assert "card 0" not in json.dumps(s)
    entry = next(e for e in s["journal"] if e["kind"] == "pot")
    assert [(p["from"], p["to"]) for p in entry["postings"]] == [("Free Parking", "Bob"), ("Bank", "Free Parking")]


def test_time_limits_are_written_as_the_unit_writes_them():
    limits = [Table(GameSettings(time_limit=s)).state()["game"]["modes"][-1] for s in (600, 2700, 3600, 5400, 90)]
    assert limits == ["time limit 10 min", "time limit 45 min", "time limit 1h 00m", "time limit 1h 30m",
                      "time limit 2 min"]


def test_the_file_source_publishes_a_state_for_each_play_clock_record(tmp_path):
    path = tmp_path / "ledger.db"
    with SqliteLedger(path) as ledger:
        play_house_rules_demo(ledger)
        source = FileSource(path)
        try:
            opened = source.open()
            first = opened["game"]
            assert (first["pot_text"], first["time_left_text"]) == ("4M", "42 min left")
            ledger.commit(PlayClock(ledger.game().id, 49 * 60.0))
            states = source.poll()
            assert [s["game"]["time_left_text"] for s in states] == ["41 min left"]
            assert states[0]["seq"] == opened["seq"] + 1 and states[0]["game"]["pot_text"] == "4M"
            ledger.commit(PlayClock(ledger.game().id, 90 * 60.0))
            (last,) = source.poll()
            assert last["game"]["over"] == "Time is up: Bob wins"
        finally:
            source.close()


def test_a_short_game_stays_dealt_after_its_deal_left_the_journals_tail(tmp_path):
    path = tmp_path / "ledger.db"
    with SqliteLedger(path) as ledger:
        play_house_rules_demo(ledger)
        alice, bob = (ledger.game().card_by_name(n).id for n in ("Alice", "Bob"))
        for turn in range(30):  # 60 more transactions: the openings are out of the last 50
            payer, taker = (alice, bob) if turn % 2 else (bob, alice)
            ledger.post(income_tax(ledger.game(), player=payer).to_transaction())
            ledger.post(take_pot(ledger.game(), player=taker).to_transaction())
        source = FileSource(path)
        try:
            s = source.open()
            assert all(e["kind"] != "deal" for e in s["journal"])
            assert s["game"]["dealt"] and "deeds dealt" in s["game"]["modes"][0]
        finally:
            source.close()


def test_the_snapshot_source_publishes_a_play_clock_record(tmp_path):
    with SqliteLedger(":memory:") as ledger:
        play_house_rules_demo(ledger)
        source = SnapshotSource(ledger)
        assert source.open()["game"]["dealt"]
        ledger.commit(PlayClock(ledger.game().id, 60 * 60.0))
        (s,) = source.poll()
        assert s["game"]["time_left_text"] == "30 min left" and s["game"]["dealt"]


def test_a_time_limit_games_deal_is_called_so_on_the_page():
    table = Table(GameSettings(time_limit=3600))  # the standard hotels: not a short game
    deal = table.journal[-1]
    assert "".join(says(table.game, deal)).startswith("The time-limit deal: Alice got ")
