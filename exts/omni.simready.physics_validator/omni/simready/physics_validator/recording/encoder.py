"""H.264 mp4 encoding through imageio-ffmpeg (its wheel ships an ffmpeg binary with libx264).

Frames stream into an ffmpeg subprocess as they are rendered, so encoding overlaps the simulation
on the second core and no frame list is held in memory. yuv420p + faststart: plays in browsers. ffmpeg writes a
temp file beside the video, which replaces the video only when encoding finished (core.atomic_write): a failed
encode (a full disk) leaves no truncated video, and a link planted at the video's path is never written through.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..core.atomic_write import replacing


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
        self._replacing = replacing(self.path)
        self._tmp = self._replacing.__enter__()
        try:
            self._writer = self._start(imageio_ffmpeg)
        except BaseException as exc:
            self.abort(exc)
            raise

    def _start(self, imageio_ffmpeg):
        writer = imageio_ffmpeg.write_frames(
            str(self._tmp),
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
        writer.send(None)
        return writer

    def append(self, frame: np.ndarray) -> None:
        if frame.shape[:2] != (self._size[1], self._size[0]):
            padded = np.zeros((self._size[1], self._size[0], 3), np.uint8)
            padded[: frame.shape[0], : frame.shape[1]] = frame[: self._size[1], : self._size[0]]
            frame = padded
        self._writer.send(np.ascontiguousarray(frame, dtype=np.uint8).tobytes())
        self.frames += 1

    def close(self) -> None:
        """Finish the video: it replaces `path` only now, whole (raises, leaving nothing, when ffmpeg failed)."""
        if self._writer is None:
            return
        writer, self._writer = self._writer, None
        try:
            writer.close()
        except BaseException as exc:
            self.abort(exc)
            raise
        self._replacing.__exit__(None, None, None)

    def abort(self, exc: BaseException | None = None) -> None:
        """Give the video up: ffmpeg stopped, its temp file removed, `path` as it was."""
        writer, self._writer = self._writer, None
        if writer is not None:
            try:
                writer.close()
            except BaseException:  # noqa: BLE001 - already failing
                pass
        try:
            self._replacing.__exit__(type(exc or OSError), exc or OSError("video abandoned"), None)
        except BaseException:  # noqa: BLE001 - the temp file is gone either way
            pass
