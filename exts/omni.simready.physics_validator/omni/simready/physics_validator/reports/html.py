"""The HTML report: one self-contained folder that opens from disk (no server, no network).

    write_html_report(report, out_dir, registry) -> out_dir / "html" / "index.html"

Failures first: assets and, inside each, tests are ordered worst verdict first; failing tests (FAIL,
ERROR, PRECHECK_FAILURE, WARN) are open, the others collapsed. Layout: a summary grid asset x test with
coloured verdicts and a legend (each cell carries data-asset, data-test and data-status, so tools and
tests can read it; a PASS with warnings reads PASS*, core.status.verdict_label), then per asset and test:
verdict and reason, the video with its chapters grouped per joint, the metrics in units for people with
the threshold that judges each (the failing number marked), fix hints, warnings, the plots of the
deciding quantity, the per-joint table, and, collapsed, the other settings, excluded joints and the log.
Plots are drawn into `html/media/`. Videos, posters and the replay layer are linked relatively where they lie in
the run's report folder (each video is stored once); a report written elsewhere copies the videos and posters
into `html/media/`, so that folder stands alone. Near-identical warnings (the same sentence for many joints) are
grouped: one line with how many and which joints (`html_view.warning_groups`).
Series come from `TestResult.series` (in memory) or the `series` artifact (series.json), since
`series` is not part of the JSON report. Needs the `[html]` extra (jinja2, matplotlib).
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import os
import re
import shutil
from pathlib import Path

from ..core.plugin import TestRegistry
from ..core.results import RunReport, TestResult
from ..core.status import Status
from ..core.test_view import TestView
from ..plotting.common import load_json
from . import html_view as view
from . import readback_view

STATUS_ORDER = [s.value for s in Status]
MEDIA = "media"


def asset_anchor(path: str) -> str:
    """The id of an asset's section: its file name and a hash of its path (stable across reports, so the
    engine comparison can link into each engine's report)."""
    digest = hashlib.sha1(str(path).encode("utf-8")).hexdigest()[:8]
    return f"a-{_slug(Path(path).stem)}-{digest}"


def test_anchor(path: str, test: str) -> str:
    return f"{asset_anchor(path)}-{_slug(test)}"


def write_html_report(report: RunReport, out_dir: Path, registry: TestRegistry) -> Path:
    """Write `<out_dir>/html/index.html` with its media; returns the index path. Each test's section is drawn
    by the view its test declares (`registry.view_of`)."""
    import jinja2

    from .plots import write_plots

    html_dir = Path(out_dir) / "html"
    media_dir = html_dir / MEDIA
    if media_dir.exists():
        shutil.rmtree(media_dir)
    media_dir.mkdir(parents=True, exist_ok=True)

    test_names: list[str] = []
    for result in report.all_results():
        if result.name not in test_names:
            test_names.append(result.name)

    assets = []
    ordered = sorted(enumerate(report.assets), key=lambda item: (view.asset_rank(item[1]), item[0]))
    for a_index, asset in ordered:
        slug = asset_anchor(asset.path)
        folder = media_dir / f"a{a_index}-{_slug(Path(asset.path).stem)}"
        tests = [_test_view(result, slug, folder, html_dir, write_plots, registry.view_of(result.name), Path(out_dir))
                 for result in sorted(asset.tests, key=view.rank)]
        cells = {t["r"].name: t for t in tests}
        status = asset.status.value if asset.status is not None else ""
        cached = [n for n in asset.from_cache if n in cells]
        assets.append({"a": asset, "slug": slug, "tests": tests, "cells": cells, "status": status,
                       "name": Path(asset.path).name, "folder": Path(asset.path).parent.name,
                       "cached": _cached_text(cached, len(asset.tests)), "cached_tests": ", ".join(cached),
                       "fix": view.fix_view(asset.fix, html_dir), "readback": readback_view.tables(asset)})

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(Path(__file__).parent / "templates")),
        autoescape=jinja2.select_autoescape(["html", "j2"]),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    counts = {k: v for k, v in report.counts().items() if v}
    marked = sum(1 for r in report.all_results() if view.verdict_label(r) == "PASS*")
    html = env.get_template("report.html.j2").render(
        report=report, assets=assets, test_names=test_names, counts=counts, status_order=STATUS_ORDER,
        legend=view.LEGEND, marked=marked, when=_when(report), wrap=_wrap_name,
    )
    index = html_dir / "index.html"
    tmp = index.with_suffix(".html.tmp")
    tmp.write_text(html, encoding="utf-8")
    os.replace(tmp, index)
    return index


