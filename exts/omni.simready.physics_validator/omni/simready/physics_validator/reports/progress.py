"""Live progress of a batch run: assets done / failed / reused, with an ETA.

Assets finish out of order when several run at once, so instead of "the asset running now" this
shows totals: a bar over assets, how many failed, how many were reused from the cache, and the
time left estimated from the assets validated so far. Every finished test also prints one line
(asset :: test, verdict, reason) so CI logs, which get no live bar, still tell the story.
"""

from __future__ import annotations

from pathlib import Path

from rich.console import Console
from rich.markup import escape

from ..core.status import Status

FAILED = {Status.FAIL, Status.PRECHECK_FAILURE, Status.ERROR}
STYLE = {
    "PASS": "bold green",
    "FAIL": "bold red",
    "WARN": "bold yellow",
    "SKIP": "dim",
    "NOT_APPLICABLE": "dim",
    "PRECHECK_FAILURE": "bold magenta",
    "ERROR": "bold white on red",
}


class BatchProgress:
    def __init__(self, console: Console | None = None, live: bool | None = None, per_test_lines: bool = True):
        self.console = console or Console(stderr=True)
        self.live = self.console.is_terminal if live is None else live
        self.per_test_lines = per_test_lines
        self.total = 0
        self.done = 0
        self.failed = 0
        self.reused = 0
        self._progress = None
        self._task = None

    def batch_started(self, total: int, how: str = "") -> None:
        self.total = total
        if how:
            self.console.print(f"[dim]{total} assets, {escape(how)}[/]", highlight=False)
        if not self.live:
            return
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

        self._progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(bar_width=30),
            MofNCompleteColumn(),
            TextColumn("[red]{task.fields[failed]} failed[/] [dim]{task.fields[reused]} cached[/]"),
            TimeElapsedColumn(),
            TextColumn("ETA"),
            TimeRemainingColumn(),
            console=self.console,
            transient=True,
        )
        self._progress.start()
        self._task = self._progress.add_task("assets", total=total, failed=0, reused=0)

    def test_finished(self, asset_path: str, result) -> None:
        if not self.per_test_lines:
            return
        status = getattr(result.status, "value", str(result.status))
        reason = (result.reason or "").replace("\n", " ")
        if len(reason) > 100:
            reason = reason[:97] + "..."
        self.console.print(
            f"[{STYLE.get(status, 'bold')}]{status:<16}[/] {escape(_short(asset_path))} :: {escape(result.name)}  [dim]{escape(reason)}[/]",
            highlight=False,
            soft_wrap=True,
        )

    def asset_finished(self, asset_result) -> None:
        self.done += 1
        if asset_result.status in FAILED:
            self.failed += 1
        cached = asset_result.from_cache and len(asset_result.from_cache) == len(asset_result.tests)
        if cached:
            self.reused += 1
        if self._progress is not None:
            # Reused assets take no time; leaving them out of the rate keeps the ETA honest.
            if cached:
                self._progress.update(self._task, total=max(self._progress.tasks[0].total - 1, 0))
            else:
                self._progress.advance(self._task)
            self._progress.update(self._task, failed=self.failed, reused=self.reused)
        elif not self.per_test_lines:
            self.console.print(f"[{self.done}/{self.total}] {escape(_short(asset_result.path))}", highlight=False)

    @property
    def showing(self) -> bool:
        """True while the live progress bar is on screen."""
        return self._progress is not None

    def close(self) -> None:
        if self._progress is not None:
            self._progress.stop()
            self._progress = None
        if self.total:
            self.console.print(
                f"[dim]{self.done}/{self.total} assets, {self.failed} failed, {self.reused} reused from the cache[/]", highlight=False
            )


def _short(path: str) -> str:
    p = Path(path)
    return f"{p.parent.name}/{p.name}" if p.parent.name else p.name
