"""Make every picture of docs/: the guide's screenshots from the desktop simulator, and the build's diagrams.

Run it from the repository's root after a change of the unit's look, its
flows or its wiring (it needs the ``sim`` extra):

    .venv/bin/python docs/make_screenshots.py [SHOT...]    # e.g. screen-large-balance

Each screenshot is a keypad script (the format of docs/cli.md) played in the
simulator's window over a fresh demo game (Alice, Bob, Cleo and Dan at 15M),
exactly as ``banker sim --script FILE --screenshot PNG`` plays it; the
window is then cut to the unit (or kept whole for the overview). A shot may
then hold a key down, to show the unit while the key is held. Then
``docs/make_diagrams.py`` draws the wiring diagrams from runtime/pins.py.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from PIL import Image

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from banker.script import syntax as scripts  # noqa: E402

from banker.script import run as script_run  # noqa: E402
from runtime.ledger import SqliteLedger  # noqa: E402
from firmware_sim.desktop import DesktopSim, seed_demo  # noqa: E402
from firmware_sim.desktop.layout import centre  # noqa: E402
from firmware_sim.window_backend import WindowBackend  # noqa: E402

OUT = ROOT / "docs" / "img"
SCALE = 3

#: Alice buys the three light blues (Oriental, Vermont and Connecticut Avenue) at their printed prices.
LIGHT_BLUES = """
    press FN 0 6
    insert right Alice
    press M
    remove right
    press FN 0 8
    insert right Alice
    press M
    remove right
    press FN 0 9
    insert right Alice
    press M
    remove right
"""

#: A new game (FN GO with no card, 1: official rules) with the Free Parking pot seeded with 500K (4) and 90 minutes
#: of play (5), then the idle screen.
HOUSE_RULES_GAME = """
    press FN GO 1 4 5 0 0 K 5 9 0 M M
    expect screen New game
    press C
"""

#: A whole deal (FN GO 7) between Alice (+) and Bob (-): Alice owns Boardwalk and Park Place and holds a jail card,
#: Bob owns Mediterranean Avenue, mortgaged; the deal so far: Boardwalk and the jail card for Mediterranean and 3M.
WHOLE_DEAL = """
    insert right Alice
    press FN 3 9 M FN 3 7 M
    remove right
    insert left Alice
    press FN GO 4
    remove left
    insert right Bob
    press FN 0 1 M FN 0 1 .
    remove right
    insert left Alice
    insert right Bob
    press FN GO 7 FN 3 9 FN 4 FN 0 1 3 M
"""

#: Alice, with the light blues and two houses on each lot (8.8M left), owes Bob 9.5M: 700K short.
RAISE_CASH = LIGHT_BLUES + """
    insert right Alice
    press FN 0 6 1 FN 0 8 1 FN 0 9 1 FN 0 6 1 FN 0 8 1 FN 0 9 1
    remove right
    insert left Bob
    insert right Alice
"""

#: name: (what to cut out: "window" or "unit", the keypad script[, a key held down at the end, seconds])
#: Boardwalk's timed auction (FN 3 9 GO) with Bob's bid of 2.5M, his card still on the - reader.
AUCTION = """
    press FN 3 9 GO
    insert right Bob
    press 2 . 5 M
"""

#: A building shortage: Alice's lots take 30 of the bank's 32 houses; Bob buys the orange group and opens the
#: auction of a house (4 GO on St. James Place); he bids 1.5M and wins it.
HOUSE_AUCTION = """
    insert left Alice
    press 2 0 M
    remove left
    insert right Alice
    press FN 0 1 M FN 0 3 M FN 0 6 M FN 0 8 M FN 0 9 M FN 1 1 M FN 1 3 M FN 1 4 M
""" + "    press FN 0 6 1 FN 0 8 1 FN 0 9 1 FN 1 1 1 FN 1 3 1 FN 1 4 1\n" * 4 + """
    press FN 0 1 1 FN 0 3 1 FN 0 1 1 FN 0 3 1 FN 0 1 1 FN 0 3 1
    remove right
    insert right Bob
    press FN 1 6 M FN 1 8 M FN 1 9 M
    press FN 1 6 4 GO 1 . 5 M
    remove right