def _test_view(result: TestResult, slug: str, folder: Path, html_dir: Path, write_plots, test_view: TestView,
               out_dir: Path) -> dict:
    series = _series_of(result)
    plots = [{"src": _rel(p["path"], html_dir), "title": p["title"]}
             for p in write_plots(result, series, folder, _slug(result.name), test_view)]
    metrics, settings = view.metric_rows(result, test_view)
    rows = sorted(result.joints, key=lambda r: view.RANK.get(Status(r.status).value, 9))
    status = result.status.value
    return {
        "r": result,
        "anchor": f"{slug}-{_slug(result.name)}",
        "status": status,
        "label": view.verdict_label(result),
        "short": view.short_label(result),
        "words": view.verdict_words(result),
        "open": status in view.OPEN,
        "video": _media(result, "video", folder, html_dir, out_dir),
        "poster": _media(result, "poster", folder, html_dir, out_dir),
        "warning_groups": view.warning_groups(result.warnings),
        "chapters": view.chapter_groups(_chapters(result), result.joints),
        "replay": _link(result.artifacts.get("replay"), html_dir),
        "other_artifacts": {
            k: _link(v, html_dir) for k, v in result.artifacts.items() if k not in ("video", "poster", "replay", "timeline")
        },
        "plots": plots,
        "metrics": metrics,
        "settings": settings,
        "joint_rows": [view.joint_view(row, {r.joint: r for r in rows}, test_view) for row in rows],
        "failing_joints": sum(1 for r in rows if Status(r.status).value in view.OPEN),
    }


# -- helpers --------------------------------------------------------------------------------------

def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]+", "_", text).strip("_") or "x"


def _wrap_name(text: str) -> str:
    """Break opportunities after _ / . - in long names (the template marks the result safe after escaping)."""
    from markupsafe import escape

    return re.sub(r"([_/.\-])", r"\1<wbr>", str(escape(text)))


def _cached_text(cached: list[str], total: int) -> str:
    if not cached:
        return ""
    if len(cached) == total:
        return "reused from cache"
    return f"{len(cached)} of {total} tests reused from cache"


def _when(report: RunReport) -> str:
    """'2026-12-01 06:34 UTC, took 22 s' from the ISO timestamps (one line, no duplicate stamp)."""
    try:
        started = _dt.datetime.fromisoformat(report.started)
    except (TypeError, ValueError):
        return report.started or ""
    text = started.strftime("%Y-%m-%d %H:%M:%S %Z").strip()
    try:
        seconds = (_dt.datetime.fromisoformat(report.finished) - started).total_seconds()
    except (TypeError, ValueError):
        return f"started {text}"
    took = "under 1 s" if seconds < 1 else f"{seconds:.0f} s" if seconds < 120 else f"{seconds / 60:.1f} min"
    every = [a for a in report.assets if a.tests]
    if every and all(len(a.from_cache) == len(a.tests) for a in every):
        took += ", every verdict reused from the cache"
    return f"started {text}, took {took}"


def _rel(path: Path, base: Path) -> str:
    return Path(os.path.relpath(Path(path).resolve(), base.resolve())).as_posix()


def _link(path: str | None, html_dir: Path) -> str | None:
    if not path:
        return None
    p = Path(path)
    if not p.exists():
        return None
    return _rel(p, html_dir)


def _media(result: TestResult, key: str, folder: Path, html_dir: Path, out_dir: Path) -> str | None:
    """A media artifact (video, poster) for the page: linked where it lies in the run's folder (stored once), else
    copied into the report's media folder, so a report written elsewhere stands alone."""
    source = result.artifacts.get(key)
    if not source or not Path(source).is_file():
        return None
    if Path(source).resolve().is_relative_to(out_dir.resolve()):
        return _rel(Path(source), html_dir)
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{_slug(result.name)}{''.join(Path(source).suffixes[-1:])}"
    shutil.copyfile(source, target)
    return _rel(target, html_dir)


def _series_of(result: TestResult) -> dict[str, list[float]]:
    if result.series:
        return result.series
    data = load_json(result.artifacts.get("series"))
    return data if isinstance(data, dict) else {}


def _chapters(result: TestResult) -> list[dict]:
    timeline = load_json(result.artifacts.get("timeline")) or {}
    return [c for c in timeline.get("chapters", []) if isinstance(c, dict)]
