"""ovphysx's session read/write API, as small helpers: {attribute: {prim path: numpy row}} in USD units.

The session API (`read_sync` / `write_sync`) is the documented, supported way to move data; it speaks
USD units (degrees, per-degree gains, stage lengths) and works before the first step without warming
up the scene. It costs ≈ 0.2-0.8 ms per call (measured), so the engine uses it for one-off reads
(properties, the pre-step snapshot) and pre-step writes only; per-step state goes through `reads.py`.

Read results borrow native arrays: everything is copied inside the `with` block and the group handle
dropped before the result closes (`destroy()` refuses while a borrowed array is alive).
"""

from __future__ import annotations

from typing import Iterable, Mapping

import numpy as np


def read_columns(physx, sim_type, names: Iterable[str], per_prim: bool = False) -> dict[str, dict[str, np.ndarray]]:
    """{attribute: {prim path: values}} for every prim of `sim_type`.

    Fixed-width groups (bodies, links, articulations) hold one stacked tensor per group; array groups
    (articulation joints: one row per unlocked axis) one tensor per prim: `per_prim=True`."""
    out: dict[str, dict[str, np.ndarray]] = {}
    with physx.read_sync(sim_type, list(names)) as result:
        dictionary = result.dictionary
        group = None
        for group in result.groups:
            column = out.setdefault(dictionary.token_to_string(group.attribute), {})
            paths = dictionary.get_path_strings(group.prim_list)
            if per_prim:
                for path, tensor in zip(paths, group.tensors):
                    column[path] = np.array(tensor.numpy(), dtype=float).ravel()
            else:
                data = np.array(group.tensors[0].numpy(), dtype=float).reshape(len(paths), -1)
                for i, path in enumerate(paths):
                    column[path] = data[i]
        group = None  # noqa: F841 - drop the borrowed arrays before the result closes
    return out


def read_handles(physx, stage, runtime, sim_type, names: Iterable[str]) -> dict[str, tuple[list[str], np.ndarray]]:
    """{attribute: (prim paths, raw stacked array)}: for columns holding values that are not floats
    (`dofJointPath` path handles, `isFixedBase`)."""
    out = {}
    with physx.read_sync(sim_type, list(names)) as result:
        dictionary = result.dictionary
        group = None
        for group in result.groups:
            out[dictionary.token_to_string(group.attribute)] = (
                list(dictionary.get_path_strings(group.prim_list)), np.array(group.tensors[0].numpy()).copy())
        group = None  # noqa: F841
    return out


def path_strings(runtime, stage, handles) -> list[str]:
    """Interned ovstage path handles -> path strings (0 = padding, dropped)."""
    dictionary = runtime.ovstage.PathDictionary(stage)
    return [dictionary.path_to_string(int(h)) for h in handles if int(h)]


def write_per_prim(physx, stage, runtime, sim_type, name: str, values: Mapping[str, np.ndarray | float],
                   fill: float = 0.0) -> None:
    """Write one attribute on every prim of `sim_type` (the session write has no row mask): `values[path]`
    where given, `fill` elsewhere."""
    dictionary = runtime.ovstage.PathDictionary(stage)
    with physx.write_sync(sim_type, [name]) as session:
        group = None
        for group in session.groups:
            paths = dictionary.get_path_strings(group.prim_list)
            tensors = list(group.tensors)
            if len(tensors) == len(paths):  # array group: one tensor per prim
                for path, tensor in zip(paths, tensors):
                    row = values.get(path)
                    data = np.full(tuple(tensor.shape), fill, np.float32)
                    if row is not None:
                        data.reshape(-1)[: np.size(row)] = np.asarray(row, np.float32).ravel()
                    tensor.assign(data)
            else:  # fixed group: one stacked tensor
                for tensor in tensors:
                    data = np.full(tuple(tensor.shape), fill, np.float32)
                    for i, path in enumerate(paths):
                        if path in values:
                            data[i] = values[path]
                    tensor.assign(data)
            session.commit_sync(group)
        group = None  # noqa: F841
