"""mimic_joint's settings (docs/tests/mimic_joint.md), each with its unit, and what they make of one mimic pair in SI
(`thresholds_for`): the test's run, its rows and its plot judge a pair by that one object."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from pydantic import Field

from ....core.setting_units import unit
from ..base import DrivenJointConfig
from ..tracking import judged_limits

if TYPE_CHECKING:
    from ....core.asset_model import JointInfo, MimicInfo


@dataclass(frozen=True)
class PairThresholds:
    """One follower and its reference, SI (the follower's positions in rad or m)."""

    sweep: tuple[float, float]  # the swept joint's sweep (the reference, or the driven joint at the head of its chain),
    # sweep_margin_ratio inside its limits
    reference_range: tuple[float, float]  # where that sweep takes the reference (its sweep when it is the swept joint)
    slope_tolerance: float  # |measured - authored| slope allowed, a fraction of the authored slope
    offset_tolerance: float  # min(offset_tolerance, offset_span_fraction x the follower's expected travel)
    limits_slack: float  # how far past its limits the coupling may take the follower (limits_tolerance_fraction x range)
    following_slope: float  # a measured slope below this (|d follower / d reference|) is not following at all
    stopped_short: float  # a reference that swept less than this (but moved) was stopped: judged over what it moved


class MimicJointConfig(DrivenJointConfig):
    # A follower whose measured slope stays under this fraction of the authored one does not follow its reference
    # (NOT_FOLLOWING); a reference that sweeps less than this fraction of its sweep was stopped by something (a warning).
    not_following_fraction: ClassVar[float] = 0.1
    stopped_short_fraction: ClassVar[float] = 0.5

    settle_seconds: float = Field(1.0, ge=0, description="Physics time at the authored targets before the first pair (s).",
                                  json_schema_extra=unit("s"))
    sweep_margin_ratio: float = Field(0.10, ge=0, lt=0.5, description="The reference is swept this fraction of its range "
                                                                      "inside its limits.",
                                      json_schema_extra=unit("fraction"))
    approach_seconds: float = Field(1.0, gt=0, description="The reference is ramped to the sweep's start over this time (s), "
                                                           "not judged.", json_schema_extra=unit("s"))
    sweep_seconds: float = Field(2.0, gt=0, description="Both legs of the sweep, start -> far end -> start (s).",
                                 json_schema_extra=unit("s"))
    hold_seconds: float = Field(0.5, ge=0,
                                description="Hold at each end of the sweep before the coupling is measured at rest (s).",
                                json_schema_extra=unit("s"))
    gear_ratio_tolerance: float = Field(0.10, gt=0, lt=1, description="Largest |measured - authored| slope, as a fraction of "
                                                                      "the authored slope (sign included).",
                                        json_schema_extra=unit("fraction"))
    offset_tolerance_deg: float = Field(2.0, gt=0, description="Largest distance at rest of a revolute follower from the "
                                                               "authored relation (deg).", json_schema_extra=unit("deg"))
    offset_tolerance_m: float = Field(0.002, gt=0, description="Largest distance at rest of a prismatic follower from the "
                                                               "authored relation (m).", json_schema_extra=unit("m"))
    offset_span_fraction: float = Field(0.10, gt=0, lt=1, description="The offset tolerance is also at most this fraction "
                                                                      "of the follower's expected travel.",
                                        json_schema_extra=unit("fraction"))
    limits_tolerance_fraction: float = Field(0.02, ge=0, lt=1, description="How far (fraction of the follower's range) the "
                                                                           "coupling may take the follower past its limits "
                                                                           "over the reference's range.",
                                             json_schema_extra=unit("fraction"))

    def thresholds_for(self, follower: "JointInfo", reference: "JointInfo", mimic: "MimicInfo",
                       chain: "tuple[tuple[JointInfo, MimicInfo | None], ...]" = ()) -> PairThresholds:
        """The pair's sweep and tolerances. `chain`: when the reference is itself a follower, the couplings from the
        driven joint that is swept down to the reference ((the driven joint, None), (the next follower, its coupling),
        ...); the swept joint must have limits (the test sweeps only such pairs)."""
        swept = chain[0][0] if chain else reference
        lower, upper = judged_limits(swept)
        margin = self.sweep_margin_ratio * (upper - lower)
        low, high = lower + margin, upper - margin
        ref_low, ref_high = chain_image(chain, (low, high)) if chain else (low, high)
        travel = abs(mimic.slope) * (ref_high - ref_low)
        absolute = self.joint_si("offset_tolerance_deg", "offset_tolerance_m", follower.is_angular)
        offset = min(absolute, self.offset_span_fraction * travel) if travel > 0 else absolute
        follower_range = (follower.limits[1] - follower.limits[0]) if follower.limits else math.inf
        return PairThresholds((low, high), (ref_low, ref_high), self.gear_ratio_tolerance, offset,
                              self.limits_tolerance_fraction * follower_range, self.not_following_fraction * abs(mimic.slope),
                              self.stopped_short_fraction * (ref_high - ref_low))


def chain_image(chain, span: tuple[float, float]) -> tuple[float, float]:
    """Where a span of the chain's driven joint takes its last follower: through each coupling in turn, each follower
    kept inside its own limits (a follower at a limit holds what follows it)."""
    from .coupling import image

    low, high = span
    for joint, mimic in chain[1:]:
        if mimic is None:
            continue
        low, high = image(mimic.slope, mimic.intercept, low, high)
        if joint.limits is not None:
            low, high = min(max(low, joint.limits[0]), joint.limits[1]), min(max(high, joint.limits[0]), joint.limits[1])
    return low, high
