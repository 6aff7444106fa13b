"""Benchmark (issues 36, 44): what does a default validate's glance cost beside the run, and what does a frame cost?

    python tools/bench_video.py [--parts arm,renderers] [--rounds 3] [--media replay] [--asset USD] [--work DIR]
                                [--json FILE]

- arm: `simready-physics validate ASSET` (all the tests; recording on with `--media MEDIA`: by default `replay`, the
  default of the command: every test's 3D replay, no video; `--media failing` draws the videos of the tests that did
  not pass cleanly, the default before issue 44) against the same with `--no-video`, whole processes, paired
  (tools/paired_runs.py: A B A B, the ratio per pair, medians, the load before each run; goal <= 1.1x).
  The asset: a 7-DOF arm with mesh colliders and drives; by default UFactory's xArm 7 as issue 37 converted it
  (/work/robots/xarm7/UF_ROBOT.usda, `tools/convert_robots.sh`) with the first drives of
  `simready-physics fix --add-drives` (run once into WORK; its `.fixed.usda` wrapper is what is validated).
- renderers: one test's recording (state_accuracy of the same arm, 640x360) drawn into a video by each renderer in a
  fresh process: VTK on Mesa's llvmpipe through EGL (what the tool uses; 2 and 1 rasterizer threads), Mesa's
  softpipe, VTK through OSMesa (when libOSMesa is installed), the same VTK path without frame reuse and with
  today's lit room and gradient background (the cost of the picture before this issue), and matplotlib (Agg, no
  OpenGL: the same triangles painted back to front). Milliseconds per drawn frame, wall and CPU, and a PNG of one
  frame of each in WORK/frames/ to compare the pictures (floor, arm, caption).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # tests.fixtures
sys.path.insert(0, str(ROOT / "tools"))  # paired_runs

from paired_runs import load, paired, summary  # noqa: E402

XARM7 = Path("/work/robots/xarm7/UF_ROBOT.usda")


def driven_arm(source: Path, work: Path) -> Path:
    """`source` with the first drives of `fix --add-drives` (written into WORK once): its .fixed.usda wrapper."""
    out = work / "fix"
    fixed = out / f"{source.stem}.fixed.usda"
    if not fixed.is_file():
        command = [sys.executable, "-m", "omni.simready.physics_validator.cli", "fix", str(source), "--add-drives",
                   "--out", str(out)]
        print(f"first drives: {' '.join(command[2:])}", flush=True)
        subprocess.run(command, stdout=subprocess.DEVNULL, check=False)
    if not fixed.is_file():
        raise SystemExit(f"fix --add-drives wrote no {fixed}")
    return fixed


def arm_part(asset: Path, rounds: int, work: Path, media: str = "replay") -> dict:
    print(f"\narm: {asset}, all the tests, --media {media} vs --no-video; {rounds} pairs", flush=True)
    pairs = paired([str(asset), "--media", media], [str(asset), "--no-video"], rounds, work / "arm", media, "no-video")
    figures = summary(pairs, media, "no-video")
    report = json.loads((pairs[-1][0].out / "report.json").read_text())
    results = [t for a in report["assets"] for t in a["tests"]]
    videos = [t["name"] for t in results if "video" in t["artifacts"]]
    recorded = [t["name"] for t in results if "timeline" in t["artifacts"]]
    replays = [t["name"] for t in results if "replay_glb" in t["artifacts"]]
    figures.update(videos=videos, recorded=recorded, replays=replays, verdicts={t["name"]: t["status"] for t in results})
    print(f"  median of {len(pairs)}: --media {media} {figures[media]['wall']:.1f} s, "
          f"no-video {figures['no-video']['wall']:.1f} s wall = {figures['ratio_wall']:.2f}x "
          f"({figures['ratio_cpu']:.2f}x CPU), load {figures['load'][0]:.1f}-{figures['load'][1]:.1f}; "
          f"{len(replays)} 3D replays, {len(videos)} videos drawn ({', '.join(videos)}) of {len(recorded)} recorded tests")
    return figures


# -- renderers ---------------------------------------------------------------------------------------------
RENDER = r"""
import json, sys, time, resource
import numpy as np
mode, asset, timeline, frames_dir = sys.argv[1:5]
from omni.simready.physics_validator.recording import renderer as R, video_job as V
if mode == "no-reuse":
    V.REUSE_PX = 0.0
if mode == "lit-room":  # the picture before issue 36: the room lit by the light kit, a gradient background
    V.REUSE_PX = 0.0
    build = R.SceneRenderer.build_room
    def lit(self, *a, **k):
        build(self, *a, **k)
        for actor in self._room_actors:
            actor.prop.lighting = True
        self.plotter.set_background((0.30, 0.45, 0.70), top=(0.10, 0.20, 0.42))
    R.SceneRenderer.build_room = lit
