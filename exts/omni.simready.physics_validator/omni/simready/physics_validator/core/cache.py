"""Results cache for incremental runs: skip a test whose inputs did not change since it last ran.

A cached verdict is reused only when everything that can change it is the same: the bytes of the
asset *and of every layer and asset file it pulls in* (sublayers, references, payloads, textures, whatever their
names; found by core.usd.dependencies, which never opens a FIFO or a device),
the test's name and version, its effective config, the run settings that reach the test (watchdog,
video), the engine (its version, libraries and settings such as `physx.target`: the report's engine
block) and the tool version. Those go into one sha256 key per (asset, test).

Entries live under `<out>/.cache/results/` as one small JSON file each, written atomically as soon
as a test finishes, so a run that is killed halfway loses at most the tests that were in flight.
ERROR verdicts are stored but never reused: they say the tool or the engine failed (a hang, a crash,
an interrupted worker), not that the asset is wrong, so they are always run again.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import stat
from pathlib import Path
from typing import Any

from . import out_writer
from .results import TestResult
from .status import Status
from .usd.dependencies import scan

CACHE_FORMAT = 2  # 2: dependencies found by core.usd.dependencies (every file, whatever its name)
MAX_ENTRY_BYTES = 64 << 20  # a cache entry larger than this is not read (a verdict and its metrics are kilobytes)
MAX_PARSE_BYTES = 256 << 20  # a layer bigger than this is not parsed before the run: its asset gets no cache key
MAX_HASH_BYTES = 1 << 30  # a file bigger than this is not hashed: its asset gets no cache key
CACHE_DIRNAME = ".cache"
# Run settings that do not change a verdict or its artifacts; changing them keeps the cache valid.
_RUN_KEYS_IGNORED = ("isolate",)


def file_digest(path: str | os.PathLike, max_bytes: int | None = None) -> str:
    """sha256 (hex) of one regular file's bytes; raises OSError when it cannot be read, is no regular file (a FIFO
    is opened without waiting for a writer and refused, /dev/zero is refused) or is larger than `max_bytes`."""
    handle = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    with os.fdopen(handle, "rb") as stream:
        info = os.fstat(handle)
        if not stat.S_ISREG(info.st_mode):
            raise OSError(errno.EINVAL, "not a regular file", str(path))
        if max_bytes is not None and info.st_size > max_bytes:
            raise OSError(errno.EFBIG, f"larger than {max_bytes >> 20} MiB: not hashed", str(path))
        digest = hashlib.sha256()
        for chunk in iter(lambda: stream.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def asset_dependencies(path: str | os.PathLike) -> tuple[list[Path], list[str]]:
    """Files the asset is composed from (root layer first) and the asset paths that did not resolve
    (core.usd.dependencies: sublayers, references, payloads and asset-valued attributes, found without ever opening
    a FIFO or a device). A file pxr cannot parse yields just itself."""
    deps = scan(path, MAX_PARSE_BYTES)
    return deps.files, sorted(deps.unresolved)


def asset_content_hash(path: str | os.PathLike, root_digest: str = "") -> str | None:
    """sha256 over the asset's own bytes and those of every file it depends on; None when there is nothing to key
    the asset by: it does not exist or is no regular file, a layer is over MAX_PARSE_BYTES (not parsed here, so its
    own dependencies are unknown) or a file is over MAX_HASH_BYTES. Such an asset is validated every time.

    Dependency paths enter the hash relative to the asset's folder, so copying a whole library
    elsewhere keeps its cache keys; an unresolved reference enters by name, so adding the missing
    file later changes the hash; a FIFO or device enters by what it is. `root_digest`: the asset file's own sha256
    when the caller has it already (a run hashes each asset file once).
    """
    return content_hash_of(path, scan(Path(path), MAX_PARSE_BYTES), root_digest)


def dependency_scan(path: str | os.PathLike):
    """The walk `asset_content_hash` keys an asset by (core.usd.dependencies.scan within MAX_PARSE_BYTES). A worker
    holds it while it reads the asset: the reader's own walk then finds every layer open (parsed once)."""
    return scan(Path(path), MAX_PARSE_BYTES)


def content_hash_of(path: str | os.PathLike, deps, root_digest: str = "") -> str | None:
    """`asset_content_hash` from a walk already made (`dependency_scan`)."""
    root = Path(path)
    if not deps.files or deps.files[0] != root.absolute() or deps.unfollowed:
        return None
    base = root.absolute().parent
    digest = hashlib.sha256()
    for file in deps.files:
        try:
            content = root_digest if (root_digest and file == deps.files[0]) else file_digest(file, MAX_HASH_BYTES)
        except OSError as exc:
            if exc.errno == errno.EFBIG:
                return None
            content = "unreadable"
        digest.update(f"{_relative(file, base)}\0{content}\n".encode("utf-8", "surrogatepass"))
    for file, kind in sorted(deps.special.items()):
        digest.update(f"{_relative(file, base)}\0{kind}\n".encode("utf-8", "surrogatepass"))
    for name in sorted(deps.unresolved):
        digest.update(f"unresolved\0{name}\n".encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def _relative(file: Path, base: Path) -> str:
    try:
        return os.path.relpath(file, base)
    except ValueError:  # another drive (Windows)
        return str(file)


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
            # never through a link planted in OUT (core.out_writer): a folder of forged entries elsewhere is not read
            entry = json.loads(out_writer.read_bytes(self._path(key), MAX_ENTRY_BYTES).decode("utf-8"))
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
        entry = {"key": key, "asset": asset_path, "result": result.model_dump(mode="json")}
        out_writer.write_text(self._path(key), json.dumps(entry, separators=(",", ":")), durable=False)  # lost: run again

    def __len__(self) -> int:
        return sum(1 for _ in self.folder.glob("*/*.json")) if self.folder.is_dir() else 0
