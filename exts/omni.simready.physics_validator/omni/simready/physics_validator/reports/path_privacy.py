"""Saved reports without the user's absolute paths: relative to the current folder, or to a root the user names.

Reports get shared (CI artifacts, tickets, NVIDIA's pipelines), and an absolute path tells the user's name, home and
folder layout. NVIDIA's suite strips them from what it saves (`simready_benchmark.core.path_privacy`); so do we, by
default (issue 42: `validate ~/assets/box.usda` wrote the home path into report.json, junit.xml and the HTML). ROOT is
the current folder, or `--relative-to ROOT`, or with `--format simready` the folder holding every asset (their content
root); `--absolute-paths` keeps every path as it is. Every string of the JSON and JUnit reports, the HTML page, the
SimReady result files and `fix`'s layer headers goes through `text`:

- a path under ROOT is written relative to it (`robots/ur5/ur5.usda`; ROOT itself is `.`);
- a path under OUT (the run's output folder, when it is not under ROOT) reads `<OUT>/...`;
- the home folder reads `~` (a path there outside ROOT and OUT: `~/...`).

Only these known roots are replaced, wherever they appear (a path in a reason, a pxr error quoting a layer): a
regular expression cannot tell a file path from a prim path (`/Asset/Body`). What runs is unchanged: the run and its
cache keep absolute paths, only what is saved is rewritten.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any


class PathPrivacy:
    """Rewrites the known roots in saved text; `None` where a writer takes one means paths are kept as they are."""

    def __init__(self, root: str | os.PathLike, out_dir: str | os.PathLike | None = None):
        self.root = Path(root).absolute()
        replacements: list[tuple[str, str]] = []
        out = Path(out_dir).absolute() if out_dir is not None else None
        for folder, label in ((self.root, ""), (out, "<OUT>"), (Path.home(), "~")):
            if folder is None or (label and _under(folder, self.root)) or (label == "~" and out and _under(folder, out)):
                continue
            for spelling in dict.fromkeys((str(folder), os.path.realpath(folder))):
                if spelling not in ("/", ""):
                    replacements.append((spelling, label))
        replacements.sort(key=lambda item: len(item[0]), reverse=True)  # the deepest root wins
        self._pattern = re.compile("|".join(f"({re.escape(s)})(?=$|[/\\\\\\s'\"@:)\\]<>,;])(/)?" for s, _ in replacements)
                                   ) if replacements else None
        self._labels = [label for _, label in replacements]

    def text(self, value: str) -> str:
        """`value` with every known root replaced."""
        if self._pattern is None or not isinstance(value, str):
            return value
        return self._pattern.sub(self._replace, value)

    def _replace(self, match: re.Match) -> str:
        index = next(i for i in range(len(self._labels)) if match.group(2 * i + 1) is not None)
        label, slash = self._labels[index], match.group(2 * index + 2)
        if label:
            return label + (slash or "")
        return "" if slash else "."

    def data(self, value: Any) -> Any:
        """A JSON-like value (dicts, lists, strings) with `text` applied to every string, keys included."""
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, dict):
            return {self.text(k) if isinstance(k, str) else k: self.data(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [self.data(v) for v in value]
        return value

    def finalize(self, value: Any) -> Any:
        """For jinja2's `finalize`: plain strings rewritten; markup a filter already made (wrapped names) left alone."""
        from markupsafe import Markup

        return value if isinstance(value, Markup) or not isinstance(value, str) else self.text(value)


def _under(path: Path, folder: Path) -> bool:
    try:
        return path == folder or path.is_relative_to(folder)
    except ValueError:
        return False


def add_arguments(parser) -> None:
    """`--relative-to ROOT` and `--absolute-paths` on the validate command."""
    parser.add_argument("--relative-to", metavar="ROOT",
                        help="write paths in the saved reports relative to ROOT, OUT as <OUT>, the home folder as ~ "
                             "(default: the current folder; with --format simready: the folder holding every asset)")
    parser.add_argument("--absolute-paths", action="store_true", help="keep absolute paths in the saved reports")


def privacy_of(args, asset_paths: list[str], out_dir: str | os.PathLike) -> PathPrivacy | None:
    """The command's path rule: none with --absolute-paths; else --relative-to ROOT, with --format simready the assets'
    content root, else the current folder."""
    if getattr(args, "absolute_paths", False):
        return None
    if getattr(args, "relative_to", None):
        return PathPrivacy(args.relative_to, out_dir)
    if "simready" in (getattr(args, "format", None) or []):
        from .simready_results import content_root

        return PathPrivacy(content_root(asset_paths), out_dir)
    return PathPrivacy(Path.cwd(), out_dir)
