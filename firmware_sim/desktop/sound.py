"""The unit's buzzer on the desktop: its tones as generated square waves through pygame.mixer.

A piezo buzzer can only beep, so each tone is a short melody of square-wave
notes (:data:`MELODIES`). With no audio device (no sound card, a headless CI,
``SDL_AUDIODRIVER=dummy`` or a mixer that fails to start) the buzzer stays
silent and still records what it was asked to play; :attr:`ToneBuzzer.problem`
is then one line saying so. What the sound libraries themselves print while
the mixer starts (ALSA's ``cannot find card '0'`` and its like) is kept off
the terminal.
"""

from __future__ import annotations

import os
import sys
from array import array
from contextlib import contextmanager
from collections.abc import Iterator

from banker.unit.events import TONES, Tone

#: Each tone as (frequency Hz, milliseconds) notes; frequency 0 is a rest.
MELODIES: dict[str, tuple[tuple[int, int], ...]] = {
    "key": ((2400, 25),),
    "volume": ((1800, 70),),
    "success": ((1500, 60), (0, 30), (2200, 110)),
    "refusal": ((330, 180), (0, 50), (330, 280)),
    "new-game": ((1000, 90), (1300, 90), (1700, 90), (2200, 220)),
    "warning": ((2400, 100), (0, 100), (2400, 100), (0, 100), (2400, 300)),
    "tick": ((3200, 20),),
    "going-once": ((1319, 120), (0, 60), (988, 180)),
    "going-twice": ((1319, 120), (0, 60), (1175, 120), (0, 60), (988, 180)),
}
#: Loudness of volume 1 (low), 2 (medium) and 3 (high), as a fraction of full scale.
LEVELS = {0: 0.0, 1: 0.12, 2: 0.35, 3: 0.9}
PEAK = 12_000  # of 32,767: a square wave at full scale is harsh


@contextmanager
def quiet_stderr() -> Iterator[None]:
    """Send what C libraries write to file descriptor 2 (ALSA, PulseAudio) to /dev/null for a while."""
    try:
        sys.stderr.flush()
        saved = os.dup(2)
    except OSError:  # no file descriptor 2 at all
        yield
        return
    try:
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def tone_samples(tone: Tone, rate: int) -> array:
    """The signed 16-bit mono samples of ``tone`` at ``rate`` samples a second."""
    samples = array("h")
    for frequency, ms in MELODIES[tone]:
        count = rate * ms // 1000
        if frequency == 0:
            samples.extend([0] * count)
            continue
        half = rate / (2 * frequency)
        samples.extend(PEAK if int(i / half) % 2 == 0 else -PEAK for i in range(count))
    return samples


class ToneBuzzer:
    """The Buzzer port over pygame.mixer; ``played`` records every (tone, volume) asked for.

    ``audible=False`` (or a mixer that won't start) keeps it silent. One voice,
    like the piezo: a new tone cuts the one still sounding.

    >>> buzzer = ToneBuzzer(audible=False)
    >>> buzzer.play("success", 2); buzzer.played
    [('success', 2)]
    """

    def __init__(self, *, audible: bool = True) -> None:
        self.played: list[tuple[str, int]] = []
        self.problem: str | None = None  # why it is silent, when it is
        self._sounds: dict[str, object] = {}
        self._channel = None
        if audible:
            self._start_mixer()
        else:
            self.problem = "sound switched off"

    def _start_mixer(self) -> None:
        try:
            import pygame

            with quiet_stderr():
                pygame.mixer.init(frequency=22050, size=-16, channels=1, buffer=512)
            rate, size, channels = pygame.mixer.get_init()
            if size != -16:
                raise RuntimeError(f"the mixer gave {size}-bit samples")
            for tone in TONES:
                mono = tone_samples(tone, rate)
                data = mono if channels == 1 else array("h", (s for s in mono for _ in range(channels)))
                self._sounds[tone] = pygame.mixer.Sound(buffer=data.tobytes())
            self._channel = pygame.mixer.Channel(0)
        except Exception as exc:  # no audio device: carry on silently (pygame.error, OSError, ...)
            self.problem = f"no sound: no audio device could be opened ({exc}); the tones are silent"
            self._sounds = {}
            self._channel = None

    @property
    def audible(self) -> bool:
        return self._channel is not None

    def play(self, tone: Tone, volume: int) -> None:
        self.played.append((tone, volume))
        if self._channel is None or LEVELS.get(volume, 0) == 0:
            return
        self._channel.set_volume(LEVELS[volume])
        self._channel.play(self._sounds[tone])

    def close(self) -> None:
        if self._channel is not None:
            import pygame

            pygame.mixer.quit()
            self._channel = None

    def __enter__(self) -> ToneBuzzer:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class MixerPlayer:
    """The voice's player on the desktop (:class:`runtime.speaker.Speaker`): each WAV on a pygame.mixer channel of
    its own beside the buzzer's (the mixer runs at espeak-ng's 22,050 Hz, 16-bit)."""

    def __init__(self, channel: int = 1) -> None:
        import pygame

        pygame.mixer.set_num_channels(max(pygame.mixer.get_num_channels(), channel + 1))
        self._channel = pygame.mixer.Channel(channel)

    def start(self, wav: bytes) -> _MixerRun:
        import io

        import pygame

        sound = pygame.mixer.Sound(file=io.BytesIO(wav))
        self._channel.play(sound)
        return _MixerRun(self._channel, sound)


class _MixerRun:
    def __init__(self, channel, sound) -> None:
        self.channel, self.sound, self.stopped = channel, sound, False

    def wait(self) -> None:
        import time

        while not self.stopped and self.channel.get_sound() is self.sound and self.channel.get_busy():
            time.sleep(0.02)

    def stop(self) -> None:
        self.stopped = True
        if self.channel.get_sound() is self.sound:
            self.channel.stop()


def desktop_voice(buzzer: ToneBuzzer, voice):
    """The simulator's voice for ``[voice]`` (``voice``): a Speaker through the desktop's audio, or None when the
    voice is off or the buzzer found no audio device."""
    if not buzzer.audible:
        return None
    from runtime.speaker import open_speaker

    return open_speaker(voice, MixerPlayer())
