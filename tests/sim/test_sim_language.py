"""The simulator's window speaks the game's language: every word of its panels, tray, slots and title comes from the
catalogs (context ``sim``), follows FN 8 on the next frame, and fits its box in every language at every scale."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest
from babel.messages.pofile import read_po

from banker.text.i18n import LANGUAGES
from banker.journal.records import BANK, POT, Posting, Transaction
from firmware_sim.desktop import DesktopSim
from firmware_sim.desktop.layout import SCALES
from firmware_sim.desktop.panel import RULE_MEMOS, describe, memo_in
from firmware_sim.window_backend import WindowBackend
from runtime.languages import translations_for
from runtime.ledger import SqliteLedger

LOCALES = Path(__file__).resolve().parents[2] / "locales"
TRANSLATED = [code for code in LANGUAGES if code != "en"]

#: Words of the German window's ledger panel: its titles and the key help.
GERMAN_LEDGER = ("Journal", "Guthaben", "Letzte Buchungen", "Tasten: 0-9 . M K C, G = GO, F = FN",
                 "F1-F12: Karte auf +, Umschalt: auf -, Alt: obenauf", "Strg+Q beendet")


def rows_in(sim, rect) -> list[list[str]]:
    """The panel text drawn inside ``rect``, line by line, each line left to right."""
    sim.screenshot()
    rows: dict[int, list[tuple[int, str]]] = {}
    for text, where in sim.painter.texts:
        if pygame.Rect(rect).contains(where):
            rows.setdefault(where.y, []).append((where.x, text))
    return [[text for _, text in sorted(row)] for _, row in sorted(rows.items())]


def flat(sim, rect) -> list[str]:
    return [text for row in rows_in(sim, rect) for text in row]


def keys(hand, *pressed: str) -> None:
    for key in pressed:
        hand.press(key)


def buy(hand, square: str, name: str) -> None:
    keys(hand, "FN", *square)
    hand.insert("right", name)
    hand.press("M")
    hand.remove("right")


def play_a_little(hand) -> None:
    """A payment undone, GO, deeds bought, a house, a mortgage: every kind of line and mark the panels write."""
    hand.insert("left", "Alice")
    hand.insert("right", "Bob")
    keys(hand, "2", ".", "5", "M")
    keys(hand, "FN", "C", "M")  # undone: a reversal
    keys(hand, "1", "M")
    hand.remove("right")
    hand.press("GO")
    hand.remove("left")
    for square in ("01", "03"):
        buy(hand, square, "Alice")
    keys(hand, "FN", "0", "1")
    hand.insert("right", "Alice")
    hand.press("1")  # a house on Mediterranean Avenue
    hand.remove("right")
    buy(hand, "05", "Bob")
    keys(hand, "FN", "0", "5")
    hand.insert("right", "Bob")
    hand.press(".")  # mortgaged
    hand.remove("right")


# -- what the window says ------------------------------------------------------------------------


def test_a_german_game_draws_every_panel_word_in_german(ledger):
    with DesktopSim(ledger, sound=False, language="de") as sim:
        hand = WindowBackend(sim)
        assert ["Noch kein Grundstück verkauft"] in rows_in(sim, sim.layout.estate)
        buy(hand, "39", "Alice")
        hand.insert("left", "Bob")
        hand.press("GO")
        ledger_words = flat(sim, sim.layout.panel)
        estate_words = flat(sim, sim.layout.estate)
        drawn = sim.painter.drawn
    assert [word for word in GERMAN_LEDGER if word not in ledger_words] == []
    assert "Spiel 1: Start 15M, Los 2M" in ledger_words
    assert "#1 Alice startet" in ledger_words and "#4 Bob ging über Los" in ledger_words
    assert "#3 Gekauft Boardwalk: Alice zahlt Bank" in ledger_words  # the rule's memo in German too
    assert "Besitz" in estate_words and "Bank: 27 frei, 32 Häuser, 12 Hotels" in estate_words
    assert "Karten: auf einen Leser ziehen" in drawn and "+  erhält" in drawn and "-  zahlt" in drawn
    assert "Neue" in drawn and "FN meldet an" in drawn and "MONOPOLY-BANK" in drawn
    assert sim.caption == "Monopoly-Bank: Simulator"
    english = {"Ledger", "Balances", "Last transactions", "Estate", "Cards: drag onto a slot", "+  receives"}
    assert english.isdisjoint(drawn)


def test_the_panels_follow_fn_8_at_once(ledger):
    with DesktopSim(ledger, sound=False) as sim:
        hand = WindowBackend(sim)
        assert "Ledger" in flat(sim, sim.layout.panel) and sim.caption == "Monopoly Banker: simulator"
        keys(hand, "FN", "8", "2")  # Deutsch
        assert ledger.game().language == "de"
        sim.frame()  # the window's own loop draws it: no screenshot asked for
        assert "Journal" in sim.painter.drawn and "Karten: auf einen Leser ziehen" in sim.painter.drawn
        assert sim.caption == "Monopoly-Bank: Simulator"
        assert "Journal" in flat(sim, sim.layout.panel) and "Ledger" not in flat(sim, sim.layout.panel)
        keys(hand, "C", "FN", "8", "3")  # Français
        sim.frame()
        assert "Registre" in flat(sim, sim.layout.panel) and "Propriétés" in flat(sim, sim.layout.estate)
        keys(hand, "C", "FN", "8", "1")  # English again
        sim.frame()
        assert "Ledger" in flat(sim, sim.layout.panel) and "Cards: drag onto a slot" in sim.painter.drawn


def test_the_sleeping_hint_is_in_the_games_language(ledger):
    with DesktopSim(ledger, sound=False, language="es") as sim:
        WindowBackend(sim).wait(61)
        sim.screenshot()
        assert sim.shell.panel.asleep and sim.painter.hint == "En reposo: tecla o tarjeta lo despierta"


def test_the_bank_and_free_parking_are_named_in_the_games_language():
    german = translations_for("de")
    to_pot = Transaction("to-pot", (Posting(1, POT, 100_000, "to-pot"),), "")
    assert describe(to_pot, {1: "Alice"}, german) == ("Alice zahlt Frei Parken", "100K")
    pay = Transaction("pay", (Posting(1, BANK, 50_000, "pay"),), "Alice paid bank")
    assert describe(pay, {1: "Alice"}, translations_for("nl")) == ("Alice betaalt Bank", "50K")
    assert describe(to_pot, {1: "Alice"})[0] == "Alice pays Free Parking"  # English: the message ids


def test_a_rules_memo_read_back_from_the_journal_is_shown_in_the_games_language():
    """Read back, a memo is only its English words: a rule's is matched and translated, any other shown as is."""
    bought = Transaction("buy", (Posting(1, BANK, 4_000_000, "buy"),), "Bought Boardwalk")
    assert describe(bought, {1: "Alice"}, translations_for("de")) == ("Gekauft Boardwalk: Alice zahlt Bank", "4M")
    assert memo_in("Rent Park Place", translations_for("es")) == translations_for("es").gettext(
        "Rent {deed}").format(deed="Park Place") != "Rent Park Place"
    assert memo_in("Alice bankrupt to Bob", translations_for("de")) == "Alice bankrupt to Bob"


