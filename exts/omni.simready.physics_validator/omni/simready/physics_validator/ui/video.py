"""The panel's video player: the frames recorded during one test, played, paused or scrubbed."""

from __future__ import annotations

from typing import Any


class VideoModel:
    """Frames of one test's recording, and a player over them (play / pause / tick / scrub)."""

    def __init__(self, fps: float = 15.0):
        self.fps = fps
        self.frames: list[Any] = []  # HxWx4 uint8 arrays
        self.steps: list[int] = []  # physics step each frame was taken at
        self.index = 0
        self.playing = False
        self._clock = 0.0

    @property
    def frame_count(self) -> int:
        return len(self.frames)

    @property
    def current(self):
        return self.frames[self.index] if self.frames else None

    def add(self, frame, step: int = -1) -> None:
        self.frames.append(frame)
        self.steps.append(step)

    def scrub(self, index: int) -> int:
        self.playing = False
        self.index = max(0, min(int(index), self.frame_count - 1)) if self.frames else 0
        self._clock = 0.0
        return self.index

    def play(self) -> None:
        if self.frames:
            if self.index >= self.frame_count - 1:
                self.index = 0
            self.playing = True

    def pause(self) -> None:
        self.playing = False

    def tick(self, seconds: float) -> bool:
        """Advance playback by wall time; True when the shown frame changed. Stops at the end."""
        if not self.playing or not self.frames:
            return False
        self._clock += seconds
        advance = int(self._clock * self.fps)
        if advance == 0:
            return False
        self._clock -= advance / self.fps
        new_index = min(self.index + advance, self.frame_count - 1)
        if new_index == self.frame_count - 1:
            self.playing = False
        changed = new_index != self.index
        self.index = new_index
        return changed
