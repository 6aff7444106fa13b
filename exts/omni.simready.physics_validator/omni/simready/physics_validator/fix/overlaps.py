"""Body pairs that overlap at rest, filtered where they blow the probe up (docs/fix.md, "Collisions at rest").

The plausibility checks name two bodies the runtime collides with each other that overlap at the rest pose
(`REST_OVERLAP`, core/plausibility/overlap.py: deeper than 5 mm, on the shapes and poses the runtime built). A contact
that starts inside cannot be resolved where a mechanism keeps the two bodies together: the URDF of a Robotiq 2F-85
leaves its four-bar linkage open (the inner knuckle and the finger tip, pinned together in the real gripper, overlap
11.8 mm at rest) and couples both to the knuckle by mimic joints. On a Kinova Gen3 arm the runtime's contacts and
couplings then blow the articulation up within 60 steps, drives or none (joint_2 read 6.9e10 N·m against the
30.9 N·m its masses can weigh); with those two pairs filtered the same arm settles (measured with an ovphysx script of
its own, the asset loaded unchanged). The same gripper on a fixed base stays finite: the overlap is the asset's, how
far it goes depends on the mount.

When a probe reading blows up (fix/plausible.exploded), the probe measures again with every such pair filtered. When
nothing blows up then, the overlaps are the measured cause: the measurements are taken with them filtered, and the
layer filters those pairs (`FilteredPairsAPI`) beside the drives it proposes, each said with its depth and the reading
that blew up. The re-run proves the whole layer, as any other. When the probe blows up with them filtered too, the
explosion is named as before, saying the overlaps were tried.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..core.quantities import for_people

FILTER_ATTR = "physics:filteredPairs"  # the relationship the layer authors (UsdPhysics.FilteredPairsAPI)
CODE = "REST_OVERLAP"  # the plausibility finding whose pairs the probe may filter


@dataclass(frozen=True)
class RestOverlap:
    """Two bodies the runtime collides with each other that overlap at rest (`depth` in m)."""

    body: str
    other: str
    depth: float


@dataclass
class OverlapTrial:
    """What the probe measured with the rest overlaps filtered: the pairs, the readings that blew up without them
    (joint name -> (the pose for people: "its hold target", load read, the weight of what it moves bounds it at)) and
    whether nothing blew up with them."""

    pairs: list[RestOverlap]
    blown: dict[str, tuple[str, float, float]] = field(default_factory=dict)
    angular: dict[str, bool] = field(default_factory=dict)  # joint name -> revolute (N·m) or prismatic (N)
    settled: bool = False

    @property
    def filtered(self) -> list[tuple[str, str]]:
        """The body pairs the measurements and the layer filter (none unless filtering them settled the probe)."""
        return [(o.body, o.other) for o in self.pairs] if self.settled else []


def rest_overlaps(result) -> list[RestOverlap]:
    """The REST_OVERLAP pairs of an asset's validation (its plausibility block), deepest first."""
    block = getattr(result, "plausibility", None)
    found = [RestOverlap(f.body, f.other_body, float(f.measured.get("depth", 0.0)))
             for f in (block.findings if block else []) if f.code == CODE and f.body and f.other_body]
    return sorted(found, key=lambda o: -o.depth)


def pairs_text(pairs: list[RestOverlap]) -> str:
    """'robotiq_85_left_inner_knuckle_link and robotiq_85_left_finger_tip_link (11.8 mm), …'"""
    return "; ".join(f"{_name(o.body)} and {_name(o.other)} ({for_people(o.depth, 'm')})" for o in pairs)


def blown_text(trial: OverlapTrial, limit: int = 3) -> str:
    """The readings that blew up without the filter, largest first: 'joint_2 read 6.9e+10 N·m at its hold target
    (what it moves weighs at most 30.9 N·m)'."""
    rows = sorted(trial.blown.items(), key=lambda item: (not math.isfinite(item[1][1]), -abs(item[1][1])))
    parts = []
    for name, (pose, load, bound) in rows[:limit]:
        unit = "N·m" if trial.angular.get(name, True) else "N"
        read = for_people(load, unit) if math.isfinite(load) else "a non-finite load"
        parts.append(f"{name} read {read} at {pose} (what it moves weighs at most {for_people(bound, unit)})")
    more = f", {len(rows) - limit} more" if len(rows) > limit else ""
    return "; ".join(parts) + more


def story(trial: OverlapTrial) -> str:
    """Why the layer filters the pairs, with the numbers."""
    return (f"{len(trial.pairs)} body pair(s) the runtime collides overlap at the rest pose ({CODE}: "
            f"{pairs_text(trial.pairs)}); under the probe's drives the simulation blew up ({blown_text(trial)}); with "
            "those pairs filtered nothing did: their collision is filtered (FilteredPairsAPI), a contact the asset's "
            "own rest pose starts inside of")


def tried_text(trial: OverlapTrial) -> str:
    """Said beside an explosion the filter did not settle."""
    return (f"; with the {len(trial.pairs)} body pair(s) that overlap at rest filtered ({pairs_text(trial.pairs)}) it "
            "blew up too: not those overlaps")


def _name(path: str) -> str:
    return path.rsplit("/", 1)[-1]


def settled_trial(state) -> OverlapTrial | None:
    """The rest overlaps the probe filtered for `state`'s measurements (None unless filtering them settled it)."""
    probe = state.plan.probe if state.plan is not None else None
    trial = probe.overlaps if probe is not None else None
    return trial if trial is not None and trial.settled else None


def filter_entries(trial: OverlapTrial) -> list:
    """The `fix` block's rows for the filtered pairs (core.results.FixJoint, one per pair, on its first body)."""
    from ..core.results import FixChange, FixJoint

    why = story(trial)
    return [FixJoint(joint=_name(o.body), path=o.body, reason=f"{CODE}: overlaps {o.other} by "
                                                              f"{for_people(o.depth, 'm')} at the rest pose",
                     changes=[FixChange(attribute=FILTER_ATTR, before=None, after=_name(o.other), why=why)])
            for o in trial.pairs]


def is_filter_entry(entry) -> bool:
    return bool(entry.changes) and all(c.attribute == FILTER_ATTR for c in entry.changes)
