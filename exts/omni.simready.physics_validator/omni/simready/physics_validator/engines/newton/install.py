"""A side-by-side Newton target installed into its own folder, on first use or ahead of it:

    python -m omni.simready.physics_validator.engines.newton.install isaacsim-6.2

runs `targets.install_command` (pip, exact wheels, no dependencies) into a fresh folder and renames it into place once
pip succeeded, under a file lock, so two workers starting together install once and a broken download never passes
for an install. Needs pip and the package index (or a local wheel folder pip is configured with).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Callable, Iterator

from ...core.engine import EngineUnavailable
from .targets import NewtonTarget, install_command, is_installed, named, requirements, site_folder

INSTALL_SECONDS = 1800.0  # pip's download of ~200 MB of wheels on a slow line
LOCK_NAME = ".simready-install.lock"


def install_notice(t: NewtonTarget) -> str:
    return (f"installing the Newton of newton.target={t.name} ({' '.join(requirements(t))}, about 200 MB) into "
            f"{site_folder(t)}, first use only")


def ensure_installed(t: NewtonTarget, notice: Callable[[str], None] | None = None) -> Path | None:
    """The target's folder, installed now if it is not (after telling `notice`, default stderr); None for a target
    that lives in this environment. EngineUnavailable with the command to run when pip fails."""
    if not t.side_by_side:
        return None
    folder = site_folder(t)
    if is_installed(t):
        return folder
    folder.parent.mkdir(parents=True, exist_ok=True)
    with exclusive(folder.parent / LOCK_NAME):
        if is_installed(t):  # another process installed it while this one waited
            return folder
        (notice or _stderr)(install_notice(t))
        staging = folder.with_name(f"{folder.name}.partial-{os.getpid()}")
        shutil.rmtree(staging, ignore_errors=True)
        command = install_command(t)
        command[command.index("--target") + 1] = str(staging)
        try:
            run = subprocess.run(command, capture_output=True, text=True, timeout=INSTALL_SECONDS)
        except (OSError, subprocess.TimeoutExpired) as exc:
            run = subprocess.CompletedProcess(command, 1, "", str(exc))
        if run.returncode != 0:
            shutil.rmtree(staging, ignore_errors=True)
            tail = (run.stderr or run.stdout).strip().splitlines()[-3:]
            raise EngineUnavailable(
                f"newton.target={t.name} needs {' '.join(requirements(t))} beside this environment and pip could not "
                f"install them ({' / '.join(tail) or 'no output'}); install them with: "
                f"{' '.join(install_command(t))}")
        shutil.rmtree(folder, ignore_errors=True)
        staging.rename(folder)
    if not is_installed(t):
        raise EngineUnavailable(f"{folder} does not hold {' '.join(requirements(t))} after the install")
    return folder


@contextlib.contextmanager
def exclusive(lock_path: Path) -> Iterator[None]:
    """An exclusive lock on `lock_path` for the block (POSIX flock; elsewhere, no lock)."""
    try:
        import fcntl
    except ImportError:  # Windows: two processes may do the same work once each
        yield
        return
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    handle = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield
    finally:
        os.close(handle)


def _stderr(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m omni.simready.physics_validator.engines.newton.install TARGET", file=sys.stderr)
        return 2
    try:
        t = named(args[0])
        folder = ensure_installed(t)
    except (ValueError, EngineUnavailable) as exc:
        print(exc, file=sys.stderr)
        return 1
    print(f"newton.target={t.name}: {folder or 'this environment'} ({' '.join(requirements(t)) or 'the [newton] extra'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
