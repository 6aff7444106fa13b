"""The Ray executor on a private single-node Ray instance (loopback only) gives the local report."""

from __future__ import annotations

import pytest

from tests.fixtures.batch import load_report, loopback_only_prefix, mixed_library, run_cli, verdicts

pytest.importorskip("ray", reason="the [ray] extra is not installed")
pytestmark = pytest.mark.usefixtures("physx_available")

COMMON = ("--tests", "ground_drop", "--no-video", "--no-html", "--jobs", "2")


def test_ray_executor_on_loopback_gives_the_same_report_as_local(tmp_path):
    prefix = loopback_only_prefix()
    if prefix is None:
        pytest.skip("cannot create a loopback-only network namespace here (unshare -n); Ray would listen on all interfaces")
    lib = mixed_library(tmp_path / "lib")
    local = run_cli("validate", lib, *COMMON, "--out", tmp_path / "local")
    assert local.returncode == 1, local.stderr
    ray = run_cli("validate", lib, *COMMON, "--executor", "ray", "--out", tmp_path / "ray", prefix=prefix, timeout=600)
    assert ray.returncode == 1, ray.stderr
    assert "ray, local instance on 127.0.0.1" in ray.stderr  # the run really went through Ray
    assert "Traceback" not in ray.stderr
    local_report, ray_report = load_report(tmp_path / "local"), load_report(tmp_path / "ray")
    assert verdicts(ray_report) == verdicts(local_report)
    for one, two in zip(local_report["assets"], ray_report["assets"]):
        assert one["tests"][0]["metrics"] == two["tests"][0]["metrics"], one["path"]
        assert one["sha256"] == two["sha256"]
        if one["peak_rss_mb"] is not None:  # assets that reached a worker report its memory either way
            assert two["peak_rss_mb"] is not None
    assert ray_report["complete"] is True
