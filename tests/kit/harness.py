"""The kit tier's harness: where the tier's venv is, and one Kit process per scenario (tests/kit/driver.py) whose
JSON, exit code and `[Warning]` / `[Error]` lines the tests read. Why a child process: tests/kit/conftest.py."""

from __future__ import annotations

import json
import os
import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DRIVER = Path(__file__).resolve().parent / "driver.py"
KIT_HOME = Path(os.environ.get("SIMREADY_KIT_HOME", Path.home() / ".cache" / "simready-physics" / "kit-6.2.0.0"))
VENV_PYTHON = KIT_HOME / "venv" / "bin" / "python"
SITE = KIT_HOME / "venv" / "lib" / "python3.12" / "site-packages"
FAKE_KIT = REPO / "tests" / "fixtures" / "fake_kit"
EXT_FOLDER = REPO / "exts"
EXT_ROOT = EXT_FOLDER / "omni.simready.physics_validator"
LOG_LINE = re.compile(r"\[(?P<level>Warning|Error|Fatal)\] \[(?P<source>[^\]]*)\] (?P<message>.*)")


def kit_tier_missing() -> str | None:
    if VENV_PYTHON.exists() and (SITE / "isaacsim").is_dir():
        return None
    return f"the kit tier's Python 3.12 venv is not installed at {KIT_HOME}: run `bash tools/install_kit_tier.sh`"


@dataclass
class KitRun:
    """One Kit process: its exit code, its output, and the JSON the driver wrote."""

    returncode: int
    stdout: str
    result: dict = field(default_factory=dict)

    def log(self, level: str) -> list[tuple[str, str]]:
        """(source, message) of every `[level]` line Kit printed."""
        return [(m["source"], m["message"]) for line in self.stdout.splitlines()
                if (m := LOG_LINE.search(line)) and m["level"] == level]

    def check(self) -> dict:
        """The driver's record; a scenario that raised fails with its exception, Kit's first [Error] lines (often
        the cause: an exception inside a Kit callback is logged, not raised) and its traceback."""
        if "exception" in self.result:
            errors = [f"[Error] [{source}] {message}" for source, message in self.log("Error")][:3]
            raise AssertionError("\n".join([self.result["exception"], *errors, self.result.get("traceback", "")]))
        return self.result


def kit_env(home: Path) -> dict:
    """The child's environment: its own HOME (Kit writes user config, logs and persistent settings under it), the
    EULA accepted, and none of this Python's paths (PYTHONPATH would put the 3.11 package in front of Kit's)."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    home.mkdir(parents=True, exist_ok=True)
    env.update(HOME=str(home), OMNI_KIT_ACCEPT_EULA="YES")
    return env


def run_kit(scenario: str, request: dict, folder: Path, timeout: float = 900) -> KitRun:
    folder.mkdir(parents=True, exist_ok=True)
    request_path, result_path = folder / f"{scenario}.request.json", folder / f"{scenario}.result.json"
    request = {"doubles": str(FAKE_KIT / "exts"), "physics_doubles": str(FAKE_KIT / "physics_exts"),
               "ext_folder": str(EXT_FOLDER), **request}
    request_path.write_text(json.dumps(request, indent=1))
    proc = subprocess.run([str(VENV_PYTHON), str(DRIVER), scenario, str(request_path), str(result_path)],
                          cwd=folder, env=kit_env(folder / "home"), capture_output=True, text=True, timeout=timeout)
    (folder / f"{scenario}.stdout.txt").write_text(proc.stdout + proc.stderr)
    result = json.loads(result_path.read_text()) if result_path.is_file() else {"exception": "no result written",
                                                                                  "traceback": proc.stdout[-4000:]}
    return KitRun(proc.returncode, proc.stdout + proc.stderr, result)


def run_kit_cli(args: list[str], folder: Path, timeout: float = 300) -> KitRun:
    """`isaacsim <app> ...`: Kit started as a user starts it (the console script of the isaacsim 6.2 wheel)."""
    proc = subprocess.run([str(VENV_PYTHON.parent / "isaacsim"), *args], cwd=folder, env=kit_env(folder / "home"),
                          capture_output=True, text=True, timeout=timeout)
    return KitRun(proc.returncode, proc.stdout + proc.stderr)
