"""A rich Console for stdout that outlives its reader closing the pipe (`simready-physics list-tests | head -1`).

rich's own Console exits the process with code 1 on a broken pipe, in the middle of a run: the reports after the
summary would not be written and the exit code would not say the verdicts. This one goes quiet instead (everything
further goes to /dev/null, Python's advice for SIGPIPE) and lets the command finish by its own rules.
"""

from __future__ import annotations

import os
import sys
from typing import Callable

from rich.console import Console


class PipeConsole(Console):
    def on_broken_pipe(self) -> None:
        self.quiet = True
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def closed_pipe_is_done(command: Callable[..., int], *args) -> int:
    """Run a command; a reader that closed stdout early (`... | head -1`) took what it wanted: exit 0 with no message,
    nothing more written to the closed pipe. Buffered output meets the closed pipe at the flush here, not at exit."""
    try:
        code = command(*args)
        sys.stdout.flush()
        return code
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