"""

SHOTS: dict[str, tuple] = {
    "window": ("window", LIGHT_BLUES + """
        press FN 0 6
        insert right Alice
        press 1
        remove right
        press FN 0 6
        insert right Bob
        press GO
        remove right
        press FN 0 5
        insert right Cleo
        press M
        remove right
        press FN 0 5
        insert right Cleo
        press .
        remove right
        insert left Alice
        insert right Bob
        press 6 0 K
        expect screen Paid 60K
        remove left
        remove right
        insert left Dan
        press GO
        expect screen Dan
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
    "hold-c": ("unit", "", "C", 1.2),
    "asleep": ("unit", "wait 61"),
    "deed-chosen": ("unit", "press FN 0 6\nexpect screen Oriental Av"),
    "deed-bought": ("unit", "press FN 0 6\ninsert right Alice\npress M\nexpect screen Bought Oriental Av"),
    "deed-rent-due": ("unit", LIGHT_BLUES + "press FN 0 6\ninsert right Bob\nexpect screen Rent"),
    "deed-rent-paid": ("unit", LIGHT_BLUES + "press FN 0 6\ninsert right Bob\npress GO\nexpect screen Bob paid"),
    "deed-house": ("unit", LIGHT_BLUES + "press FN 0 6\ninsert right Alice\npress 1\nexpect screen House on"),
    "deed-mortgaged": ("unit", LIGHT_BLUES + "press FN 0 8\ninsert right Alice\npress .\nexpect screen Mortgaged"),
    "deed-traded": ("unit", LIGHT_BLUES + "press FN 0 9\ninsert left Alice\ninsert right Bob\npress 1 . 5 M\n"
                            "expect screen Traded"),
    "undo-prompt": ("unit", "insert right Bob\npress 5 0 0 K\nremove right\npress FN C\nexpect screen Bob"),
    "volume": ("unit", "press .\nexpect screen Volume"),
    "unknown-card": ("unit", "insert left new-card\nexpect screen Unknown card"),
    "enrolled": ("unit", "insert left new-card\npress FN\nexpect screen Enrolled"),
    "screen-large-balance": ("unit", "insert left Alice\npress 1 . 5 M\nexpect screen Alice +1.5M"),
    # House rules and game modes (docs/keypad.md): a new game's options, the pot and the time left, the end
    "new-game-options": ("unit", "press FN GO 1 4 5 0 0 K 5 9 0 M 6 6\nexpect screen 6 Sums ask"),
    "idle-pot-time": ("unit", HOUSE_RULES_GAME + "insert right Bob\npress FN GO 1\nremove right\n"
                              "expect screen Pot 2.5M"),
    "time-up": ("unit", "press FN GO 1 5 1 0 M M\n" + LIGHT_BLUES.replace("Alice", "Cleo") + """
        insert right Dan
        insert left Cleo
        press 6 0 K
        remove left
        remove right
        wait 600
        expect screen Time is up!
    """),
    # Whole deals (docs/keypad.md): the deal built, a mortgaged deed's choice, the agreement, the record
    "deal-built": ("unit", WHOLE_DEAL + "press K\nexpect screen Alice gives"),
    "deal-mortgage": ("unit", WHOLE_DEAL + "press M\nexpect screen Mortgaged Medit. Ave"),
    "deal-agree": ("unit", WHOLE_DEAL + "press M .\nremove left\ninsert left Alice\nexpect screen Bob: tap"),
    "deal-done": ("unit", WHOLE_DEAL + "press M .\nremove left\ninsert left Alice\nremove right\n"
                          "insert right Bob\nexpect screen Traded 2 deeds+card"),
    "sum-asked": ("unit", "press FN GO 1 6 6 M\ninsert right Alice\npress 4 M 1 1\nexpect screen 15M - 4M = 11"),
    "sum-shown": ("unit", "press FN GO 1 6 M\ninsert right Alice\ninsert left Bob\npress 2 M\n"
                          "expect screen Bob 15M + 2M = 17M"),
    # Auctions (docs/keypad.md): Boardwalk's timed auction, a bid by Bob, going once, sold
    "auction-open": ("unit", AUCTION + "expect screen Bob high, 10 s"),
    "auction-going-once": ("unit", AUCTION + "wait 8.5\nexpect screen Going once!"),
    "auction-sold": ("unit", AUCTION + "wait 10.5\nexpect screen Sold to Bob"),
    "auction-house-lot": ("unit", HOUSE_AUCTION + "wait 10.5\nexpect screen Bob won 1.5M"),
    # Raising cash (docs/keypad.md): the refusal's offer, a step, enough, and not enough even selling all
    "raise-offer": ("unit", RAISE_CASH + "press 9 . 5 M\nexpect screen 0: raise cash"),
    "raise-step": ("unit", RAISE_CASH + "press 9 . 5 M 0 GO\nexpect screen Alice short 450K"),
    "raise-enough": ("unit", RAISE_CASH + "press 9 . 5 M 0 GO GO GO\nexpect screen Alice has enough"),
    "raise-not-enough": ("unit", RAISE_CASH + "press 1 5 M 0\nexpect screen Even selling all"),
    # Languages (docs/languages.md): FN 8 2 makes the game German; the OLED's frame in the game's language
    "screen-german-transfer": ("oled", "press FN 8 2\ninsert left Cleo\ninsert right Dan\npress 6 0 K\n"
                                       "expect screen Bezahlt 60K"),
    "screen-german-refused": ("oled", "press FN 8 2\ninsert right Bob\npress 2 0 M\nexpect screen Bob fehlt 5M"),
}
#: Shots taken with another ``[display] digits`` than the default (docs/config.md).
DIGITS = {"screen-large-balance": "large"}


