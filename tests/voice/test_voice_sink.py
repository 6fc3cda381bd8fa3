"""The voice's sink (runtime/speaker.py): real speech from espeak-ng, a newer utterance replacing a stale one, and the
shell never waiting for it. No sound card is needed: the WAV is measured, the player is a fake or ALSA's null."""

from __future__ import annotations

from types import SimpleNamespace

import logging
import threading
import time

import pytest

from banker.unit.events import Say
from runtime.shell import Shell
from runtime.speaker import AMPLITUDE, AplayPlayer, Speaker, Utterance, espeak_wav
from runtime.speaker import log as voice_log
from tests.conftest import Table
from tests.voice.support import FakePlayer, measures

SENTENCE = "Alice pays Bob 2 million. Alice has 13 million."


@pytest.mark.parametrize("voice", ["en", "de", "fr", "es", "nl"])
def test_espeak_renders_speech_not_silence_of_a_sensible_length(voice):
    wav = espeak_wav(Utterance(SENTENCE, voice, AMPLITUDE[2], 160))
    heard = measures(wav)
    assert heard.is_speech_of(SENTENCE), heard


def test_the_volume_scales_the_speech_and_off_is_silent():
    quiet, loud = (espeak_wav(Utterance("Bob has 15 million.", "en", AMPLITUDE[level], 160)) for level in (1, 3))
    assert max(quiet[44:]) and len(quiet) == len(loud)
    peak = [max(abs(int.from_bytes(w[i:i + 2], "little", signed=True)) for i in range(44, len(w) - 1, 2))
            for w in (quiet, loud)]
    assert peak[1] > 3 * peak[0]
    player = FakePlayer()
    with Speaker(player=player, render=espeak_wav) as voice:
        voice.say("Bob has 15 million.", 0)
        assert voice.idle()
    assert player.started == []


def test_a_name_that_looks_like_an_option_is_only_spoken():
    wav = espeak_wav(Utterance("--version has 15 million.", "en", 100, 160))
    assert measures(wav).duration > 1.0


def test_the_speech_plays_through_aplay_on_a_device():
    run = AplayPlayer("null").start(espeak_wav(Utterance("Bob has 15 million.", "en", 100, 160)))
    run.wait()  # ALSA's null device takes it all at once and exits 0, with no sound card here
    assert run.process.returncode == 0


def test_a_device_that_does_not_open_is_said_once_and_play_goes_on(caplog):
    rendered = []
    with caplog.at_level(logging.WARNING, logger=voice_log.name), Speaker(
            player=AplayPlayer("hw:CARD=NoSuchCard"), render=lambda u: rendered.append(u) or espeak_wav(u)) as voice:
        voice.say("Bob has 15 million.", 2)
        assert voice.idle()
        voice.say("Alice has 13 million.", 2)  # the next sentence is still tried: play goes on
        assert voice.idle()
    assert len(rendered) == 2 and "aplay" in (voice.problem or "")
    assert [r.message for r in caplog.records].count(f"the voice failed: {voice.problem}") == 1  # logged once


def test_a_newer_utterance_replaces_the_stale_one():
    player = FakePlayer()
    with Speaker(player=player, render=lambda u: u.text.encode()) as voice:
        voice.say("Alice pays Bob 2 million.", 2)
        assert player.playing.wait(5)
        voice.say("Going once.", 2)  # cuts the first short
        voice.say("Going twice.", 2)  # and this one replaces "Going once" before it plays, or cuts it
        deadline = time.monotonic() + 5
        while (not player.started or player.started[-1].wav != b"Going twice.") and time.monotonic() < deadline:
            time.sleep(0.01)
        player.started[-1].finish()
        assert voice.idle()
    assert player.started[0].stopped
    assert [s.wav for s in player.started][-1] == b"Going twice."
    assert all(s.stopped for s in player.started[:-1])
    assert len(player.started) <= 3


