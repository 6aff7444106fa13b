"""Console summary of a run, in the shape of where it is read.

On a terminal: a table, one row per asset and test, coloured verdicts, reasons people can act on.
In a log or a pipe (stdout not a terminal): one line per asset (its verdict with what was tested, the short
path, the tests that count against it), then under it every test that did not PASS with its reason, its first
fix hint and, when `simready-physics fix` can act on it, the command to try. Both shapes carry the same
words: a SKIP says why in a pipe too. Asset names are `short_name` in both, as in the progress lines. A PASS
carrying warnings reads "PASS*" (core.status.verdict_label). Counts are of tests, and say so.

Which `fix` command applies is decided from codes, by each test's FixRules (`fix_flags`), never from a reason.
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path

from rich.console import Console
from rich.table import Table

from .pipe_console import PipeConsole
from ..core.results import AssetResult, RunReport, TestResult
from ..core.status import INCOMPLETE, Status, asset_verdict, verdict_label, verdict_text
from .safe_text import escape  # control characters escaped too: names are data

STATUS_STYLE = {
    Status.PASS: "bold green",
    Status.FAIL: "bold red",
    Status.WARN: "bold yellow",
    Status.SKIP: "dim",
    Status.NOT_APPLICABLE: "dim",
    Status.PRECHECK_FAILURE: "bold magenta",
    Status.ERROR: "bold white on red",
}
INCOMPLETE_STYLE = "bold yellow"  # an asset headline: a test that applies could not run
FAILING = (Status.FAIL, Status.PRECHECK_FAILURE, Status.ERROR)
TESTED = (Status.PASS, Status.WARN, Status.FAIL)  # verdicts of a test that exercised the asset
LABEL_WIDTH = len("PRECHECK_FAILURE")
FIX_COMMAND = "simready-physics fix"
INDENT, DETAIL = "    ", "        "


def short_name(path: str) -> str:
    """The asset's name on the console: its folder and file name ("pb_mug/floating_base.usda").

    The one rule for the progress lines, the summary and the comparison table, so an asset reads the
    same everywhere; the reports on disk keep the full path.
    """
    p = Path(path)
    return f"{p.parent.name}/{p.name}" if p.parent.name else p.name


display_path = short_name  # the name the comparison table imports


def plural(count: int, noun: str) -> str:
    """'1 asset', '28 assets'."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def styled(label: str, status: Status | None) -> str:
    style = STATUS_STYLE.get(status, "bold") if status is not None else "bold"
    if label.startswith(INCOMPLETE):
        style = INCOMPLETE_STYLE
    return f"[{style}]{escape(label)}[/]"


def failing_rows(asset: AssetResult, fail_on_skip: bool = False) -> list:
    """The asset's test results that count against it (SKIP too with --fail-on-skip)."""
    return [r for r in asset.tests if r.status in FAILING or (fail_on_skip and r.status == Status.SKIP)]


def asset_label(asset: AssetResult, fail_on_skip: bool = False) -> tuple[str, Status | None]:
    """The asset's headline (core.status.asset_verdict) with what was tested: 'PASS* (5 tested)',
    'INCOMPLETE (1 tested, 7 SKIP, 2 NOT_APPLICABLE)' (a test that applies could not run), 'SKIP (0 tested, 4 SKIP,
    1 NOT_APPLICABLE)'. With --fail-on-skip a SKIP outranks a PASS, so an asset whose skips fail the run never reads
    PASS. The status returned styles the label (None for INCOMPLETE, which has a style of its own)."""
    if not asset.tests:
        return "NO RESULT", None
    label = asset_verdict((r.status for r in asset.tests), fail_on_skip)
    status = None if label == INCOMPLETE else Status(label)
    if status == Status.PASS and any(verdict_label(r) == "PASS*" for r in asset.tests):
        label = "PASS*"
    tested = sum(1 for r in asset.tests if r.status in TESTED)
    others = [s for s in Status if s not in TESTED]
    parts = [f"{tested} tested"] + [f"{n} {s.value}" for s in others if (n := sum(1 for r in asset.tests if r.status == s))]
    return f"{label} ({', '.join(parts)})", status


def count_line(report: RunReport) -> str:
    """'25 tests on 5 assets: PASS: 3  FAIL: 2  SKIP: 16  NOT_APPLICABLE: 4 (PASS*: 1 with warnings)'."""
    counts = {k: v for k, v in report.counts().items() if v}
    total = sum(counts.values())
    text = "  ".join(f"{k}: {v}" for k, v in counts.items()) or "no results"
    marked = sum(1 for r in report.all_results() if verdict_label(r) == "PASS*")
    if marked:
        text += f"  (PASS*: {marked} with warnings)"
    return f"{plural(total, 'test')} on {plural(len(report.assets), 'asset')}: {text}"


def command_path(path: str) -> str:
    """The asset path as a shell argument: relative to the working folder when it lies below it."""
    try:
        rel = os.path.relpath(path)
    except ValueError:  # another drive (Windows)
        rel = path
    return shlex.quote(path if rel.startswith("..") else rel)


ADD_DRIVES = "--add-drives"


