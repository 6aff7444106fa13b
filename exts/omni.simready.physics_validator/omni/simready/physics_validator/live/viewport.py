"""Video frames from the Kit viewport while a test runs on the live stage.

`CaptureSchedule` and `downscale_rgba` are omni-free (pytest covers them); `ViewportRecorder` calls
omni.kit.viewport.utility lazily and only runs inside Kit.
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass
from typing import Callable

import numpy as np


@dataclass(frozen=True)
class CaptureSchedule:
    """Capture a frame every `physics_fps / capture_fps` steps (rounded), starting at step 0."""

    physics_fps: float
    capture_fps: float

    @property
    def every(self) -> int:
        return max(1, int(round(self.physics_fps / self.capture_fps)))

    def due(self, step: int) -> bool:
        return step % self.every == 0


def downscale_rgba(frame: np.ndarray, max_width: int = 320) -> np.ndarray:
    """Nearest-neighbour shrink of an HxWx4 uint8 frame to at most `max_width` columns. Panel
    frames stay small: 10 s at 15 fps of 320x180 RGBA is ~35 MB."""
    frame = np.asarray(frame)
    height, width = frame.shape[:2]
    if width <= max_width:
        return np.ascontiguousarray(frame)
    new_height = max(1, int(round(height * max_width / width)))
    rows = (np.arange(new_height) * height / new_height).astype(int)
    cols = (np.arange(max_width) * width / max_width).astype(int)
    return np.ascontiguousarray(frame[rows][:, cols])


def capsule_to_rgba(capsule, size: int, width: int, height: int) -> np.ndarray:
    """The viewport's ByteCapture hands a PyCapsule; copy it into an HxWx4 uint8 array."""
    get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
    get_pointer.restype = ctypes.POINTER(ctypes.c_byte * size)
    get_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
    content = get_pointer(capsule, None).contents
    return np.frombuffer(content, dtype=np.uint8, count=size).reshape(height, width, 4).copy()


class ViewportRecorder:
    """Schedules a viewport capture on due physics steps; frames arrive a render frame later.

    `capture_viewport_to_buffer(viewport, fn)` calls `fn(capsule, size, width, height, format)`
    asynchronously (omni.kit.viewport.utility; documented in Kit's API notes, not seen in the
    NVIDIA-Omniverse/PhysX or isaac-sim/IsaacSim sources).
    """

    def __init__(self, physics_fps: float, capture_fps: float, on_frame: Callable[[np.ndarray, int], None]):
        self.schedule = CaptureSchedule(physics_fps, capture_fps)
        self.on_frame = on_frame
        self._viewport = None
        try:
            from omni.kit.viewport.utility import get_active_viewport

            self._viewport = get_active_viewport()
        except ImportError:
            pass

    @property
    def available(self) -> bool:
        return self._viewport is not None

    def maybe_capture(self, step: int) -> None:
        if self._viewport is None or not self.schedule.due(step):
            return
        from omni.kit.viewport.utility import capture_viewport_to_buffer

        def on_capture(buffer, buffer_size, width, height, _format, step=step):
            self.on_frame(downscale_rgba(capsule_to_rgba(buffer, buffer_size, width, height)), step)

        capture_viewport_to_buffer(self._viewport, on_capture)
