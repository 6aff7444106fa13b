"""The cross-engine comparison in three forms: console table, compare.json, compare.html.

Disagreements are highlighted and show each engine's deciding metrics and the joints whose verdicts
differ. The HTML page is self-contained (no template engine needed). Schema: docs/engines.md.
"""

from __future__ import annotations

import html
import json
from pathlib import Path

from rich.console import Console
from rich.table import Table

from ..core.comparison import Comparison, ComparisonRow, EngineVerdict
from ..core.atomic_write import write_atomic
from .console import display_path
from .console import STATUS_STYLE

DOCS_HINT = "known causes of engine disagreements: docs/engine-divergences.md"


def _fmt(value) -> str:
    if isinstance(value, float):
        return f"{value:.4g}"
    return str(value)


def _metrics_text(verdict: EngineVerdict) -> str:
    return ", ".join(f"{k}={_fmt(v)}" for k, v in verdict.deciding.items())


def _status_text(verdict: EngineVerdict) -> str:
    return verdict.status.value if verdict.status is not None else "not run"


def comparison_json(comparison: Comparison) -> str:
    return json.dumps(comparison.to_json_dict(), indent=2, allow_nan=False)


def write_compare_json(comparison: Comparison, path: str | Path) -> Path:
    path = Path(path)
    write_atomic(path, comparison_json(comparison))
    return path


def print_comparison(comparison: Comparison, console: Console | None = None) -> None:
    console = console or Console()
    table = Table(title=f"verdicts side by side: {' vs '.join(comparison.engines)}", show_lines=False)
    table.add_column("asset", overflow="fold")
    table.add_column("test")
    for engine in comparison.engines:
        table.add_column(engine)
    table.add_column("agree")
    table.add_column("deciding metrics (disagreements)", overflow="fold")
    for row in comparison.rows:
        cells = []
        for engine in comparison.engines:
            verdict = row.verdicts[engine]
            style = STATUS_STYLE.get(verdict.status, "dim")
            cells.append(f"[{style}]{_status_text(verdict)}[/]")
        detail = ""
        if not row.agree:
            detail = "\n".join(f"{e}: {_metrics_text(row.verdicts[e]) or row.verdicts[e].reason}" for e in comparison.engines)
            for joint in row.joints:
                statuses = ", ".join(f"{e} {s.value if s else '-'}" for e, s in joint.statuses.items())
                detail += f"\njoint {joint.joint}: {statuses}"
        table.add_row(
            display_path(row.asset), row.test, *cells, "yes" if row.agree else "[bold red]NO[/]", detail,
            style=None if row.agree else "on grey15",
        )
    console.print(table)
    summary = comparison.summary()
    console.print(f"pairs: {summary['pairs']}  agree: {summary['agree']}  disagree: {summary['disagree']}")
    if summary["disagree"]:
        console.print(DOCS_HINT)


def _cell(verdict: EngineVerdict) -> str:
    status = _status_text(verdict)
    css = status.lower().replace("_", "-").replace(" ", "-")
    metrics = "".join(f"<li>{html.escape(k)} = {html.escape(_fmt(v))}</li>" for k, v in verdict.deciding.items())
    return (
        f'<td><span class="status {css}">{html.escape(status)}</span>'
        f'<div class="reason">{html.escape(verdict.reason)}</div><ul class="metrics">{metrics}</ul></td>'
    )


def _joint_table(row: ComparisonRow, engines: list[str]) -> str:
    if not row.joints:
        return ""
    head = "".join(f"<th>{html.escape(e)}</th>" for e in engines)
    body = ""
    for joint in row.joints:
        cells = ""
        for e in engines:
            status = joint.statuses.get(e)
            measured = ", ".join(f"{k}={_fmt(v)}" for k, v in joint.measured.get(e, {}).items())
            cells += f"<td>{html.escape(status.value if status else '-')}<br><small>{html.escape(measured)}</small></td>"
        body += f"<tr><td>{html.escape(joint.joint)}</td>{cells}</tr>"
    return f'<table class="joints"><tr><th>joint</th>{head}</tr>{body}</table>'


def comparison_html(comparison: Comparison) -> str:
    engines = comparison.engines
    summary = comparison.summary()
    rows = []
    for row in comparison.rows:
        cls = "agree" if row.agree else "disagree"
        cells = "".join(_cell(row.verdicts[e]) for e in engines)
        mark = "yes" if row.agree else "NO"
        rows.append(
            f'<tr class="{cls}"><td>{html.escape(row.asset)}</td><td>{html.escape(row.test)}</td>{cells}'
            f"<td>{mark}{_joint_table(row, engines)}</td></tr>"
        )
    head = "".join(f"<th>{html.escape(e)}</th>" for e in engines)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Engine comparison: {html.escape(' vs '.join(engines))}</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 1.5em; }}
table {{ border-collapse: collapse; }} td, th {{ border: 1px solid #ccc; padding: 4px 8px; vertical-align: top; }}
tr.disagree {{ background: #ffe3e3; }} tr.disagree td:last-child {{ font-weight: bold; color: #a00; }}
.status {{ font-weight: bold; }} .pass {{ color: #070; }} .fail, .error {{ color: #a00; }} .warn {{ color: #a60; }}
.precheck-failure {{ color: #808; }} .skip, .not-applicable, .not-run {{ color: #777; }}
.reason {{ font-size: 0.85em; color: #333; max-width: 32em; }} ul.metrics {{ margin: 2px 0; padding-left: 1.2em; font-size: 0.8em; }}
table.joints {{ margin-top: 4px; font-size: 0.8em; font-weight: normal; color: #000; }}
</style></head><body>
<h1>Verdicts side by side: {html.escape(' vs '.join(engines))}</h1>
<p id="summary">{summary['pairs']} asset/test pairs: {summary['agree']} agree, {summary['disagree']} disagree.
Known causes of disagreements are listed in docs/engine-divergences.md.</p>
<table id="comparison"><tr><th>asset</th><th>test</th>{head}<th>agree</th></tr>
{''.join(rows)}
</table></body></html>
"""


def write_compare_html(comparison: Comparison, out_dir: str | Path) -> Path:
    path = Path(out_dir) / "compare.html"
    write_atomic(path, comparison_html(comparison))
    return path
