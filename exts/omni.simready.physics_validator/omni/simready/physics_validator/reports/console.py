"""Console summary: one table row per asset and test, coloured verdicts, reasons people can act on."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from ..core.results import RunReport
from ..core.status import Status

STATUS_STYLE = {
    Status.PASS: "bold green",
    Status.FAIL: "bold red",
    Status.WARN: "bold yellow",
    Status.SKIP: "dim",
    Status.NOT_APPLICABLE: "dim",
    Status.PRECHECK_FAILURE: "bold magenta",
    Status.ERROR: "bold white on red",
}


def display_path(path: str) -> str:
    """Relative to the working folder when below it; otherwise the last two path parts."""
    from pathlib import Path

    p = Path(path)
    try:
        return str(p.resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError):
        return str(Path(*p.parts[-2:])) if len(p.parts) > 2 else path


def print_summary(report: RunReport, console: Console | None = None) -> None:
    console = console or Console()
    table = Table(title=f"simready-physics {report.tool_version} on {report.engine}", show_lines=False, expand=False)
    table.add_column("asset", overflow="fold")
    table.add_column("test")
    table.add_column("verdict")
    table.add_column("reason", overflow="fold")
    for asset in report.assets:
        for result in asset.tests:
            table.add_row(
                display_path(asset.path),
                result.name,
                f"[{STATUS_STYLE[result.status]}]{result.status.value}[/]",
                result.reason,
            )
    console.print(table)
    counts = {k: v for k, v in report.counts().items() if v}
    console.print("  ".join(f"{k}: {v}" for k, v in counts.items()) or "no results")
    if not report.complete:
        console.print(f"[bold yellow]interrupted[/]: {len(report.not_run)} test runs did not run (listed in the JSON report)")
