"""The voice failing (espeak-ng slow, refusing or missing, aplay stopped, a programming error in the render) is logged
and play goes on; nothing is said once the speaker is closed."""

from __future__ import annotations

import logging
import subprocess
import threading
from dataclasses import dataclass

import pytest

import runtime.speaker
from runtime.config import VoiceConfig
from runtime.speaker import Speaker, Utterance, _AplayRun, espeak_wav, open_speaker
from tests.voice.support import FakePlayer


@dataclass
class Done:
    returncode: int
    stdout: bytes
    stderr: bytes


def test_espeak_taking_too_long_or_failing_is_an_os_error_naming_it(monkeypatch):
    said = Utterance("Alice has 15 million.", "en", 100, 160)

    def slow(*args, **kwargs):
        raise subprocess.TimeoutExpired(args[0], kwargs["timeout"])
    monkeypatch.setattr(runtime.speaker.subprocess, "run", slow)
    with pytest.raises(OSError, match=f"espeak-ng took more than {runtime.speaker.RENDER_TIMEOUT:g} s"):
        espeak_wav(said)
    monkeypatch.setattr(runtime.speaker.subprocess, "run", lambda *a, **k: Done(1, b"", b"warning\nno voice 'xx'\n"))
    with pytest.raises(OSError, match="espeak-ng failed: no voice 'xx'"):
        espeak_wav(said)
    monkeypatch.setattr(runtime.speaker.subprocess, "run", lambda *a, **k: Done(3, b"", b""))
    with pytest.raises(OSError, match="espeak-ng failed: exit status 3"):
        espeak_wav(said)


def test_a_sound_stopped_while_it_plays_ends_without_an_error():
    process = subprocess.Popen(["cat"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    run = _AplayRun(process, b"RIFF" + b"\0" * 1000)
    run.stop()
    run.wait()  # killed on purpose: no error
    assert process.returncode != 0
    run.stop()  # already ended: nothing to kill


def test_a_render_that_fails_on_a_programming_error_is_logged_and_nothing_said_after_close(caplog):
    player, rendering = FakePlayer(), threading.Event()

    def broken(utterance):
        rendering.set()
        raise KeyError("a programming error")
    with caplog.at_level(logging.ERROR, logger=runtime.speaker.log.name):
        with Speaker(player=player, render=broken) as voice:
            voice.say("Alice has 15 million.", 2)
            assert rendering.wait(60)  # the thread took it (closing joins it: its log is written by then)
        voice.say("Bob has 15 million.", 2)  # closed: nothing
    assert player.started == []
    assert [r.getMessage() for r in caplog.records] == ["the voice failed on Utterance(text='Alice has 15 million.', "
                                                        f"voice='en', amplitude={runtime.speaker.AMPLITUDE[2]}, "
                                                        "speed=160)"]


def test_the_voice_on_without_espeak_is_warned_about_and_off_is_none(monkeypatch, caplog):
    assert open_speaker(VoiceConfig()) is None and open_speaker(None) is None
    monkeypatch.setattr(runtime.speaker.shutil, "which", lambda name: None)
    with caplog.at_level(logging.WARNING, logger=runtime.speaker.log.name):
        speaker = open_speaker(VoiceConfig(enabled=True, language="de", speed=120), player=FakePlayer())
    try:
        assert speaker.voice == "de" and speaker.speed == 120
    finally:
        speaker.close()
    assert caplog.records[-1].getMessage().startswith("[voice] is on but espeak-ng is not installed")
