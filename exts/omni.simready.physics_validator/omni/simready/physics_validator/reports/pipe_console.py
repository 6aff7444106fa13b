"""A rich Console that outlives its reader closing the pipe (`simready-physics list-tests | head -1`,
`simready-physics validate ... 2>&1 | head -3`).

rich's own Console exits the process with code 1 on a broken pipe, in the middle of a run: the reports after the
summary would not be written and the exit code would not say the verdicts (a PASS run piped into `head` exited 1).
This one goes quiet instead (everything further on its stream goes to /dev/null, Python's advice for SIGPIPE) and
lets the command finish by its own rules: the exit code is the verdicts', whether stdout, stderr or both were closed.
"""

from __future__ import annotations

import os
import sys
from typing import Callable

from rich.console import Console


class PipeConsole(Console):
    """stdout by default; `PipeConsole(stderr=True)` for the command line's messages and progress."""

    def on_broken_pipe(self) -> None:
        self.quiet = True
        silence(sys.stderr if self.stderr else sys.stdout)


def silence(stream) -> None:
    """Point the stream's descriptor at /dev/null: later writes (ours, a library's, at exit) go nowhere quietly."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), stream.fileno())
    except (OSError, ValueError):  # no descriptor (a test's capture): nothing to redirect
        pass


def closed_pipe_is_done(command: Callable[..., int], *args) -> int:
    """Run a command; a reader that closed the pipe early (`... | head -1`) took what it wanted: no message, nothing
    more written to the closed pipe, and the command's own exit code (the consoles go quiet, the run goes on). Only a
    BrokenPipeError that escaped the command (a plain print) ends it: exit 0, what the reader asked for was printed.
    Buffered output meets the closed pipe at the flushes here, not at exit (where Python would print a traceback)."""
    try:
        code = command(*args)
    except BrokenPipeError:
        silence(sys.stdout)
        silence(sys.stderr)
        return 0
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BrokenPipeError:
            silence(stream)
    return code
