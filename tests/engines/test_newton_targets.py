"""newton.target: which Newton a verdict speaks for (engines/newton/settings.py, targets.py, install.py). A setting of
the [newton] section, named in the report's engine block without importing Newton; a side-by-side target installs
exact wheels without dependencies into its own folder, and a pip failure is an EngineUnavailable naming the command."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from omni.simready.physics_validator.core.config import ConfigError, ValidationConfig
from omni.simready.physics_validator.core.engine import EngineUnavailable
from omni.simready.physics_validator.engines import engine_settings
from omni.simready.physics_validator.engines.newton import install, targets
from omni.simready.physics_validator.physics_tests import default_registry


def test_the_target_is_a_setting_of_the_newton_section():
    config = ValidationConfig.defaults(default_registry(), engine_settings())
    assert config.engine_settings("newton") == {"newton.target": "latest"}
    config.apply_set(["newton.target=isaacsim-6.2"])
    assert config.to_dict()["newton"] == {"target": "isaacsim-6.2"}
    with pytest.raises(ConfigError):
        config.apply_set(["newton.target=isaacsim-6.1"])
    assert [t for t in targets.TARGETS] == ["latest", "isaacsim-6.2"]


ENGINE_BLOCK = """
import json, sys
from omni.simready.physics_validator.core.config import ValidationConfig
from omni.simready.physics_validator.engines import engine_settings
from omni.simready.physics_validator.physics_tests import default_registry
from omni.simready.physics_validator.run.batch import engine_info
config = ValidationConfig.defaults(default_registry(), engine_settings())
config.apply_set([f"newton.target={sys.argv[1]}"])
info = engine_info("newton", config)
print(json.dumps({"block": info.model_dump(mode="json"), "line": str(info),
                  "imported": sorted(m for m in ("warp", "newton") if m in sys.modules)}))
"""


@pytest.mark.parametrize("target", ["latest", "isaacsim-6.2"])
def test_the_engine_block_names_the_newton_a_verdict_speaks_for_without_importing_it(target):
    pytest.importorskip("newton", reason="newton is not installed (pip install -e .[newton])")
    run = subprocess.run([sys.executable, "-c", ENGINE_BLOCK, target], capture_output=True, text=True, timeout=300,
                         env={**os.environ, targets.TARGET_ENV: ""})
    assert run.returncode == 0, run.stderr[-2000:]
    out = json.loads(run.stdout.strip().splitlines()[-1])
    block, expected = out["block"], targets.versions(targets.named(target))
    assert block["settings"] == {"newton.target": target}
    assert block["components"]["newton"] == expected["newton"] and block["components"]["warp"] == expected["warp-lang"]
    assert f"newton {expected['newton']} / warp {expected['warp-lang']}" in block["version"] in out["line"]
    assert f"newton.target={target}" in out["line"]
    if target == "isaacsim-6.2":
        assert block["version"] == "newton 1.6.1 / warp 1.17.0 / SolverMuJoCo (MuJoCo Warp 3.12.0)"
    else:
        assert block["components"]["solver"] == "SolverSteel"
    assert out["imported"] == []  # the parent of a run never imports a Newton (its workers import the target's)


def test_a_side_by_side_target_is_exact_wheels_without_dependencies_in_a_folder_of_its_own(tmp_path, monkeypatch):
    monkeypatch.setenv(targets.SITE_ENV, str(tmp_path))
    t = targets.named("isaacsim-6.2")
    folder = targets.site_folder(t)
    assert folder.parent == tmp_path and t.name in folder.name
    command = targets.install_command(t)
    assert command[:3] == [sys.executable, "-m", "pip"] and "--no-deps" in command
    assert command[command.index("--target") + 1] == str(folder)
    assert set(targets.requirements(t)) <= set(command)
    assert set(targets.requirements(t)) == {"newton==1.6.1", "warp-lang==1.17.0", "mujoco==3.12.0", "mujoco-warp==3.12.0"}
    assert not targets.is_installed(t) and install.ensure_installed(targets.named("latest")) is None

    # pip refuses (no index here): nothing passes for an install, and the error names the command to run
    ran = []

    def pip_refuses(command, **_kwargs):
        ran.append(command)
        return subprocess.CompletedProcess(command, 1, "", "ERROR: No matching distribution found for newton==1.6.1")

    monkeypatch.setattr(install.subprocess, "run", pip_refuses)
    notices = []
    with pytest.raises(EngineUnavailable, match="pip could not install them") as caught:
        install.ensure_installed(t, notices.append)
    assert "--no-deps" in str(caught.value) and "newton==1.6.1" in str(caught.value)
    assert len(notices) == 1 and "first use only" in notices[0]
    assert ran[0][ran[0].index("--target") + 1] != str(folder)  # pip writes a staging folder, renamed once it succeeded
    assert not folder.exists() and not list(tmp_path.glob("*.partial-*"))
