"""Benchmark (issue 44): what a test's 3D replay costs to write and to open, on a 41,000-triangle arm's 1,000-frame sweep.

    python tools/bench_replay.py [--asset USD] [--frames 1000] [--rounds 3] [--work DIR] [--json FILE]

- record: `simready-physics validate ARM --tests full_range_sweep --no-html` once, its capture rate raised so the
  sweep records about `--frames` frames (`--set full_range_sweep.capture_fps=...`); the arm: the xArm 7 with the first
  drives of `fix --add-drives` (tools/bench_video.py makes it), 41,096 render triangles.
- write: in this process, from that recording, the replay's geometry (read from the asset, split by colour, decimated
  to the budget: once per asset in a worker) and then the replay itself (keyframes, GLB, its base64 twin), `--rounds`
  times; CPU milliseconds, and the sizes (the .glb, the .glb.js twin the report loads, what the decimation and the
  keyframes kept).
- open: the report page in headless Chromium (every request outside the report's folder blocked), `--rounds` fresh
  pages: milliseconds from the viewer's start to its first frame drawn (three.js parsed, the twin loaded and inflated,
  the GLB parsed, the scene built), and per scrub (seek and draw) on SwiftShader (Chromium's CPU WebGL).
The load average is printed before each part. Never put these numbers in tests.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))  # paired_runs, bench_video

from bench_video import XARM7, driven_arm  # noqa: E402
from paired_runs import VALIDATE, load  # noqa: E402

CHROMIUM = Path("/usr/bin/chromium")


def record(asset: Path, frames: int, work: Path) -> tuple[Path, Path]:
    """The sweep recorded at the capture rate that gives about `frames` frames: (its timeline, the report's index)."""
    out = work / "sweep"
    index = out / "html" / "index.html"
    timelines = list(out.glob("*/full_range_sweep/full_range_sweep.timeline.json"))
    if not timelines or not index.is_file():
        probe = json.loads(timelines[0].read_text()) if timelines else None
        fps = 8.0 * frames / probe["frame_count"] if probe else 8.0 * frames / 380  # the default sweep: ~380 frames at 8 Hz
        command = [*VALIDATE, str(asset), "--tests", "full_range_sweep", "--set", f"full_range_sweep.capture_fps={fps:.3f}",
                   "--out", str(out), "--quiet", "--jobs", "1"]
        print(f"record: {' '.join(command[2:])}", flush=True)
        subprocess.run(command, check=False)
        timelines = list(out.glob("*/full_range_sweep/full_range_sweep.timeline.json"))
    if not timelines:
        raise SystemExit(f"no recording in {out}")
    return timelines[0], index


def write_part(asset: Path, timeline_path: Path, rounds: int, work: Path) -> dict:
    import numpy as np

    from omni.simready.physics_validator.recording import replay_geometry as geometry_module
    from omni.simready.physics_validator.recording.replay_glb import write_replay

    timeline = json.loads(timeline_path.read_text())
    with np.load(timeline_path.parent / timeline["poses"]) as data:
        paths, poses, rest = [str(p) for p in data["paths"]], np.array(data["poses"]), np.array(data["rest"])
    print(f"\nwrite: {len(timeline['frames'])} frames, {len(paths)} bodies; load {load():.1f}", flush=True)
    geometry_ms, replay_ms = [], []
    out = work / "write"
    verdict = {"status": "FAIL", "label": "FAIL", "reason": "bench", "joints": {}}
    for _ in range(rounds):
        geometry_module._PREPARED.clear()
        started = time.process_time()
        geometry = geometry_module.replay_geometry(str(asset), paths, rest)
        geometry_ms.append(1000 * (time.process_time() - started))
        started = time.process_time()
        artifacts = write_replay(out, "full_range_sweep", geometry, timeline, paths, poses, verdict)
        replay_ms.append(1000 * (time.process_time() - started))
    glb, twin = Path(artifacts["replay_glb"]), Path(artifacts["replay_glb_js"])
    figures = {"frames": len(timeline["frames"]), "bodies": len(paths),
               "triangles": [geometry.authored_triangles, geometry.kept_triangles],
               "geometry_cpu_ms": round(geometry_ms[0], 1),  # the first: the asset's layers parsed (a worker's case)
               "replay_cpu_ms": round(statistics.median(replay_ms), 1),
               "glb_bytes": glb.stat().st_size, "twin_bytes": twin.stat().st_size}
    print(f"  geometry (once per asset in a worker): {figures['geometry_cpu_ms']:.0f} CPU ms the first time "
          f"({geometry.authored_triangles} triangles -> {geometry.kept_triangles})")
    print(f"  replay (per test): {figures['replay_cpu_ms']:.0f} CPU ms; {glb.name} {glb.stat().st_size / 1e3:.0f} kB, "
          f"{twin.name} {twin.stat().st_size / 1e3:.0f} kB (median of {rounds})", flush=True)
    return figures


OPEN = r"""
import json, sys
from pathlib import Path
from urllib.parse import unquote, urlparse
from playwright.sync_api import sync_playwright
index, rounds = Path(sys.argv[1]).resolve(), int(sys.argv[2])
folder = index.parent.parent
figures = []
with sync_playwright() as p:
    browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--headless", "--no-sandbox", "--disable-gpu"])
    for _ in range(rounds):
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        blocked = []
        def only_the_report(route):
            url = route.request.url
            inside = url.startswith("file://") and Path(unquote(urlparse(url).path)).resolve().is_relative_to(folder)
            route.continue_() if inside else (blocked.append(url), route.abort())
        page.route("**/*", only_the_report)
        page.goto(index.as_uri())
        rid = page.eval_on_selector(".replay3d", "e => { e.closest('details').open = true; e.scrollIntoView(); return e.id; }")
        page.wait_for_function(f"['ready', 'error'].includes(document.getElementById('{rid}').dataset.state)", timeout=300000)
        state = page.get_attribute(f"#{rid}", "data-state")
        scrub = page.evaluate(f'''() => {{ const v = SimreadyReplay.viewers['{rid}']; const n = 40; const t0 = performance.now();
            for (let i = 0; i < n; i++) v.seek(v.start_ + (v.end - v.start_) * i / n);
            v.renderer.getContext().finish(); return (performance.now() - t0) / n; }}''')
        figures.append({"state": state, "load_ms": float(page.get_attribute(f"#{rid}", "data-load-ms") or "nan"),
                        "scrub_ms": scrub, "blocked": blocked})
        page.close()
    browser.close()
print(json.dumps(figures))
"""


def open_part(index: Path, rounds: int) -> dict:
    print(f"\nopen: {index} in Chromium (SwiftShader), {rounds} fresh pages; load {load():.1f}", flush=True)
    proc = subprocess.run([sys.executable, "-c", OPEN, str(index), str(rounds)], capture_output=True, text=True)
    if proc.returncode:
        raise SystemExit(f"the browser part failed: {proc.stderr[-2000:]}")
    runs = json.loads(proc.stdout.strip().splitlines()[-1])
    figures = {"load_ms": round(statistics.median(r["load_ms"] for r in runs)),
               "scrub_ms": round(statistics.median(r["scrub_ms"] for r in runs), 1),
               "states": [r["state"] for r in runs], "blocked": sum(len(r["blocked"]) for r in runs)}
    print(f"  to the first frame: {figures['load_ms']} ms; a scrub (seek and draw): {figures['scrub_ms']} ms (median of "
          f"{rounds}); states {figures['states']}; requests blocked: {figures['blocked']}", flush=True)
    return figures


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--asset", default=str(XARM7))
    parser.add_argument("--frames", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--work", default="")
    parser.add_argument("--json", default="")
    args = parser.parse_args(argv)
    work = Path(args.work or tempfile.mkdtemp(prefix="bench_replay_"))
    work.mkdir(parents=True, exist_ok=True)
    source = Path(args.asset)
    if not source.is_file():
        raise SystemExit(f"{source} not found: convert the robots with tools/convert_robots.sh, or pass --asset")
    asset = driven_arm(source, work) if source == XARM7 else source
    print(f"load average {load():.1f} at the start, {os.cpu_count()} CPUs; asset {asset}")
    timeline, index = record(asset, args.frames, work)
    figures = {"asset": str(asset), "write": write_part(asset, timeline, args.rounds, work)}
    if CHROMIUM.exists():
        figures["open"] = open_part(index, args.rounds)
    else:
        print(f"open: skipped ({CHROMIUM} not installed: tools/install_test_browser.sh)")
    print(f"\nload average {load():.1f} at the end")
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
