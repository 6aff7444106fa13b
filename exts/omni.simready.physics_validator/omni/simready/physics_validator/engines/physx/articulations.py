"""The articulations PhysX built, one row each in the order the session lists them (root-record order): the prim it
names each by, its DOF joints, its links, whether its base is fixed, and a path that selects it alone.

PhysX names an articulation by the prim carrying ArticulationRootAPI, and one root prim can give several: an Xform root
over a joint graph that a joint with `physics:excludeFromArticulation` cuts in two builds one articulation per piece,
each named by that prim (measured: a 6R arm rooted on its Xform whose third joint is excluded gives `/Robot` twice,
with 2 and 3 DOFs, and joint3 a maximal joint between them). A tensor binding over the prim's path selects the first
only (and after a pin, none: "Pattern '/Robot' did not match any articulations", the build failed). An ARTICULATION
binding or query also keeps an articulation when the path names one of its links or joints (ovphysx
docs/read_write/path_patterns.md), so such an articulation is selected by its first DOF joint (its root link when it
has none), and every read that lists articulations is taken row by row, never keyed by prim.

Each row's links are in PhysX's link order, the root first: the order of the Jacobian's and the mass matrix's blocks.
That is a tensor binding's `body_names` (metadata only: creating a binding reads nothing and warms nothing up), not the
order the session lists links in, which differs on a branched tree (measured: a turret carrying two arms a and b is
base, turret, a2, b2, a3, b3 to PhysX and base, turret, a2, a3, b2, b3 to the session; the Jacobian of a3 was read from
b2's rows, and an arm solved on it missed every target).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import warnings

import numpy as np

from .session import path_strings, read_columns, read_handles


@dataclass(frozen=True)
class ArticulationRow:
    prim: str  # the prim PhysX names it by (shared by every articulation built from one root prim)
    selector: str  # a path that selects this articulation alone in a binding: the prim, or one of its joints or links
    dofs: tuple[str, ...]  # its DOF joints in PhysX's column order (dofJointPath)
    links: tuple[str, ...]  # its links in PhysX's link order, the root first
    fixed_base: bool


def articulation_rows(runtime, physx, stage) -> list[ArticulationRow]:
    """Every articulation of the attached PhysX instance, in the session's row order."""
    SOT = runtime.SimObjectType
    columns = read_handles(physx, stage, runtime, SOT.ARTICULATION, ["dofJointPath", "isFixedBase", "linkCount"])
    prims, fixed = columns.get("isFixedBase", ([], np.zeros(0)))
    dof_handles = _rows(columns, "dofJointPath", len(prims))
    counts = _rows(columns, "linkCount", len(prims))
    link_paths = list(read_columns(physx, SOT.ARTICULATION_LINK, ["mass"]).get("mass", {}))
    shared = Counter(prims)
    out, start = [], 0
    for a, prim in enumerate(prims):
        dofs = tuple(path_strings(runtime, stage, dof_handles[a])) if len(dof_handles[a]) else ()
        count = int(np.ravel(counts[a])[0]) if np.size(counts[a]) else 0
        listed, start = link_paths[start:start + count], start + count  # the session's ARTICULATION_LINK rows
        selector = prim if shared[prim] == 1 else (dofs[0] if dofs else (listed[0] if listed else prim))
        links = _in_link_order(_link_names(runtime, physx, selector), listed)
        out.append(ArticulationRow(prim, selector, dofs, links, bool(int(np.ravel(fixed)[a]))))
    return out


def _link_names(runtime, physx, selector: str) -> list[str]:
    """The articulation's link names in PhysX's order (the root first), from a binding's metadata."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # tensor bindings: deprecated since 0.6, kept in 0.7
        binding = physx.create_tensor_binding(prim_paths=[selector], tensor_type=runtime.TensorType.ARTICULATION_LINK_POSE)
    try:
        return list(binding.body_names)
    finally:
        binding.destroy()


def _in_link_order(names: list[str], listed: list[str]) -> tuple[str, ...]:
    """The link prims `listed` ordered as PhysX's leaf `names` (two links of one leaf name keep the session's order
    between them); as listed when the names do not match them."""
    by_leaf: dict[str, list[str]] = {}
    for path in listed:
        by_leaf.setdefault(path.rsplit("/", 1)[-1], []).append(path)
    if sorted(names) != sorted(p.rsplit("/", 1)[-1] for p in listed):
        return tuple(listed)
    return tuple(by_leaf[name].pop(0) for name in names)


def _rows(columns: dict, name: str, count: int) -> list[np.ndarray]:
    """Column `name`'s rows (empty rows when the session listed none)."""
    _paths, data = columns.get(name, ([], np.zeros((count, 0))))
    data = np.asarray(data)
    if data.ndim == 1:
        data = data.reshape(len(data), 1) if len(data) == count else data.reshape(count, -1)
    return [data[a] for a in range(count)]
