"""The one writer of everything under OUT: every folder and file a run makes there, by replace, never through a link.

Why one place: a link planted in OUT (`OUT/.cache -> ~`, `OUT/results -> /etc`, `OUT/.fix -> the asset's folder`)
was followed by a plain `mkdir(parents=True)` and carried the run's files outside OUT (issue 42). Here:

- A run *claims* its output folder (`claim`, `claimed`: the CLI after its checks, `validate_batch` and `fix_assets`
  for callers that did not). Below a claimed root every path component is opened without following links
  (`O_NOFOLLOW` from the root's descriptor down): a link found where a folder is wanted is removed (the link only,
  its target untouched) and a real folder made; a regular file there is an error. The root itself and the folders
  above it are the user's choice (`--out` may go through links).
- Every file is written by replace: a fresh temp file created exclusively in its folder (never an existing file or
  link), then renamed over the name. A reader never sees half a file, a link at the name is replaced, a failed write
  (a full disk) leaves neither a temp file nor a truncated file, only what was there before.
- Writers that need a path (ffmpeg, Pillow, matplotlib, pxr) get the temp path of `replacing`; the folder is checked
  to be the same folder when they are done, so a link swapped in meanwhile is refused, not renamed into.
- A job sent to a worker process carries the claimed roots (`roots`; the worker `adopt`s them). A path under no
  claimed root (`--json` outside OUT, a unit test, a library call) keeps the plain rule: its folders made as
  `mkdir(parents=True)` makes them (a link there is the user's), the file itself by replace.

Reading back what the tool wrote (`read_bytes`: the results cache) follows the same rule. Removal and moves go
through here too (`remove`, `remove_empty_folder`, `remove_tree`, `rename`: the HTML's media
pruning, an import's staged folder put in place), by the same descriptors.
POSIX gets the descriptor walk; elsewhere (no `dir_fd`) each component is checked with `is_symlink` first.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
import sys
import threading
from pathlib import Path
from typing import Any, Iterator

_LOCK = threading.Lock()
_ROOTS: list[str] = []  # roots this process claimed (absolute, normalized, no links resolved)
_ADOPTED: list[str] = []  # roots the parent process claimed, for the job this worker runs (`adopt`)
_FDS = (os.open in os.supports_dir_fd and os.mkdir in os.supports_dir_fd and os.unlink in os.supports_dir_fd
        and hasattr(os, "O_NOFOLLOW") and hasattr(os, "O_DIRECTORY"))
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
replaced_links: list[str] = []  # "path -> target" of each link this process replaced under a claimed root


class LinkRefused(OSError):
    """A folder under OUT changed into a link (or another folder) while a writer that takes a path was writing."""


# -- claims ---------------------------------------------------------------------------------------------
def _norm(path: str | os.PathLike) -> str:
    return os.path.normpath(os.path.abspath(os.fspath(path)))


def claim(root: str | os.PathLike) -> Path:
    """`root` (a run's OUT) made (with its parents, as the user named it) and claimed: every path below it is made of
    real folders from here on, in this process and in the jobs it sends its workers (`roots`, `adopt`)."""
    key = _norm(root)
    os.makedirs(key, exist_ok=True)
    with _LOCK:
        if key not in _ROOTS:
            _ROOTS.append(key)
    return Path(key)


def release(root: str | os.PathLike) -> None:
    with _LOCK:
        if _norm(root) in _ROOTS:
            _ROOTS.remove(_norm(root))


def release_all() -> None:
    with _LOCK:
        _ROOTS.clear()


@contextlib.contextmanager
def claimed(root: str | os.PathLike) -> Iterator[Path]:
    """`claim(root)` for the block, unless a claimed root already covers it (then nothing changes)."""
    if root_of(root) is not None:
        yield Path(_norm(root))
        return
    path = claim(root)
    try:
        yield path
    finally:
        release(root)


def roots() -> list[str]:
    """The roots claimed here and adopted: what a job sent to a worker process carries (`adopt` there)."""
    with _LOCK:
        return list(dict.fromkeys(_ROOTS + _ADOPTED))


def adopt(parent_roots: list[str] | None) -> None:
    """In a worker process, before each job: the roots its parent claimed (a pooled worker outlives one run)."""
    with _LOCK:
        _ADOPTED[:] = [_norm(r) for r in parent_roots or ()]


def root_of(path: str | os.PathLike) -> Path | None:
    """The claimed root `path` is at or below (the deepest one), else None."""
    target = _norm(path)
    best = None
    for root in roots():
        if (target == root or target.startswith(root.rstrip(os.sep) + os.sep)) and (best is None or len(root) > len(best)):
            best = root
    return Path(best) if best is not None else None


# -- folders --------------------------------------------------------------------------------------------
def folder(path: str | os.PathLike) -> Path:
    """A real folder at `path` (made with what is missing above it); returns `path`. Below a claimed root a link at any
    depth is replaced by a folder; elsewhere only a link at `path` itself is."""
    path = Path(path)
    with _opened(path, make=True):
        pass
    return path


@contextlib.contextmanager
def _opened(path: Path, make: bool) -> Iterator[int | None]:
    """A descriptor of the real folder `path` (None without dir_fd support), made when `make`."""
    root, parts = _walk_plan(path, make)
    if not _FDS:
        _make_by_path(root, parts, make)
        yield None
        return
    fd = os.open(root, os.O_RDONLY | _DIRECTORY | _CLOEXEC)
    try:
        for index, part in enumerate(parts):
            inner = _step(fd, part, make, os.path.join(root, *parts[: index + 1]))
            os.close(fd)
            fd = inner
        yield fd
    finally:
        os.close(fd)


def _walk_plan(path: Path, make: bool) -> tuple[str, list[str]]:
    """(the folder the walk starts from, the names below it): a claimed root, else `path` itself, made as
    mkdir(parents=True) makes it (outside OUT a link is the user's: followed, never removed)."""
    target = _norm(path)
    root = root_of(target)
    if root is None:
        if make:
            os.makedirs(target, exist_ok=True)
        return target, []
    rel = os.path.relpath(target, root)
    return str(root), [] if rel == "." else rel.split(os.sep)


def _step(fd: int, name: str, make: bool, shown: str) -> int:
    """The descriptor of folder `name` in folder `fd`: made when missing, a link there replaced."""
    for _ in range(3):  # a racing writer may make or remove it between our calls
        if make:
            with contextlib.suppress(FileExistsError):
                os.mkdir(name, 0o777, dir_fd=fd)
        try:
            return os.open(name, os.O_RDONLY | _DIRECTORY | _NOFOLLOW | _CLOEXEC, dir_fd=fd)
        except OSError as exc:
            if exc.errno not in (errno.ELOOP, errno.ENOTDIR, errno.ENOENT) or not make:
                raise
            info = _lstat_at(fd, name)
            if info is None:
                continue
            if not stat.S_ISLNK(info.st_mode):
                raise NotADirectoryError(errno.ENOTDIR, f"{shown} is not a folder (the tool makes a folder there)",
                                         shown) from None
            _note_link(fd, name, shown)
            os.unlink(name, dir_fd=fd)
    raise OSError(errno.EAGAIN, "the folder kept changing while it was made", shown)


def _lstat_at(fd: int, name: str) -> os.stat_result | None:
    try:
        return os.stat(name, dir_fd=fd, follow_symlinks=False)
    except FileNotFoundError:
        return None


def _note_link(fd: int, name: str, shown: str) -> None:
    try:
        target = os.readlink(name, dir_fd=fd)
    except OSError:
        target = "?"
    replaced_links.append(f"{shown} -> {target}")


def _make_by_path(root: str, parts: list[str], make: bool) -> None:
    """Without dir_fd: each component checked, a link removed, before it is made (a narrower guarantee: no race)."""
    current = root
    for part in parts:
        current = os.path.join(current, part)
        if os.path.islink(current) or getattr(Path(current), "is_junction", lambda: False)():
            replaced_links.append(f"{current} -> {os.readlink(current)}")
            os.unlink(current)
        if make:
            os.makedirs(current, exist_ok=True)


# -- files ----------------------------------------------------------------------------------------------
@contextlib.contextmanager
def replacing(path: str | os.PathLike, durable: bool = False) -> Iterator[Path]:
    """A temp path beside `path` for the caller to write (by any writer: ffmpeg, Pillow, matplotlib, pxr); on a normal
    exit it replaces `path`, on an exception it is removed. Its name ends in `path`'s suffix, so writers that pick a
    format by extension pick the right one. `durable`: fsync before the rename (reports)."""
    path = Path(path)
    with _opened(path.parent, make=True) as fd:
        name = _create_temp(fd, path)
        tmp = path.parent / name
        try:
            before = os.fstat(fd) if fd is not None else None
            yield tmp
            if before is not None and not _same_folder(path.parent, before):
                raise LinkRefused(errno.ELOOP, "the folder was replaced (a link?) while the file was written", str(path.parent))
            _finish(fd, name, path, durable)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(name, dir_fd=fd) if fd is not None else os.unlink(tmp)
            raise


def write_text(path: str | os.PathLike, text: str, durable: bool = True) -> Path:
    """`text` as UTF-8 at `path`, by replace. `durable` (reports): fsynced before the rename. What a run makes again
    when it is lost (cache entries, series, replays, timelines, plot manifests) passes False: an fsync costs 3-45 ms on
    a busy disk, once per test, and the rename alone already keeps a reader from seeing half a file."""
    return write_bytes(path, text.encode("utf-8"), durable)


def write_bytes(path: str | os.PathLike, data: bytes, durable: bool = True) -> Path:
    path = Path(path)
    with _opened(path.parent, make=True) as fd:
        name = _create_temp(fd, path)
        try:
            handle = os.open(name, os.O_WRONLY | _NOFOLLOW | _CLOEXEC, dir_fd=fd) if fd is not None else \
                os.open(path.parent / name, os.O_WRONLY | _NOFOLLOW | _CLOEXEC)
            try:
                view = memoryview(data)
                while view:
                    view = view[os.write(handle, view):]
                if durable:
                    os.fsync(handle)
            finally:
                os.close(handle)
            _finish(fd, name, path, durable=False)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(name, dir_fd=fd) if fd is not None else os.unlink(path.parent / name)
            raise
    return path


def _create_temp(fd: int | None, path: Path) -> str:
    """A new, empty temp file's name in the folder `fd`, created exclusively (never an existing file or link); the
    permissions open() gives a new file (0666 less the umask)."""
    for _ in range(100):
        name = f".{path.stem[:40]}.{secrets.token_hex(4)}.tmp{path.suffix}"
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC
        try:
            handle = os.open(name, flags, 0o666, dir_fd=fd) if fd is not None else os.open(path.parent / name, flags, 0o666)
        except FileExistsError:
            continue
        os.close(handle)
        return name
    raise FileExistsError(errno.EEXIST, "no free temp name", str(path.parent))


def _finish(fd: int | None, name: str, path: Path, durable: bool) -> None:
    if durable:
        handle = os.open(name, os.O_RDONLY | _NOFOLLOW | _CLOEXEC, dir_fd=fd) if fd is not None else \
            os.open(path.parent / name, os.O_RDONLY | _NOFOLLOW)
        try:
            os.fsync(handle)
        finally:
            os.close(handle)
    if fd is not None:
        os.replace(name, path.name, src_dir_fd=fd, dst_dir_fd=fd)
    else:
        os.replace(path.parent / name, path)


def _same_folder(path: Path, before: os.stat_result) -> bool:
    try:
        now = os.stat(path)
    except OSError:
        return False
    return (now.st_dev, now.st_ino) == (before.st_dev, before.st_ino)


# -- removal, probes and locks ---------------------------------------------------------------------------
def remove(path: str | os.PathLike) -> bool:
    """Remove the file (or link) `path`, never through a link above it (then nothing is removed); True when it was."""
    path = Path(path)
    try:
        with _opened(path.parent, make=False) as fd:
            os.unlink(path.name, dir_fd=fd) if fd is not None else os.unlink(path)
        return True
    except OSError as exc:
        if exc.errno in (errno.ENOENT, errno.ENOTDIR, errno.ELOOP):
            return False
        raise


def remove_tree(path: str | os.PathLike) -> bool:
    """Remove the folder `path` and everything in it, never through a link (a link inside is removed as a link; a link
    at `path` itself, or above it, is not followed: then only a link at `path` is removed). True when it was."""
    import shutil

    path = Path(path)
    try:
        with _opened(path.parent, make=False) as fd:
            info = os.stat(path.name, dir_fd=fd, follow_symlinks=False) if fd is not None else os.lstat(path)
            if not stat.S_ISDIR(info.st_mode):
                os.unlink(path.name, dir_fd=fd) if fd is not None else os.unlink(path)
            elif fd is not None and sys.version_info >= (3, 11):
                rmtree: Any = shutil.rmtree  # dir_fd: Python 3.11 (Kit 105's 3.10 takes the path below)
                rmtree(path.name, dir_fd=fd)
            else:  # shutil's own walk never follows a link inside (rmtree.avoids_symlink_attacks on POSIX)
                shutil.rmtree(path)
        return True
    except OSError as exc:
        if exc.errno in (errno.ENOENT, errno.ENOTDIR, errno.ELOOP):
            return False
        raise


def rename(source: str | os.PathLike, target: str | os.PathLike) -> Path:
    """Move `source` (a file or folder the tool made) to `target` in one rename, both reached without following links;
    a link at `target` is replaced, an empty folder there too (os.rename's rule). Returns `target`."""
    source, target = Path(source), Path(target)
    with _opened(source.parent, make=False) as src_fd, _opened(target.parent, make=True) as dst_fd:
        if src_fd is not None and dst_fd is not None:
            os.rename(source.name, target.name, src_dir_fd=src_fd, dst_dir_fd=dst_fd)
        else:
            os.rename(source, target)
    return target


def remove_empty_folder(path: str | os.PathLike) -> bool:
    """Remove the folder `path` when it is empty (never through a link); True when it was."""
    path = Path(path)
    try:
        with _opened(path.parent, make=False) as fd:
            os.rmdir(path.name, dir_fd=fd) if fd is not None else os.rmdir(path)
        return True
    except OSError:
        return False


def read_bytes(path: str | os.PathLike, limit: int) -> bytes:
    """What the tool wrote at `path` under OUT, read as it is written: never through a link at any depth below a claimed
    root, only a regular file, at most `limit` bytes (OSError otherwise). A cache entry a link leads to elsewhere (a
    folder of forged verdicts) is not read."""
    path = Path(path)
    with _opened(path.parent, make=False) as fd:
        flags = os.O_RDONLY | _NOFOLLOW | _CLOEXEC | getattr(os, "O_NONBLOCK", 0)
        handle = os.open(path.name, flags, dir_fd=fd) if fd is not None else os.open(path, flags)
        try:
            info = os.fstat(handle)
            if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
                raise OSError(errno.EINVAL, "not a regular file of the tool's size", str(path))
            chunks, left = [], limit + 1
            while left > 0:
                chunk = os.read(handle, min(left, 1 << 20))
                if not chunk:
                    break
                chunks.append(chunk)
                left -= len(chunk)
            return b"".join(chunks)
        finally:
            os.close(handle)


def probe(path: str | os.PathLike) -> None:
    """Make the folder `path` and write and remove a file of our own in it: raises the OSError a run would meet."""
    path = Path(path)
    with _opened(path, make=True) as fd:
        name = _create_temp(fd, path / "write-test")
        os.unlink(name, dir_fd=fd) if fd is not None else os.unlink(path / name)


def open_lock_file(folder: str | os.PathLike, name: str) -> int:
    """A read-write descriptor of the file `name` in `folder` (made when missing; a link there removed first)."""
    with _opened(Path(folder), make=True) as fd:
        flags = os.O_RDWR | os.O_CREAT | _NOFOLLOW | _CLOEXEC
        for _ in range(3):
            try:
                return os.open(name, flags, 0o644, dir_fd=fd) if fd is not None else os.open(Path(folder) / name, flags, 0o644)
            except OSError as exc:
                if exc.errno != errno.ELOOP:
                    raise
                os.unlink(name, dir_fd=fd) if fd is not None else os.unlink(Path(folder) / name)
        raise OSError(errno.ELOOP, "a link keeps reappearing", str(Path(folder) / name))
