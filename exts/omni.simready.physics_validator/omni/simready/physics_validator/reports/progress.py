"""Console progress while a long run goes on: which asset, which test, how long so far.

On a terminal: a live rich display (assets done / total, the test running now with a spinner and
its elapsed time) above which every finished test prints one line with its verdict. Not on a
terminal (CI logs, pipes): no live display, only that one line per test. The runner calls these
methods through its progress hooks; none of them may raise into the run (the runner guards too).
"""

from __future__ import annotations

import time
from pathlib import Path

from rich.console import Console
from rich.markup import escape

STATUS_STYLE = {
    "PASS": "bold green",
    "FAIL": "bold red",
    "WARN": "bold yellow",
    "SKIP": "dim",
    "NOT_APPLICABLE": "dim",
    "PRECHECK_FAILURE": "bold magenta",
    "ERROR": "bold white on red",
}


class ConsoleProgress:
    def __init__(self, console: Console | None = None, live: bool | None = None):
        self.console = console or Console(stderr=True)
        self.live = self.console.is_terminal if live is None else live
        self._progress = None
        self._asset_task = None
        self._test_task = None
        self._asset = ""
        self._test_started_at = 0.0

    def asset_started(self, path: str, index: int, total: int) -> None:
        self._asset = _short(path)
        if not self.live:
            return
        if self._progress is None:
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

            self._progress = Progress(
                SpinnerColumn(),
                TextColumn("{task.description}"),
                BarColumn(bar_width=24),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                console=self.console,
                transient=True,
            )
            self._progress.start()
            self._asset_task = self._progress.add_task("assets", total=total)
            self._test_task = self._progress.add_task("", total=None)
        self._progress.update(self._asset_task, description=f"asset {index}/{total} {escape(self._asset)}")
        self._progress.update(self._test_task, description="  loading", completed=0)
        self._progress.refresh()

    def test_started(self, name: str) -> None:
        self._test_started_at = time.perf_counter()
        if self._progress is not None:
            self._progress.update(self._test_task, description=f"  {escape(name)}")
            self._progress.refresh()

    def test_finished(self, result) -> None:
        status = getattr(result.status, "value", str(result.status))
        style = STATUS_STYLE.get(status, "bold")
        reason = (result.reason or "").replace("\n", " ")
        if len(reason) > 110:
            reason = reason[:107] + "..."
        wall = result.wall_seconds or (time.perf_counter() - self._test_started_at if self._test_started_at else 0.0)
        self.console.print(
            f"[{style}]{status:<16}[/] {escape(self._asset)} :: {escape(result.name)}  "
            f"[dim]{escape(reason)} ({wall:.1f} s)[/]",
            highlight=False,
            soft_wrap=True,
        )

    def asset_finished(self, asset_result) -> None:
        if self._progress is not None:
            self._progress.advance(self._asset_task)
        if getattr(asset_result, "error", ""):
            self.console.print(f"[bold red]asset problem[/] {escape(self._asset)}: {escape(asset_result.error)}", highlight=False)

    def close(self) -> None:
        if self._progress is not None:
            self._progress.stop()
            self._progress = None


def _short(path: str) -> str:
    p = Path(path)
    return f"{p.parent.name}/{p.name}" if p.parent.name else p.name
