"""The HTML report: one self-contained folder that opens from disk (no server, no network).

    write_html_report(report, out_dir) -> out_dir / "html" / "index.html"

Layout: a summary grid asset x test with coloured verdicts (each cell carries data-asset,
data-test and data-status, so tools and tests can read it), then per asset and test: verdict and
reason, the video with its chapters (from the recording's timeline), a link to the USD replay,
fix hints, warnings, metrics, the effective thresholds, the per-joint table (measured vs limit),
excluded joints, plots, and the log. Videos and plots are copied/drawn into `html/media/`;
the replay layer is linked relatively (it references the asset by absolute path).
Series come from `TestResult.series` (in memory) or the `series` artifact (series.json), since
`series` is not part of the JSON report. Needs the `[html]` extra (jinja2, matplotlib).
"""

from __future__ import annotations

import json
import math
import os
import re
import shutil
from pathlib import Path

from ..core.results import RunReport, TestResult
from ..core.status import Status

STATUS_ORDER = [s.value for s in Status]
MEDIA = "media"


def write_html_report(report: RunReport, out_dir: Path) -> Path:
    """Write `<out_dir>/html/index.html` with its media; returns the index path."""
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
    for a_index, asset in enumerate(report.assets):
        slug = f"a{a_index}-{_slug(Path(asset.path).stem)}"
        tests = []
        for result in asset.tests:
            anchor = f"{slug}-{_slug(result.name)}"
            folder = media_dir / slug
            series = _series_of(result)
            plots = [
                {"src": _rel(p["path"], html_dir), "title": p["title"]}
                for p in write_plots(result, series, folder, _slug(result.name))
            ]
            tests.append(
                {
                    "r": result,
                    "anchor": anchor,
                    "status": result.status.value,
                    "video": _copy_artifact(result, "video", folder, html_dir),
                    "poster": _copy_artifact(result, "poster", folder, html_dir),
                    "chapters": _chapters(result),
                    "replay": _link(result.artifacts.get("replay"), html_dir),
                    "other_artifacts": {
                        k: _link(v, html_dir) for k, v in result.artifacts.items() if k not in ("video", "poster", "replay", "timeline")
                    },
                    "plots": plots,
                    "config": {k: _fmt(v) for k, v in sorted(result.config.items())},
                    "metrics": {k: _fmt(v) for k, v in result.metrics.items()},
                    "joint_rows": [_joint_row(row) for row in result.joints],
                }
            )
        cells = {t["r"].name: t for t in tests}
        status = asset.status.value if asset.status is not None else ""
        assets.append({"a": asset, "slug": slug, "tests": tests, "cells": cells, "status": status,
                       "name": Path(asset.path).name, "folder": Path(asset.path).parent.name})

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(Path(__file__).parent / "templates")),
        autoescape=jinja2.select_autoescape(["html", "j2"]),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    counts = {k: v for k, v in report.counts().items() if v}
    html = env.get_template("report.html.j2").render(
        report=report, assets=assets, test_names=test_names, counts=counts, status_order=STATUS_ORDER
    )
    index = html_dir / "index.html"
    tmp = index.with_suffix(".html.tmp")
    tmp.write_text(html, encoding="utf-8")
    os.replace(tmp, index)
    return index


# -- helpers --------------------------------------------------------------------------------------

def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]+", "_", text).strip("_") or "x"


def _rel(path: Path, base: Path) -> str:
    return Path(os.path.relpath(Path(path).resolve(), base.resolve())).as_posix()


def _link(path: str | None, html_dir: Path) -> str | None:
    if not path:
        return None
    p = Path(path)
    if not p.exists():
        return None
    return _rel(p, html_dir)


def _copy_artifact(result: TestResult, key: str, folder: Path, html_dir: Path) -> str | None:
    """Copy a media artifact (video, poster) into the report folder, so the folder stands alone."""
    source = result.artifacts.get(key)
    if not source or not Path(source).is_file():
        return None
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{_slug(result.name)}{''.join(Path(source).suffixes[-1:])}"
    shutil.copyfile(source, target)
    return _rel(target, html_dir)


def _load_json(path: str | None):
    if not path:
        return None
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _series_of(result: TestResult) -> dict[str, list[float]]:
    if result.series:
        return result.series
    data = _load_json(result.artifacts.get("series"))
    return data if isinstance(data, dict) else {}


def _chapters(result: TestResult) -> list[dict]:
    timeline = _load_json(result.artifacts.get("timeline")) or {}
    return [c for c in timeline.get("chapters", []) if isinstance(c, dict)]


def _fmt(value) -> str:
    if isinstance(value, bool) or value is None:
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            return str(value)
        return f"{value:.6g}"
    if isinstance(value, (list, tuple)):
        return ", ".join(_fmt(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k}={_fmt(v)}" for k, v in value.items())
    return str(value)


# measured key -> the limit it is judged against (besides the generic x / max_x pairing)
LIMIT_OF = {
    "peak_velocity": "allowed",
    "settling_time_s": "max_settling_seconds",
    "final_error": "settling_band",
    "zero_error": "zero_return_tolerance",
    "hold_error_max": "rest_tolerance",
    "hold_error_min": "rest_tolerance",
}


def _joint_row(row) -> dict:
    """Measured next to its limit where the pairing is known; the other values listed after."""
    measured = dict(row.measured)
    used: set[str] = set()
    pairs = []
    for key, value in list(measured.items()):
        limit_key = LIMIT_OF.get(key) if LIMIT_OF.get(key) in row.limits else f"max_{key}"
        if limit_key in row.limits:
            pairs.append((key, _fmt(value), limit_key, _fmt(row.limits[limit_key])))
            used.add(limit_key)
            measured.pop(key)
    return {
        "row": row,
        "status": row.status.value,
        "pairs": pairs,
        "measured": {k: _fmt(v) for k, v in measured.items()},
        "limits": {k: _fmt(v) for k, v in row.limits.items() if k not in used},
    }