def fix_command(asset_path: str, results: list[TestResult], registry) -> str:
    """The `simready-physics fix` command that addresses these results, or '' when `fix` changes nothing they judge."""
    if registry is None:
        return ""
    flags: list[str] = []
    tests: list[str] = []
    for result in results:
        found = registry.fix_rules_of(result.name).fix_flags(result)
        if found is None:
            continue
        flags += [f for f in found if f not in flags]
        if ADD_DRIVES not in found:  # the tests the re-run judges (--shape-inertia proves the same tests)
            tests.append(result.name)
    if not flags and not tests:
        return ""
    scope = [] if ADD_DRIVES in flags else ["--tests", ",".join(tests)]  # --add-drives re-runs every test to prove the drives
    return " ".join([FIX_COMMAND, command_path(asset_path), *scope, *flags])


def _groups(results: list[TestResult]) -> list[tuple[str, Status, list[TestResult]]]:
    """Non-passing results grouped by identical verdict and reason (five identical prechecks read once)."""
    groups: dict[tuple[Status, str], list[TestResult]] = {}
    for result in results:
        if result.status == Status.PASS:
            continue
        reason = " ".join((result.reason or "no reason given").split())
        groups.setdefault((result.status, reason), []).append(result)
    return [(reason, status, members) for (status, reason), members in groups.items()]


def detail_lines(asset: AssetResult, registry=None) -> list[tuple[str, str, Status | None]]:
    """(indent, text, status) lines under an asset: per group of non-passing tests its reason, its first hint
    (once when the next group shares it) and the fix command to try (once per command)."""
    out: list[tuple[str, str, Status | None]] = []
    last_hint, commands = "", set()
    for reason, status, members in _groups(asset.tests):
        out.append((INDENT, f"{', '.join(r.name for r in members)} {status.value}: {reason}", status))
        hint = next((" ".join(h.split()) for r in members for h in r.fix_hints[:1]), "")
        if hint and hint != last_hint:
            out.append((DETAIL, f"hint: {hint}", None))
            last_hint = hint
        command = fix_command(asset.path, members, registry)
        if command and command not in commands:
            out.append((DETAIL, f"try: {command}", None))
            commands.add(command)
    return out


def print_summary(report: RunReport, console: Console | None = None, compact: bool | None = None,
                  fail_on_skip: bool = False, registry=None) -> None:
    """The run's summary: a table on a terminal, one line per asset otherwise (`compact` forces either).
    `registry` (the front door's test registry) lets each failure name the `fix` command that addresses it."""
    console = console or PipeConsole()
    compact = not console.is_terminal if compact is None else compact
    title = f"simready-physics {report.tool_version} on {report.engine}"
    if compact:
        _print_lines(report, console, title, fail_on_skip, registry)
    else:
        _print_table(report, console, title, fail_on_skip, registry)
    console.print(count_line(report), highlight=False, soft_wrap=True)
    if not report.complete:
        console.print(f"[bold yellow]interrupted[/]: {plural(len(report.not_run), 'test run')} did not run (listed in the JSON "
                      f"report)")


def _print_table(report: RunReport, console: Console, title: str, fail_on_skip: bool, registry) -> None:
    table = Table(title=escape(title), show_lines=False, expand=False)
    table.add_column("asset", overflow="fold")
    table.add_column("test")
    table.add_column("verdict", no_wrap=True)
    table.add_column("reason, first hint, fix to try", overflow="fold")
    for asset in report.assets:
        label, status = asset_label(asset, fail_on_skip)
        name = f"{escape(short_name(asset.path))}\n{styled(label, status)}"
        shown_hints: set[str] = set()  # a hint or command shared by several tests of the asset is printed once
        for index, result in enumerate(asset.tests):
            shown = verdict_label(result)
            text = result.reason
            if shown == "PASS*":
                text = f"{verdict_text(result)}; {text}" if text else verdict_text(result)
            lines = [escape(text)]
            if result.status != Status.PASS:
                hint = " ".join(result.fix_hints[0].split()) if result.fix_hints else ""
                command = fix_command(asset.path, [result], registry)
                for key, value in (("hint", hint), ("try", command)):
                    if value:
                        lines.append(f"[dim]{key}:[/] " + ("[dim](as above)[/]" if value in shown_hints else escape(value)))
                        shown_hints.add(value)
            test = f"{result.name} {result.version}" if result.version else result.name
            table.add_row(name if index == 0 else "", escape(test), styled(shown, result.status), "\n".join(lines))
    console.print(table)


def _print_lines(report: RunReport, console: Console, title: str, fail_on_skip: bool, registry) -> None:
    """One line per asset, then the reason, first hint and fix to try of each test that did not pass."""
    console.print(escape(f"{title}: {plural(len(report.assets), 'asset')}"), highlight=False, soft_wrap=True)
    labels = [asset_label(asset, fail_on_skip) for asset in report.assets]
    width = max([LABEL_WIDTH, *(len(label) for label, _ in labels)])
    for asset, (label, status) in zip(report.assets, labels):
        failing = failing_rows(asset, fail_on_skip)
        line = f"{styled(f'{label:<{width}}', status)} {escape(short_name(asset.path))}"
        if failing:
            line += f"  failing: {escape(', '.join(r.name for r in failing))}"
        elif label.startswith("PASS*"):
            line += "  " + escape(", ".join(f"{r.name}: {verdict_text(r)}" for r in asset.tests if verdict_label(r) == "PASS*"))
        console.print(line, highlight=False, soft_wrap=True)
        for indent, text, _ in detail_lines(asset, registry):
            console.print(f"{indent}{escape(text)}", highlight=False, soft_wrap=True)