# -- what fits -------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def played():
    """A ledger per language with every kind of panel line in it."""
    ledgers = {}
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("SDL_VIDEODRIVER", "dummy")
        for code in LANGUAGES:
            led = SqliteLedger(":memory:")
            led.enrol("Alice", "A1")
            led.enrol("Bob", "B2")
            with DesktopSim(led, sound=False, language=code) as sim:
                play_a_little(WindowBackend(sim))
            ledgers[code] = led
    yield ledgers
    for led in ledgers.values():
        led.close()


@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("code", LANGUAGES)
def test_every_word_fits_its_box_in_every_language(played, code, scale):
    """Drawn whole, never cut to its box: only a journal line (names, memos) may be cut, and never its amount."""
    with DesktopSim(played[code], scale=scale, sound=False, language=code) as sim:
        hand = WindowBackend(sim)
        sim.table.add_loose("Zoe", "Z9")  # a card the ledger doesn't know: "not enrolled"
        hand.insert("left", "Alice")
        hand.insert("right", "Bob")
        sim.screenshot()
        cut = [whole for whole, _ in sim.painter.cut if not whole.startswith("#")]
        hand.remove("left")
        hand.remove("right")
        hand.wait(61)  # asleep: the hint under the dark screen
        sim.screenshot()
        cut += [whole for whole, _ in sim.painter.cut if not whole.startswith("#")]
    assert cut == []


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_windows_sentences_are_translated_not_left_in_english(code):
    with open(LOCALES / code / "LC_MESSAGES" / "banker.po", "rb") as fh:
        sim = [m for m in read_po(fh, locale=code) if m.id and m.context == "sim"]
    assert len(sim) >= 30  # the window's words are in this catalog
    sentences = [m for m in sim if isinstance(m.id, str) and len(m.id.split()) >= 3 and not m.id.startswith("{")]
    assert sentences and [m.id for m in sentences if m.string == m.id] == []


def test_the_rules_memos_the_panel_matches_are_texts_the_core_still_writes():
    with open(LOCALES / "banker.pot", "rb") as fh:
        template = {m.id for m in read_po(fh) if m.id and not m.context}
    assert set(RULE_MEMOS) <= template


def test_the_note_a_finished_script_leaves_is_in_the_games_language_and_follows_it(ledger):
    from firmware_sim.desktop.window import SCRIPT_FINISHED, SCRIPT_STOPPED

    with DesktopSim(ledger, sound=False, language="de") as sim:
        sim.tell(SCRIPT_STOPPED, line=7)
        sim.screenshot()
        assert "Skript hielt in Zeile 7: weiterspielen" in sim.painter.drawn and not sim.painter.cut
        assert sim.caption == "Monopoly-Bank: Simulator: Skript hielt in Zeile 7: weiterspielen"
        sim.tell(SCRIPT_FINISHED)
        keys(WindowBackend(sim), "FN", "8", "5")  # Nederlands
        sim.frame()
        assert "Script klaar: speel verder" in sim.painter.drawn
        assert sim.caption.endswith(": Script klaar: speel verder")
