"""``banker doctor``'s voice line is honest and its exit codes are cli.md's: the voice off is fine, simulated
hardware asks for no sound card, a real unit whose voice is on and has no sound card fails, saying so."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from runtime.config import VoiceConfig
from runtime.speaker import doctor_line
from tests.cli.support import banker

DOCS = Path(__file__).resolve().parents[2] / "docs"


def _programs(installed=("espeak-ng", "aplay")):
    """which and run as a machine with ``installed`` answers them (espeak-ng speaks every voice, aplay opens)."""
    def which(name):
        return f"/usr/bin/{name}" if name in installed else None

    def run(args, **_):
        return subprocess.CompletedProcess(args, 0, "", "")

    return dict(which=which, run=run)


def test_the_voice_off_says_off_and_is_fine(tmp_path):
    ok, said = doctor_line(VoiceConfig(enabled=False), cards=str(tmp_path / "none"), **_programs(()))
    assert ok and said.startswith("Off: [voice] enabled is false (the default")


def test_simulated_hardware_asks_for_no_sound_card_nor_aplay(tmp_path):
    voice = VoiceConfig(enabled=True, language="de", output="i2s")
    ok, said = doctor_line(voice, simulated=True, cards=str(tmp_path / "none"), boot=(str(tmp_path / "boot"),),
                           **_programs(("espeak-ng",)))
    assert ok, said
    assert "espeak-ng speaks 'de'" in said and "no sound card is asked for" in said


def test_simulated_hardware_still_needs_espeak_ng(tmp_path):
    ok, said = doctor_line(VoiceConfig(enabled=True), simulated=True, cards=str(tmp_path / "none"), **_programs(()))
    assert not ok and said.startswith("espeak-ng is not installed")


def test_a_real_unit_with_the_voice_on_and_no_sound_card_fails_saying_so(tmp_path):
    ok, said = doctor_line(VoiceConfig(enabled=True), cards=str(tmp_path / "none"), **_programs())
    assert not ok
    assert said.startswith("No sound card, and the voice is on ([voice] enabled)")


def test_doctor_on_hw_sim_with_the_voice_off_exits_0_with_its_line(tmp_path):
    config = tmp_path / "banker.toml"
    config.write_text("")
    result = banker("doctor", "--backend", "hw-sim", "--config", config)
    assert result.exit_code == 0, result.output
    assert "ok    voice             Off:" in result.output


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed here")
def test_doctor_on_hw_sim_with_the_voice_on_needs_no_sound_card(tmp_path):
    config = tmp_path / "banker.toml"
    config.write_text('[voice]\nenabled = true\ndevice = "null"\n')
    result = banker("doctor", "--backend", "hw-sim", "--config", config)
    assert result.exit_code == 0, result.output  # whether this machine has a sound card or not
    assert "no sound card is asked for" in result.output


def test_a_bad_config_value_is_exit_2_naming_its_key(tmp_path):
    config = tmp_path / "banker.toml"
    config.write_text("[buzzer]\npin = 99\n")
    result = banker("doctor", "--backend", "hw-sim", "--config", config)
    assert result.exit_code == 2 and "buzzer.pin" in result.output


def test_a_backend_that_cant_be_loaded_is_exit_3(monkeypatch):
    from banker_cli import backends

    monkeypatch.setitem(backends.HARDWARE, "hw-sim", "no_such_driver_library:hardware")
    result = banker("doctor", "--backend", "hw-sim")
    assert result.exit_code == 3
    assert "no_such_driver_library" in result.output and "Traceback" not in result.output


def test_cli_md_s_exit_code_table_says_doctor_s_codes():
    text = (DOCS / "cli.md").read_text(encoding="utf-8")
    rows = {line.split(" | ")[0][2:]: line for line in text.splitlines() if line[:4] in ("| 0 ", "| 1 ", "| 2 ", "| 3 ")}
    assert "`banker doctor`: every line `ok`" in rows["0"]
    assert "`banker doctor`: a device missing or misconfigured" in rows["1"]
    assert "`banker doctor`: a bad config value" in rows["2"]
    assert "`banker doctor`" in rows["3"]
