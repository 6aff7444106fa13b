"""A small mixed asset library for the batch tests: passing, failing, skipped, broken and layered assets.

Verdicts are not written down here: the tests compare runs against each other (jobs 1 vs 2, local
vs Ray, cached vs fresh), and the few absolute expectations they state come from the physics.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

from pxr import Sdf

from usd_fixtures import box_asset


def layered_asset(path: Path, **box_options) -> Path:
    """A root layer that only sublayers `Payload/body.usda`, where the rigid body really lives.

    The batch collector skips files in `Payload/` folders (parts, not assets), so this counts as one
    asset whose physics comes entirely from a dependency: the cache must notice edits to that layer.
    """
    path = Path(path)
    body = box_asset(path.parent / "Payload" / f"{path.stem}_body.usda", **box_options)
    root = Sdf.Layer.CreateNew(str(path))
    root.subLayerPaths.append(f"./Payload/{body.name}")
    root.defaultPrim = "Asset"
    root.Save()
    return path


def mixed_library(folder: Path) -> Path:
    folder = Path(folder)
    box_asset(folder / "a_good.usda")
    box_asset(folder / "b_kinematic.usda", kinematic=True)
    box_asset(folder / "c_anchored.usda", anchored=True)
    (folder / "d_broken.usda").write_text("#usda 1.0\n(\n    this is not a layer\n", encoding="utf-8")
    layered_asset(folder / "e_layered.usda")
    return folder


def run_cli(*args, timeout: float = 600, cwd=None, prefix: tuple[str, ...] = ()) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*prefix, sys.executable, "-m", "omni.simready.physics_validator.cli", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=cwd,
    )


def start_cli(*args) -> subprocess.Popen:
    """The CLI in its own session, so the test can kill it together with its worker processes."""
    return subprocess.Popen(
        [sys.executable, "-m", "omni.simready.physics_validator.cli", *map(str, args)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def kill_session(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait(timeout=30)


def load_report(out: Path) -> dict:
    return json.loads((Path(out) / "report.json").read_text(encoding="utf-8"))


def verdicts(report: dict) -> list[tuple[str, list[tuple[str, str, str]]]]:
    """(asset file name, [(test, status, reason)]) in report order."""
    return [(Path(a["path"]).name, [(t["name"], t["status"], t["reason"]) for t in a["tests"]]) for a in report["assets"]]


def cache_entries(out: Path) -> list[dict]:
    folder = Path(out) / ".cache" / "results"
    return [json.loads(p.read_text(encoding="utf-8")) for p in sorted(folder.glob("*/*.json"))] if folder.is_dir() else []


def loopback_only_prefix() -> tuple[str, ...] | None:
    """A command prefix that runs a program in a fresh network namespace with only loopback up.

    Ray's servers bind to every interface of the node they detect; inside this namespace the only
    interface is 127.0.0.1, so a test cluster is unreachable from outside. None where namespaces
    are not permitted (then the Ray tests skip rather than open ports).
    """
    import shutil

    if not (shutil.which("unshare") and shutil.which("ip")):
        return None
    prefix = ("unshare", "--net", "--", "sh", "-c", 'ip link set lo up && exec "$@"', "sh")
    try:
        probe = subprocess.run([*prefix, "true"], capture_output=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return prefix if probe.returncode == 0 else None
