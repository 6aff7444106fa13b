"""Each test's plots, drawn where its verdict was made, so a library's report scales with the workers.

Drawing the plots is most of an HTML report's cost (≈ 0.2-0.4 s a figure against a few ms for the page's
text), and a run's parent process would draw them one after another once physics is over. A batch run
therefore hands `PlotsAhead(html_dir)` to its jobs (`run.inputs.AssetJob.pages`): right after each test, the
worker that ran it draws the test's plots into the asset's media folder (`media_folder`), from the series it
still holds, with a manifest naming the plots and the result they were drawn for (`result_key`). The
workers draw while other assets simulate; `write_html_report` then takes a test's plots from its manifest
when the key matches the result it shows, and draws them itself otherwise (cached verdicts, a Ray node
with another disk, a worker that died mid-way). The page reads the same either way.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import re
from pathlib import Path

from ..core import out_writer
from ..core.file_names import bounded
from ..core.media import drawn
from ..core.plugin import TestRegistry
from ..core.results import TestResult
from ..plotting.common import load_json

MEDIA = "media"


def slug(text: str) -> str:
    """`text` as an id and a file name: letters, digits, _ and -, at most core.file_names.MAX_NAME_CHARS long."""
    return bounded(re.sub(r"[^A-Za-z0-9_-]+", "_", text).strip("_") or "x")


def asset_anchor(path: str) -> str:
    """The id of an asset's section: its file name and a hash of its path (stable across reports, so the
    engine comparison can link into each engine's report, and a worker can name the asset's media folder)."""
    digest = hashlib.sha1(str(path).encode("utf-8")).hexdigest()[:8]
    return f"a-{slug(Path(path).stem)}-{digest}"


def media_folder(html_dir: str | os.PathLike, asset_path: str) -> Path:
    """Where an asset's plots, videos and posters go: `<html>/media/<asset anchor>/`."""
    return Path(html_dir) / MEDIA / asset_anchor(asset_path)


def result_key(result: TestResult) -> str:
    """A digest of the result as the report sees it (its JSON form; the series are not part of it): a manifest
    whose key matches was drawn for this very result."""
    data = result.model_dump(mode="json")
    return hashlib.sha1(json.dumps(data, sort_keys=True, separators=(",", ":")).encode("utf-8")).hexdigest()


def manifest_path(folder: Path, test: str) -> Path:
    return folder / f"{slug(test)}.plots.json"


def draw_plots(result: TestResult, series: dict, folder: Path, registry: TestRegistry) -> list[dict]:
    """Draw a result's plots into `folder` and write their manifest; [{"path", "title"}]."""
    from .plots import write_plots

    out_writer.folder(folder)
    plots = write_plots(result, series, folder, slug(result.name), registry.view_of(result.name))
    if plots:
        manifest = {"key": result_key(result), "plots": [{"file": Path(p["path"]).name, "title": p["title"]} for p in plots]}
        out_writer.write_text(manifest_path(folder, result.name), json.dumps(manifest), durable=False)
    return plots


def drawn_plots(result: TestResult, folder: Path) -> list[dict] | None:
    """The plots a worker drew for this result ([{"path", "title"}]), or None when there are none for it."""
    manifest = load_json(str(manifest_path(folder, result.name)))
    if not isinstance(manifest, dict) or manifest.get("key") != result_key(result):
        return None
    drawn = [(folder / str(p.get("file", "")), str(p.get("title", ""))) for p in manifest.get("plots", [])]
    if not all(path.is_file() for path, _ in drawn):
        return None
    return [{"path": path, "title": title} for path, title in drawn]


class PlotsAhead:
    """`AssetJob.pages` of a run that writes an HTML report to `html_dir`: called in the worker after each
    test with the asset's path, the result (series in memory) and the registry; draws the plots of the results the
    media policy draws (core.media). Picklable: it crosses to the worker processes with the job."""

    def __init__(self, html_dir: str | os.PathLike, media: str = "all"):
        self.html_dir = str(html_dir)
        self.media = media

    def __call__(self, asset_path: str, result: TestResult, registry: TestRegistry) -> None:
        if result.series and drawn(result, self.media):
            draw_plots(result, result.series, media_folder(self.html_dir, asset_path), registry)


def plots_ahead(html_dir: str | os.PathLike, media: str = "all") -> PlotsAhead | None:
    """The page maker of a run writing its HTML report to `html_dir`, or None without matplotlib (the report
    then says what is missing, once)."""
    return PlotsAhead(html_dir, media) if importlib.util.find_spec("matplotlib") is not None else None


_ANCHOR_FOLDER = re.compile(r"^a-[A-Za-z0-9_-]*-[0-9a-f]{8}$")
_MEDIA_SUFFIXES = (".mp4", ".webm", ".gif", ".jpg", ".jpeg", ".png", ".glb", ".js")  # .glb, .js: a 3D replay's copies


def prune_media(media_dir: Path, kept: set[Path], tests) -> None:
    """Remove what this tool wrote into `media_dir` that the report no longer links to (an earlier run's plots,
    manifests, video and poster copies), and nothing else: only files named after one of `tests` inside an asset's
    folder (`media_folder`); a link is never followed, anyone else's file or folder is kept."""
    if media_dir.is_symlink() or not media_dir.is_dir():
        return
    kept = {Path(p).resolve() for p in kept}
    stems = {slug(test) for test in tests}
    for folder in media_dir.iterdir():
        if folder.is_symlink() or not folder.is_dir() or not _ANCHOR_FOLDER.match(folder.name):
            continue
        for path in folder.iterdir():
            if not path.is_symlink() and path.is_file() and _ours(path.name, stems) and path.resolve() not in kept:
                out_writer.remove(path)
        if not any(folder.iterdir()):
            out_writer.remove_empty_folder(folder)


def _ours(name: str, stems: set[str]) -> bool:
    """A media file name this module or the HTML report makes: <test>-<n>.png, <test>.plots.json, <test>.<video/image>."""
    for stem in stems:
        rest = name[len(stem):] if name.startswith(stem) else None
        if rest is None:
            continue
        if rest == ".plots.json" or rest in _MEDIA_SUFFIXES or re.fullmatch(r"-\d+\.png", rest):
            return True
    return False
