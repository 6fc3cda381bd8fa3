"""The unit's voice: each :class:`~banker.unit.events.Say` rendered by espeak-ng and played by aplay on a thread of its own.

The shell hands a ``Say`` to :meth:`Speaker.say` after the frame is drawn;
``say`` only notes it and returns at once. The speaker's thread renders the
text to a WAV (``espeak-ng --stdout``, the text on its stdin) and plays it
(``aplay -q -D DEVICE -``). A newer utterance replaces a stale one: the one
waiting is dropped and the one playing is stopped (its process killed), so
speech never queues behind the game. The unit's volume (0-3) is espeak-ng's
amplitude (:data:`AMPLITUDE`); 0 is silence. docs/voice.md says how to wire
a speaker; ``[voice]`` in docs/config.md turns it on.

The renderer and the player are arguments (the simulator plays through
pygame, tests through a fake that records and holds), like a driver's bus.
"""

from __future__ import annotations

import logging
import shutil
import subprocess
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

log = logging.getLogger("banker.unit.voice")

#: espeak-ng's amplitude (``-a``, 0-200, default 100) for the unit's volume off, low, medium and high (its peaks
#: reach full scale at about 110: more only clips).
AMPLITUDE = {0: 0, 1: 25, 2: 60, 3: 110}
#: The longest a sentence may take to render (espeak-ng takes ~15-30 ms here, ~100 ms on a Pi Zero 2).
RENDER_TIMEOUT = 5.0


@dataclass(frozen=True)
class Utterance:
    """One thing to say: ``text`` with espeak-ng's ``voice`` (``en``, ``en-us``, ``de``) at ``amplitude``."""

    text: str
    voice: str
    amplitude: int
    speed: int


def espeak_wav(utterance: Utterance) -> bytes:
    """The WAV (mono, 16-bit, 22,050 Hz) espeak-ng renders for ``utterance``: the text goes on stdin (never read
    as an option), so anything a player's name holds is only spoken. :class:`OSError` when it can't."""
    try:
        done = subprocess.run(
            ["espeak-ng", "-b", "1", "-v", utterance.voice, "-a", str(utterance.amplitude), "-s", str(utterance.speed),
             "--stdout"], input=utterance.text.encode("utf-8"), capture_output=True, timeout=RENDER_TIMEOUT)
    except subprocess.TimeoutExpired:
        raise OSError(f"espeak-ng took more than {RENDER_TIMEOUT:g} s") from None
    if done.returncode != 0 or not done.stdout.startswith(b"RIFF"):
        why = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise OSError(f"espeak-ng failed: {why[-1] if why else f'exit status {done.returncode}'}")
    return done.stdout


class Playing(Protocol):
    """A sound being played: :meth:`wait` (on the speaker's thread) returns when it ends or is stopped."""

    def wait(self) -> None: ...
    def stop(self) -> None: ...


class Player(Protocol):
    """Plays a WAV: :meth:`start` returns at once."""

    def start(self, wav: bytes) -> Playing: ...


