"""The HTML report: one self-contained folder that opens from disk (no server, no network).

    write_html_report(report, out_dir, registry) -> out_dir / "html" / "index.html"

Verdicts and what to do first: assets and, inside each, tests are ordered worst verdict first; failing tests (FAIL,
ERROR, PRECHECK_FAILURE, WARN) are open, the others collapsed. Layout: counts and a legend; for several assets a
summary grid asset x test with coloured verdicts (each cell carries data-asset, data-test and data-status, so tools
and tests can read it; a PASS with warnings reads PASS*, core.status.verdict_label); per asset its headline and a
verdicts table (verdict, why, first hint, the fix command to try: html_view.glance), then per test:
verdict and reason, the 3D replay (recording/replay_glb.py, played by viewer/replay-viewer.js with the bundled three.js)
and the video where one was drawn, with the chapters grouped per joint, the metrics in units for people with
the threshold that judges each (the failing number marked), fix hints, warnings, the plots of the
deciding quantity, the per-joint table, and, collapsed, the other settings, excluded joints and the log.
Plots go to `html/media/<asset>/`: a batch run's workers draw each test's plots as the test ends
(`pages.PlotsAhead`); this module reuses those drawn for the result it shows and draws the rest. Videos, posters
and the replay layer are linked relatively where they lie in the run's report folder (each video is stored once);
a report written elsewhere copies the videos and posters into `html/media/`, so that folder stands alone. Media
the report does not link to (an earlier run's) is removed, files of anyone else there are kept (`pages.prune_media`).
Near-identical warnings (the same sentence for many joints) are grouped: one line with how many and which joints
(`html_view.warning_groups`).
Series come from `TestResult.series` (in memory) or the `series` artifact (series.json), since
`series` is not part of the JSON report. Needs the `[html]` extra (jinja2, matplotlib).
"""

from __future__ import annotations

import datetime as _dt
import os
import re
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

from ..core import out_writer
from ..core.media import drawn, not_drawn_note
from ..core.plugin import TestRegistry
from ..core.results import RunReport, TestResult
from ..core.status import Status
from ..core.test_view import TestView
from ..plotting.common import load_json
from . import html_view as view
from . import plausibility_view, readback_view
from .pages import MEDIA, asset_anchor, draw_plots, drawn_plots, manifest_path, media_folder, prune_media, slug as _slug

if TYPE_CHECKING:
    from .path_privacy import PathPrivacy

STATUS_ORDER = [s.value for s in Status]
SHOWN_ARTIFACTS = ("video", "poster", "replay", "timeline", "replay_glb", "replay_glb_js")  # in the media column
VIEWER = Path(__file__).parent / "viewer"  # the 3D replay's viewer (replay-viewer.js) and three.js, bundled
VIEWER_FILES = ("replay-viewer.js", "three-replay.min.js", "three.LICENSE.txt")


def test_anchor(path: str, test: str) -> str:
    return f"{asset_anchor(path)}-{_slug(test)}"


def write_html_report(report: RunReport, out_dir: Path, registry: TestRegistry, privacy: "PathPrivacy | None" = None,
                      media: str = "all") -> Path:
    """Write `<out_dir>/html/index.html` with its media; returns the index path. Each test's section is drawn
    by the view its test declares (`registry.view_of`); with `privacy` (reports.path_privacy) every text on the page
    shows paths relative to its root (links between the page and its media are relative anyway). `media` (core.media):
    whose plots are drawn here when no worker drew them; an undrawn test says how to get them."""
    import jinja2

    html_dir = out_writer.folder(Path(out_dir) / "html")
    media_dir = out_writer.folder(html_dir / MEDIA)
    kept: set[Path] = set()  # every media file this report links to; the rest (an earlier run's) goes at the end

    test_names: list[str] = []
    for result in report.all_results():
        if result.name not in test_names:
            test_names.append(result.name)

    assets: list[dict] = []
    ordered = sorted(enumerate(report.assets), key=lambda item: (view.asset_rank(item[1]), item[0]))
    for _index, asset in ordered:
        slug = asset_anchor(asset.path)
        folder = media_folder(html_dir, asset.path)
        tests = [_test_view(result, slug, folder, html_dir, registry, kept, Path(out_dir), media)
                 for result in sorted(asset.tests, key=view.rank)]
        cells = {t["r"].name: t for t in tests}
        status = asset.verdict  # the headline: INCOMPLETE where a test that applies could not run
        cached = [n for n in asset.from_cache if n in cells]
        assets.append({"a": asset, "slug": slug, "tests": tests, "cells": cells, "status": status,
                       "name": Path(asset.path).name, "folder": Path(asset.path).parent.name,
                       "cached": _cached_text(cached, len(asset.tests)), "cached_tests": ", ".join(cached),
                       "fix": view.fix_view(asset.fix, html_dir), "readback": readback_view.tables(asset, flagged_only=True),
                       "plausibility": plausibility_view.tables(asset),
                       "status_with_fix": asset.fix.verdict_with_layer() if asset.fix is not None else "",
                       "glance": view.glance(asset, registry)})

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(Path(__file__).parent / "templates")),
        autoescape=jinja2.select_autoescape(["html", "j2"]),
        trim_blocks=True,
        lstrip_blocks=True,
        finalize=privacy.finalize if privacy is not None else None,
    )
    counts = {k: v for k, v in report.counts().items() if v}
    marked = sum(1 for r in report.all_results() if view.verdict_label(r) == "PASS*")
    replays = any(test["replay3d"] for asset_view in assets for test in asset_view["tests"])
    html = env.get_template("report.html.j2").render(
        report=report, assets=assets, test_names=test_names, counts=counts, status_order=STATUS_ORDER,
        legend=view.LEGEND, marked=marked, when=_when(report), wrap=_wrap_name,
        viewer=_viewer(html_dir) if replays else None,
    )
    index = html_dir / "index.html"
    out_writer.write_text(index, html)
    prune_media(media_dir, kept, registry.names())
    return index


