"""The screen model and the frame agree: every line of every screen the unit shows is drawn, whole, where it goes.

What a keypad script's ``expect screen``, the voice and the table page read
is the model (``screen(panel, game)``); what a player reads is the 128x64
frame. Here every screen of the examples (played through the keypad-script
driver, in each language the unit speaks) and every screen a few moves away
from each of their steps and from a fresh table (tests/keypad/frames_walk.py) is
drawn, and each of its lines is drawn again alone with the font where the
layout places it: the frame must hold exactly those pixels there
(tests/keypad/frames_support.py).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pytest

from banker.text.i18n import LANGUAGES
from banker.unit.modes.base import Mode
from banker.unit.screen import Screen
from banker.script.syntax import ExpectScreen, parse
from banker.script.run import run
from firmware_sim.memory_store import MemoryStore
from runtime.languages import translations_for
from runtime.ledger import Ledger
from render import render_image
from runtime.script_shell import CoreBackend
from tests.keypad.frames_support import disagreements
from tests.keypad.frames_walk import walk

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.kps"))
SCRIPTS = sorted((ROOT / "tests" / "scripts").glob("*.kps"))
#: A card no one enrolled, laid on a reader during the walks.
STRANGER = "DEADBEEF"


class Recorder:
    """A display that keeps every screen the shell sends it, and the panel and game each was drawn for."""

    def __init__(self) -> None:
        self.shell = None
        self.screens: list[Screen] = []
        self.states: list[tuple] = []

    def show(self, screen: Screen) -> None:
        self.screens.append(screen)
        self.states.append((self.shell.panel, self.shell.ledger.game()))

    def power(self, on: bool) -> None:
        pass


def played(path: Path, language: str = "en") -> Recorder:
    """``path`` played through the keypad-script driver on a fresh ledger, its screens in ``language``
    (another language than English skips the script's ``expect screen`` lines: they quote English)."""
    lines = [line for line in parse(path.read_text(encoding="utf-8"))
             if language == "en" or not isinstance(line.step, ExpectScreen)]
    recorder = Recorder()
    with Ledger(MemoryStore()) as ledger:
        backend = CoreBackend(ledger)
        recorder.shell = backend.shell
        backend.shell.display = recorder
        backend.shell.language = language
        failure = run(lines, backend)
    assert failure is None, f"{path.name} in {language}: {failure}"
    return recorder


def problems_of(screens, label: str) -> list[str]:
    found = {}
    for screen in screens:
        if screen.lines not in found:
            problems = disagreements(screen)
            if problems:
                found[screen.lines] = f"{label}: {' | '.join(screen.lines)}: {'; '.join(problems)}"
    return list(found.values())


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_every_screen_of_an_example_is_drawn_whole(path, language):
    recorder = played(path, language)
    assert recorder.screens, f"{path.name} drew nothing"
    assert problems_of(recorder.screens, f"{path.name} ({language})") == []


@lru_cache(maxsize=1)
def walked() -> tuple[tuple, ...]:
    """The states a few moves from a fresh table (four moves) and from each drawn step of every script (one)."""
    states = []
    for path in EXAMPLES + SCRIPTS:
        recorder = played(path)
        uids = _uids(recorder.shell.ledger.game())
        starts = {}
        for panel, at in recorder.states:
            starts.setdefault((type(panel.mode), panel.left, panel.right, panel.message is None, id(at)), (panel, at))
        for panel, at in starts.values():
            states += walk(panel, at, uids, depth=1)
    fresh = played(EXAMPLES[0])  # only for a ledger with Alice and Bob: walk from its first screen
    panel, game = fresh.states[0]
    states += walk(panel, game, _uids(game), depth=4)
    return tuple(states)


def _uids(game) -> tuple[str, ...]:
    """What the walks lay on the readers: two players' cards, a deed's tag if the game has one, a stranger."""
    return tuple(card.uid for card in game.cards[:2]) + tuple(game.deed_tags.values())[:1] + (STRANGER,)


def _subclasses(kind: type) -> set[type]:
    found = set()
    for sub in kind.__subclasses__():
        found |= {sub} | _subclasses(sub)
    return found


def _showing(panel) -> type:
    """The mode whose screen ``panel`` shows: the home screen with none; the game menu is the player menu's
    with no card on a reader (banker.unit.flows.player)."""
    from banker.unit.flows.game_menu import GameMenu
    from banker.unit.flows.home import Home
    from banker.unit.flows.player import PlayerMenu

    if panel.mode is None:
        return Home
    if isinstance(panel.mode, PlayerMenu) and not panel.cards_down:
        return GameMenu
    return type(panel.mode)


def test_the_walks_reach_every_mode_of_the_unit():
    reached = {_showing(panel) for panel, _ in walked()}
    abstract = {cls for cls in _subclasses(Mode) if cls.__name__ in ("Flow", "AmountFlow")}
    missed = sorted(cls.__qualname__ for cls in _subclasses(Mode) - abstract - reached)
    assert missed == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_screen_a_few_moves_from_any_step_is_drawn_whole(language):
    from banker.unit.step import screen

    tr = translations_for(language)
    seen: dict = {}
    for panel, game in walked():
        shown = screen(panel, game, tr)
        seen.setdefault(shown, None)
    assert len(seen) > 1000
    assert problems_of(seen, language) == []


def test_the_worth_screen_draws_its_end_value(table):
    table.insert("left", "Alice")
    table.keys("FN", "GO", "0")
    shown = table.shell.screen
    assert shown.shows("End value 15M")
    assert disagreements(shown) == []


def test_a_line_the_frame_cannot_hold_is_found():
    """The check itself: a sixth line, a line under the hold's bar, a line wider than the panel are reported."""
    assert disagreements(Screen(lines=("a", "b", "c", "d", "e", "f"))) == ["line 6 'f' is not drawn"]
    assert disagreements(Screen(lines=("a", "b", "c", "d"), progress=0.5))[0].startswith("line 4 'd': the frame's")
    assert "falls outside the frame" in disagreements(Screen(lines=("W" * 22,)))[0]
    assert disagreements(Screen(lines=("a", "b"), big=0, left=True, error=True)) == []


def test_five_rows_of_lines_take_the_status_bars_place():
    """A worth screen needs five rows (its worth is a big line): the status bar gives its rows, nothing is cut."""
    worth = Screen(lines=("Alice worth", "16.5M", "Cash 15M", "End value 16M"), big=1, left=True)
    four = Screen(lines=("Alice", "16.5M", "Bank pays Alice"), big=1, left=True)
    assert (worth.rows, four.rows) == (5, 4)
    assert render_image(four).getpixel((0, 5)) and not render_image(worth).getpixel((0, 5))  # the + reader's box
    assert disagreements(worth) == disagreements(four) == []


def _under_a_balance(shown: Screen) -> int | None:
    """The line under a balance drawn with large digits, which render.large leaves out (docs/guide.md)."""
    from render import large

    if large.applies(shown) and not large.typing(shown) and len(shown.lines) > shown.big + 1:
        return shown.big + 1
    return None


def test_large_digits_draw_every_line_but_the_one_under_a_balance():
    """With ``[display] digits = "large"`` the one line the frame leaves out is the one under a balance (the
    money takes its rows): every other line of every walked screen is drawn whole."""
    from banker.unit.step import screen

    seen, left, problems = set(), 0, {}
    for panel, game in walked():
        shown = screen(panel, game)
        if shown in seen:
            continue
        seen.add(shown)
        found = disagreements(shown, "large")
        under = _under_a_balance(shown)
        if under is not None:
            expected = f"line {under + 1} {shown.lines[under]!r} is not drawn"
            left += expected in found
            found = [problem for problem in found if problem != expected]
        if found:
            problems[shown.lines] = found
    assert problems == {}
    assert left > 0