class AplayPlayer:
    """ALSA's ``aplay`` on ``device`` (``default``, ``plughw:CARD=MAX98357A,DEV=0``), the WAV on its stdin."""

    def __init__(self, device: str = "default") -> None:
        self.device = device

    def start(self, wav: bytes) -> _AplayRun:
        process = subprocess.Popen(["aplay", "-q", "-D", self.device, "-"], stdin=subprocess.PIPE,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        return _AplayRun(process, wav)


class _AplayRun:
    def __init__(self, process: subprocess.Popen, wav: bytes) -> None:
        self.process, self.wav, self.stopped = process, wav, False

    def wait(self) -> None:
        _out, err = self.process.communicate(self.wav)  # the pipe is fed as aplay plays it; a kill ends it
        if self.process.returncode != 0 and not self.stopped:
            why = err.decode("utf-8", "replace").strip().splitlines()
            raise OSError(f"aplay -D {self.device_of()} failed: {why[-1] if why else self.process.returncode}")

    def device_of(self) -> str:
        args = self.process.args
        return args[args.index("-D") + 1] if isinstance(args, list) else "?"

    def stop(self) -> None:
        self.stopped = True
        if self.process.poll() is None:
            self.process.kill()


class Speaker:
    """The voice: :meth:`say` returns at once; a thread renders (``render``) and plays (``player``) the newest.

    ``voice`` is the configured espeak-ng voice (``[voice] language``: ``en``,
    ``en-us``, ``de``...): a :class:`Say` in its language is spoken with it, one
    in another language with that language's own voice. ``speed`` is words a
    minute. A failure is logged once and kept in :attr:`problem`; play goes on.

    >>> from tests.voice.support import FakePlayer          # doctest: +SKIP
    >>> with Speaker(player=FakePlayer(), render=lambda u: b"RIFF") as voice:   # doctest: +SKIP
    ...     voice.say("Alice has 15 million.", 2)
    """

    def __init__(self, *, voice: str = "en", speed: int = 160, player: Player | None = None,
                 render: Callable[[Utterance], bytes] = espeak_wav) -> None:
        self.voice, self.speed = voice, speed
        self.player = player if player is not None else AplayPlayer()
        self.render = render
        self.problem: str | None = None
        self._lock = threading.Condition()
        self._pending: Utterance | None = None
        self._playing: Playing | None = None
        self._closed = False
        self._busy = False  # the thread is rendering or playing
        self._thread = threading.Thread(target=self._run, name="banker-voice", daemon=True)
        self._thread.start()

    def voice_for(self, lang: str) -> str:
        """The espeak-ng voice for text in ``lang``: the configured one when it is that language's."""
        return self.voice if self.voice.split("-")[0] == lang.split("-")[0] else lang

    def say(self, text: str, volume: int, lang: str = "en") -> None:
        """Speak ``text`` at the unit's ``volume`` (0: silence), cutting short whatever is said or waiting."""
        amplitude = AMPLITUDE.get(volume, 0)
        utterance = Utterance(text, self.voice_for(lang), amplitude, self.speed) if amplitude and text else None
        with self._lock:
            if self._closed:
                return
            self._pending = utterance
            if self._playing is not None:
                self._playing.stop()
            self._lock.notify()

    def idle(self, timeout: float = 5.0) -> bool:
        """Wait until nothing waits or plays (tests); False on timeout."""
        with self._lock:
            return self._lock.wait_for(lambda: self._pending is None and self._playing is None and not self._busy,
                                       timeout)

    def _run(self) -> None:
        while True:
            with self._lock:
                self._lock.wait_for(lambda: self._pending is not None or self._closed)
                if self._closed:
                    return
                utterance, self._pending, self._busy = self._pending, None, True
            try:
                self._speak(utterance)
            except OSError as exc:
                if str(exc) != self.problem:
                    log.warning("the voice failed: %s", exc)
                self.problem = str(exc)
            except Exception:  # a programming error: logged; the unit plays on without the sentence
                log.exception("the voice failed on %r", utterance)
            finally:
                with self._lock:
                    self._playing, self._busy = None, False
                    self._lock.notify_all()

    def _speak(self, utterance: Utterance) -> None:
        wav = self.render(utterance)
        with self._lock:
            if self._pending is not None or self._closed:
                return  # a newer one came while this one rendered: this one is stale
            self._playing = self.player.start(wav)
        self._playing.wait()
        self.problem = None

    def close(self) -> None:
        """Stop speaking and end the thread."""
        with self._lock:
            self._closed = True
            self._pending = None
            if self._playing is not None:
                self._playing.stop()
            self._lock.notify_all()
        self._thread.join(timeout=2.0)

    def __enter__(self) -> Speaker:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def open_speaker(voice, player=None) -> Speaker | None:
    """The voice ``[voice]`` asks for (``voice``: the config's :class:`~runtime.config.VoiceConfig`), or None when
    it is off; ``player``: what plays the sound (``aplay`` on the configured device; the simulator's mixer)."""
    if voice is None or not voice.enabled:
        return None
    if shutil.which("espeak-ng") is None:
        log.warning("[voice] is on but espeak-ng is not installed (sudo apt install espeak-ng): the unit is silent")
    return Speaker(voice=voice.language, speed=voice.speed, player=player or AplayPlayer(voice.device))


# -- banker doctor ---------------------------------------------------------------------------------

#: Where the Pi's boot config is (Raspberry Pi OS Bookworm, then older releases).
BOOT_CONFIGS = ("/boot/firmware/config.txt", "/boot/config.txt")
#: The overlays that give an I2S amplifier a sound card.
I2S_OVERLAYS = ("max98357a", "hifiberry-dac")


def sound_cards(path: str = "/proc/asound/cards") -> list[str]:
    """The names ALSA gives the sound cards (``MAX98357A``, ``vc4hdmi``, ``Device``); none without a card."""
    try:
        with open(path, encoding="utf-8") as file:
            text = file.read()
    except OSError:
        return []
    return [line.split("[", 1)[1].split("]", 1)[0].strip() for line in text.splitlines() if "[" in line]


def doctor_line(voice, *, simulated: bool = False, cards: str = "/proc/asound/cards",
                boot: tuple[str, ...] = BOOT_CONFIGS, which: Callable[[str], str | None] = shutil.which,
                run=subprocess.run) -> tuple[bool, str]:
    """``banker doctor``'s voice line for ``[voice]`` (``voice``): ok and "Off" when the voice is off (the default);
    else espeak-ng there with the language's voice and, on a real unit, aplay, a sound card, the I2S overlay when
    ``output`` is i2s, and the device opening (1 s of silence). ``simulated`` (``--backend hw-sim``): the machine's
    sound hardware is not the unit's, so none is asked for."""
    if not voice.enabled:
        return True, "Off: [voice] enabled is false (the default; docs/voice.md turns it on)."
    missing = _speech_missing(voice, simulated=simulated, which=which, run=run)
    if missing is not None:
        return False, missing
    if simulated:
        return True, (f"espeak-ng speaks {voice.language!r}; on simulated hardware no sound card is asked for "
                      "(on the Pi, 'banker doctor' checks the card and the device).")
    return _sound_out(voice, cards=cards, boot=boot, run=run)


def _speech_missing(voice, *, simulated: bool, which, run) -> str | None:
    """What the voice lacks to speak, or None: espeak-ng (and, on a real unit, aplay) installed, and
    espeak-ng's voice for the language."""
    for program in ("espeak-ng",) if simulated else ("espeak-ng", "aplay"):
        if which(program) is None:
            return f"{program} is not installed: sudo apt install espeak-ng alsa-utils (docs/voice.md)."
    if run(["espeak-ng", "-v", voice.language, "-q", "x"], capture_output=True, timeout=10).returncode != 0:
        return f"espeak-ng has no voice {voice.language!r} ('espeak-ng --voices' lists them)."
    return None


def _sound_out(voice, *, cards: str, boot: tuple[str, ...], run) -> tuple[bool, str]:
    """The unit's own sound: the I2S overlay when ``output`` is i2s, a sound card, and the device opening
    (1 s of silence through aplay)."""
    found = sound_cards(cards)
    if voice.output == "i2s" and not _overlay_in(boot):
        return False, (f"No I2S overlay in {boot[0]}: add dtoverlay=max98357a,no-sdmode and dtparam=audio=off, "
                       "then reboot (docs/voice.md).")
    if not found:
        return False, ("No sound card, and the voice is on ([voice] enabled): /proc/asound/cards lists none "
                       "(docs/voice.md: the overlay, a USB card, HDMI; or enabled = false).")
    opened = run(["aplay", "-q", "-D", voice.device, "-d", "1", "-f", "S16_LE", "-r", "22050", "/dev/zero"],
                 capture_output=True, text=True, timeout=10)
    if opened.returncode != 0:
        why = (opened.stderr.strip().splitlines() or [f"exit status {opened.returncode}"])[-1]
        return False, f"aplay can't open {voice.device!r} ({why}); 'aplay -L' lists the devices."
    return True, f"espeak-ng speaks {voice.language!r} on {voice.device!r} (sound cards: {', '.join(found)})."


def _overlay_in(paths: tuple[str, ...]) -> bool:
    for path in paths:
        try:
            with open(path, encoding="utf-8") as file:
                lines = [line.split("#", 1)[0].strip() for line in file]
        except OSError:
            continue
        return any(line.startswith("dtoverlay=") and line[10:].split(",")[0] in I2S_OVERLAYS for line in lines)
    return False
