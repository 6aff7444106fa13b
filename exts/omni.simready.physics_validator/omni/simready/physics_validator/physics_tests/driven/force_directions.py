"""Twelve force directions evenly spread on the unit sphere: the vertices of a regular icosahedron."""

from __future__ import annotations

import numpy as np

_PHI = (1.0 + 5.0**0.5) / 2.0


def icosahedron_directions() -> np.ndarray:
    """(12, 3) unit vectors, the vertices of an icosahedron: (0, ±1, ±φ) and its cyclic permutations."""
    base = [(0.0, s1, s2 * _PHI) for s1 in (1.0, -1.0) for s2 in (1.0, -1.0)]
    verts = [np.roll(v, k) for k in range(3) for v in base]
    dirs = np.array(verts, dtype=float)
    return dirs / np.linalg.norm(dirs, axis=1, keepdims=True)


def direction_label(v) -> str:
    """A short label for reports, e.g. '(+0.00, +0.53, +0.85)'."""
    return "(" + ", ".join(f"{c:+.2f}" for c in v) + ")"
