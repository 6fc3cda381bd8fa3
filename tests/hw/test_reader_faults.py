"""What the unit shows and refuses while a reader can't read (two cards in its field, a chip that doesn't answer)."""

from banker.unit.events import KeyDown, KeyUp, ReaderFault, ReaderRecovered, Tick
from banker.unit.panel import Panel
from banker.unit.step import screen, step


def test_two_cards_on_the_minus_reader_are_shown_and_nothing_is_paid(table):
    table.insert("left", "Alice")
    table.insert("right", "Bob")
    table._send(ReaderFault("right", "two-cards", table.t))
    assert "Two cards on -" in table.shown
    table.type("1M")
    assert table.ledger.game().balances_by_name() == {"Alice": 15_000_000, "Bob": 15_000_000}
    assert "Two cards on -" in table.shown
    assert table.tones()[-1] == "refusal"


def test_the_reader_reads_again_once_the_cards_are_taken_away(table):
    table.insert("right", "Bob")
    table._send(ReaderFault("right", "two-cards", table.t))
    table._send(ReaderRecovered("right", table.t))
    table.insert("right", "Bob")
    table.type("1M")
    assert table.ledger.game().balances_by_name()["Bob"] == 14_000_000


def test_a_reader_that_stops_answering_says_so_and_its_restart_is_shown(table):
    table.insert("left", "Alice")
    table._send(ReaderFault("left", "not-answering", table.t))
    assert "Reader + not answering" in " ".join(table.screen_lines())
    table._send(ReaderRecovered("left", table.t, restarted=True))
    assert "Reader + restarted" in table.shown
    table.insert("left", "Alice")
    table.type("2M")
    assert table.ledger.game().balances_by_name()["Alice"] == 17_000_000


def test_a_clean_card_read_clears_the_fault_on_that_reader(table):
    table._send(ReaderFault("left", "two-cards", table.t))
    table.insert("left", "Alice")
    assert "Alice" in table.shown and "Two cards" not in table.shown


def test_a_fault_wakes_a_sleeping_unit(table):
    table.wait(120)
    assert table.shell.screen.asleep
    table._send(ReaderFault("left", "two-cards", table.t))
    assert "Two cards on +" in table.shown


def test_holding_c_shows_a_bar_that_fills_towards_the_new_game(ledger):

    game = ledger.game()
    panel = step(Panel(), game, KeyDown("C", 1.0)).panel
    assert screen(panel, game).progress is None  # a quick C only clears
    panel = step(panel, game, Tick(2.0)).panel
    half = screen(panel, game)
    assert half.progress is not None and 0.4 < half.progress < 0.6 and half.shows("Keep holding C")
    panel = step(panel, game, KeyUp("C", 2.1)).panel
    assert screen(panel, game).progress is None


def test_holding_c_with_a_card_down_shows_no_bar(table):
    table.insert("left", "Alice")
    outcome = step(table.shell.panel, table.ledger.game(), KeyDown("C", table.t + 0.1))
    outcome = step(outcome.panel, table.ledger.game(), Tick(table.t + 1.5))
    assert screen(outcome.panel, table.ledger.game()).progress is None
