"""A bare `pip install .` (no extras) gives verdicts, the HTML report and the 3D replays: tools/check_bare_install.sh in
a fresh venv on the shared pb_mug (mesh colliders). It regressed once unnoticed: the config's [newton] section imported
the Newton engine, so every validate without the [newton] extra ended 'error: ImportError', exit 3. Slow (a venv and
a package install: about 40 s with a warm pip cache)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[1]


def test_a_bare_install_validates_with_no_error_and_writes_the_report(shared_assets, tmp_path):
    asset = shared_assets / "pb_mug" / "floating_base.usda"
    run = subprocess.run(["bash", str(ROOT / "tools" / "check_bare_install.sh"), str(asset), str(tmp_path / "venv")],
                         capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert "check_bare_install: ok" in run.stdout
    (verdicts,) = [line for line in run.stdout.splitlines() if line.startswith("verdicts: ")]
    assert "ground_drop PASS" in verdicts and "ERROR" not in verdicts
