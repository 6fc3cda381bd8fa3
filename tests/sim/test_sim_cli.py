"""``banker sim``: keypad scripts played in the window headless, screenshots, the real ledger, no display."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image, ImageChops

from banker_cli.sim import sim_command
from runtime.ledger import SqliteLedger
from firmware_sim.desktop import DEMO_PLAYERS, Layout, display_problem, oled_frame

REFERENCE = Path(__file__).resolve().parents[1] / "reference"
ROOT = Path(__file__).resolve().parents[2]


def sim(*args):
    return CliRunner().invoke(sim_command, [str(a) for a in args])


def script(tmp_path, text, name="play.kps"):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_a_script_plays_in_the_window_and_the_screenshot_shows_its_end(tmp_path):
    play = script(tmp_path, "enrol Alice A1\nenrol Bob B2\ninsert left Alice\nexpect screen 15M\n")
    shot = tmp_path / "end.png"
    result = sim("--script", play, "--screenshot", shot)
    assert result.exit_code == 0, result.output
    window = Image.open(shot)
    assert window.size == Layout(3).size
    frame = oled_frame(window, Layout(3))
    assert ImageChops.logical_xor(frame, Image.open(REFERENCE / "one-card.png").convert("1")).getbbox() is None


def test_the_scale_option_scales_the_window(tmp_path):
    shot = tmp_path / "small.png"
    assert sim("--script", script(tmp_path, "enrol Alice\n"), "--screenshot", shot, "--scale", 2).exit_code == 0
    assert Image.open(shot).size == Layout(2).size
    assert oled_frame(Image.open(shot), Layout(2)).size == (128, 64)


@pytest.mark.parametrize("kps", sorted((ROOT / "tests" / "scripts").glob("*.kps")) + sorted((ROOT / "examples").glob("*.kps")),
                         ids=lambda p: p.stem)
def test_every_keypad_script_passes_in_the_window_too(kps, tmp_path):
    result = sim("--script", kps, "--screenshot", tmp_path / "end.png")
    assert result.exit_code == 0, result.output


def test_a_failed_expectation_exits_1_with_its_line(tmp_path):
    play = script(tmp_path, "enrol Alice\ninsert right Alice\npress 1 M\nexpect balance Alice 15M\n")
    result = sim("--script", play, "--screenshot", tmp_path / "end.png")
    assert result.exit_code == 1
    assert "line 4: expected balance Alice 15M, got 14M" in result.output
    assert (tmp_path / "end.png").exists()  # the screenshot shows where it went wrong


def test_a_malformed_script_exits_2_and_opens_nothing(tmp_path):
    result = sim("--script", script(tmp_path, "enrol Alice\npress X\n"), "--screenshot", tmp_path / "end.png")
    assert result.exit_code == 2 and "line 2" in result.output
    assert not (tmp_path / "end.png").exists()


def test_a_game_played_in_the_simulator_goes_on_next_time(tmp_path):
    db = tmp_path / "ledger.db"
    first = script(tmp_path, "enrol Alice\nenrol Bob\ninsert left Alice\npress 1 M\nexpect balance Alice 16M\n", "first.kps")
    second = script(tmp_path, "expect balance Alice 16M\ninsert left Bob\ninsert right Alice\npress 5 0 0 K\n"
                              "expect balance Alice 15.5M\nexpect balance Bob 15.5M\n", "second.kps")
    assert sim("--db", db, "--script", first, "--screenshot", tmp_path / "1.png").exit_code == 0
    result = sim("--db", db, "--script", second, "--screenshot", tmp_path / "2.png")
    assert result.exit_code == 0, result.output
    with SqliteLedger(db) as ledger:
        assert ledger.game().balances_by_name() == {"Alice": 15_500_000, "Bob": 15_500_000}
        assert [tx.kind for tx in ledger.transactions()] == ["opening", "opening", "collect", "transfer"]
        ledger.check()


def test_a_fresh_ledger_gets_a_demo_game_once(tmp_path):
    db = tmp_path / "fresh.db"
    result = sim("--db", db, "--screenshot", tmp_path / "demo.png")
    assert result.exit_code == 0 and "demo game" in result.output
    with SqliteLedger(db) as ledger:
        assert ledger.game().balances_by_name() == {name: 15_000_000 for name in DEMO_PLAYERS}
    again = sim("--db", db, "--screenshot", tmp_path / "demo2.png")
    assert again.exit_code == 0 and "demo game" not in again.output
    with SqliteLedger(db) as ledger:
        assert len(ledger.game().cards) == len(DEMO_PLAYERS) and len(ledger.transactions()) == len(DEMO_PLAYERS)


def test_a_used_ledger_gets_no_demo_players(tmp_path):
    db = tmp_path / "used.db"
    with SqliteLedger(db) as ledger:
        ledger.enrol("Zoe", "0A0B")
    assert sim("--db", db, "--screenshot", tmp_path / "s.png").exit_code == 0
    with SqliteLedger(db) as ledger:
        assert [c.name for c in ledger.game().cards] == ["Zoe"]


def _no_display_env():
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    return env


def test_with_no_display_it_says_so_in_one_line_and_exits_non_zero(tmp_path):
    db = tmp_path / "never.db"
    run = subprocess.run([sys.executable, "-m", "banker_cli.sim", "--db", str(db)], cwd=ROOT, env=_no_display_env(),
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 3  # a device that can't be used (docs/cli.md)
    assert run.stderr.count("\n") == 1 and run.stderr.startswith("banker: no display")
    assert "Traceback" not in run.stderr and "--screenshot" in run.stderr
    assert not db.exists()  # nothing was opened or seeded


def test_with_no_display_a_screenshot_run_goes_headless_by_itself(tmp_path):
    shot = tmp_path / "auto.png"
    run = subprocess.run([sys.executable, "-m", "banker_cli.sim", "--script", str(ROOT / "tests/scripts/transfer.kps"),
                          "--screenshot", str(shot)], cwd=ROOT, env=_no_display_env(), capture_output=True,
                         text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert oled_frame(Image.open(shot), Layout(3)).getbbox() is not None


def test_display_problem_knows_where_a_window_can_open():
    assert display_problem({}, "linux") is not None
    assert display_problem({"DISPLAY": ":0"}, "linux") is None
    assert display_problem({"WAYLAND_DISPLAY": "wayland-0"}, "linux") is None
    assert display_problem({"SDL_VIDEODRIVER": "dummy"}, "linux") is None
    assert display_problem({}, "darwin") is None and display_problem({}, "win32") is None


# -- watching a script, scales, and a machine without the simulator's library ---------------------


def test_speed_plays_a_script_at_a_watchable_pace_with_the_same_outcome(tmp_path):
    from firmware_sim.desktop import DesktopSim
    from firmware_sim.window_backend import CARD_PAUSE, KEY_PAUSE, WindowBackend
    from banker.script import syntax as scripts
    from banker.script import run as script_run

    text = (ROOT / "examples" / "first-game.kps").read_text()
    outcomes = []
    for speed in (None, 2.0):
        slept = []
        with SqliteLedger(":memory:") as ledger, DesktopSim(ledger, sound=False) as window:
            backend = WindowBackend(window, speed=speed, sleep=slept.append)
            assert script_run.run(scripts.parse(text), backend) is None
            outcomes.append((ledger.game().balances_by_name(), [tx.kind for tx in ledger.transactions()]))
            draws = window.draws
        if speed is None:
            assert slept == [] and draws == 0  # at once, nothing shown
        else:
            keys = sum(len(line.split()) - 1 for line in text.splitlines() if line.startswith("press "))
            cards = sum(1 for line in text.splitlines() if line.startswith(("insert ", "remove ")))
            assert sum(slept) >= (keys * KEY_PAUSE + cards * CARD_PAUSE) / speed
            assert draws > keys + cards  # every step was shown
    assert outcomes[0] == outcomes[1]


def test_a_long_wait_is_shortened_when_watched():
    from firmware_sim.desktop import DesktopSim
    from firmware_sim.window_backend import LONGEST_PAUSE, WindowBackend

    slept = []
    with SqliteLedger(":memory:") as ledger, DesktopSim(ledger, sound=False) as window:
        backend = WindowBackend(window, speed=1, sleep=slept.append)
        backend.wait(61)
        assert window.shell.panel.asleep  # the unit's time passed in full
    assert sum(slept) == pytest.approx(LONGEST_PAUSE)


def test_closing_the_window_stops_a_watched_script_quietly(tmp_path, monkeypatch):
    import pygame

    from firmware_sim import window_backend

    def close_it(self, seconds):
        pygame.event.post(pygame.event.Event(pygame.QUIT))
        self._show()

    monkeypatch.setattr(window_backend.WindowHands, "pause", close_it)
    play = script(tmp_path, "enrol Alice\ninsert left Alice\npress 1 M\nexpect balance Alice 99M\n")
    result = sim("--script", play, "--speed", 1)
    assert result.exit_code == 0, result.output  # closed before the failing expect: no failure, no traceback
    assert "Traceback" not in result.output


def test_scales_below_the_legible_are_refused():
    from firmware_sim.desktop.layout import SCALES
    from banker_cli.sim import LARGEST_SCALE, SMALLEST_SCALE

    assert (SMALLEST_SCALE, LARGEST_SCALE) == (SCALES[0], SCALES[-1])
    result = sim("--scale", 1, "--screenshot", "/nonexistent/never.png")
    assert result.exit_code == 2 and "--scale" in result.output


WITHOUT_PYGAME = "import sys; sys.modules['pygame'] = None; sys.argv[0] = 'banker'; from banker_cli.main import cli; cli()"


@pytest.mark.parametrize("args", [["sim", "--screenshot", "shot.png"], ["script", "--backend", "window", "play.kps"]],
                         ids=["sim", "script-window"])
def test_without_pygame_the_simulator_says_how_to_install_it(args, tmp_path):
    (tmp_path / "play.kps").write_text("enrol Alice\n")
    run = subprocess.run([sys.executable, "-c", WITHOUT_PYGAME, *args], cwd=tmp_path, capture_output=True, text=True,
                         timeout=60, env={**os.environ, "SDL_VIDEODRIVER": "dummy"})
    assert run.returncode in (2, 3), run.stderr
    assert "Traceback" not in run.stderr and run.stderr.count("\n") == 1
    assert "pygame" in run.stderr and "pip install" in run.stderr and "[sim]" in run.stderr
    assert not (tmp_path / "shot.png").exists()


def _window_left_open(monkeypatch):
    """What the window shows once the script is over and the person would play on: its title and a picture
    (the loop of a person's play is replaced by one look, so the test ends)."""
    import pygame

    from firmware_sim.desktop import window

    seen = {}

    def look(self):
        seen["title"] = pygame.display.get_caption()[0]
        seen["window"] = self.screenshot()

    monkeypatch.setattr(window.DesktopSim, "run", look)
    return seen


def _tray_heading(image: Image.Image, layout: Layout) -> set:
    """The colours of the tray's heading line (where the window says a script has finished)."""
    from firmware_sim.desktop.layout import HINT

    x, y, w, _ = layout.tray
    strip = image.convert("RGB").crop((x, y + 2 * layout.scale, x + w, y + 12 * layout.scale))
    return {colour for _, colour in strip.getcolors(w * 10 * layout.scale)} & {HINT}


def test_a_watched_script_says_when_it_has_finished_and_play_goes_on(tmp_path, monkeypatch):
    seen = _window_left_open(monkeypatch)
    play = script(tmp_path, "enrol Alice A1\nenrol Bob B2\ninsert left Alice\nexpect screen 15M\nremove left\n")
    result = CliRunner().invoke(sim_command, ["--script", str(play), "--speed", "50", "--mute"])
    assert result.exit_code == 0, result.output
    assert f"banker: {play}: finished, 1 expectation held; the window plays on (close it to quit)" in result.stderr
    assert seen["title"] == "Monopoly Banker: simulator: Script finished: play on"
    assert _tray_heading(seen["window"], Layout(seen["window"].size[0] // 530))  # the note, in the hint's colour


def test_a_script_stopped_by_an_expectation_says_where_and_the_window_plays_on(tmp_path, monkeypatch):
    seen = _window_left_open(monkeypatch)
    play = script(tmp_path, "enrol Alice A1\nexpect balance Alice 1M\nenrol Bob\n")
    result = CliRunner().invoke(sim_command, ["--script", str(play), "--mute"])
    assert result.exit_code == 1
    assert "line 2: expected balance Alice 1M, got 15M; the window plays on from there" in result.stderr
    assert seen["title"].endswith("Script stopped at line 2: play on")


def test_a_screenshot_run_quits_without_a_note(tmp_path, monkeypatch):
    seen = _window_left_open(monkeypatch)
    shot = tmp_path / "end.png"
    result = sim("--script", script(tmp_path, "enrol Alice\n"), "--screenshot", shot)
    assert result.exit_code == 0 and "finished" not in result.output and not seen
    assert not _tray_heading(Image.open(shot), Layout(3))
