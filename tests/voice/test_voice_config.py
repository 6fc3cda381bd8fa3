"""[voice] in the config, the I2S amplifier's pins refused while the keypad or buzzer hold them, and the doctor's
voice line (no sound card needed: the cards file, the boot config and the programs are the test's)."""

from __future__ import annotations

import subprocess

import pytest

from banker.errors import ConfigError
from runtime.config import VoiceConfig, parse_config
from runtime.speaker import doctor_line, sound_cards

MOVED = "[keypad]\nrows = [5, 6, 13, 26]\ncolumns = [12, 16, 17, 22]\n[buzzer]\npin = 27\n"


def test_the_voice_is_off_by_default_and_read_from_its_section():
    assert parse_config("").voice == VoiceConfig(enabled=False)
    voice = parse_config('[voice]\nenabled = true\nlanguage = "en-us"\ndevice = "plughw:CARD=Device,DEV=0"\n'
                         "speed = 140\n").voice
    assert (voice.enabled, voice.language, voice.device, voice.speed) == (True, "en-us", "plughw:CARD=Device,DEV=0",
                                                                          140)


@pytest.mark.parametrize(("text", "message"), [
    ("speed = 20", "voice.speed must be words a minute, 80-450"),
    ('language = "-v xx"', "voice.language must be an espeak-ng voice"),
    ('output = "bluetooth"', "voice.output must be one of usb, hdmi, i2s"),
    ("volume = 2", "unknown setting voice.volume"),
])
def test_a_bad_voice_setting_is_named(text, message):
    with pytest.raises(ConfigError, match=message):
        parse_config(f"[voice]\n{text}\n")


def test_i2s_is_refused_while_the_buzzer_and_keypad_hold_gpio_18_to_21():
    with pytest.raises(ConfigError) as refused:
        parse_config('[voice]\nenabled = true\noutput = "i2s"\n')
    assert ('voice.output "i2s" takes GPIO 18-21 (pins 12, 35, 38, 40), but buzzer.pin has GPIO18, keypad.rows '
            "GPIO19 and keypad.columns GPIO20 and 21") in str(refused.value)
    assert parse_config('[voice]\nenabled = true\noutput = "i2s"\n' + MOVED).voice.output == "i2s"
    assert parse_config('[voice]\nenabled = false\noutput = "i2s"\n').voice.output == "i2s"  # off: no pins taken


def test_the_rewiring_the_docs_give_is_a_config_that_parses():
    from runtime.pins import I2S_MOVED, gpio_of

    moved = {w.terminal.split(" (")[0]: w.gpio for w in I2S_MOVED}
    config = parse_config('[voice]\nenabled = true\noutput = "i2s"\n' + MOVED)
    assert config.keypad.rows[3] == moved["row 4"] and config.keypad.columns[2:] == (moved["column 3"],
                                                                                      moved["column 4"])
    assert config.buzzer_pin == moved["signal"] and gpio_of("keypad", "row 1") == config.keypad.rows[0]


class Programs:
    """espeak-ng and aplay as the doctor finds them: which voices, which devices open."""

    def __init__(self, voices=("en", "en-us", "de"), devices=("default",)) -> None:
        self.voices, self.devices, self.calls = voices, devices, []

    def which(self, name):
        return f"/usr/bin/{name}"

    def run(self, args, **_):
        self.calls.append(args)
        if args[0] == "espeak-ng":
            ok = args[args.index("-v") + 1] in self.voices
        else:
            ok = args[args.index("-D") + 1] in self.devices
        return subprocess.CompletedProcess(args, 0 if ok else 1, "", "" if ok else "aplay: main:831: audio open error")


def test_the_doctor_says_what_is_missing(tmp_path):
    cards = tmp_path / "cards"
    boot = tmp_path / "config.txt"
    voice = VoiceConfig(enabled=True, language="de", device="plughw:CARD=MAX98357A,DEV=0", output="i2s")
    programs = Programs()
    ask = dict(cards=str(cards), boot=(str(boot),), which=programs.which, run=programs.run)
    assert doctor_line(voice, **ask) == (False, (f"No I2S overlay in {boot}: add dtoverlay=max98357a,no-sdmode and "
                                                 "dtparam=audio=off, then reboot (docs/voice.md)."))
    boot.write_text("dtparam=audio=off\ndtoverlay=max98357a,no-sdmode\n")
    assert doctor_line(voice, **ask)[1].startswith("No sound card")
    cards.write_text(" 0 [MAX98357A      ]: simple-card - MAX98357A\n                      MAX98357A\n")
    assert sound_cards(str(cards)) == ["MAX98357A"]
    ok, said = doctor_line(voice, **ask)
    assert not ok and said.startswith("aplay can't open 'plughw:CARD=MAX98357A,DEV=0' (aplay: main:831")
    programs.devices = ("plughw:CARD=MAX98357A,DEV=0",)
    assert doctor_line(voice, **ask) == (True, "espeak-ng speaks 'de' on 'plughw:CARD=MAX98357A,DEV=0' "
                                               "(sound cards: MAX98357A).")
    assert doctor_line(VoiceConfig(enabled=True, language="sv"), **ask)[1].startswith("espeak-ng has no voice 'sv'")
    assert doctor_line(voice, **{**ask, "which": lambda name: None})[1].startswith("espeak-ng is not installed")


def test_the_doctor_says_the_voice_is_off_and_that_is_fine(tmp_path):
    from click.testing import CliRunner

    from banker_cli.main import cli

    config = tmp_path / "banker.toml"
    config.write_text("")
    quiet = CliRunner().invoke(cli, ["doctor", "--backend", "hw-sim", "--config", str(config)])
    assert quiet.exit_code == 0
    assert "ok    voice             Off: [voice] enabled is false (the default" in quiet.output
    config.write_text('[voice]\nenabled = true\ndevice = "null"\n')
    on = CliRunner().invoke(cli, ["doctor", "--backend", "hw-sim", "--config", str(config)])
    assert "voice" in on.output  # espeak-ng here: ok, asking for no sound card (tests/cli/test_cli_doctor.py)
