"""Make the pictures of docs/guide.md: keypad scripts played in the desktop simulator, headless.

Run it from the repository's root after a change of the unit's look or flows:

    .venv/bin/python docs/make_screenshots.py

Each picture is a keypad script (the format of docs/cli.md) played in the
simulator's window over a fresh demo game (Alice, Bob, Cleo and Dan at 15M),
exactly as ``banker sim --script FILE --screenshot PNG`` plays it; the
window is then cut to the unit (or kept whole for the overview).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from banker import script as scripts  # noqa: E402
from runtime.ledger import SqliteLedger  # noqa: E402
from firmware_sim.desktop import DesktopSim, seed_demo  # noqa: E402
from firmware_sim.window_backend import WindowBackend  # noqa: E402

OUT = ROOT / "docs" / "img"
SCALE = 3

#: name: (what to cut out: "window" or "unit", the keypad script)
SHOTS: dict[str, tuple[str, str]] = {
    "window": ("window", """
        insert left Alice
        insert right Bob
        press 6 0 K
        expect screen Paid 60K
        remove left
        remove right
        insert left Cleo
        press GO
        remove left
        insert left Dan
        expect screen + Dan
    """),
    "idle": ("unit", "expect screen Insert a card"),
    "card-on-plus": ("unit", "insert left Alice\nexpect screen 15M"),
    "typing": ("unit", "insert left Alice\npress 1 . 5\nexpect screen 1.5"),
    "bank-pays": ("unit", "insert left Alice\npress 1 . 5 M\nexpect screen Alice +1.5M"),
    "pays-bank": ("unit", "insert right Bob\npress 5 0 0 K\nexpect screen Bob -500K"),
    "transfer": ("unit", "insert left Cleo\ninsert right Dan\npress 6 0 K\nexpect screen Paid 60K"),
    "pass-go": ("unit", "insert left Alice\npress GO\nexpect screen Passed GO"),
    "refused": ("unit", "insert right Bob\npress 2 0 M\nexpect screen Bob short 5M"),
    "card-pulled": ("unit", "insert right Bob\npress 2 5\nremove right\nexpect screen Cancelled"),
    "new-game": ("unit", "hold C 2.5\nexpect screen New game"),
    "volume": ("unit", "press .\nexpect screen Volume"),
    "unknown-card": ("unit", "insert left new-card\nexpect screen Unknown card"),
    "enrolled": ("unit", "insert left new-card\npress FN\nexpect screen Enrolled"),
}


def shoot(name: str, cut: str, text: str) -> Path:
    """Play ``text`` over a fresh demo game and save the picture as docs/img/NAME.png."""
    with SqliteLedger(":memory:") as ledger, DesktopSim(ledger, scale=SCALE, sound=False) as sim:
        seed_demo(ledger)
        failure = scripts.run(scripts.parse(text), WindowBackend(sim))
        if failure is not None:
            raise SystemExit(f"{name}: {failure}")
        image = sim.screenshot()
        if cut == "unit":
            x, y, w, h = sim.layout.case
            m = 3 * SCALE
            image = image.crop((x - m, y - m, x + w + m, y + h + m))
        path = OUT / f"{name}.png"
        image.save(path, optimize=True)
        return path


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, (cut, text) in SHOTS.items():
        print(shoot(name, cut, text).relative_to(ROOT))


if __name__ == "__main__":
    main()
