"""The one place the tool writes outside its output folder, and only when the user asks (`--record-beside-asset`):
NVIDIA's validation record in `<asset folder>/.metadata/<name>` (reports/validation_record.py).

The asset folder is the user's, so nothing here is forgiving: `.metadata` is made when missing, and refused when it is
a link or not a folder; the record is refused when it is a link or not a regular file (a link is never replaced, as
out_writer does under OUT: beside the asset it may be the user's). Every step is taken from the folder's descriptor
without following links (`O_NOFOLLOW`, `dir_fd`): the existing record is read, merged by the caller, and the new one
written by replace (an exclusive temp file beside it, fsynced, renamed over the name, the folder fsynced), so a reader
never sees half a record and a failed write leaves the old one. The asset's own files are never opened for writing.
"""

from __future__ import annotations

import os
import secrets
import stat
from pathlib import Path
from typing import Callable

METADATA = ".metadata"
MAX_RECORD_BYTES = 16 * 1024 * 1024  # an existing record larger than this is refused, not read
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
SUPPORTED = bool(_NOFOLLOW and _DIRECTORY) and os.open in os.supports_dir_fd and os.mkdir in os.supports_dir_fd


class SidecarRefused(OSError):
    """A record beside the asset was not written; the message says why (a link, not a folder, not a regular file)."""


def update_record(folder: Path, name: str, merge: Callable[[str | None], str]) -> Path:
    """`folder/.metadata/name` replaced by `merge(the existing record's text, or None)`; returns its path.
    SidecarRefused when a link or something other than a folder / regular file stands in the way."""
    if not SUPPORTED:
        raise SidecarRefused(f"writing beside the asset needs O_NOFOLLOW and dir_fd, which {os.name} lacks")
    target = Path(folder) / METADATA / name
    folder_fd = os.open(folder, os.O_RDONLY | _DIRECTORY | _CLOEXEC)  # the asset's folder, as the user named it
    try:
        meta_fd = _metadata_folder(folder_fd, target.parent)
        try:
            text = merge(_existing(meta_fd, name, target))
            _replace(meta_fd, name, text.encode("utf-8"))
        finally:
            os.close(meta_fd)
    finally:
        os.close(folder_fd)
    return target


def _metadata_folder(folder_fd: int, shown: Path) -> int:
    try:
        info = os.lstat(METADATA, dir_fd=folder_fd)
    except FileNotFoundError:
        try:
            os.mkdir(METADATA, 0o755, dir_fd=folder_fd)
        except FileExistsError:  # made meanwhile: judged below like any other
            pass
        info = os.lstat(METADATA, dir_fd=folder_fd)
    if stat.S_ISLNK(info.st_mode):
        raise SidecarRefused(f"{shown} is a link: the record is not written through it")
    if not stat.S_ISDIR(info.st_mode):
        raise SidecarRefused(f"{shown} is not a folder")
    return os.open(METADATA, os.O_RDONLY | _DIRECTORY | _NOFOLLOW | _CLOEXEC, dir_fd=folder_fd)


def _existing(meta_fd: int, name: str, shown: Path) -> str | None:
    """The existing record's text, None when there is none."""
    try:
        info = os.lstat(name, dir_fd=meta_fd)
    except FileNotFoundError:
        return None
    if stat.S_ISLNK(info.st_mode):
        raise SidecarRefused(f"{shown} is a link: it is not replaced")
    if not stat.S_ISREG(info.st_mode):
        raise SidecarRefused(f"{shown} is not a regular file")
    if info.st_size > MAX_RECORD_BYTES:
        raise SidecarRefused(f"{shown} is {info.st_size} bytes: not read")
    fd = os.open(name, os.O_RDONLY | _NOFOLLOW | _CLOEXEC, dir_fd=meta_fd)
    with os.fdopen(fd, "rb") as handle:
        return handle.read(MAX_RECORD_BYTES + 1).decode("utf-8", errors="replace")


def _replace(meta_fd: int, name: str, data: bytes) -> None:
    temp = f".{name}.{secrets.token_hex(6)}.tmp"
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC, 0o644, dir_fd=meta_fd)
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.rename(temp, name, src_dir_fd=meta_fd, dst_dir_fd=meta_fd)
    except BaseException:
        try:
            os.unlink(temp, dir_fd=meta_fd)
        except OSError:
            pass
        raise
    os.fsync(meta_fd)
