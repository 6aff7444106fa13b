"""The kit tier: pytest (this Python) launches a real Kit 110.4 kernel in the tier's own Python 3.12 venv
(tools/install_kit_tier.sh) and reads what it found as JSON.

Why a child process and not pytest inside the 3.12 venv: isaacsim-kernel 6.2 is built for CPython 3.12 only while the
project's suite runs on 3.11; a Kit app starts once per process (`shutdown_and_release_framework()` ends the
process); Kit's solver failure exits the process (code 55), which the negative control needs to see from outside;
and Kit's `[Warning]` / `[Error]` lines go to the process's stdout, where omni.kit.test's stdoutFailPatterns look for
them. So each scenario is one Kit process, and the assertions stay here, beside the headless engines they compare to.

Without the venv the tier is skipped with the command that installs it; `SIMREADY_KIT_TIER=required` (set by
tools/run_tests.sh, hence CI) turns that skip into a failure, `SIMREADY_KIT_TIER=skip` skips the tier. The same holds
for the headless physx engine the verdict comparisons need (`headless_physx`): required means required.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.kit.harness import VENV_PYTHON, kit_tier_missing


def _missing(why: str) -> None:
    """A skip, or a failure under SIMREADY_KIT_TIER=required."""
    if os.environ.get("SIMREADY_KIT_TIER") == "required":
        pytest.fail(f"SIMREADY_KIT_TIER=required: {why}")
    pytest.skip(why)


@pytest.fixture(scope="session")
def kit_venv() -> Path:
    if os.environ.get("SIMREADY_KIT_TIER") == "skip":
        pytest.skip("SIMREADY_KIT_TIER=skip")
    why = kit_tier_missing()
    if why:
        _missing(why)
    return VENV_PYTHON


@pytest.fixture(scope="session")
def headless_physx(kit_venv) -> bool:
    """The headless physx engine (ovphysx) in this Python, which the panel's verdicts are compared with."""
    try:
        from omni.simready.physics_validator.engines import engine_class

        engine_class("physx")
    except Exception as exc:  # noqa: BLE001 - reported as the reason
        _missing(f"the headless physx engine does not import here: {exc}")
    return True
