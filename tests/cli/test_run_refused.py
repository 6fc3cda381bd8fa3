"""``banker run`` on a ledger its writer refuses: the unit's own screen says so, until the unit is stopped."""

from __future__ import annotations

import threading

import pytest
from PIL import ImageChops

import banker_cli.device_cli as device_cli
from banker.unit.views import ledger_refused
from firmware_sim.hw_sim import SimulatedHardware
from render import render_image
from runtime.config import Config
from store.trust import OldLedger, UntrustedJournal


@pytest.mark.parametrize("error, old", [(UntrustedJournal("its journal is behind its anchor"), False),
                                        (OldLedger("a ledger of an earlier release"), True)])
def test_the_oled_shows_why_the_unit_wont_play(monkeypatch, capsys, error, old):
    hw, seen = SimulatedHardware(Config()), []

    class Stop(threading.Event):
        def wait(self, timeout=None):             # the unit stays on this screen until stopped
            seen.append(hw.oled.image().convert("1"))
            return True

    monkeypatch.setattr(device_cli, "hardware", lambda backend, config: hw)
    device_cli._show_refusal(error, "hw-sim", Config(), Stop(), seconds=None)
    assert ImageChops.logical_xor(seen[0], render_image(ledger_refused(old))).getbbox() is None
    assert "refusing to play" in capsys.readouterr().err


def test_the_words_fit_the_screen():
    for old in (False, True):
        screen = ledger_refused(old)
        assert screen.error and all(len(line) <= 21 and "~" not in line for line in screen.lines)