def _test_view(result: TestResult, slug: str, folder: Path, html_dir: Path, registry: TestRegistry,
               kept: set[Path], out_dir: Path, media: str) -> dict:
    test_view: TestView = registry.view_of(result.name)
    plots_drawn = _plots_of(result, folder, registry, media)
    kept.update(Path(p["path"]) for p in plots_drawn)
    kept.add(manifest_path(folder, result.name))
    plots = [{"src": _rel(p["path"], html_dir), "title": p["title"]} for p in plots_drawn]
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
        "replay3d": (replay3d := _media(result, "replay_glb", folder, html_dir, out_dir, kept)),
        "replay3d_script": _media(result, "replay_glb_js", folder, html_dir, out_dir, kept) if replay3d else None,
        "video": (video := _media(result, "video", folder, html_dir, out_dir, kept)),
        "undrawn": not_drawn_note(result, media) if not video and not plots_drawn and _recorded(result) else "",
        "poster": _media(result, "poster", folder, html_dir, out_dir, kept),
        "warning_groups": view.warning_groups(result.warnings),
        "chapters": view.chapter_groups(_chapters(result), result.joints),
        "replay": _link(result.artifacts.get("replay"), html_dir),
        "other_artifacts": {
            k: _link(v, html_dir) for k, v in result.artifacts.items() if k not in SHOWN_ARTIFACTS
        },
        "plots": plots,
        "metrics": metrics,
        "settings": settings,
        "joint_rows": [view.joint_view(row, {r.joint: r for r in rows}, test_view) for row in rows],
        "failing_joints": sum(1 for r in rows if Status(r.status).value in view.OPEN),
    }


# -- helpers --------------------------------------------------------------------------------------

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


def _viewer(html_dir: Path) -> dict:
    """The 3D replay's viewer copied beside the page (html/viewer/: three.js and its licence, ~0.66 MB once a report;
    the page loads it from there, nothing from the network); the script paths for the page."""
    folder = out_writer.folder(html_dir / "viewer")
    for name in VIEWER_FILES:
        out_writer.write_bytes(folder / name, (VIEWER / name).read_bytes(), durable=False)
    return {"script": "viewer/replay-viewer.js", "bundle": "viewer/three-replay.min.js"}


def _rel(path: Path, base: Path) -> str:
    return Path(os.path.relpath(Path(path).resolve(), base.resolve())).as_posix()


def _link(path: str | None, html_dir: Path) -> str | None:
    if not path:
        return None
    p = Path(path)
    if not p.exists():
        return None
    return _rel(p, html_dir)


def _media(result: TestResult, key: str, folder: Path, html_dir: Path, out_dir: Path, kept: set[Path]) -> str | None:
    """A media artifact (video, poster) for the page: linked where it lies in the run's folder (stored once), else
    copied into the report's media folder, so a report written elsewhere stands alone."""
    source = result.artifacts.get(key)
    if not source or not Path(source).is_file():
        return None
    if Path(source).resolve().is_relative_to(out_dir.resolve()):
        kept.add(Path(source))
        return _rel(Path(source), html_dir)
    out_writer.folder(folder)
    target = folder / f"{_slug(result.name)}{''.join(Path(source).suffixes[-1:])}"
    with out_writer.replacing(target) as tmp:
        shutil.copyfile(source, tmp)
    kept.add(target)
    return _rel(target, html_dir)


def _plots_of(result: TestResult, folder: Path, registry: TestRegistry, media: str) -> list[dict]:
    """The plots a worker drew for this very result (pages.PlotsAhead), else drawn here when the media policy draws
    them (core.media); [{"path", "title"}]."""
    done = drawn_plots(result, folder)
    if done is not None:
        return done
    if not drawn(result, media):
        return []
    series = _series_of(result)
    return draw_plots(result, series, folder, registry) if series else []


def _recorded(result: TestResult) -> bool:
    """Whether the test left something to draw from (a replay, a timeline or series)."""
    return bool(result.series) or any(k in result.artifacts for k in ("replay", "timeline", "series"))


def _series_of(result: TestResult) -> dict[str, list[float]]:
    if result.series:
        return result.series
    data = load_json(result.artifacts.get("series"))
    return data if isinstance(data, dict) else {}


def _chapters(result: TestResult) -> list[dict]:
    timeline = load_json(result.artifacts.get("timeline")) or {}
    return [c for c in timeline.get("chapters", []) if isinstance(c, dict)]
