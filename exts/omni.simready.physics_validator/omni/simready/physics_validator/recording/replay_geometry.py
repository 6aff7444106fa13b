"""The asset's render geometry as the 3D replay carries it: per body, one triangle list per colour, within a budget.

A glTF primitive has one material, so each body's triangles (recording.render_geometry: one colour per gprim) are
split by colour. Above `MAX_TRIANGLES` for the whole asset every piece is decimated by the same fraction with a
quadric edge collapse (fast-simplification, the library pyvista and trimesh use): the replay is a review aid, and a
41 000-triangle arm kept whole would weigh 0.7 MB per test in the report. What is lost is said in the replay's extras
(`triangles`: authored and kept). Pieces of fewer than `KEEP_BELOW` triangles are kept as they are (a box, a pin).
Prepared once per asset in a process (the tests of an asset share it), keyed by the file's size and time.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

MAX_TRIANGLES = 20_000  # the whole asset, in the replay (the video decimates to the same budget)
KEEP_BELOW = 64  # triangles: a piece this small is never decimated


@dataclass
class Piece:
    """Triangles of one colour of one body, in the body's frame (metres, SI Z-up)."""

    points: np.ndarray  # (N, 3) float32
    triangles: np.ndarray  # (M, 3) uint16 or uint32
    color: tuple[float, float, float]


@dataclass
class ReplayGeometry:
    """The bodies' pieces, and what the decimation kept: authored and kept triangle counts."""

    bodies: dict[str, list[Piece]] = field(default_factory=dict)  # body path -> pieces
    authored_triangles: int = 0
    kept_triangles: int = 0
    decimated_by: str = ""  # the library that decimated, or "" when nothing was


_PREPARED: dict = {}  # (asset path, file stamp, bodies, rest) -> ReplayGeometry: the last asset replayed here


def replay_geometry(asset_path: str, paths: list[str], rest: np.ndarray, budget: int = MAX_TRIANGLES) -> ReplayGeometry:
    """The pieces of every body in `paths` (rest: (bodies, 7) their frames as the asset model read them), cached."""
    stat = Path(asset_path).stat()
    key = (str(Path(asset_path).resolve()), stat.st_mtime_ns, stat.st_size, tuple(paths), rest.tobytes(), budget)
    if key not in _PREPARED:
        from .render_geometry import load_render_geometry

        frames = {p: (rest[j, :3], rest[j, 3:]) for j, p in enumerate(paths) if np.all(np.isfinite(rest[j]))}
        geometry = load_render_geometry(asset_path, frames or None, paths or None)
        prepared = prepare(geometry, budget)
        _PREPARED.clear()
        _PREPARED[key] = prepared
    return _PREPARED[key]


def prepare(geometry: dict, budget: int = MAX_TRIANGLES) -> ReplayGeometry:
    """Split each body's triangles by colour, decimated to `budget` for the whole asset when it has more."""
    out = ReplayGeometry()
    split = {path: _by_color(body) for path, body in geometry.items()}
    out.authored_triangles = sum(len(p.triangles) for pieces in split.values() for p in pieces)
    large = sum(len(p.triangles) for pieces in split.values() for p in pieces if len(p.triangles) >= KEEP_BELOW)
    small = out.authored_triangles - large
    keep = 1.0 if out.authored_triangles <= budget or large == 0 else max(0.02, (budget - small) / large)
    simplify = _simplifier() if keep < 1.0 else None
    for path, pieces in split.items():
        kept = []
        for piece in pieces:
            if simplify is not None and len(piece.triangles) >= KEEP_BELOW:
                piece = _decimated(piece, keep, simplify)
            if len(piece.triangles):
                kept.append(piece)
        if kept:
            out.bodies[path] = kept
    out.kept_triangles = sum(len(p.triangles) for pieces in out.bodies.values() for p in pieces)
    out.decimated_by = "fast-simplification" if simplify is not None else ""
    return out


def _by_color(body) -> list[Piece]:
    """One piece per distinct vertex colour (a triangle takes its first vertex's), with only its own vertices."""
    points, triangles, colors = np.asarray(body.points), np.asarray(body.triangles), np.asarray(body.colors)
    if not len(triangles):
        return []
    palette, vertex_color = np.unique(np.round(colors, 4), axis=0, return_inverse=True)
    vertex_color = vertex_color.reshape(-1)
    triangle_color = vertex_color[triangles[:, 0]]
    pieces = []
    for index, rgb in enumerate(palette):
        chosen = triangles[triangle_color == index]
        if not len(chosen):
            continue
        used, compact = np.unique(chosen, return_inverse=True)
        pieces.append(Piece(points[used].astype(np.float32), _indices(compact.reshape(-1, 3)),
                            (float(rgb[0]), float(rgb[1]), float(rgb[2]))))
    return pieces


def _indices(triangles: np.ndarray) -> np.ndarray:
    """uint16 where the piece has fewer than 65 536 vertices (half the bytes), else uint32."""
    return triangles.astype(np.uint16 if triangles.size == 0 or triangles.max() < 65535 else np.uint32)


def _simplifier():
    """fast_simplification.simplify, or None when it is not installed (the replay keeps every triangle then)."""
    try:
        import fast_simplification
    except ImportError:
        return None
    return fast_simplification.simplify


def _decimated(piece: Piece, keep: float, simplify) -> Piece:
    try:
        points, triangles = simplify(piece.points.astype(np.float32), piece.triangles.astype(np.int64),
                                     target_reduction=float(1.0 - keep))
    except Exception:  # noqa: BLE001 - a mesh the simplifier refuses is kept whole
        return piece
    if not len(triangles):
        return piece
    return Piece(np.asarray(points, np.float32), _indices(np.asarray(triangles)), piece.color)
