"""NVIDIA's URDF and MJCF converters in a virtual environment of their own, made on first use.

Why apart: urdf-usd-converter and mujoco-usd-converter bring their own `pxr` through usd-exchange; installed beside
usd-core (the validator's `pxr`) one overwrites the other's files. So `simready-physics import` runs them as programs
of a separate venv, `~/.cache/simready-physics/converters-<PIN_ID>/venv`, installed with the exact versions below
and marked complete by a stamp file; the validator's own environment never imports them. SIMREADY_CONVERTER_HOME
moves the folder, SIMREADY_CONVERTER_VENV names a ready venv (then nothing is installed), SIMREADY_CONVERTER_PYTHON
the interpreter the venv is made from (default: this one). pip's own settings apply: `PIP_NO_INDEX=1
PIP_FIND_LINKS=DIR` installs from a folder of wheels without a network.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

# The converters, their USD runtime and the libraries they read meshes with, pinned exactly (the versions
# tools/convert_robots.sh and ../shared/tools/asset-corpus convert with). mujoco-usd-converter 0.8 pins mujoco<3.17.
REQUIREMENTS = (
    "urdf-usd-converter==0.3.4", "mujoco-usd-converter==0.8.0", "mujoco==3.16.0", "usd-exchange==3.0.1",
    "newton-usd-schemas==0.6.0", "numpy==2.4.6", "numpy-stl==4.1.1", "pycollada==0.9.3", "tinyobjloader==2.0.0rc13",
)
PIN_ID = "urdf0.3.4-mjcf0.8.0"
TOOLS = {"urdf": "urdf_usd_converter", "mjcf": "mujoco_usd_converter"}
VERSIONS = {"urdf": "0.3.4", "mjcf": "0.8.0"}
STAMP = ".simready-converters"
INSTALL_SECONDS = 1800  # pip's whole install, a cold download on a slow line included


class ConverterEnvError(RuntimeError):
    """The converters could not be installed or are not usable: the message says why and what to do."""


@dataclass(frozen=True)
class ConverterEnv:
    venv: Path

    @property
    def python(self) -> Path:
        return self.venv / "bin" / "python"

    def tool(self, kind: str) -> Path:
        """The converter program for a source kind ("urdf" or "mjcf")."""
        return self.venv / "bin" / TOOLS[kind]


def clean_env() -> dict[str, str]:
    """The environment a converter runs in: without what would put the validator's pxr (usd-core) on its path."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP")}
    env["PYTHONNOUSERSITE"] = "1"
    return env


def home() -> Path:
    default = Path.home() / ".cache" / "simready-physics" / f"converters-{PIN_ID}"
    return Path(os.environ.get("SIMREADY_CONVERTER_HOME") or default).expanduser()


def location() -> Path:
    """The venv `ensure` uses: SIMREADY_CONVERTER_VENV, else HOME/venv."""
    named = os.environ.get("SIMREADY_CONVERTER_VENV")
    return Path(named).expanduser() if named else home() / "venv"


def stamp_text() -> str:
    return " ".join(REQUIREMENTS)


def is_ready(venv: Path | None = None) -> bool:
    """The venv holds both converters (and, when we installed it, the stamp of exactly these pins)."""
    venv = venv or location()
    env = ConverterEnv(venv)
    if not all(os.access(env.tool(kind), os.X_OK) for kind in TOOLS):
        return False
    if os.environ.get("SIMREADY_CONVERTER_VENV"):
        return True  # the user's own venv: its versions are theirs
    stamp = venv / STAMP
    return stamp.is_file() and stamp.read_text(encoding="utf-8").strip() == stamp_text()


def ensure(say: Callable[[str], None]) -> ConverterEnv:
    """The ready converter venv, installed first when missing (one install at a time: a lock in HOME). Raises
    ConverterEnvError with the cause and pip's log."""
    venv = location()
    if is_ready(venv):
        return ConverterEnv(venv)
    if os.environ.get("SIMREADY_CONVERTER_VENV"):
        raise ConverterEnvError(f"SIMREADY_CONVERTER_VENV={venv} has no {' or '.join(TOOLS.values())} in its bin/: "
                                f"install {' '.join(REQUIREMENTS[:2])} there, or unset it to let import install them")
    with _install_lock(home()):
        if not is_ready(venv):  # another import may have installed it meanwhile
            _install(venv, say)
    return ConverterEnv(venv)


@contextlib.contextmanager
def _install_lock(folder: Path) -> Iterator[None]:
    folder.mkdir(parents=True, exist_ok=True)
    handle = os.open(folder / ".install.lock", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            import fcntl

            fcntl.flock(handle, fcntl.LOCK_EX)
        except ImportError:  # not POSIX: no lock
            pass
        yield
    finally:
        os.close(handle)


def _install(venv: Path, say: Callable[[str], None]) -> None:
    python = os.environ.get("SIMREADY_CONVERTER_PYTHON") or sys.executable
    log_path = venv.parent / "install.log"
    say(f"installing NVIDIA's URDF/MJCF converters once into {venv} (about 350 MB; a minute with a warm pip cache): "
        f"{', '.join(REQUIREMENTS[:2])}")
    started = time.monotonic()
    if venv.exists():
        import shutil

        shutil.rmtree(venv)  # a half-made venv of an interrupted install: never reused
    with open(log_path, "w", encoding="utf-8") as log:
        steps = ([python, "-m", "venv", str(venv)],
                 [str(venv / "bin" / "python"), "-m", "pip", "install", "--disable-pip-version-check", *REQUIREMENTS])
        for command in steps:
            log.write("$ " + " ".join(command) + "\n")
            log.flush()
            try:
                code = subprocess.run(command, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                      timeout=INSTALL_SECONDS, env=clean_env()).returncode
            except subprocess.TimeoutExpired:
                code = None
            except OSError as exc:
                raise ConverterEnvError(f"cannot run {command[0]}: {exc.strerror or exc}") from None
            if code != 0:
                raise ConverterEnvError(_install_failure(command, code, log_path))
    (venv / STAMP).write_text(stamp_text() + "\n", encoding="utf-8")
    say(f"converters installed in {time.monotonic() - started:.0f} s")


def _install_failure(command: list[str], code: int | None, log_path: Path) -> str:
    """One paragraph: what failed, pip's last error line, the likely cause, the log."""
    lines = [ln.strip() for ln in log_path.read_text(encoding="utf-8", errors="replace").splitlines() if ln.strip()]
    errors = [ln for ln in lines if ln.startswith("ERROR") or "Error" in ln] or lines[-1:]
    last = errors[-1][:300] if errors else "(no output)"
    if command[1:3] == ["-m", "venv"]:
        return (f"cannot create the converters' venv with {command[0]} ({last}); on Debian/Ubuntu: apt-get install "
                f"python3-venv, or set SIMREADY_CONVERTER_PYTHON to another interpreter. Log: {log_path}")
    why = "timed out" if code is None else f"exited {code}"
    offline = any(k in " ".join(lines) for k in ("NewConnectionError", "Could not find a version", "No matching distribution",
                                                 "Temporary failure in name resolution", "Network is unreachable"))
    hint = ("no network or no package index? install from a folder of wheels: PIP_NO_INDEX=1 PIP_FIND_LINKS=DIR "
            "simready-physics import --setup" if offline else "see the log")
    return f"could not install NVIDIA's converters (pip {why}): {last}; {hint}. Log: {log_path}"
