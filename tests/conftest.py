"""Shared pytest setup: quiet third-party warnings, locate ../shared/assets, common fixtures."""

from __future__ import annotations

import warnings

import pytest

from tests.fixtures.usd_assets import SHARED_ASSETS

warnings.filterwarnings("ignore", message="Failed to find system libvulkan")


@pytest.fixture(scope="session")
def shared_assets():
    if not SHARED_ASSETS.is_dir():
        pytest.skip(f"shared assets not found at {SHARED_ASSETS}")
    return SHARED_ASSETS


@pytest.fixture(scope="session")
def physx_available():
    try:
        from omni.simready.physics_validator.engines import engine_class

        engine_class("physx")
    except Exception as exc:  # noqa: BLE001
        pytest.skip(f"physx engine not importable: {exc}")
    return True


# The fast tier for one's own iteration: `python -m pytest -n 2 -m "not slow"` leaves out the second and third
# engines' runs of each physics test (physx, the default, stays), the real-robot and corpus files, the worker and
# Ray process tests, the browser and the kit tier. CI (`tools/run_tests.sh`) runs everything.
SLOW_ENGINE_PARAMS = ("[newton", "[sapien", "-newton", "-sapien")
SLOW_FILES = (
    "tests/engines/test_agreement.py", "tests/run/test_worker_reuse.py", "tests/run/test_batch_ray.py",
    "tests/test_console_noise.py", "tests/fix/test_robots_as_they_arrive.py", "tests/fix/test_shared_robots.py",
    "tests/robustness/test_corpus.py", "tests/physics_tests/test_real_robots.py", "tests/reports/test_html_browser.py",
    "tests/run/test_videos_in_the_pool.py", "tests/engines/test_newton_first_run.py",
    "tests/robot_import/test_import_command.py",
    "tests/kit/",
)


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.nodeid.startswith(SLOW_FILES) or any(p in item.nodeid for p in SLOW_ENGINE_PARAMS):
            item.add_marker(pytest.mark.slow)
