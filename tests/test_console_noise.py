"""Third-party noise on stderr: lines a user cannot act on are silenced at their source, counted here.

Warp prints "CUDA driver not found" from native code in every process that starts it (the CLI and each
worker); Newton's USD importer warns about `newton:*` attributes without customData once per load; Ray
announces its default token authentication on every private instance. A run's stderr is the progress
lines and the report paths, nothing else.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import textwrap

import pytest

from tests.fixtures.usd_assets import box_asset

CLI = [sys.executable, "-m", "omni.simready.physics_validator.cli"]
NOISE = ("CUDA driver", "customData", "Token authentication", "Warning:", "WARNING")


def run(*args, timeout=600):
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    proc = subprocess.run([*CLI, *map(str, args)], capture_output=True, text=True, timeout=timeout, env=env)
    return proc.returncode, proc.stdout, proc.stderr.splitlines()


def expected_lines(assets: int) -> int:
    """'N assets, ...', one line per finished asset, the total, and the JSON and JUnit paths."""
    return 1 + assets + 1 + 2


def assert_quiet(stderr: list[str], assets: int, allowed_extra: tuple[str, ...] = ()) -> None:
    lines = [line for line in stderr if not any(line.startswith(extra) for extra in allowed_extra)]
    assert not [line for line in lines if any(noise in line for noise in NOISE)], "\n".join(stderr)
    assert len(lines) == expected_lines(assets), "\n".join(stderr)


def test_native_stderr_filter_drops_only_the_named_lines():
    code = textwrap.dedent(
        """
        import os
        from omni.simready.physics_validator.engines.quiet_warp import native_stderr_without
        with native_stderr_without(("CUDA driver",)):
            os.write(2, b"Warp CUDA warning: Could not find or load the NVIDIA CUDA driver. "
                        b"GPU execution will not be available.\\n")
            os.write(2, b"a native error the user must see\\n")
        os.write(2, b"after\\n")
        """
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.splitlines() == ["a native error the user must see", "after"]


@pytest.mark.skipif(importlib.util.find_spec("warp") is None, reason="warp not installed")
def test_warp_starts_without_a_line():
    code = "from omni.simready.physics_validator.engines.quiet_warp import init_warp; init_warp(); import warp; warp.init()"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""


@pytest.mark.usefixtures("physx_available")
def test_default_engine_run_prints_only_progress_and_paths(tmp_path):
    box_asset(tmp_path / "a.usda")
    box_asset(tmp_path / "b.usda")
    code, _, stderr = run("validate", tmp_path, "--tests", "ground_drop", "--out", tmp_path / "o", "--no-video", "--no-html")
    assert code == 0, "\n".join(stderr)
    assert_quiet(stderr, assets=2)


@pytest.mark.skipif(importlib.util.find_spec("newton") is None, reason="newton not installed")
def test_newton_run_has_no_warp_or_custom_data_lines(shared_assets, tmp_path):
    ant = shared_assets / "newton_test_ant_mixed" / "ant_mixed.usda"  # authors newton:timeStepsPerSecond without customData
    code, _, stderr = run("validate", ant, "--engine", "newton", "--tests", "ground_drop,velocity_limit", "--out", tmp_path / "o",
                          "--no-video", "--no-html")
    assert code in (0, 1), "\n".join(stderr)
    # The cold-compile notice is the one line a user may act on (wait once; the cache keeps the kernels).
    assert_quiet(stderr, assets=1, allowed_extra=("compiling Newton kernels",))


@pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="ray not installed")
@pytest.mark.usefixtures("physx_available")
def test_ray_run_has_no_token_notice(tmp_path):
    box_asset(tmp_path / "a.usda")
    code, _, stderr = run("validate", tmp_path / "a.usda", "--tests", "ground_drop", "--executor", "ray", "--jobs", "1",
                          "--out", tmp_path / "o", "--no-video", "--no-html")
    assert code == 0, "\n".join(stderr)
    assert_quiet(stderr, assets=1)
