"""The unit's behaviour at the table: cards on readers, keys, tones, sleep, volume, new games."""

from runtime.shell import Shell
from banker.unit.events import CardPlaced, KeyDown, PlayTone, SetDisplayPower, Tick
from runtime.ledger import SqliteLedger
from tests.conftest import Table


def balances(table):
    return table.ledger.game().balances_by_name()


def test_a_card_on_the_plus_reader_receives_from_the_bank(table):
    table.insert("left", "Alice")
    table.type("1.5M")
    assert balances(table)["Alice"] == 16_500_000
    assert "Alice +1.5M" in table.shown and "16.5M" in table.shown
    assert table.tones()[-1] == "success"


def test_a_card_on_the_minus_reader_pays_the_bank(table):
    table.insert("right", "Bob")
    table.type("850K")
    assert balances(table)["Bob"] == 14_150_000
    assert "14.15M" in table.shown


def test_a_payment_the_card_cannot_cover_is_refused_with_the_shortfall(table):
    table.insert("right", "Bob")
    table.type("20M")
    assert balances(table)["Bob"] == 15_000_000
    assert "Bob short 5M" in table.shown
    assert table.shell.screen.error
    assert table.tones()[-1] == "refusal"


def test_negative_balances_when_the_game_allows_them(ledger):
    from banker.journal.records import GameSettings

    ledger.new_game(GameSettings(allow_negative=True))
    table = Table(ledger)
    table.enrol("Bob", "B2")
    table.insert("right", "Bob")
    table.type("20M")
    assert ledger.game().balances_by_name()["Bob"] == -5_000_000
    assert "-5M" in table.shown


def test_both_readers_transfer_from_minus_to_plus_and_show_both(table):
    table.insert("left", "Alice")
    table.insert("right", "Bob")
    table.type("2.5M")
    assert balances(table) == {"Alice": 17_500_000, "Bob": 12_500_000}
    assert table.screen_lines() == ["Paid 2.5M", "- Bob 12.5M", "+ Alice 17.5M"]


def test_a_transfer_the_payer_cannot_cover_moves_nothing(table):
    table.insert("left", "Alice")
    table.insert("right", "Bob")
    table.type("16M")
    assert balances(table) == {"Alice": 15_000_000, "Bob": 15_000_000}
    assert "Bob short 1M" in table.shown


def test_go_pays_the_plus_card_the_salary(table):
    table.insert("left", "Alice")
    table.press("GO")
    assert balances(table)["Alice"] == 17_000_000


def test_go_is_refused_with_a_card_on_the_minus_reader_or_while_typing(table):
    table.insert("left", "Alice")
    table.insert("right", "Bob")
    table.press("GO")
    assert "off the - reader" in table.shown
    table.remove("right")
    table.type("5")
    table.press("GO")
    assert "clear the" in table.shown
    assert balances(table)["Alice"] == 15_000_000


def test_the_same_card_on_both_readers_is_refused(table):
    table.insert("left", "Alice")
    table.insert("right", "Alice")
    assert "Same card on" in table.shown
    table.type("1M")
    assert balances(table)["Alice"] == 15_000_000


def test_a_card_pulled_mid_entry_cancels_it(table):
    table.insert("right", "Bob")
    table.type("3")
    table.remove("right")
    assert "Cancelled" in table.shown
    table.insert("right", "Bob")
    table.press("M")
    assert balances(table)["Bob"] == 15_000_000


def test_c_clears_the_entry(table):
    table.insert("left", "Alice")
    table.type("99")
    table.press("C")
    table.type("1M")
    assert balances(table)["Alice"] == 16_000_000


def test_holding_c_two_seconds_with_no_card_starts_a_new_game(table):
    table.insert("left", "Alice")
    table.type("5M")
    table.remove("left")
    old_game = table.ledger.game().id
    table.hold("C", 1.9)
    assert table.ledger.game().id == old_game
    table.hold("C", 2.0)
    assert table.ledger.game().id == old_game + 1
    assert balances(table) == {"Alice": 15_000_000, "Bob": 15_000_000}
    assert "new-game" in table.tones()
    # the old game is archived with its balances, never deleted
    archived = {g.id for g in table.ledger.games()}
    assert old_game in archived
    table.ledger.restore_game(old_game)
    assert balances(table)["Alice"] == 20_000_000


def test_the_new_game_fires_while_c_is_still_held(table):
    """As on the original: the confirmation tone comes while the key is still down."""
    table.shell.handle(KeyDown("C", 10.0))
    effects = table.shell.handle(Tick(12.0))
    assert PlayTone("new-game", table.ledger.game().volume) in effects


def test_holding_c_with_a_card_on_a_reader_does_not_start_a_new_game(table):
    table.insert("right", "Bob")
    old_game = table.ledger.game().id
    table.hold("C", 3)
    assert table.ledger.game().id == old_game
    assert "Take the cards" in table.shown


