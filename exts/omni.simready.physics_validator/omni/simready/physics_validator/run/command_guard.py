"""What a command that writes reports runs under: signals handled (run.interrupts: SIGTERM as Ctrl-C; for validate and
fix, no report lost to a second signal: a signal stops the batch in flight, or is noted and acted on at the next safe
point) and the output folders it claimed (run.output_paths, core.out_writer) released when it ends, however it ends."""

from __future__ import annotations

import contextlib
from typing import Iterator

from .interrupts import Handled, handled
from .output_paths import release_all


@contextlib.contextmanager
def guarded(command: str) -> Iterator[Handled]:
    with handled(defer=command in ("validate", "fix")) as signals:
        try:
            yield signals
        finally:
            release_all()
