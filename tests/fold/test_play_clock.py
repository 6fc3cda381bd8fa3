"""The time-limit game: play time counted from the events' own clock, journalled, surviving restarts and wrong clocks."""

from __future__ import annotations

import pytest

from banker.errors import Refused
from banker.fold.game import apply
from banker.journal.records import PlayClock
from runtime.ledger import open_ledger
from tests.conftest import Table


def timed(table: Table, minutes: int) -> None:
    table.type(f"FN GO 1 5 {' '.join(str(minutes))} M M")
    table.press("C")


def clocks(ledger) -> list[float]:
    return [r.played for r in ledger.store.records(0) if isinstance(r, PlayClock)]


def test_the_idle_screen_counts_down_and_the_buzzer_warns_before_the_end(table):
    timed(table, 10)
    assert "10 min left" in table.shown
    table.wait(59)
    assert clocks(table.ledger) == []  # nothing journalled before a whole minute of play
    table.wait(2)
    assert clocks(table.ledger) == [pytest.approx(60, abs=0.5)]
    table.effects.clear()
    table.wait(240)
    assert "5 minutes" in table.shown and "warning" in table.tones()
    assert len(clocks(table.ledger)) == 5  # one a minute


def test_at_the_end_the_standings_show_and_play_is_refused_everywhere(table):
    table.insert("right", "Alice")
    table.type("1M")
    table.remove("right")
    timed(table, 2)
    table.wait(121)
    assert table.screen_lines()[:3] == ["Time is up!", "1. Alice 15M", "1. Bob 15M"]
    game = table.ledger.game()
    assert game.time_up and game.played == 120
    dealt_balance = table.balance("Alice")  # the start balance less the two deeds dealt at their prices
    table.insert("right", "Alice")
    table.type("1M")
    assert "Time is up" in table.shown and table.balance("Alice") == dealt_balance
    with pytest.raises(Refused, match="Time is up"):
        table.ledger.commit(game.numbered(game.last))  # the write path refuses it too (CLI, scripts, serial)
    table.remove("right")
    table.hold("C", 3)  # a new game starts the clock over
    assert not table.ledger.game().time_up and table.ledger.game().time_left == 120


def test_the_time_survives_a_restart_losing_at_most_a_minute(tmp_path):
    db = tmp_path / "ledger.db"
    with open_ledger(db) as ledger:
        table = Table(ledger)
        table.enrol("Alice", "A1")
        timed(table, 30)
        table.wait(10 * 60 + 30)  # 10.5 minutes of play
    with open_ledger(db) as ledger:  # the unit restarts: the panel is fresh, the journal knows 10 minutes
        assert ledger.game().played == pytest.approx(600, abs=1)
        table = Table(ledger, start=5.0)  # a new process's monotonic clock starts anywhere
        table.wait(5 * 60 + 1)
        assert ledger.game().played == pytest.approx(900, abs=1)
        table.press("C")
        assert "15 min left" in table.shown


def test_a_wrong_or_jumping_wall_clock_changes_nothing(table):
    timed(table, 10)
    shell = table.shell
    for wall in (0.0, 4_000_000_000.0, 1_000.0):  # boot time of 1970, a clock hours ahead, then set back
        shell.wall_clock = lambda wall=wall: wall
        table.wait(60)
        table.press("C")
    assert table.ledger.game().played == pytest.approx(180, abs=1)
    assert "7 min left" in table.shown


def test_the_play_clock_never_runs_backwards_or_past_the_limit(table):
    timed(table, 10)
    table.wait(121)
    game = table.ledger.game()
    for played in (game.played - 1, 601.0):
        with pytest.raises(Refused, match="play clock"):
            apply(game, PlayClock(game.id, played))
    with pytest.raises(Refused, match="not a current time-limit game"):
        apply(game, PlayClock(game.id + 1, 200.0))


def test_a_game_without_a_limit_writes_no_clock(table):
    table.wait(3600)
    assert clocks(table.ledger) == [] and table.ledger.game().time_left is None


def test_an_hour_is_offered_only_while_the_clock_is_synchronised(table):
    table.type("FN GO 1 5")
    assert "clock unset" in table.shown
    table.type("2 1 . 3 0 K")
    assert "Clock unset" in table.shown
    table.press("C")
    shell = table.shell
    shell.time_of_day = lambda: 20 * 3600 + 15 * 60  # 20:15, network time
    table.type("FN GO 1 5")
    assert "or hour.min then K" in table.shown
    table.type("2 1 . 3 0 K")
    assert "5 1h 15m" in table.shown  # until 21:30
    table.press("M")
    assert table.ledger.game().settings.time_limit == 75 * 60


def test_an_hour_already_past_means_tomorrow(table):
    table.shell.time_of_day = lambda: 23 * 3600
    table.type("FN GO 1 5 1 . 0 0 K")
    assert "5 2h 00m" in table.shown


def test_the_time_left_survives_restoring_the_game(table):
    timed(table, 10)
    table.wait(181)
    timed_game = table.ledger.game().id
    table.type("FN GO 1 5 M")  # 5 again: the time limit off
    table.ledger.restore_game(timed_game)
    game = table.ledger.game()
    assert game.id == timed_game and game.played == pytest.approx(180, abs=1) and game.time_left == pytest.approx(420, abs=1)


def test_ticks_with_the_unit_asleep_count_and_the_warning_wakes_it(table):
    timed(table, 10)
    table.wait(290)
    assert table.shell.screen.asleep and len(clocks(table.ledger)) == 4  # asleep, still counting
    table.wait(20)  # the 5-minute warning at 300 s
    assert not table.shell.screen.asleep and "5 minutes" in table.shown


def test_the_system_clock_is_asked_whether_it_is_synchronised(monkeypatch):
    from runtime import wall_clock

    assert isinstance(wall_clock.clock_synced(), bool)  # the kernel's own answer (adjtimex), here whatever it is
    monkeypatch.setattr(wall_clock, "clock_synced", lambda: False)
    assert wall_clock.time_of_day() is None
    monkeypatch.setattr(wall_clock, "clock_synced", lambda: True)
    assert 0 <= wall_clock.time_of_day() < 24 * 3600


def test_the_cli_ends_a_game_at_an_hour_as_the_keypad_does(tmp_path, monkeypatch):
    from runtime import wall_clock
    from tests.cli.support import banker

    db = tmp_path / "ledger.db"
    monkeypatch.setattr(wall_clock, "time_of_day", lambda: None)
    refused = banker("game", "new", "--end-at", "21:30", "--db", db)
    assert refused.exit_code == 2 and "clock is not synchronised" in refused.output
    monkeypatch.setattr(wall_clock, "time_of_day", lambda: 23 * 3600.0)  # 23:00, network time
    started = banker("game", "new", "--end-at", "1:00", "--db", db)
    assert started.exit_code == 0 and started.output == "game 2 started: 0 players at 15M\n"  # the refusal started none
    with open_ledger(db) as ledger:
        assert ledger.game().settings.time_limit == 2 * 3600  # tomorrow, as "1.00 K" on the keypad
    bad = banker("game", "new", "--end-at", "24:00", "--db", db)
    assert bad.exit_code == 2 and "an hour as HH:MM (21:30)" in bad.output
