"""The everyday ``banker`` commands start without the page, the drivers, the window or any hardware library.

Each command runs in its own Python, as ``banker`` on the PATH runs it, and
leaves the names of the modules it loaded; none may be the table page
(web/), a driver (drivers/), the screen's renderer (render/), the
simulator's window or chips, or the libraries behind them (tkinter, pygame,
luma, gpiozero, pyserial, Pillow, aiohttp, segno). Behaviour, not timing:
benchmarks/bench_startup.py prints the times (issue 33).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROBE = ("import atexit, os, sys\n"
         "atexit.register(lambda: open(os.environ['MODULES_OUT'], 'w').write('\\n'.join(sys.modules)))\n"
         "from banker_cli.entry import main\nsys.argv[0] = 'banker'\nmain()\n")
#: Module prefixes none of these commands needs.
NEEDLESS = ("web", "drivers", "render", "firmware_sim.window_backend", "firmware_sim.desktop", "firmware_sim.hw_sim",
            "firmware_sim.serial_backend", "firmware_sim.display_sim", "tkinter", "pygame", "luma", "gpiozero",
            "serial", "PIL", "aiohttp", "segno")
ONE_PAYMENT = "enrol Alice\ninsert left Alice\npress 1 . 5 M\nexpect balance Alice 16.5M\n"


def loaded(tmp_path: Path, *args: str) -> set[str]:
    """The modules ``banker ARGS`` loaded (it must succeed)."""
    out = tmp_path / "modules.txt"
    env = {k: v for k, v in os.environ.items() if k not in ("BANKER_DB", "BANKER_CONFIG", "BANKER_PIN")}
    env.update(MODULES_OUT=str(out), PYTHONPATH=str(ROOT), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    done = subprocess.run([sys.executable, "-c", PROBE, *args], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stdout + done.stderr
    return set(out.read_text().split())


def needless(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if any(m == p or m.startswith(p + ".") for p in NEEDLESS))


@pytest.fixture
def game(tmp_path) -> tuple[Path, Path]:
    """A one-payment keypad script, and a ledger it was played on."""
    script = tmp_path / "one-payment.kps"
    script.write_text(ONE_PAYMENT, encoding="utf-8")
    db = tmp_path / "game.db"
    loaded(tmp_path, "script", "--db", str(db), str(script))
    return script, db


@pytest.mark.parametrize("args", [
    ("--help",), ("script", "{script}"), ("script", "--db", "{fresh}", "{script}"), ("ledger", "verify", "--db", "{db}"),
    ("game", "list", "--db", "{db}"), ("game", "new", "--db", "{db}"), ("cards", "list", "--db", "{db}"),
    ("ledger", "show", "--db", "{db}"), ("deeds", "list"), ("script", "--help"),
], ids=" ".join)
def test_an_everyday_command_loads_no_page_driver_window_or_hardware_library(tmp_path, game, args):
    script, db = game
    filled = [a.format(script=script, db=db, fresh=tmp_path / "fresh.db") for a in args]
    assert needless(loaded(tmp_path, *filled)) == []


def test_the_listing_loads_no_command_and_a_script_no_serial_client(tmp_path, game):
    script, _ = game
    listing = loaded(tmp_path, "--help")
    assert {m for m in listing if m.startswith(("banker_cli.", "runtime", "store", "banker."))} <= {
        "banker_cli.entry", "banker_cli.help_text"}
    assert "click" not in listing  # the kept help (banker_cli/help_text.py), click's own words
    assert "firmware_sim.serial_backend" not in loaded(tmp_path, "script", str(script))


def test_doctor_on_the_pi_loads_no_simulator(tmp_path):
    """``banker doctor --backend pi`` opens the real buses (here: none found, exit 1) and loads no firmware_sim/."""
    out = tmp_path / "modules.txt"
    env = dict(os.environ, MODULES_OUT=str(out), PYTHONPATH=str(ROOT))
    env.pop("BANKER_CONFIG", None)
    subprocess.run([sys.executable, "-c", PROBE, "doctor", "--backend", "pi"], cwd=tmp_path, env=env,
                   capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    modules = set(out.read_text().split())
    assert "drivers.display" in modules  # it did look for the hardware
    assert sorted(m for m in modules if m.startswith("firmware_sim")) == []
