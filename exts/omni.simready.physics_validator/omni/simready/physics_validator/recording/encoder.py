"""H.264 mp4 encoding with the ffmpeg binary imageio-ffmpeg ships (its wheel has one with libx264).

Frames stream into an ffmpeg subprocess as they are rendered, so encoding overlaps the simulation
on the second core and no frame list is held in memory. yuv420p + faststart: plays in browsers. ffmpeg writes a
temp file beside the video, which replaces the video only when ffmpeg exited 0 (core.out_writer): a failed encode
(a full disk: ffmpeg says "Error writing trailer" and exits 1, which imageio-ffmpeg's own writer does not report)
leaves no truncated video, and a link planted at the video's path is never written through.
"""

from __future__ import annotations

import subprocess
from fractions import Fraction
from pathlib import Path

import numpy as np

from ..core import out_writer

CLOSE_SECONDS = 120.0  # ffmpeg's last frames and the faststart rewrite


class EncoderUnavailable(RuntimeError):
    pass


class VideoEncoder:
    def __init__(self, path: Path, fps: float, width: int, height: int):
        try:
            import imageio_ffmpeg

            executable = imageio_ffmpeg.get_ffmpeg_exe()
        except Exception as exc:  # noqa: BLE001
            raise EncoderUnavailable(f"imageio-ffmpeg not importable ({exc}); install the [video] extra") from exc
        self.path = Path(path)
        self.fps = float(fps)
        # yuv420p needs even sizes: the encoder pads by one pixel when needed.
        self.width, self.height = int(width), int(height)
        self._size = (self.width + self.width % 2, self.height + self.height % 2)
        self.frames = 0
        self._replacing = out_writer.replacing(self.path)
        self._tmp = self._replacing.__enter__()
        command = [executable, "-y", "-v", "error", "-f", "rawvideo", "-vcodec", "rawvideo", "-s",
                   f"{self._size[0]}x{self._size[1]}", "-pix_fmt", "rgb24", "-r", str(Fraction(self.fps).limit_denominator()),
                   "-i", "-", "-an", "-vcodec", "libx264", "-pix_fmt", "yuv420p", "-preset", "veryfast", "-crf", "23",
                   "-movflags", "+faststart", str(self._tmp)]
        try:
            self._process: subprocess.Popen | None = subprocess.Popen(
                command, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        except BaseException as exc:
            self._process = None
            self.abort(exc)
            raise EncoderUnavailable(f"ffmpeg did not start: {exc}") from exc

    def append(self, frame: np.ndarray) -> None:
        if frame.shape[:2] != (self._size[1], self._size[0]):
            padded = np.zeros((self._size[1], self._size[0], 3), np.uint8)
            padded[: frame.shape[0], : frame.shape[1]] = frame[: self._size[1], : self._size[0]]
            frame = padded
        assert self._process is not None and self._process.stdin is not None, "the video was closed"
        try:
            self._process.stdin.write(np.ascontiguousarray(frame, dtype=np.uint8).tobytes())
        except OSError as exc:  # ffmpeg stopped (a full disk): say why, from its own words
            raise OSError(f"ffmpeg stopped: {self._ffmpeg_error() or exc}") from None
        self.frames += 1

    def close(self) -> None:
        """Finish the video: it replaces `path` only now, whole (raises, leaving nothing, when ffmpeg failed)."""
        process, self._process = self._process, None
        if process is None:
            return
        try:
            assert process.stdin is not None
            process.stdin.close()
            code = process.wait(timeout=CLOSE_SECONDS)
            if code != 0:
                raise OSError(f"ffmpeg exited {code}: {self._ffmpeg_error(process) or 'no message'}")
        except BaseException as exc:
            self._process = process
            self.abort(exc)
            raise
        self._replacing.__exit__(None, None, None)

    def abort(self, exc: BaseException | None = None) -> None:
        """Give the video up: ffmpeg stopped, its temp file removed, `path` as it was."""
        process, self._process = self._process, None
        if process is not None and process.poll() is None:
            process.kill()
            process.wait()
        reason = exc if exc is not None else OSError("video abandoned")
        try:
            self._replacing.__exit__(type(reason), reason, None)
        except BaseException:  # noqa: BLE001 - the temp file is gone either way
            pass

    def _ffmpeg_error(self, process: subprocess.Popen | None = None) -> str:
        process = process or self._process
        if process is None or process.stderr is None:
            return ""
        try:
            if process.poll() is None:
                return ""
            return " ".join(process.stderr.read().decode("utf-8", "replace").split())[-300:]
        except (OSError, ValueError):
            return ""
