"""The simulator's buzzer: the unit's tones as square waves, audible where there is sound, silent where not."""

import pygame
import pytest

from banker.unit.events import TONES
from firmware_sim.desktop.sound import LEVELS, MELODIES, ToneBuzzer, tone_samples

RATE = 22050


def pitch(samples, rate=RATE) -> float:
    """The mean frequency of the sounding part, from its sign changes."""
    sounding = [s for s in samples if s != 0]
    changes = sum(1 for a, b in zip(sounding, sounding[1:]) if (a > 0) != (b > 0))
    return changes / 2 / (len(sounding) / rate)


def test_every_tone_of_the_unit_has_a_melody():
    assert set(MELODIES) == set(TONES)
    for tone in TONES:
        assert len(tone_samples(tone, RATE)) > RATE // 100


def test_a_refusal_is_low_and_long_a_key_click_high_and_short():
    refusal, key = tone_samples("refusal", RATE), tone_samples("key", RATE)
    assert pitch(refusal) < 500 < 2000 < pitch(key)
    assert len(refusal) > 10 * len(key)


def test_louder_volumes_are_louder():
    assert LEVELS[0] == 0 < LEVELS[1] < LEVELS[2] < LEVELS[3] <= 1


def test_with_sdls_dummy_audio_the_tones_are_made_and_played(monkeypatch):
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    with ToneBuzzer() as buzzer:
        assert buzzer.audible and buzzer.problem is None
        for tone in TONES:
            buzzer.play(tone, 3)
        buzzer.play("key", 0)  # volume off: recorded, not sounded
        assert buzzer.played[-1] == ("key", 0)
        assert pygame.mixer.get_init() is not None
    assert pygame.mixer.get_init() is None  # closed


def test_with_no_audio_device_it_is_silent_and_never_crashes(monkeypatch):
    monkeypatch.setenv("SDL_AUDIODRIVER", "no-such-sound-card")
    with ToneBuzzer() as buzzer:
        assert not buzzer.audible and buzzer.problem.startswith("no sound")
        buzzer.play("success", 2)
        assert buzzer.played == [("success", 2)]


@pytest.mark.parametrize("tone", TONES)
def test_a_stereo_mixer_gets_both_channels(tone, monkeypatch):
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    pygame.mixer.init(frequency=44100, size=-16, channels=2)
    try:
        buzzer = ToneBuzzer()  # the mixer is already up: it adapts to its rate and channels
        rate, _, channels = pygame.mixer.get_init()
        sound = buzzer._sounds[tone]
        assert sound.get_raw().__len__() == 2 * channels * len(tone_samples(tone, rate))
    finally:
        pygame.mixer.quit()


def test_without_a_sound_device_only_one_clear_line_is_said(tmp_path):
    """ALSA's own complaints (``ALSA lib confmisc.c ... cannot find card '0'``) never reach the terminal."""
    import subprocess
    import sys

    code = ("from firmware_sim.desktop.sound import ToneBuzzer\n"
            "buzzer = ToneBuzzer()\n"
            "print(buzzer.problem or 'sound')\n")
    env = {**__import__("os").environ, "SDL_AUDIODRIVER": "alsa", "ALSA_CONFIG_PATH": str(tmp_path / "no-such.conf")}
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, env=env)
    assert run.returncode == 0, run.stderr
    assert "ALSA lib" not in run.stderr and run.stderr == ""
    said = run.stdout.strip()
    assert said == "sound" or (said.startswith("no sound") and "\n" not in said)
