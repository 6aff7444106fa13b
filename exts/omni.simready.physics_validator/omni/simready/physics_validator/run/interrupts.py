"""Ctrl-C and SIGTERM stop a run the same way, and a second signal never costs the reports.

SIGTERM is what CI timeouts, `timeout` and Kubernetes send: it used to end the CLI at once (exit 143, no JSON, JUnit
or HTML) while Ctrl-C stopped the batch and wrote the reports of what finished (`complete: false`, exit 3). Under
`handled()` (the CLI, for one command) both are KeyboardInterrupt. With `defer` (validate, fix) only the first signal that
lands while a batch plans or runs (`stoppable()`, run.batch) raises, and stops that batch; a later one, or one that
lands while nothing is stoppable (the reports being written), is noted: the reports are written, and the command
exits 3 (`exit_code`); once the command is over, the process ignores them (three Ctrl-C 0.2 s apart still exit 3).
A signal noted before a batch starts stops it at once; work between batches asks `stop_requested()` (fix stops
before its next round, accepts no layer and writes its report marked incomplete). Workers ignore both signals
(worker_main): the parent stops them.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from typing import Iterator

SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM") if hasattr(signal, name))


class _State:
    def __init__(self, defer: bool = False):
        self.defer = defer
        self.active = False
        self.stoppable = False
        self.received: list[int] = []


_state = _State()


def _on_signal(signum, frame) -> None:
    _state.received.append(signum)
    if not _state.defer or _state.stoppable:
        _state.stoppable = False
        raise KeyboardInterrupt


def stop_requested() -> str:
    """The name of the signal this command was asked to stop by ('SIGTERM', 'SIGINT'), or '': long work that is not a
    batch (fix's rounds) stops at its next safe point when it is set."""
    return signal.Signals(_state.received[0]).name if _state.received else ""


class Handled:
    """What a command learns of the signals it got."""

    def exit_code(self, code: int) -> int:
        """`code`, or 3 (interrupted) when a signal came: the run was asked to stop, whatever its reports say."""
        return max(int(code), 3) if _state.received else int(code)


@contextlib.contextmanager
def handled(defer: bool = False) -> Iterator[Handled]:
    """SIGINT and SIGTERM as KeyboardInterrupt for the length of a command (in the main thread; elsewhere Python's
    own handling stays), the previous handlers restored afterwards."""
    global _state
    if threading.current_thread() is not threading.main_thread():
        yield Handled()
        return
    previous = {signum: signal.getsignal(signum) for signum in SIGNALS}
    _state = _State(defer)
    for signum in SIGNALS:
        signal.signal(signum, _on_signal)
    _state.active = True
    try:
        yield Handled()
    finally:
        _state.active = False
        for signum, handler in previous.items():
            # A command that was asked to stop ends its process now: a late signal is ignored rather than let Python's
            # shutdown (which resets its handlers to the default) kill it with the signal instead of exit 3.
            signal.signal(signum, signal.SIG_IGN if _state.received else handler)


@contextlib.contextmanager
def stoppable() -> Iterator[None]:
    """A batch's planning and dispatch: where a (first) signal raises KeyboardInterrupt. Raises at once when a signal
    was noted before."""
    if not (_state.active and _state.defer):
        yield
        return
    if _state.received:
        raise KeyboardInterrupt
    _state.stoppable = True
    try:
        yield
    finally:
        _state.stoppable = False
