"""For the voice's tests: is a WAV speech (standard library only), and a fake player that records and holds."""

from __future__ import annotations

import io
import math
import sys
import threading
import wave
from array import array
from dataclasses import dataclass

#: A 20 ms frame is voiced when its RMS is above this share of the loudest frame's, and above :data:`FLOOR`.
VOICED, FLOOR = 0.1, 300


@dataclass(frozen=True)
class Measures:
    """What a listener would notice in a WAV: how long, how much of it sounds, how its sound starts and stops."""

    duration: float
    voiced_fraction: float
    median_zcr: float
    onsets: int

    def is_speech_of(self, text: str) -> bool:
        """Speech rather than silence, noise or a tone, of a length that fits ``text`` (research: espeak-ng and
        piper 0.61-0.68 voiced, ZCR 0.06-0.08, 6-16 onsets; noise ZCR 0.48; a sine 0 onsets)."""
        return (0.3 < self.voiced_fraction < 0.9 and self.onsets >= 4 and self.median_zcr < 0.3
                and 0.04 * len(text) < self.duration < 0.15 * len(text))


def measures(wav: bytes, frame_ms: int = 20) -> Measures:
    """:class:`Measures` of a mono 16-bit WAV (``espeak-ng --stdout`` leaves its sizes unset: read to the end)."""
    with wave.open(io.BytesIO(wav)) as w:
        assert w.getsampwidth() == 2 and w.getnchannels() == 1, "a mono 16-bit WAV"
        rate = w.getframerate()
        data = w.readframes(w.getnframes())
    pcm = array("h", data[: len(data) // 2 * 2])
    if sys.byteorder == "big":
        pcm.byteswap()
    n = rate * frame_ms // 1000
    frames = [pcm[i:i + n] for i in range(0, len(pcm) - n + 1, n)]
    rms = [math.sqrt(sum(s * s for s in f) / n) for f in frames]
    peak = max(rms, default=0) or 1
    voiced = [r > VOICED * peak and r > FLOOR for r in rms]
    zcrs = sorted(sum((a < 0) != (b < 0) for a, b in zip(f, f[1:])) / n for f, v in zip(frames, voiced) if v) or [1.0]
    onsets = sum(1 for a, b in zip(voiced, voiced[1:]) if b and not a)
    return Measures(len(pcm) / rate, sum(voiced) / max(1, len(voiced)), zcrs[len(zcrs) // 2], onsets)


class FakePlaying:
    """One sound on the fake player: it plays until :meth:`finish` (the test) or :meth:`stop` (the speaker)."""

    def __init__(self, wav: bytes) -> None:
        self.wav, self.stopped, self._done = wav, False, threading.Event()

    def wait(self) -> None:
        self._done.wait(10)

    def stop(self) -> None:
        self.stopped = True
        self._done.set()

    def finish(self) -> None:
        self._done.set()


class FakePlayer:
    """A player that records each sound started and holds it until the test finishes it."""

    def __init__(self) -> None:
        self.started: list[FakePlaying] = []
        self.playing = threading.Event()

    def start(self, wav: bytes) -> FakePlaying:
        sound = FakePlaying(wav)
        self.started.append(sound)
        self.playing.set()
        return sound
