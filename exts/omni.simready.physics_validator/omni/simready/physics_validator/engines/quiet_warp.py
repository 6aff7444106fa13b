"""Warp started without the console lines a user cannot act on.

Warp (Newton's kernels, ovphysx's arrays) initialises CUDA in `wp.init()` and, on a machine without an
NVIDIA driver, prints "Warp CUDA warning: Could not find or load the NVIDIA CUDA driver" from native
code (a C fprintf, so neither `wp.config.quiet` nor Python's warnings filters reach it). The validator
runs on the CPU by design, so that line is noise, printed once by every process that starts Warp (the
CLI and each worker: 2-3 times a run). `init_warp()` runs `wp.init()` with the process's stderr (file
descriptor 2) captured and writes back every line except that one. Call it before anything else
starts Warp; a second `wp.init()` does nothing.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile

# Lines Warp prints at start-up that say nothing the user can act on here.
UNACTIONABLE = ("Could not find or load the NVIDIA CUDA driver",)


@contextlib.contextmanager
def native_stderr_without(drop: tuple[str, ...] = UNACTIONABLE):
    """Capture file descriptor 2 for the block (native and Python writes alike); write back the lines
    that contain none of `drop`."""
    try:
        sys.stderr.flush()
        saved = os.dup(2)
    except (OSError, AttributeError, ValueError):  # no real stderr (e.g. an embedding host): nothing to filter
        yield
        return
    with tempfile.TemporaryFile() as capture:
        os.dup2(capture.fileno(), 2)
        try:
            yield
        finally:
            with contextlib.suppress(Exception):
                sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)
            capture.seek(0)
            kept = [line for line in capture.read().splitlines(keepends=True) if not any(d.encode() in line for d in drop)]
            if kept:
                os.write(2, b"".join(kept))


def init_warp():
    """Import and initialise Warp quietly (no greeting, no per-module log, no CUDA-driver line); returns `warp`."""
    import warp as wp

    wp.config.quiet = True
    if hasattr(wp, "LOG_WARNING"):  # Warp >= 1.19 logs its greeting and module loads at LOG_INFO
        wp.config.log_level = max(wp.config.log_level, wp.LOG_WARNING)
    with native_stderr_without():
        wp.init()
    return wp
