"""Benchmark of the display bus: bytes sent to the OLED per key press while typing an amount, against full frames.

Runs the unit and shell with the real display driver on the simulated SSD1306
(and SH1106) recording bus: a card on the + reader, then "1.2345" and M.
Prints one JSON object. Target: on average <= 40 % of a full frame's bytes
per key press; the modelled I2C time per frame is at 400 kHz (9 bits a byte,
address and control byte and START/STOP per transaction).

    python benchmarks/bench_display.py
"""

from __future__ import annotations

import json
import statistics

from banker.events import CardPlaced, KeyDown, KeyUp
from drivers.display import OledDisplay
from runtime.ledger import SqliteLedger
from runtime.shell import Shell
from firmware_sim.display_sim import I2C_HZ, OledChip

KEYS = list("1.2345") + ["M"]
TARGET_SHARE = 0.40


def per_key(chip_name: str, partial: bool) -> list[dict]:
    """Traffic of each key press of the typing run."""
    chip = OledChip(chip_name)
    rows = []
    with SqliteLedger(":memory:") as ledger, OledDisplay(chip=chip_name, interface=chip, partial=partial) as display:
        ledger.enrol("Alice", "A1")
        shell = Shell(ledger, display=display)
        t = 1.0
        shell.handle(CardPlaced("left", "A1", t))
        for key in KEYS:
            chip.reset_counters()
            t += 0.2
            shell.handle(KeyDown(key, t))
            shell.handle(KeyUp(key, t + 0.05))
            sent = chip.reset_counters()
            rows.append({"key": key, "wire_bytes": sent.wire_bytes, "data_bytes": sent.data_bytes,
                         "transactions": sent.transactions, "i2c_ms": round(sent.i2c_seconds(I2C_HZ) * 1000, 3)})
        assert ledger.balance(ledger.card_by_name("Alice").id) == 16_234_500
    return rows


def report(chip_name: str) -> dict:
    partial, full = per_key(chip_name, True), per_key(chip_name, False)
    shares = [p["wire_bytes"] / f["wire_bytes"] for p, f in zip(partial, full)]
    return {
        "full_frame": {"wire_bytes": full[0]["wire_bytes"], "data_bytes": full[0]["data_bytes"],
                       "i2c_ms": full[0]["i2c_ms"]},
        "per_key": [{**p, "share_of_full": round(s, 3)} for p, s in zip(partial, shares)],
        "mean_wire_bytes_per_key": round(statistics.mean(p["wire_bytes"] for p in partial), 1),
        "mean_share_of_full": round(statistics.mean(shares), 3),
        "mean_i2c_ms_per_key": round(statistics.mean(p["i2c_ms"] for p in partial), 3),
        "meets_target": statistics.mean(shares) <= TARGET_SHARE,
    }


def main() -> None:
    result = {"typed": "".join(KEYS), "target_share": TARGET_SHARE, "i2c_hz": I2C_HZ,
              "ssd1306": report("ssd1306"), "sh1106": report("sh1106")}
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