def test_dot_steps_the_volume_and_it_is_kept_across_restarts(tmp_path):
    path = tmp_path / "ledger.db"
    with SqliteLedger(path) as ledger:
        table = Table(ledger)
        levels = []
        for _ in range(4):
            table.press(".")
            levels.append(table.ledger.game().volume)
        assert levels == [3, 0, 1, 2]
        table.press(".")
        assert "Volume" in table.shown and "high" in table.shown
        assert table.shell.screen.volume == 3
    with SqliteLedger(path) as ledger:
        assert ledger.game().volume == 3


def test_tones_carry_the_volume(table):
    table.press(".")  # medium -> high
    table.insert("left", "Alice")
    table.type("1M")
    assert [e for e in table.effects if isinstance(e, PlayTone)][-1] == PlayTone("success", 3)  # then what is said


def test_a_card_placed_alone_shows_its_name_and_balance(table):
    table.insert("right", "Bob")
    assert table.screen_lines()[:2] == ["- Bob", "15M"]
    assert table.shell.screen.right and not table.shell.screen.left


def test_the_screen_sleeps_after_a_minute_and_the_first_key_only_wakes_it(table):
    table.insert("left", "Alice")
    table.type("7")
    table.wait(59)
    assert not table.shell.screen.asleep
    table.wait(2)
    assert table.shell.screen.asleep
    assert SetDisplayPower(False) in table.effects
    table.press("5")
    assert not table.shell.screen.asleep
    assert SetDisplayPower(True) in table.effects
    table.press("M")  # the 5 only woke the unit, and sleep dropped the 7
    assert balances(table)["Alice"] == 15_000_000


def test_sleep_time_is_configurable(ledger):
    unit = Shell(ledger, sleep_after=5)
    unit.handle(Tick(6))
    assert unit.screen.asleep


def test_a_card_wakes_the_unit_and_is_seen(table):
    table.wait(61)
    table.insert("left", "Alice")
    assert "+ Alice" in table.shown


def test_an_unknown_card_is_shown_as_unknown_and_nothing_happens(table):
    table.shell.handle(CardPlaced("left", "DEADBEEF", 1.0))
    assert "Unknown card" in table.shown and "DEADBEEF" in table.shown
    table.type("1M")
    assert "Unknown card" in table.shown
    assert len(table.ledger.transactions()) == 2  # the two openings only


def test_fn_enrols_an_unknown_card_as_the_next_player(table):
    table.shell.handle(CardPlaced("left", "CAFE01", 1.0))
    table.press("FN")
    assert table.ledger.game().card_by_uid("CAFE01").name == "Player 1"
    assert table.ledger.game().balances_by_name()["Player 1"] == 15_000_000
    assert "Enrolled" in table.shown


def test_at_most_eight_players_can_be_enrolled(table):
    for n in range(6):
        table.enrol(f"P{n}", f"F{n}")
    table.shell.handle(CardPlaced("left", "CAFE09", 1.0))
    table.press("FN")
    assert "8 players at most" in table.shown
    assert table.ledger.game().card_by_uid("CAFE09") is None


def test_a_record_the_store_cannot_write_shows_not_saved_and_changes_nothing(store, table):
    """The runtime's one commit rule: the record is written first; a failed append shows NOT SAVED."""
    table.insert("left", "Alice")
    table.type("1")
    before = table.ledger.game()
    store.fail_next("the disk is full")
    table.type("M")
    assert "NOT SAVED" in table.shown and "disk is full" in table.shown
    assert table.tones()[-1] == "refusal"
    assert table.ledger.game() is before and table.ledger.game().balances_by_name()["Alice"] == 15_000_000
    assert len(list(store.records())) == store.last_seq()
    table.type("1M")
    assert table.ledger.game().balances_by_name()["Alice"] == 16_000_000
    table.ledger.check()


def test_a_deed_tag_lifted_to_wake_the_unit_is_not_mistaken_for_a_player(table):
    """Sleep with a deed's tag on +, lift it to wake; later cards on + come and go as usual."""
    table.ledger.enrol_deed("boardwalk", "B0A4D0")
    table.shell.handle(CardPlaced("left", "B0A4D0", table.t))
    table.wait(61)
    table.remove("left")       # wakes the unit: the tag is gone
    table.insert("left", "Alice")
    table.remove("left")
    table.insert("right", "Bob")
    table.type("1M")           # Bob alone on -: he pays the bank
    assert table.ledger.game().balances_by_name() == {"Alice": 15_000_000, "Bob": 14_000_000}


def test_a_card_moved_while_the_pin_is_typed_cancels_the_enrolment(table):
    table.keys("FN", ".")
    table.type("1234M")
    table.type("1234M")
    table.shell.handle(CardPlaced("left", "EE01", table.t))
    table.press("FN")
    table.remove("left")
    assert "Cancelled" in table.shown
    table.type("1234M")
    assert table.ledger.game().card_by_uid("EE01") is None
