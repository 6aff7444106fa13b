"""Every file the tool writes is written by replace: a fresh temp file in the same folder, then os.replace.

So a reader (CI, a browser, a resumed run) never sees half a file; a link planted at the path (`OUT/x.json ->
the input asset`) is replaced, never written through (os.replace renames over the link itself); two writers never
share a temp file (mkstemp: a unique name, created exclusively, so never an existing file or link); and a write that
fails (a full disk) leaves neither a temp file nor a truncated file behind, only what was there before.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path
from typing import Iterator

_UMASK = os.umask(0o022)
os.umask(_UMASK)  # read once: mkstemp creates 0600, the written file gets the permissions open() would give it


@contextlib.contextmanager
def replacing(path: str | os.PathLike, durable: bool = False) -> Iterator[Path]:
    """A temp path beside `path` for the caller to write (by any writer: ffmpeg, Pillow, matplotlib, pxr); on a normal
    exit it replaces `path`, on an exception it is removed. Its name ends in `path`'s suffix, so writers that pick a
    format by extension pick the right one. `durable`: fsync before the rename (reports)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, name = tempfile.mkstemp(prefix=f".{path.stem[:40]}.", suffix=f".tmp{path.suffix}", dir=path.parent)
    tmp = Path(name)
    try:
        os.fchmod(handle, 0o666 & ~_UMASK)
        os.close(handle)
        yield tmp
        if durable:
            with open(tmp, "rb") as written:
                os.fsync(written.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


def real_folder(path: str | os.PathLike) -> Path:
    """`path` as a folder of the tool's, created with its parents: a link planted there (`OUT/asset -> /elsewhere`) is
    removed first, so nothing is written through it."""
    path = Path(path)
    if path.is_symlink():
        path.unlink()
    path.mkdir(parents=True, exist_ok=True)
    return path


def write_atomic(path: str | os.PathLike, text: str, durable: bool = True) -> None:
    """`text` as UTF-8 at `path`, by replace. `durable` (reports): fsynced before the rename. What a run makes again
    when it is lost (cache entries, series, replays, timelines, plot manifests) passes False: an fsync costs 3-45 ms on
    a busy disk, once per test, and the rename alone already keeps a reader from seeing half a file."""
    with replacing(path, durable=durable) as tmp:
        tmp.write_text(text, encoding="utf-8")


def write_bytes_atomic(path: str | os.PathLike, data: bytes, durable: bool = True) -> None:
    with replacing(path, durable=durable) as tmp:
        tmp.write_bytes(data)
