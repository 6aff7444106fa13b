"""Checks that need no simulation, on what the runtime built (docs/plausibility.md): each moving body's mass and
inertia against what a body can have and what its shapes give, revolute ranges that look like a unit slip, and bodies
that overlap at the rest pose although the runtime collides them. Milliseconds an asset; run once per asset beside the
runtime readback (run/readback.py), never a verdict of their own: each finding is named beside the verdicts it
explains (links.py) and `fix --shape-inertia` proposes the inertia a shape gives (fix/shape_inertia.py).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from ..results import Plausibility
from .limits import limit_findings
from .mass import mass_findings
from .overlap import overlap_findings
from .structure import jointed_pairs, moving_joints

if TYPE_CHECKING:
    from ..asset_model import AssetModel
    from ..built_model import BuiltModel


def check(asset: "AssetModel", built: "BuiltModel | None", records: list[str] | None = None) -> Plausibility:
    """The plausibility block of `asset` (the USD reading) as `built` (an engine's model of it; None: the USD
    reading's statement) has it; `records`: the runtime's log (the records it wrote about what it substituted)."""
    from ..built_model import from_asset
    from ..runtime_model import adopt, with_mass_properties

    started = time.perf_counter()
    model = adopt(asset, built) if built is not None else with_mass_properties(asset, from_asset(asset))
    if built is not None and built.mass_properties is None:
        model = with_mass_properties(model, from_asset(asset))
    poses = dict(built.poses) if built is not None else {}
    moving = moving_joints(model)
    block = Plausibility(engine=built.engine if built is not None else "usd")
    block.findings += mass_findings(model, moving, list(records or []))
    block.findings += limit_findings(model)
    try:
        overlaps, pairs = overlap_findings(model, poses, moving, jointed_pairs(model),
                                           {a.root: a.self_collisions for a in asset.articulations}, block.not_checked)
        block.findings += overlaps
    except ImportError as exc:
        pairs = 0
        block.not_checked.append(f"overlap at the rest pose: {exc} (install scipy)")
    block.checked = {"bodies": sum(1 for b in model.bodies.values() if b.enabled and not b.kinematic),
                     "joints": sum(1 for j in model.joints.values() if j.enabled and j.is_angular and j.has_limits),
                     "collider_pairs": pairs}
    block.seconds = round(time.perf_counter() - started, 4)
    return block
