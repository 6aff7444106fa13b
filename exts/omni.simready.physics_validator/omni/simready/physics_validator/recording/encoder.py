"""H.264 mp4 encoding through imageio-ffmpeg (its wheel ships an ffmpeg binary with libx264).

Frames stream into an ffmpeg subprocess as they are rendered, so encoding overlaps the simulation
on the second core and no frame list is held in memory. yuv420p + faststart: plays in browsers.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np


class EncoderUnavailable(RuntimeError):
    pass


class VideoEncoder:
    def __init__(self, path: Path, fps: float, width: int, height: int):
        try:
            import imageio_ffmpeg
        except Exception as exc:  # noqa: BLE001
            raise EncoderUnavailable(f"imageio-ffmpeg not importable ({exc}); install the [video] extra") from exc
        self.path = Path(path)
        self.fps = float(fps)
        # yuv420p needs even sizes: the encoder pads by one pixel when needed.
        self.width, self.height = int(width), int(height)
        self._size = (self.width + self.width % 2, self.height + self.height % 2)
        self.frames = 0
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._writer = imageio_ffmpeg.write_frames(
            str(self.path),
            self._size,
            fps=self.fps,
            codec="libx264",
            pix_fmt_in="rgb24",
            pix_fmt_out="yuv420p",
            macro_block_size=1,
            quality=None,
            ffmpeg_log_level="error",
            output_params=["-preset", "veryfast", "-crf", "23", "-movflags", "+faststart"],
        )
        self._writer.send(None)

    def append(self, frame: np.ndarray) -> None:
        if frame.shape[:2] != (self._size[1], self._size[0]):
            padded = np.zeros((self._size[1], self._size[0], 3), np.uint8)
            padded[: frame.shape[0], : frame.shape[1]] = frame[: self._size[1], : self._size[0]]
            frame = padded
        self._writer.send(np.ascontiguousarray(frame, dtype=np.uint8).tobytes())
        self.frames += 1

    def close(self) -> None:
        if self._writer is not None:
            writer, self._writer = self._writer, None
            writer.close()