job = V.VideoJob(asset, timeline, "FAIL", "state_accuracy: the recorded run, drawn again", 640, 360)
cpu0, wall0 = time.process_time(), time.perf_counter()
out = V.render_video(job)
wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
children = resource.getrusage(resource.RUSAGE_CHILDREN)
import imageio_ffmpeg
from PIL import Image
reader = imageio_ffmpeg.read_frames(out.artifacts["video"])
meta = next(reader)
for index, frame in enumerate(reader):
    if index == int(sys.argv[5]):
        Image.frombytes("RGB", meta["size"], frame).save(f"{frames_dir}/{mode}.png")
        break
print(json.dumps({"wall": wall, "cpu": cpu, "ffmpeg_cpu": children.ru_utime + children.ru_stime,
                  "drawn": out.frames_drawn, "reused": out.frames_reused, "problems": out.problems}))
"""

MATPLOTLIB = r"""
import json, sys, time
import numpy as np
asset, timeline, frames_dir, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.collections import PolyCollection
from omni.simready.physics_validator.core.geometry import quat_to_matrix
from omni.simready.physics_validator.recording.render_geometry import load_render_geometry
data = json.load(open(timeline))
poses = np.load(timeline.replace(".timeline.json", ".poses.npz"))
paths = [str(p) for p in poses["paths"]]
rest = poses["rest"]
geometry = load_render_geometry(asset, {p: (rest[j, :3], rest[j, 3:]) for j, p in enumerate(paths)}, paths)
frames = data["frames"]
camera = frames[len(frames) // 2]["camera"]
eye, focus, up = (np.array(camera[k]) for k in ("position", "focal_point", "view_up"))
forward = (focus - eye) / np.linalg.norm(focus - eye)
right = np.cross(forward, up); right /= np.linalg.norm(right)
upv = np.cross(right, forward)
tan = np.tan(np.radians(camera["view_angle"]) / 2)
fig = plt.figure(figsize=(6.4, 3.6), dpi=100)
ax = fig.add_axes([0, 0, 1, 1]); ax.set_xlim(-640 / 360, 640 / 360); ax.set_ylim(-1, 1); ax.axis("off")
light = np.array([0.3, -0.4, 0.85]); light /= np.linalg.norm(light)
times = []
for index in range(count):
    start = time.perf_counter()
    pose = poses["poses"][len(frames) // 2 + index]
    polys, colors, depth = [], [], []
    for j, path in enumerate(paths):
        body = geometry.get(path)
        if body is None or not np.all(np.isfinite(pose[j])):
            continue
        world = body.points @ quat_to_matrix(pose[j, 3:]).T + pose[j, :3]
        rel = world - eye
        z = rel @ forward
        xy = np.stack([(rel @ right) / z / tan, (rel @ upv) / z / tan], axis=1)
        tri = body.triangles
        a, b, c = world[tri[:, 0]], world[tri[:, 1]], world[tri[:, 2]]
        normal = np.cross(b - a, c - a); normal /= np.linalg.norm(normal, axis=1, keepdims=True) + 1e-12
        shade = 0.35 + 0.65 * np.abs(normal @ light)
        polys.append(xy[tri]); depth.append(z[tri].mean(axis=1))
        colors.append(np.clip(body.colors[tri[:, 0]] * shade[:, None], 0, 1))
    polys, colors, depth = np.concatenate(polys), np.concatenate(colors), np.concatenate(depth)
    order = np.argsort(-depth)
    ax.collections.clear() if hasattr(ax.collections, "clear") else None
    for artist in list(ax.collections):
        artist.remove()
    ax.add_collection(PolyCollection(polys[order], facecolors=colors[order], edgecolors="none"))
    fig.canvas.draw()
    image = np.asarray(fig.canvas.buffer_rgba())[..., :3]
    times.append(time.perf_counter() - start)
fig.savefig(f"{frames_dir}/matplotlib.png")
print(json.dumps({"wall": sum(times), "cpu": sum(times), "drawn": count, "reused": 0, "triangles": int(len(polys))}))
"""


def record(asset: Path, work: Path) -> Path:
    """state_accuracy of `asset` recorded once (no video): the recording every renderer draws."""
    from omni.simready.physics_validator.core.session import TestSession
    from omni.simready.physics_validator.core.usd import read_asset
    from omni.simready.physics_validator.engines import create_engine
    from omni.simready.physics_validator.physics_tests import default_registry
    from omni.simready.physics_validator.recording import start_recording

    test = default_registry().get("state_accuracy")()
    config = test.Config()
    session = TestSession(test, read_asset(asset), config, create_engine("physx"))
    recording = start_recording(session.ctx, str(asset), test.name, work / "recording", config.capture_fps, 640, 360)
    assert recording is not None, session.result.warnings
    result = session.run_to_end()
    artifacts = recording.close(result, render=False)
    session.engine.close()
    return Path(artifacts["timeline"])


def renderers_part(asset: Path, work: Path) -> list[dict]:
    timeline = record(asset, work)
    frames = json.loads(timeline.read_text())["frame_count"]
    frames_dir = work / "frames"
    frames_dir.mkdir(parents=True, exist_ok=True)
    middle = str(frames // 2)
    osmesa = any(Path(p).exists() for p in ("/usr/lib/x86_64-linux-gnu/libOSMesa.so.8", "/usr/lib64/libOSMesa.so.8"))
    cases = [
        ("VTK, Mesa llvmpipe (EGL), 2 threads", "tool", {"LP_NUM_THREADS": "2"}),
        ("VTK, Mesa llvmpipe (EGL), 1 thread", "tool", {"LP_NUM_THREADS": "1"}),
        ("the same, no frame reuse", "no-reuse", {"LP_NUM_THREADS": "1"}),
        ("the same, today's lit room and gradient", "lit-room", {"LP_NUM_THREADS": "1"}),
        ("VTK, Mesa softpipe (EGL)", "softpipe", {"GALLIUM_DRIVER": "softpipe"}),
    ]
    if osmesa:
        cases.append(("VTK, OSMesa (llvmpipe), 1 thread", "osmesa",
                      {"VTK_DEFAULT_OPENGL_WINDOW": "vtkOSOpenGLRenderWindow", "LP_NUM_THREADS": "1"}))
    print(f"\nrenderers: state_accuracy of {asset.name}, {frames} frames at 640x360, each drawn in a fresh process", flush=True)
    rows = []
    for label, mode, env in cases:
        load_before = load()
        proc = subprocess.run([sys.executable, "-c", RENDER, mode, str(asset), str(timeline), str(frames_dir), middle],
                              capture_output=True, text=True, env={**os.environ, **env})
        if proc.returncode:
            print(f"  {label}: failed: {proc.stderr.strip().splitlines()[-1:]}")
            continue
        figures = json.loads(proc.stdout.strip().splitlines()[-1])
        rows.append(_row(label, figures, frames, load_before))
    load_before = load()
    proc = subprocess.run([sys.executable, "-c", MATPLOTLIB, str(asset), str(timeline), str(frames_dir), "20"],
                          capture_output=True, text=True)
    if proc.returncode == 0:
        figures = json.loads(proc.stdout.strip().splitlines()[-1])
        rows.append(_row(f"matplotlib Agg, painter's algorithm ({figures['triangles']} triangles), 20 frames", figures, 20,
                         load_before))
    else:
        print(f"  matplotlib: failed: {proc.stderr.strip().splitlines()[-1:]}")
    print(f"  frames of each: {frames_dir}/*.png")
    return rows


def _row(label: str, figures: dict, frames: int, load_before: float) -> dict:
    drawn = max(figures["drawn"], 1)
    row = {"renderer": label, "frames": frames, "drawn": figures["drawn"], "reused": figures["reused"],
           "seconds": round(figures["wall"], 2), "ms_per_drawn_frame": round(1000 * figures["wall"] / drawn, 1),
           "ms_per_video_frame": round(1000 * figures["wall"] / frames, 1),
           "cpu_ms_per_video_frame": round(1000 * (figures["cpu"] + figures.get("ffmpeg_cpu", 0.0)) / frames, 1),
           "load": round(load_before, 1)}
    print(f"  {label:58s} {row['seconds']:6.2f} s for {frames} frames ({figures['drawn']} drawn, {figures['reused']} "
          f"reused): {row['ms_per_drawn_frame']:5.1f} ms a drawn frame, {row['ms_per_video_frame']:5.1f} ms a video frame "
          f"({row['cpu_ms_per_video_frame']:5.1f} CPU ms with the encoder); load {row['load']:.1f}", flush=True)
    return row


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parts", default="arm,renderers")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--asset", default=str(XARM7), help="the 7-DOF arm (drives added with fix --add-drives when "
                                                             "it is the default one)")
    parser.add_argument("--work", default="", help="where the fixed arm, the runs and the frames go (default: a temp "
                                                   "folder)")
    parser.add_argument("--json", default="", help="write the figures here")
    parser.add_argument("--media", default="replay", choices=["replay", "failing", "all"],
                        help="the arm part's media policy against --no-video (default: the command's default)")
    args = parser.parse_args(argv)
    parts = [p.strip() for p in args.parts.split(",") if p.strip()]
    work = Path(args.work or tempfile.mkdtemp(prefix="bench_video_"))
    work.mkdir(parents=True, exist_ok=True)
    source = Path(args.asset)
    if not source.is_file():
        raise SystemExit(f"{source} not found: convert the robots with tools/convert_robots.sh, or pass --asset")
    asset = driven_arm(source, work) if source == XARM7 else source
    print(f"load average {load():.1f} at the start, {os.cpu_count()} CPUs; asset {asset}")
    figures: dict = {"asset": str(asset)}
    if "arm" in parts:
        figures["arm"] = arm_part(asset, args.rounds, work, args.media)
    if "renderers" in parts:
        figures["renderers"] = renderers_part(asset, work)
    print(f"\nload average {load():.1f} at the end")
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1, default=str))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
