"""Live progress of a batch run: assets done / failed / reused, with an ETA.

Assets finish out of order when several run at once, so instead of "the asset running now" this
shows totals: a bar over assets, how many failed, how many were reused from the cache, and the
time left estimated from the assets validated so far. On a terminal every finished test also prints
one line (verdict, asset :: test, reason). A CI log or a pipe gets no live bar and one line per
finished asset instead ("[3/28] FAIL  pb_mug/floating_base.usda  failing: ground_drop"), so a long run
still shows it is alive without printing every test twice (the summary lists the reasons).
Asset names are `console.short_name`, the same as in the summary.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.console import Console

from ..core.status import Status, verdict_label
from .console import LABEL_WIDTH, asset_label, failing_rows, plural, short_name, styled
from .safe_text import escape  # control characters escaped too: names are data

if TYPE_CHECKING:
    from rich.progress import Progress

FAILED = {Status.FAIL, Status.PRECHECK_FAILURE, Status.ERROR}


class BatchProgress:
    def __init__(self, console: Console | None = None, live: bool | None = None, per_test_lines: bool | None = None,
                 fail_on_skip: bool = False):
        self.console = console or Console(stderr=True)
        self.fail_on_skip = fail_on_skip
        self.live = self.console.is_terminal if live is None else live
        self.per_test_lines = self.live if per_test_lines is None else per_test_lines
        self.total = 0
        self.done = 0
        self.failed = 0
        self.reused = 0
        self._progress: Progress | None = None
        self._task: Any = None  # rich's TaskID of the bar, while it shows

    def batch_started(self, total: int, how: str = "") -> None:
        self.total = total
        if how:
            self.console.print(f"[dim]{plural(total, 'asset')}, {escape(how)}[/]", highlight=False)
        if not self.live:
            return
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

        progress = self._progress = Progress(
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
        progress.start()
        self._task = progress.add_task("assets", total=total, failed=0, reused=0)

    def test_finished(self, asset_path: str, result) -> None:
        if not self.per_test_lines:
            return
        label = verdict_label(result)
        reason = (result.reason or "").replace("\n", " ")
        if len(reason) > 100:
            reason = reason[:97] + "..."
        self.console.print(
            f"{styled(f'{label:<{LABEL_WIDTH}}', Status(result.status))} {escape(short_name(asset_path))} :: "
            f"{escape(result.name)}  [dim]{escape(reason)}[/]",
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
                self._progress.update(self._task, total=max((self._progress.tasks[0].total or 0) - 1, 0))
            else:
                self._progress.advance(self._task)
            self._progress.update(self._task, failed=self.failed, reused=self.reused)
        elif not self.per_test_lines:
            label, status = asset_label(asset_result, self.fail_on_skip)
            failing = failing_rows(asset_result, self.fail_on_skip)
            line = f"{escape(f'[{self.done}/{self.total}]')} {styled(label, status)}  {escape(short_name(asset_result.path))}"
            if failing:
                line += f"  failing: {escape(', '.join(r.name for r in failing))}"
            self.console.print(line, highlight=False, soft_wrap=True)

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
                f"[dim]{self.done}/{plural(self.total, 'asset')}, {self.failed} failed, {self.reused} reused from the cache[/]",
                highlight=False,
            )
