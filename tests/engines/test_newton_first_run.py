"""Newton's first run on a machine is a phase of its own, never a hang: with an empty Warp kernel cache and a 10 s
watchdog, a validation compiles the kernels before any test's clock starts (engines/newton/warm_up.py; the worker
announces the phase, which has its own budget; a kernel variant the warm-up did not foresee is announced the same way
when Warp compiles it), says so once, and completes with its verdicts: a box dropped and slid down the ramp (its
box-only shapes take Newton's lean narrow phase, which the first warm-up missed) and a driven arm. The kernels it left
in the cache serve the next run, which says nothing. Skipped when newton is not installed; slow (a cold compile is
about a minute on two cores)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

pytest.importorskip("newton", reason="newton is not installed (pip install -e .[newton])")

from tests.fixtures.arms import ArmSpec, build_arm  # noqa: E402
from tests.fixtures.usd_assets import box_asset  # noqa: E402

pytestmark = pytest.mark.slow
NOTICE = "compiling Newton kernels, first run only"


def validate(asset, out, cache, *extra, cache_env="SIMREADY_WARP_CACHE", tests="ground_drop") -> subprocess.CompletedProcess:
    """The run with its kernel cache in `cache`, named by `cache_env` (the validator's variable or Warp's own)."""
    env = {key: value for key, value in os.environ.items()
           if key not in ("SIMREADY_WARP_CACHE", "WARP_CACHE_PATH", "SIMREADY_NEWTON_TARGET")}
    env[cache_env] = str(cache)
    assets = [str(a) for a in asset] if isinstance(asset, (list, tuple)) else [str(asset)]
    return subprocess.run(
        [sys.executable, "-m", "omni.simready.physics_validator.cli", "validate", *assets, "--engine", "newton",
         "--tests", tests, "--watchdog", "10", "--no-video", "--no-html", "--out", str(out), *extra],
        capture_output=True, text=True, env=env, timeout=1800,
    )


def test_an_empty_kernel_cache_and_a_10_s_watchdog_give_the_verdict(tmp_path):
    box = box_asset(tmp_path / "box.usda", size=0.1)
    arm = build_arm(tmp_path / "arm.usda", ArmSpec(joints=2))
    cache = tmp_path / "warp"  # empty: every kernel is compiled by this run
    first = validate([box, arm], tmp_path / "first", cache, "--jobs", "2",
                     tests="ground_drop,slope_drop,drive_gain_validation")
    report = json.loads((tmp_path / "first" / "report.json").read_text())
    verdicts = {(a["path"].rsplit("/", 1)[-1], t["name"]): (t["status"], t["reason"])
                for a in report["assets"] for t in a["tests"]}
    assert {k: v[0] for k, v in verdicts.items()} == {
        ("box.usda", "ground_drop"): "PASS", ("box.usda", "slope_drop"): "PASS",
        ("box.usda", "drive_gain_validation"): "NOT_APPLICABLE", ("arm.usda", "ground_drop"): "PASS",
        ("arm.usda", "slope_drop"): "PASS", ("arm.usda", "drive_gain_validation"): "PASS"}, (verdicts, first.stderr[-2000:])
    assert first.returncode == 0, first.stderr[-2000:]
    assert first.stderr.count(NOTICE) == 1, first.stderr  # told once, by the run, however many workers compiled
    assert list(cache.glob("simready-newton-*.ready")), "the compiled kernels were not kept"

    again = validate(box, tmp_path / "again", cache)  # the kernels are kept between runs and workers
    assert again.returncode == 0 and NOTICE not in again.stderr, again.stderr[-2000:]


def test_in_process_the_compile_happens_before_the_test_clock(tmp_path):
    asset = box_asset(tmp_path / "box.usda", size=0.1)
    cache = tmp_path / "warp"  # named by Warp's own variable this time
    run = validate(asset, tmp_path / "out", cache, "--in-process", cache_env="WARP_CACHE_PATH")
    result = json.loads((tmp_path / "out" / "report.json").read_text())["assets"][0]["tests"][0]
    assert (run.returncode, result["status"]) == (0, "PASS"), (result["reason"], run.stderr[-2000:])
    assert run.stderr.count(NOTICE) == 1
    assert list(cache.glob("simready-newton-*.ready")), "the kernels were not compiled into Warp's cache folder"
