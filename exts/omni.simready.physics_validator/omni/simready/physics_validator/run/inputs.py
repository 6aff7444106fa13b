"""What a run validates: asset files found under the given paths, each hashed once, and its output folder."""

from __future__ import annotations

import dataclasses
import hashlib
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable

from ..core.cache import file_digest
from ..core.config import ValidationConfig
from ..core.file_names import bounded
from ..core.usd import USD_EXTENSIONS, find_usd_files
from ..physics_tests import default_registry


class InputError(ValueError):
    """Bad command-line input (nothing to validate, unknown executor...); exit code 2."""


@dataclass
class AssetJob:
    """One asset and what to run on it, with the run's parsed config. It crosses a process or Ray boundary as
    `to_wire()` (plain data: the config as its dict) and is rebuilt there with `from_wire`, which parses that
    config once, so no layer below re-parses it."""

    path: str
    tests: list[str]
    config: ValidationConfig
    engine: str
    out_dir: str | None
    debug: bool = False
    sha256: str = ""  # of the asset file, computed once per run by whoever builds the job ("" = not known)
    target: str | None = None  # validate only this prim's subtree (the panel's selection)
    # Called where the verdicts are made, after each test, with (asset path, result with its series, registry):
    # the front door's page maker (the HTML report's plots), so they are drawn by the workers. Picklable.
    pages: Callable[[str, Any, Any], None] | None = None
    # True: the tests' USD replays and videos are left to the caller (run.local draws them in its worker pool,
    # run.videos), the job only records them (and writes their 3D replays); False: each test the media policy names gets
    # them right after it, where it ran.
    defer_videos: bool = False
    # True: the worker computes the asset's content hash for the results cache (core.cache) from the walk it makes to
    # read the asset, and reports it before the tests (RunHooks.content); the parent then hashes nothing.
    content_key: bool = False

    def to_wire(self) -> dict[str, Any]:
        fields = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        return {**fields, "config": self.config.to_dict(), "tests": list(self.tests)}

    @classmethod
    def from_wire(cls, fields: dict[str, Any]) -> "AssetJob":
        return cls(**{**fields, "config": config_from_dict(fields["config"])})


def config_from_dict(data: dict[str, Any]) -> ValidationConfig:
    """The ValidationConfig of `ValidationConfig.to_dict()` output, validated against the registry's tests: how a
    config is rebuilt after crossing a process boundary (once per crossing)."""
    from ..engines import engine_settings

    config = ValidationConfig.defaults(default_registry(), engine_settings())
    config.apply(data, origin="config")
    return config


def collect_assets(
    paths: Iterable[str | os.PathLike], exclude: str | os.PathLike | None = None
) -> tuple[list[Path], list[tuple[Path, str]]]:
    """Expand files and folders into asset files; returns (assets, problems) where a problem is (path, reason).

    Files found under `exclude` (the run's own report folder, e.g. `validate . --out report`) are left out:
    a run never validates its own replay layers.
    """
    assets: list[Path] = []
    problems: list[tuple[Path, str]] = []
    skip = Path(exclude).resolve() if exclude is not None else None
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found = [f for f in find_usd_files(path) if skip is None or not f.resolve().is_relative_to(skip)]
            if not found:
                problems.append((path, f"folder contains no USD files ({', '.join(USD_EXTENSIONS)}): {path}"))
            assets.extend(found)
        else:
            assets.append(path)  # missing or unreadable files become PRECHECK_FAILURE verdicts with the reason
    return assets, problems


def file_sha256(path: str | os.PathLike) -> str:
    """sha256 of one file's bytes ("" when it cannot be read: the verdict says why)."""
    try:
        return file_digest(path)
    except OSError:
        return ""


def artifact_dir(out_dir: Path, asset_path: Path) -> Path:
    """A folder per asset that stays unique when two assets share a file name."""
    stem = bounded(re.sub(r"[^A-Za-z0-9_.-]+", "_", asset_path.stem) or "asset")
    tag = hashlib.sha1(str(asset_path.resolve()).encode("utf-8")).hexdigest()[:8]
    return out_dir / f"{stem}-{tag}"


def path_problems(paths: Iterable[str | os.PathLike]) -> list[str]:
    """What makes these command-line paths a usage error (exit 2, nothing run, no report): a path that does not
    exist, a file that is not USD by its extension, a folder with no USD file below it. A USD file that exists but
    cannot be read is not one: it becomes a PRECHECK_FAILURE verdict saying why, and the other assets still run."""
    out = []
    for path in map(Path, paths):
        if path.is_dir():
            if not find_usd_files(path):
                out.append(f"no USD files found in {path} (looked for {', '.join(USD_EXTENSIONS)})")
        elif not path.exists():
            out.append(f"no such file or folder: {path}")
        elif path.suffix.lower() not in USD_EXTENSIONS:
            out.append(f"not a USD file: {path} (expected {', '.join(USD_EXTENSIONS)}, or a folder of them)")
    return out
