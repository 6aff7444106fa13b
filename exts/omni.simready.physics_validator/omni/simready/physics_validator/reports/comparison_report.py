"""The cross-engine comparison in three forms: console table, compare.json, compare.html.

Disagreements are highlighted (and listed first on the page) and show each engine's deciding metrics
and the joints whose verdicts differ. compare.html links each engine's own HTML report (OUT/<engine>/
html/index.html), each verdict to its test's section there, and docs/engine-divergences.md (the known
causes). The page is self-contained (no template engine needed). Schema: docs/engines.md.
"""

from __future__ import annotations

import html
import json
from pathlib import Path

from rich.console import Console
from rich.table import Table

from .pipe_console import PipeConsole
from ..core.comparison import Comparison, ComparisonRow, EngineVerdict
from ..core import out_writer
from .console import display_path
from .console import STATUS_STYLE

DOCS_HINT = "known causes of engine disagreements: docs/engine-divergences.md"
DIVERGENCES = Path(__file__).resolve().parents[6] / "docs" / "engine-divergences.md"  # in a source checkout
STATUS_COLORS = {"pass": "#1f8a43", "fail": "#c62828", "warn": "#c77700", "skip": "#5f6b7a", "not-applicable": "#8a94a6",
                 "precheck-failure": "#7b3fa0", "error": "#8e1b5c", "not-run": "#9aa3b2"}


def _fmt(value) -> str:
    if isinstance(value, float):
        return f"{value:.4g}"
    return str(value)


def _metrics_text(verdict: EngineVerdict) -> str:
    return ", ".join(f"{k}={_fmt(v)}" for k, v in verdict.deciding.items())


def _status_text(verdict: EngineVerdict) -> str:
    return verdict.status.value if verdict.status is not None else "not run"


def comparison_json(comparison: Comparison, privacy=None) -> str:
    data = comparison.to_json_dict()
    return json.dumps(privacy.data(data) if privacy is not None else data, indent=2, allow_nan=False)


def write_compare_json(comparison: Comparison, path: str | Path, privacy=None) -> Path:
    """compare.json; `privacy` (reports.path_privacy): no absolute path of the user's in it."""
    path = Path(path)
    out_writer.write_text(path, comparison_json(comparison, privacy))
    return path


def print_comparison(comparison: Comparison, console: Console | None = None) -> None:
    console = console or PipeConsole()
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
            style = STATUS_STYLE.get(verdict.status, "dim") if verdict.status is not None else "dim"
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


def _cell(verdict: EngineVerdict, link: str | None = None) -> str:
    from .html_view import text

    status = _status_text(verdict)
    css = status.lower().replace("_", "-").replace(" ", "-")
    metrics = "".join(f"<li>{html.escape(k)} = {html.escape(text(v, verdict.units.get(k, '')))}</li>"
                      for k, v in verdict.deciding.items())
    badge = f'<span class="status {css}">{html.escape(status)}</span>'
    if link:
        badge = f'<a class="section" href="{html.escape(link)}" title="this test in the engine\'s report">{badge}</a>'
    return f'<td>{badge}<div class="reason">{html.escape(verdict.reason)}</div><ul class="metrics">{metrics}</ul></td>'


def _relative(target: Path, base: Path) -> str:
    import os

    return Path(os.path.relpath(target.resolve(), base.resolve())).as_posix()


def engine_reports(engines: list[str], out_dir: str | Path | None) -> dict[str, str]:
    """engine -> link (relative to out_dir) of its HTML report, for the engines whose report was written."""
    if out_dir is None:
        return {}
    out = {}
    for engine in engines:
        index = Path(out_dir) / engine / "html" / "index.html"
        if index.is_file():
            out[engine] = _relative(index, Path(out_dir))
    return out


def divergences_link(out_dir: str | Path | None) -> str | None:
    if not DIVERGENCES.is_file():
        return None
    return _relative(DIVERGENCES, Path(out_dir)) if out_dir is not None else DIVERGENCES.as_uri()


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


def comparison_html(comparison: Comparison, out_dir: str | Path | None = None) -> str:
    """The page; with `out_dir` (where compare.html goes), links to each engine's report and its sections."""
    from .html import test_anchor

    engines = comparison.engines
    summary = comparison.summary()
    reports = engine_reports(engines, out_dir)
    rows = []
    for row in sorted(comparison.rows, key=lambda r: r.agree):  # disagreements first
        cls = "agree" if row.agree else "disagree"
        cells = "".join(
            _cell(row.verdicts[e], f"{reports[e]}#{test_anchor(row.asset, row.test)}" if e in reports else None)
            for e in engines
        )
        mark = "yes" if row.agree else "NO"
        rows.append(
            f'<tr class="{cls}"><td '
            f'class="asset">{html.escape(display_path(row.asset))}</td><td>{html.escape(row.test)}</td>{cells}'
            f"<td>{mark}{_joint_table(row, engines)}</td></tr>"
        )
    head = "".join(f"<th>{html.escape(e)}</th>" for e in engines)
    links = "".join(f'<li><a class="engine-report" data-engine="{html.escape(e)}" href="{html.escape(reports[e])}">'
                    f"{html.escape(e)}: full report (videos, plots, joint tables)</a></li>" for e in engines if e in reports)
    docs = divergences_link(out_dir)
    docs_html = (f'<a id="divergences" href="{html.escape(docs)}">docs/engine-divergences.md</a>' if docs
                 else "docs/engine-divergences.md (in the validator's source)")
    colors = "".join(f".{k} {{ background: {v}; }}" for k, v in STATUS_COLORS.items())
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Engine comparison: {html.escape(' vs '.join(engines))}</title>
<style>
body {{ font: 14px/1.45 system-ui, sans-serif; margin: 1.5em; color: #1d2433; max-width: 1500px; }}
table {{ border-collapse: collapse; }} td, th {{ border: 1px solid #ccc; padding: 4px 8px; vertical-align: top; }}
th {{ background: #eef1f7; }} td.asset {{ max-width: 22em; overflow-wrap: anywhere; }}
tr.disagree {{ background: #ffe3e3; }} tr.disagree td:last-child {{ font-weight: bold; color: #a00; }}
.status {{ display: inline-block; font-weight: 600; font-size: 12px; color: #fff; padding: 1px 8px; border-radius: 10px; }}
{colors} a.section {{ text-decoration: none; }} a.section:hover .status {{ outline: 2px solid #17315e; }}
.reason {{ font-size: 0.85em; color: #333; max-width: 32em; }}
ul.metrics {{ margin: 2px 0; padding-left: 1.2em; font-size: 0.8em; }}
table.joints {{ margin-top: 4px; font-size: 0.8em; font-weight: normal; color: #000; }}
ul.reports {{ margin: 4px 0 12px; }}
</style></head><body>
<h1>Verdicts side by side: {html.escape(' vs '.join(engines))}</h1>
<p id="summary">{summary['pairs']} asset/test pairs: {summary['agree']} agree, {summary['disagree']} disagree (listed first).
Known causes of disagreements are listed in {docs_html}.</p>
<ul class="reports" id="engine-reports">{links}</ul>
<table id="comparison"><tr><th>asset</th><th>test</th>{head}<th>agree</th></tr>
{''.join(rows)}
</table></body></html>
"""


def write_compare_html(comparison: Comparison, out_dir: str | Path, privacy=None) -> Path:
    path = Path(out_dir) / "compare.html"
    page = comparison_html(comparison, out_dir)
    out_writer.write_text(path, privacy.text(page) if privacy is not None else page)
    return path
