"""The simulator's side panels: balances, the last transactions (amounts never cut off), the estate; and their cost.

The panels must cost the same at every age of the game: they never read the
whole journal per frame, and the window's memory stays flat however many
frames it draws.
"""

import os

import pygame
import pytest
from PIL import Image, ImageChops

from firmware_sim.desktop import DesktopSim
from firmware_sim.desktop.layout import PANEL, PANEL_TEXT, SCALES
from firmware_sim.desktop.panel import HISTORY, PanelSource
from firmware_sim.window_backend import WindowBackend
from runtime.ledger import SqliteLedger

LONG_NAME = "Maximiliana Wolfeschlegel"[:24]


@pytest.fixture
def sim(ledger):
    with DesktopSim(ledger, sound=False) as window:
        yield window


@pytest.fixture
def hand(sim) -> WindowBackend:
    return WindowBackend(sim)


def rows_in(sim, rect) -> list[list[str]]:
    """The text drawn inside ``rect`` (a panel), line by line, each line left to right."""
    sim.screenshot()
    rows: dict[int, list[tuple[int, str]]] = {}
    for text, where in sim.painter.texts:
        if pygame.Rect(rect).contains(where):
            rows.setdefault(where.y, []).append((where.x, text))
    return [[text for _, text in sorted(row)] for _, row in sorted(rows.items())]


def ledger_rows(sim):
    return rows_in(sim, sim.layout.panel)


def estate_rows(sim):
    return rows_in(sim, sim.layout.estate)


def buy(hand, square: str, name: str) -> None:
    hand.press("FN")
    for digit in square:
        hand.press(digit)
    hand.insert("right", name)
    hand.press("M")
    hand.remove("right")


# -- what they say ----------------------------------------------------------------------------


def test_the_ledger_panel_shows_every_balance_and_the_last_transactions(hand, sim):
    hand.insert("left", "Alice")
    hand.insert("right", "Bob")
    for key in "2.5M":
        hand.press(key)
    rows = ledger_rows(sim)
    assert ["+", "Alice", "17.5M"] in rows and ["-", "Bob", "12.5M"] in rows
    assert ["#3 Bob pays Alice", "2.5M"] in rows and ["#1 Alice starts", "15M"] in rows


def test_the_panels_text_is_really_in_the_window(hand, sim):
    hand.insert("left", "Alice")
    for key in "2.5M":
        hand.press(key)
    shot = sim.screenshot()
    (text, rect), = [(t, r) for t, r in sim.painter.texts if t == "17.5M"]
    drawn = sim.painter.fonts["text"].render(text, True, PANEL_TEXT, PANEL)
    expected = Image.frombytes("RGB", drawn.get_size(), pygame.image.tobytes(drawn, "RGB"))
    assert ImageChops.difference(shot.crop((rect.x, rect.y, rect.right, rect.bottom)), expected).getbbox() is None


def test_a_rules_transaction_names_its_deed_and_the_estate_shows_the_owner(hand, sim):
    buy(hand, "39", "Alice")
    assert ["#3 Bought Boardwalk: Alice pays Bank", "4M"] in ledger_rows(sim)
    rows = estate_rows(sim)
    assert ["Alice"] in rows and ["Boardwalk"] in rows
    assert ["Bank: 27 unsold, 32 houses, 12 hotels"] in rows


def test_the_estate_shows_houses_and_mortgages(hand, sim, ledger):
    for square in ("01", "03"):
        buy(hand, square, "Alice")
    for square in ("01", "03"):  # two houses, evenly: one on each brown lot
        for key in ("FN", *square):
            hand.press(key)
        hand.insert("right", "Alice")
        hand.press("1")
        hand.remove("right")
    buy(hand, "05", "Bob")
    hand.press("FN")
    hand.press("0")
    hand.press("5")
    hand.insert("right", "Bob")
    hand.press(".")  # mortgaged
    hand.remove("right")
    rows = estate_rows(sim)
    flat = [text for row in rows for text in row]
    assert "Medit. Ave 1h" in flat and "Baltic Ave 1h" in flat
    assert "Reading RR mortg" in flat
    assert flat.index("Alice") < flat.index("Medit. Ave 1h") < flat.index("Bob") < flat.index("Reading RR mortg")
    assert ["Bank: 25 unsold, 30 houses, 12 hotels"] in rows


