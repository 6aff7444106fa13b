"""Where a run writes, checked before anything runs: each output its own file, none of them an input, every folder
writable, and one run at a time per output folder.

Found by the hostile-input campaign (issue 33): `--json` naming the input asset overwrote it, `--json F --junit F`
lost the JSON silently, an unwritable `--json` location was found only after the whole batch had run, and two runs
writing one OUT both said they wrote report.json while it held one run's assets (the other's media pruned). Each is
now a usage error (exit 2, one line) before the first asset starts. The folder's lock is an advisory `flock` on
`OUT/.simready-physics.lock`: the system releases it when the process ends, however it ends (no stale lock after a
kill -9); POSIX only (elsewhere nothing is locked).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable

from ..core import out_writer

LOCK_NAME = ".simready-physics.lock"
_HELD: dict[str, int] = {}  # resolved folder -> the descriptor holding its lock, for this process's command


def validate_outputs(args, out_dir: Path) -> dict[str, Path]:
    """The files a `validate` command writes, by the name a message gives them (the CLI's flags: --json, --junit,
    --no-html; with --compare the reports go to OUT/<engine>/ and explicit paths are not used)."""
    if args.compare:
        return {}
    outputs = {"--json": Path(args.json) if args.json else out_dir / "report.json",
               "--junit": Path(args.junit) if args.junit else out_dir / "junit.xml"}
    if not args.no_html:
        outputs["the HTML report"] = out_dir / "html" / "index.html"
    return outputs


def claim_outputs(paths: Iterable[str | os.PathLike], out_dir: Path, outputs: dict[str, Path]) -> str:
    """'' when the run may write: else the usage error, one line. On success OUT exists, was written to (a probe
    file, removed), and is locked for this process until `release_all`."""
    problem = output_conflicts(paths, out_dir, outputs)
    if problem:
        return problem
    try:
        out_writer.claim(out_dir)  # from here on every folder and file below OUT is made by core.out_writer
        out_writer.probe(out_dir)
    except OSError as exc:
        return f"cannot write the report folder {out_dir}: {exc.strerror or exc}"
    problem = lock(out_dir)
    if problem:
        return problem
    for label, path in outputs.items():
        try:
            out_writer.probe(path.parent)
        except OSError as exc:
            what = {"--json": "the JSON report", "--junit": "the JUnit report"}.get(label, label)
            return f"cannot write {what} {path}: {exc.strerror or exc}"
    return ""


def output_conflicts(paths: Iterable[str | os.PathLike], out_dir: Path, outputs: dict[str, Path]) -> str:
    """Two outputs that are one file, an output that is a folder, or an output that is an input of the run (an asset
    or a file it is composed from: a sublayer, a texture)."""
    seen: dict[str, str] = {}
    for label, path in outputs.items():
        key = _written(path)
        if key in seen:
            return f"{seen[key]} and {label} name the same file {path}: one would overwrite the other"
        seen[key] = label
        if path.is_dir():
            return f"{label} {path} is a folder, not a file"
    existing = {label: path for label, path in outputs.items() if path.exists() or path.is_symlink()}
    if existing:
        inputs = {_identity(p) for p in input_files(paths, out_dir)}
        for label, path in existing.items():
            if _written(path) in inputs:
                return f"{label} {path} is an input of this run (an asset or a layer it is made of): it would be overwritten"
    return ""


def fix_output_conflicts(paths: Iterable[str | os.PathLike], out_dir: Path, is_fix_layer) -> str:
    """`fix` writes <asset>.fix.usda and <asset>.fixed.usda into OUT: never into an input asset's own folder (the
    asset's folder is never written, docs/fix.md), never over a file fix did not write (`is_fix_layer(path)`)."""
    from .inputs import collect_assets

    assets, _ = collect_assets(paths)
    out = _identity(out_dir)
    for asset in assets:
        if _identity(asset.parent) == out:
            return (f"--out {out_dir} is the folder of {asset.name}: fix never writes beside the asset; "
                    f"choose another folder")
        for name in (f"{asset.stem}.fix.usda", f"{asset.stem}.fixed.usda"):
            target = out_dir / name
            if (target.exists() or target.is_symlink()) and not is_fix_layer(target):
                return f"{target} exists and was not written by fix: it would be overwritten; choose another --out"
    return ""


def input_files(paths: Iterable[str | os.PathLike], out_dir: Path | None = None) -> list[Path]:
    """Every asset under `paths` and every file each is composed from (bounded: core.usd.dependencies)."""
    from ..core.cache import MAX_PARSE_BYTES
    from ..core.usd.dependencies import scan
    from .inputs import collect_assets

    assets, _ = collect_assets(paths, exclude=out_dir)
    files: list[Path] = []
    for asset in assets:
        files.append(asset)
        files.extend(scan(asset, MAX_PARSE_BYTES).files)
    return files


def lock(folder: Path) -> str:
    """'' once this process holds `folder`'s lock (it may already), else who holds it, as a usage error."""
    try:
        import fcntl
    except ImportError:  # not POSIX: no lock
        return ""
    key = _identity(folder)
    if key in _HELD:
        return ""
    try:
        handle = out_writer.open_lock_file(folder, LOCK_NAME)  # a link planted there is removed, never opened
    except OSError as exc:
        return f"cannot lock the report folder {folder}: {exc.strerror or exc}"
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        holder = os.read(handle, 64).decode("ascii", "replace").strip() or "unknown"
        os.close(handle)
        return (f"another simready-physics run (pid {holder}) is writing to {folder}: wait for it to finish, or "
                f"choose another --out")
    os.ftruncate(handle, 0)
    os.write(handle, f"{os.getpid()}\n".encode("ascii"))
    _HELD[key] = handle
    return ""


def release_all() -> None:
    """End this process's claims (the command is over); the lock files stay, unlocked."""
    out_writer.release_all()
    while _HELD:
        _, handle = _HELD.popitem()
        try:
            os.close(handle)  # closing the descriptor releases its flock
        except OSError:
            pass


def _identity(path: str | os.PathLike) -> str:
    """One string per file, whatever the spelling (relative, through links)."""
    return os.path.normcase(os.path.realpath(path))


def _written(path: str | os.PathLike) -> str:
    """The file a write to `path` replaces: its folder's real path and its own name (an output is written by replace,
    so a link at `path` itself is replaced, never followed)."""
    path = Path(path)
    return os.path.normcase(os.path.join(os.path.realpath(path.parent), path.name))
