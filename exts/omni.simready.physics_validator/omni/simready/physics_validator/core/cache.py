"""Results cache for incremental runs: skip a test whose inputs did not change since it last ran.

A cached verdict is reused only when everything that can change it is the same: the bytes of the
asset *and of every layer and asset file it pulls in* (sublayers, references, payloads, textures),
the test's name and version, its effective config, the run settings that reach the test (watchdog,
video), the engine (its version, libraries and settings such as `physx.target`: the report's engine
block) and the tool version. Those go into one sha256 key per (asset, test).

Entries live under `<out>/.cache/results/` as one small JSON file each, written atomically as soon
as a test finishes, so a run that is killed halfway loses at most the tests that were in flight.
ERROR verdicts are stored but never reused: they say the tool or the engine failed (a hang, a crash,
an interrupted worker), not that the asset is wrong, so they are always run again.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from .results import TestResult
from .status import Status

CACHE_FORMAT = 1
CACHE_DIRNAME = ".cache"
# Run settings that do not change a verdict or its artifacts; changing them keeps the cache valid.
_RUN_KEYS_IGNORED = ("isolate",)


def file_digest(path: str | os.PathLike) -> str:
    """sha256 (hex) of one file's bytes; raises OSError when it cannot be read."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def asset_dependencies(path: str | os.PathLike) -> tuple[list[Path], list[str]]:
    """Files the asset is composed from (root layer first) and the asset paths that did not resolve.

    Uses UsdUtils.ComputeAllDependencies, which follows sublayers, references, payloads and asset-valued
    attributes without composing a stage. A file pxr cannot parse yields just itself.
    """
    from pxr import UsdUtils

    root = Path(path).resolve()
    try:
        layers, assets, unresolved = UsdUtils.ComputeAllDependencies(str(root))
    except Exception:  # noqa: BLE001 - a broken file still has a content hash: its own bytes
        return [root], []
    files: list[Path] = [root]
    for item in [*(layer.realPath for layer in layers), *assets]:
        if not item:
            continue
        file = Path(item.split("[", 1)[0]).resolve()  # "pkg.usdz[inner.usdc]" -> the package file
        if file not in files:
            files.append(file)
    return files, sorted(str(p) for p in unresolved)


def asset_content_hash(path: str | os.PathLike, root_digest: str = "") -> str | None:
    """sha256 over the asset's own bytes and those of every file it depends on; None if it does not exist.

    Dependency paths enter the hash relative to the asset's folder, so copying a whole library
    elsewhere keeps its cache keys; an unresolved reference enters by name, so adding the missing
    file later changes the hash. `root_digest`: the asset file's own sha256 when the caller has it
    already (a run hashes each asset file once).
    """
    root = Path(path)
    if not root.is_file():
        return None
    files, unresolved = asset_dependencies(root)
    base = root.resolve().parent
    digest = hashlib.sha256()
    for file in files:
        try:
            name = os.path.relpath(file, base)
        except ValueError:  # another drive (Windows)
            name = str(file)
        try:
            content = root_digest if (root_digest and file == files[0]) else file_digest(file)
        except OSError:
            content = "unreadable"
        digest.update(f"{name}\0{content}\n".encode("utf-8"))
    for name in unresolved:
        digest.update(f"unresolved\0{name}\n".encode("utf-8"))
    return digest.hexdigest()


def result_cache_key(
    content_hash: str,
    test_name: str,
    test_version: str,
    test_config: dict[str, Any],
    run_config: dict[str, Any],
    engine_version: str,
    tool_version: str,
) -> str:
    """One key per (asset content, test, everything that can change the test's verdict). `engine_version`:
    the engine block as a string (run.batch passes its JSON, so `physx.target` changes the key)."""
    material = {
        "format": CACHE_FORMAT,
        "content": content_hash,
        "test": test_name,
        "test_version": test_version,
        "test_config": test_config,
        "run": {k: v for k, v in run_config.items() if k not in _RUN_KEYS_IGNORED},
        "engine": engine_version,
        "tool": tool_version,
    }
    text = json.dumps(material, sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class ResultCache:
    """Per-(asset, test) verdicts on disk under `<out>/.cache/results/`."""

    def __init__(self, out_dir: str | os.PathLike):
        self.folder = Path(out_dir) / CACHE_DIRNAME / "results"

    def _path(self, key: str) -> Path:
        return self.folder / key[:2] / f"{key}.json"

    def get(self, key: str, asset_path: str | None = None) -> TestResult | None:
        """The stored result, or None when absent, unreadable, an ERROR, or its artifacts are gone.

        The key holds no path, so a byte-identical copy of an asset shares its verdict; but a result
        with artifacts (video, replay layer) recorded for another path is not reused, since those
        files show and reference the other asset.
        """
        try:
            entry = json.loads(self._path(key).read_text(encoding="utf-8"))
            result = TestResult.model_validate(entry["result"])
        except (OSError, ValueError, KeyError, TypeError):
            return None
        if entry.get("key") != key or result.status == Status.ERROR:
            return None
        if result.artifacts and asset_path is not None and entry.get("asset") != str(asset_path):
            return None
        if any(not Path(p).exists() for p in result.artifacts.values()):
            return None  # the report would link to files that are gone: run it again
        return result

    def put(self, key: str, asset_path: str, result: TestResult) -> None:
        from .atomic_write import write_atomic

        entry = {"key": key, "asset": asset_path, "result": result.model_dump(mode="json")}
        write_atomic(self._path(key), json.dumps(entry, separators=(",", ":")))

    def __len__(self) -> int:
        return sum(1 for _ in self.folder.glob("*/*.json")) if self.folder.is_dir() else 0
