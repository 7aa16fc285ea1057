"""Sound cues: your turn, a player joins or leaves, an attack, the end.

The cues are short tones synthesised here at start-up (no sound files, so
nothing to license): a few sine notes with a quick attack and an exponential
fade, in the mixer's own sample format. Sound is a convenience, never a
requirement: with no audio device, no mixer module, or SDL's dummy audio
driver the game plays on silently. A muted :class:`Sounds` plays nothing.

Every cue asked for is recorded in :attr:`Sounds.asked` (the last few), so a
headless test can check which cue a game event raised without hearing it.
"""

from __future__ import annotations

import math
from array import array
from typing import Any

#: Each cue as (frequency in Hz, seconds) notes played one after the other.
CUES: dict[str, tuple[tuple[float, float], ...]] = {
    "turn": ((660.0, 0.08), (880.0, 0.12)),
    "join": ((523.3, 0.07), (659.3, 0.07), (784.0, 0.12)),
    "leave": ((784.0, 0.09), (523.3, 0.16)),
    "attack": ((140.0, 0.05), (98.0, 0.14)),
    "end": ((523.3, 0.09), (659.3, 0.09), (784.0, 0.09), (1046.5, 0.22)),
}
VOLUME = 0.28
#: How many asked cues are remembered.
KEEP = 32


def synthesise(notes: tuple[tuple[float, float], ...], rate: int, channels: int) -> bytes:
    """Signed 16-bit samples of ``notes`` at ``rate`` Hz, interleaved for ``channels``."""
    samples = array("h")
    for freq, seconds in notes:
        n = max(1, int(rate * seconds))
        attack = max(1, int(rate * 0.004))
        for i in range(n):
            envelope = min(1.0, i / attack) * math.exp(-4.0 * i / n)
            value = int(32767 * VOLUME * envelope * math.sin(2 * math.pi * freq * i / rate))
            samples.extend([value] * channels)
    return samples.tobytes()


class Sounds:
    """The cues, played through pygame's mixer when there is one."""

    def __init__(self, *, enabled: bool = True, volume: float = 1.0) -> None:
        self.enabled = enabled
        #: A factor on every cue, 0..1 (the player's volume setting).
        self.volume = volume
        #: Why there is no sound ("" while it works or before the first cue).
        self.unavailable = ""
        self.asked: list[str] = []
        self._ready = False
        self._sounds: dict[str, Any] = {}

    def _start(self) -> None:
        """Open the mixer once, on the first cue (a failure just means silence)."""
        self._ready = True
        try:
            import pygame.mixer as mixer
        except (ImportError, NotImplementedError) as exc:
            self.unavailable = f"no mixer module: {exc}"
            return
        try:
            if not mixer.get_init():
                mixer.init(frequency=22050, size=-16, channels=1, buffer=512)
            found = mixer.get_init()
            if not found:
                raise RuntimeError("the mixer did not start")
            rate, size, channels = found
            if abs(size) != 16:
                raise RuntimeError(f"the mixer uses {abs(size)}-bit samples, not 16")
            for cue, notes in CUES.items():
                self._sounds[cue] = mixer.Sound(buffer=synthesise(notes, rate, channels))
        except (RuntimeError, OSError, ValueError) as exc:  # pygame.error is a RuntimeError: silence
            self.unavailable = str(exc) or type(exc).__name__
            self._sounds = {}

    @property
    def available(self) -> bool:
        if not self._ready:
            self._start()
        return bool(self._sounds)

    def play(self, cue: str) -> bool:
        """Play ``cue`` unless muted; True if a sound was started."""
        if cue not in CUES:
            raise KeyError(f"no sound cue {cue!r}")
        self.asked = (self.asked + [cue])[-KEEP:]
        if not self.enabled or not self.available:
            return False
        try:
            sound = self._sounds[cue]
            sound.set_volume(self.volume)
            sound.play()
        except (RuntimeError, OSError) as exc:  # a device that went away mid-game: go silent, keep playing
            self.unavailable = str(exc) or type(exc).__name__
            self._sounds = {}
            return False
        return True

    def length(self, cue: str) -> float:
        """Seconds of a cue as synthesised (0 without a mixer)."""
        sound = self._sounds.get(cue) if self.available else None
        return float(sound.get_length()) if sound is not None else 0.0
