"""Where an import writes: OUT/<name>/, made through the one writer of OUT (core.out_writer), never beside the source.

The converter is a separate program that writes by path, so it gets a fresh staging folder the writer made under
the claimed OUT (`.import-<name>.<random>`); its output is checked to hold no link, renamed to `<name>.usda`, and
only then put in place by a rename inside OUT. A folder OUT/<name>/ that an earlier import wrote (its import.json
says so) is replaced; any other is left alone and the import refused before anything runs. A link at OUT/<name> is
replaced (the link only), as the writer does with every link under OUT.
"""

from __future__ import annotations

import json
import os
import secrets
from pathlib import Path

from ..core import out_writer

RECORD = "import.json"
TOOL = "simready-physics import"
USD_SUFFIXES = (".usda", ".usdc", ".usd")


def out_problem(out: Path) -> str:
    """'' when OUT can be written (it is made and claimed: every folder below it through the one writer), else the
    usage error."""
    if out.exists() and not out.is_dir():
        return f"--out {out} is a file, not a folder"
    try:
        out_writer.claim(out)
        out_writer.probe(out)
    except OSError as exc:
        return f"cannot write the output folder {out}: {exc.strerror or exc}"
    return ""


def target_problem(out: Path, name: str) -> str:
    """'' when OUT/<name> may be written, else the usage error (one sentence)."""
    target = out / name
    if target.is_symlink() or not target.exists():
        return ""
    if not target.is_dir():
        return f"{target} exists and is not a folder: choose another --out or --name"
    if not written_by_import(target):
        return f"{target} exists and was not written by import (no {RECORD} of ours): choose another --out or --name"
    return ""


def written_by_import(folder: Path) -> bool:
    try:
        return json.loads((folder / RECORD).read_text(encoding="utf-8")).get("tool") == TOOL
    except (OSError, ValueError, AttributeError):
        return False


def staging(out: Path, name: str) -> Path:
    """A fresh, empty, real folder under the claimed OUT for the converter to write into."""
    out_writer.claim(out)
    while True:
        folder = out / f".import-{name}.{secrets.token_hex(4)}"
        if not folder.exists() and not folder.is_symlink():
            return out_writer.folder(folder)


def top_layer(folder: Path, name: str) -> Path:
    """The converter's top file (it names it after the model: `yumi left girpper.usda`) renamed to `<name>.usda`.
    Raises RuntimeError when the output holds a link, or no single top layer."""
    links = [os.path.join(root, n) for root, dirs, files in os.walk(folder) for n in dirs + files
             if os.path.islink(os.path.join(root, n))]
    if links:
        raise RuntimeError(f"the converter's output holds a link ({links[0]}): refused")
    tops = sorted(p for p in folder.iterdir() if p.suffix in USD_SUFFIXES and p.is_file())
    if len(tops) != 1:
        raise RuntimeError(f"the converter wrote {len(tops)} top USD files ({', '.join(p.name for p in tops) or 'none'}), "
                           "expected one")
    target = folder / f"{name}{tops[0].suffix}"
    if tops[0] != target:
        out_writer.rename(tops[0], target)
    return target


def write_record(folder: Path, record: dict, log: str) -> None:
    out_writer.write_text(folder / RECORD, json.dumps({"tool": TOOL, **record}, indent=1, default=str) + "\n")
    out_writer.write_text(folder / "converter.log", log, durable=False)


def place(folder: Path, out: Path, name: str) -> Path:
    """The staged folder becomes OUT/<name> (an earlier import's folder there is replaced); returns it."""
    target = out / name
    if target.is_symlink():
        out_writer.remove(target)
    old = None
    if target.exists():
        if not written_by_import(target):  # appeared while the converter ran
            raise RuntimeError(target_problem(out, name))
        old = out / f".import-old-{name}.{secrets.token_hex(4)}"
        out_writer.rename(target, old)
    out_writer.rename(folder, target)
    if old is not None:
        out_writer.remove_tree(old)  # never follows links
    return target


def keep_failed_log(out: Path, name: str, log: str) -> Path:
    """A failed conversion's output, kept as OUT/<name>.converter.log (its folder is not made)."""
    return out_writer.write_text(out / f"{name}.converter.log", log, durable=False)


def discard(folder: Path) -> None:
    out_writer.remove_tree(folder)
