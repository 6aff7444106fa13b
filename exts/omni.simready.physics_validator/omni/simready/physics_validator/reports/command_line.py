"""What a command says on stderr besides its verdicts: an error, a notice, a warning, one line each.

The text is never read as rich markup: "[sapien]" in an install hint, "[video]" in an extra's name reach the user as
written.
"""

from __future__ import annotations

from rich.console import Console
from .safe_text import escape  # control characters in names escaped too


def say_error(console: Console, message: str) -> None:
    console.print(f"[bold red]error:[/] {escape(message)}", highlight=False, soft_wrap=True)


def say_warning(console: Console, message: str) -> None:
    console.print(f"[yellow]warning:[/] {escape(message)}", highlight=False, soft_wrap=True)


def say_notice(console: Console, message: str) -> None:
    console.print(f"[yellow]notice:[/] {escape(message)}", highlight=False, soft_wrap=True)


def say_notices(config, console: Console) -> None:
    """Renamed settings read under their old name (`ValidationConfig.notices`): said once each."""
    for notice in config.notices:
        say_notice(console, notice)