def test_an_empty_estate_says_so(sim):
    assert ["No deed sold yet"] in estate_rows(sim)


@pytest.mark.parametrize("scale", [SCALES[0], 3])
def test_a_ledger_line_never_cuts_off_its_amount(scale):
    with SqliteLedger(":memory:") as ledger:
        ledger.enrol(LONG_NAME, "C1")
        ledger.enrol("Bob", "B2")
        with DesktopSim(ledger, scale=scale, sound=False) as sim:
            hand = WindowBackend(sim)
            hand.insert("left", LONG_NAME)
            for key in ("9", "9", "9", "9", "9", "K"):  # the longest amount a player can type: 99.999M
                hand.press(key)
            hand.remove("left")
            hand.press("FN")
            hand.press("C")
            hand.press("M")  # undone: "Reversal of #3: ..." is longer still
            buy(hand, "11", LONG_NAME)  # St. Charles Place
            lines = sim.panel_source.text(sim.table.on).history
            assert any(len(line.text) > 30 for line in lines)  # too long for the panel: the words are cut
            sim.screenshot()
            panel = pygame.Rect(sim.layout.panel)
            drawn = [(t, r) for t, r in sim.painter.texts if panel.contains(r)]
            for line in lines:
                (words, words_at), = [(t, r) for t, r in drawn if t.startswith(line.number + " ")]
                (amount, amount_at), = [(t, r) for t, r in drawn if r.y == words_at.y and t != words]
                assert amount == line.amount, f"{line.amount!r} was drawn as {amount!r}"
                assert words_at.right <= amount_at.left and panel.contains(amount_at)
            assert "99.999M" in {line.amount for line in lines}


# -- what they cost ----------------------------------------------------------------------------


class Counting:
    """A store wrapper that counts the calls that read many records."""

    def __init__(self, store):
        self._store = store
        self.reads = 0

    def __getattr__(self, name):
        found = getattr(self._store, name)
        if name in ("game_transactions", "records"):
            def counted(*args, **kwargs):
                self.reads += 1
                return found(*args, **kwargs)
            return counted
        return found


def test_frames_never_read_the_whole_game(hand, sim, ledger):
    counting = Counting(ledger.store)
    ledger.store = counting
    for n in range(30):
        hand.insert("left" if n % 2 else "right", "Alice")
        hand.press("1")
        hand.press("K")
        hand.remove("left" if n % 2 else "right")
    for _ in range(200):
        sim.frame()
    sim.screenshot()
    assert counting.reads == 0
    assert sim.panel_source.reloads == 1  # the first frame; each new transaction came with the game
    assert len(sim.panel_source.text(sim.table.on).history) == HISTORY


def test_a_new_game_reads_back_only_its_last_few_transactions(ledger):
    source = PanelSource(ledger)
    source.text({})
    ledger.new_game()
    lookups = []
    real = ledger.transaction
    ledger.transaction = lambda tx_id: lookups.append(tx_id) or real(tx_id)
    text = source.text({})
    assert [line.text for line in text.history] == ["Bob starts", "Alice starts"]
    assert len(lookups) <= 2 and source.reloads == 2


def rss_mib() -> float:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="reads the resident size from /proc (Linux)")
def test_memory_stays_flat_over_twenty_thousand_frames(ledger):
    with DesktopSim(ledger, scale=SCALES[0], sound=False) as sim:
        hand = WindowBackend(sim)
        for frame in range(20_000):
            if frame % 20 == 0:  # a card laid down or taken away: a new OLED frame and new panels
                hand.hotkey(1 + frame // 20 % 2, shift=False)
            else:
                sim.frame()
            if frame == 2_000:
                settled = rss_mib()
        assert sim.draws >= 1_000
        assert rss_mib() - settled < 8, f"the window grew from {settled:.1f} to {rss_mib():.1f} MiB"
