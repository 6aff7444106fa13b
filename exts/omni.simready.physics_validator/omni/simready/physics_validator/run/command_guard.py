"""What a command that writes reports runs under: signals handled (run.interrupts: SIGTERM as Ctrl-C; for validate,
no report lost to a second signal) and the output folders it claimed (run.output_paths) released when it ends."""

from __future__ import annotations

import contextlib
from typing import Iterator

from .interrupts import Handled, handled
from .output_paths import release_all


@contextlib.contextmanager
def guarded(command: str) -> Iterator[Handled]:
    with handled(defer=command == "validate") as signals:
        try:
            yield signals
        finally:
            release_all()
