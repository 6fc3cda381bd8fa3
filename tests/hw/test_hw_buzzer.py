"""The buzzer driver on a simulated piezo (a recording gpiozero MockPWMPin): what a player hears."""

from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from banker.errors import ConfigError
from banker.unit.events import TONES, CardPlaced, KeyDown
from drivers.buzzer import VOLUME_DUTY, PwmBuzzer
from runtime.ledger import SqliteLedger
from runtime.shell import Shell
from firmware_sim.buzzer_sim import PiezoSim


@pytest.fixture
def rig():
    factory = MockFactory(pin_class=MockPWMPin)
    piezo = PiezoSim(factory, pin=18)
    with PwmBuzzer(18, pin_factory=factory, sleep=piezo.sleep) as buzzer:
        yield piezo, buzzer


def heard(piezo, buzzer, tone, volume=3):
    piezo.clear()
    buzzer.play(tone, volume)
    assert buzzer.drain()
    return piezo.notes()


def test_every_tone_sounds_different(rig):
    piezo, buzzer = rig
    melodies = {tone: tuple((n.hz, n.seconds) for n in heard(piezo, buzzer, tone)) for tone in TONES}
    assert all(melodies.values())
    assert len(set(melodies.values())) == len(TONES)


def test_a_refusal_is_low_and_a_success_rises(rig):
    piezo, buzzer = rig
    refusal = heard(piezo, buzzer, "refusal")
    success = heard(piezo, buzzer, "success")
    assert max(n.hz for n in refusal) < min(n.hz for n in success)
    assert [n.hz for n in success] == sorted(n.hz for n in success)
    assert len(refusal) == 2                  # a double buzz with a rest between
    assert refusal[1].start > refusal[0].start + refusal[0].seconds


def test_the_new_game_fanfare_is_the_longest_tone(rig):
    piezo, buzzer = rig
    length = {tone: sum(n.seconds for n in heard(piezo, buzzer, tone)) for tone in TONES}
    assert max(length, key=length.get) == "new-game"
    assert length["key"] <= 0.05              # a key click must not slow typing


def test_volume_off_plays_nothing(rig):
    piezo, buzzer = rig
    for tone in TONES:
        assert heard(piezo, buzzer, tone, volume=0) == []
    assert piezo.pin.state == 0


def test_each_volume_step_is_louder_duty_cycle(rig):
    piezo, buzzer = rig
    duties = [heard(piezo, buzzer, "key", volume)[0].duty for volume in (1, 2, 3)]
    assert duties == list(VOLUME_DUTY[1:]) and duties == sorted(duties)


def test_the_pin_is_silent_after_every_tone(rig):
    piezo, buzzer = rig
    heard(piezo, buzzer, "new-game")
    assert piezo.pin.state == 0


def test_play_returns_at_once_and_a_new_tone_cuts_the_old_one_short():
    factory = MockFactory(pin_class=MockPWMPin)
    piezo = PiezoSim(factory, pin=18)
    with PwmBuzzer(18, pin_factory=factory) as buzzer:     # real pauses
        buzzer.play("new-game", 3)
        assert buzzer.playing                 # still going: play() did not wait for it
        buzzer.play("key", 3)
        assert buzzer.drain(2.0)
    pitches = [hz for _, hz, duty in piezo.history if duty > 0]
    assert pitches[-1] == 2_000               # the key click was heard last
    assert 2_093 not in pitches               # the fanfare never reached its last note


def test_close_silences_the_buzzer_mid_tone():
    factory = MockFactory(pin_class=MockPWMPin)
    piezo = PiezoSim(factory, pin=18)
    buzzer = PwmBuzzer(18, pin_factory=factory)
    buzzer.play("new-game", 3)
    buzzer.close()
    assert piezo.pin.state == 0
    buzzer.play("key", 3)                     # after close: ignored, not an error


def test_the_unit_beeps_through_the_shell(rig):
    piezo, buzzer = rig
    with SqliteLedger(":memory:") as ledger:
        ledger.enrol("Alice", "A1")
        shell = Shell(ledger, buzzer=buzzer)
        piezo.clear()
        shell.handle(CardPlaced("left", "A1", 1.0))
        shell.handle(KeyDown("5", 1.5))
        assert buzzer.drain()
        assert {n.hz for n in piezo.notes()} == {2_000.0}


def test_bad_tones_and_volumes_are_refused(rig):
    _, buzzer = rig
    with pytest.raises(ValueError):
        buzzer.play("fanfare", 2)
    with pytest.raises(ValueError):
        buzzer.play("key", 4)


def test_tone_config_must_cover_every_tone_and_the_global_factory_is_never_used():
    with pytest.raises(ConfigError, match="refusal"):
        PwmBuzzer(18, pin_factory=MockFactory(pin_class=MockPWMPin), tones={"key": [(1000, 0.1)]})
    with pytest.raises(ConfigError, match="pin_factory"):
        PwmBuzzer(18, pin_factory=None)