def test_a_stale_utterance_still_rendering_is_never_played():
    player, release = FakePlayer(), threading.Event()

    def slow(u: Utterance) -> bytes:
        if u.text == "old":
            release.wait(5)
        return u.text.encode()

    with Speaker(player=player, render=slow) as voice:
        voice.say("old", 2)
        time.sleep(0.05)
        voice.say("new", 2)
        release.set()
        deadline = time.monotonic() + 5
        while not player.started and time.monotonic() < deadline:
            time.sleep(0.01)
        player.started[-1].finish()
        assert voice.idle()
    assert [s.wav for s in player.started] == [b"new"]


def test_the_configured_voice_speaks_its_language_and_another_language_its_own():
    with Speaker(voice="en-us", player=FakePlayer(), render=lambda u: b"") as voice:
        assert voice.voice_for("en") == "en-us" and voice.voice_for("de") == "de"


class SlowVoice:
    """A voice that takes a long time to say anything, and notes when it was asked and what was drawn by then."""

    def __init__(self, shell_frames: list) -> None:
        self.asked: list[tuple[str, int]] = []
        self.frames = shell_frames

    def say(self, text: str, volume: int, lang: str) -> None:
        self.asked.append((text, len(self.frames)))


class Frames:
    def __init__(self) -> None:
        self.shown = []

    def show(self, screen) -> None:
        self.shown.append(screen)

    def power(self, on: bool) -> None:
        pass


def test_the_shell_hands_speech_over_after_the_commit_and_the_frame(ledger):
    table = Table(ledger)
    table.enrol("Alice", "A1")
    table.enrol("Bob", "B2")
    frames = Frames()
    voice = SlowVoice(frames.shown)
    shell = Shell(ledger, display=frames, voice=voice)
    shell.handle(table_event("insert", ledger, "right", "A1"))
    for key in "2M":
        shell.handle(table_event("key", ledger, key))
    text, drawn = voice.asked[-1]
    assert text.startswith("Alice pays the bank 2 million") and ledger.game().balance(1) == 13_000_000
    assert drawn == len(frames.shown) and "13M" in frames.shown[-1].text  # the frame went first


def test_the_commit_path_returns_before_speech_starts(ledger):
    """A real speaker whose player hangs: the shell's step returns at once, the speech still to come."""
    player, gate = FakePlayer(), threading.Event()

    def render(u: Utterance) -> bytes:
        gate.wait(5)
        return b"RIFF"

    table = Table(ledger)
    table.enrol("Alice", "A1")
    with Speaker(player=player, render=render) as voice:
        shell = Shell(ledger, voice=voice)
        shell.handle(table_event("insert", ledger, "left", "A1"))
        started = time.perf_counter()
        shell.handle(table_event("key", ledger, "GO"))
        took = time.perf_counter() - started
        assert ledger.game().balance(1) == 17_000_000 and not player.started
        gate.set()
        assert player.playing.wait(5)
        player.started[-1].finish()
        assert voice.idle()
    assert took < 1.0  # the render was held for up to 5 s: the shell did not wait for it


def test_say_is_an_effect_the_spy_sees(ledger):
    seen = []
    table = Table(ledger)
    table.enrol("Alice", "A1")
    heard = []
    shell = Shell(ledger, spy=lambda kind, value: seen.append(value),
                  voice=SimpleNamespace(say=lambda *said: heard.append(said)))  # a unit that speaks
    shell.handle(table_event("insert", ledger, "left", "A1"))
    shell.handle(table_event("key", ledger, "GO"))
    assert any(isinstance(v, Say) and "passes GO" in v.text for v in seen) and "passes GO" in heard[-1][0]


def table_event(kind: str, ledger, *args):
    from banker.unit.events import CardPlaced, KeyDown

    if kind == "insert":
        reader, uid = args
        return CardPlaced(reader, uid, 1.0)
    return KeyDown(args[0], 2.0)
