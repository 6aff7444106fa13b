"""`simready-physics list-tests`: every registered test with its version, features, summary and defaults (with units)."""

from __future__ import annotations

from rich.console import Console

from ..core.status import ExitCode
from ..reports.pipe_console import PipeConsole
from ..reports.safe_text import escape  # control characters in names escaped too


def add_parser(sub) -> None:
    sub.add_parser("list-tests", help="list the registered tests with version, features and defaults")


def run(args, console: Console) -> int:
    """One block per test (name, version, features; summary; defaults with units), wrapped to the terminal's width."""
    from ..physics_tests import default_registry
    from ..reports.settings import test_listing

    out = PipeConsole(highlight=False)
    names = set(default_registry().names())
    for line in test_listing(default_registry(), max(40, out.width)):
        head = line.split(" ", 1)[0]
        out.print(f"[bold]{escape(head)}[/]{escape(line[len(head):])}" if head in names else escape(line), soft_wrap=True)
    return ExitCode.OK