def shoot(name: str, cut: str, text: str, held: str | None = None, seconds: float = 0.0) -> Path:
    """Play ``text`` over a fresh demo game (then hold key ``held`` down ``seconds``) and save docs/img/NAME.png."""
    digits = DIGITS.get(name, "normal")
    with SqliteLedger(":memory:") as ledger, DesktopSim(ledger, scale=SCALE, sound=False, digits=digits) as sim:
        seed_demo(ledger)
        hand = WindowBackend(sim)
        failure = script_run.run(scripts.parse(text), hand)
        if failure is not None:
            raise SystemExit(f"{name}: {failure}")
        if held is not None:
            hand.click_down(centre(sim.layout.key(held)))
            hand.wait(seconds)
        image = sim.screenshot() if cut != "oled" else _oled(sim)
        if cut == "unit":
            x, y, w, h = sim.layout.case
            m = 3 * SCALE
            image = image.crop((x - m, y - m, x + w + m, y + h + m))
        path = OUT / f"{name}.png"
        image.save(path, optimize=True)
        return path


def _oled(sim) -> Image.Image:
    """The OLED's frame as the unit draws it, in the game's language (:attr:`runtime.shell.Shell.screen`, which
    the scripts' ``expect screen`` reads too), scaled up crisply with a dark border."""
    from render.frame import render_image

    frame = render_image(sim.shell.screen).convert("L")
    frame = frame.point(lambda v: 235 if v else 20).resize((frame.width * 4, frame.height * 4), Image.NEAREST)
    framed = Image.new("L", (frame.width + 16, frame.height + 16), 20)
    framed.paste(frame, (8, 8))
    return framed


def main(only: list[str] | None = None) -> None:
    """Every shot (or those named ``only``), then the diagrams (only when every shot is made)."""
    OUT.mkdir(parents=True, exist_ok=True)
    unknown = sorted(set(only or ()) - set(SHOTS))
    if unknown:
        raise SystemExit(f"no such shot: {', '.join(unknown)} (the shots: {', '.join(SHOTS)})")
    for name, (cut, text, *held) in SHOTS.items():
        if not only or name in only:
            print(shoot(name, cut, text, *held).relative_to(ROOT))
    if only:
        return
    import make_diagrams  # docs/ is on the path: this script's own folder

    make_diagrams.main()


if __name__ == "__main__":
    main(sys.argv[1:])
