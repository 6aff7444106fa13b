"""mimic_joint (FET_022): each mimic follower moves with its reference as the authored coupling says.

The coupling is read as a relation in SI, follower = intercept + slope x reference (core.asset_model.MimicInfo:
PhysxMimicJointAPI's position + gearing x reference + offset = 0, NewtonMimicAPI's coef0 + coef1 x leader). Per pair:
1. statically, the relation must keep the follower inside its limits over the reference's whole range (DJ.007);
2. the reference is ramped to its sweep start (sweep_margin_ratio inside its range), held, swept to the far end and
   back (smoothstep legs), holding at each end; the slope of follower against reference is fitted over the sweep and
   must match the authored slope, sign included, within gear_ratio_tolerance; at each hold the follower must sit on the
   authored relation (the offset) within a tolerance capped by a tenth of its expected travel;
3. a reference that moved less than a tenth of its sweep proves nothing: a dead drive (the family's rule); one stopped
   short of the sweep (by a collision, say) is measured over what it moved, with a warning.
NVIDIA's test compares |ratio| only and reports sign and offset as warnings. Spec: docs/tests/mimic_joint.md.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Generator, Iterator

from ....core.codes import ExclusionCode as Excluded
from ....core.context import TestContext
from ....core.plugin import Precheck
from ....core.quantities import listed
from ....core.results import JointRow
from ....core.status import Status
from ..base import (
    BBOX_CHECK_EVERY, DEAD_DRIVE_FRACTION, EXPLODED_WORDS, DrivenJointTest, SeriesRecorder, explosion_watch, jv, row_units,
    settle,
)
from ..bbox_watch import BoxWatch
from ..codes import DrivenCode
from ..selection import EXCLUSION_REASONS
from ..tracking import judged_limits, ramp
from .codes import MimicJointCode as Code
from .config import MimicJointConfig, PairThresholds, chain_image
from .coupling import fitted_slope, image, outside, relation_error
from .fix_rules import FIX_RULES
from .hints import HINTS
from .view import VIEW

if TYPE_CHECKING:
    from ....core.asset_model import AssetModel, JointInfo, MimicInfo

Ctx = TestContext[MimicJointConfig]  # the context of this test: ctx.config is a MimicJointConfig
Chain = tuple[tuple["JointInfo", "MimicInfo | None"], ...]  # (the swept joint, None), (a follower, its coupling), ...
Pair = tuple["JointInfo", "JointInfo", "MimicInfo", Chain]  # follower, reference, the authored coupling, the chain above


@dataclass
class PairRecord:
    follower: "JointInfo"
    reference: "JointInfo"
    mimic: "MimicInfo"
    thresholds: PairThresholds
    chain: Chain = ()  # when the reference is itself a follower: from the driven joint swept down to the reference
    references: list[float] = field(default_factory=list)  # judged samples (legs and holds)
    followers: list[float] = field(default_factory=list)
    rest_errors: list[float] = field(default_factory=list)  # distance from the relation at the end of each hold
    exploded: bool = False

    @property
    def sweep(self) -> tuple[float, float]:
        return self.thresholds.sweep

    @property
    def swept(self) -> "JointInfo":
        """The joint the test drives: the reference, or the driven joint at the head of the reference's chain."""
        return self.chain[0][0] if self.chain else self.reference


class MimicJointTest(DrivenJointTest[MimicJointConfig]):
    name = "mimic_joint"
    version = "1.1.0"
    features = ("FET_022_PHYSX", "FET_022_NEWTON", "FET_022_ISAAC")
    summary = "Sweeping each mimic reference moves its follower by the authored gearing, sign and offset, within its limits."
    Config = MimicJointConfig
    codes = (DrivenCode, Code)
    hints = HINTS
    view = VIEW
    fix_rules = FIX_RULES
    readback = {**DrivenJointTest.readback, "joint:mimic": None}  # a coupling the runtime does not build (readback.md)

    def precheck(self, asset: "AssetModel", config: MimicJointConfig) -> Precheck | None:
        """An asset without mimic joints is not what this test concerns: NOT_APPLICABLE (never a SKIP, which says a
        test that applies could not run and fails `--fail-on-skip`)."""
        if not any(j.mimic is not None and j.mimic.enabled for j in asset.joints.values()):
            off = [j.name for j in asset.joints.values() if j.mimic is not None]
            why = (f"the coupling of {listed(off, 3)} is switched off (newton:mimicEnabled = false): the runtimes move it on "
                   "its own" if off else "no joint carries PhysxMimicJointAPI or NewtonMimicAPI")
            return Precheck(Status.NOT_APPLICABLE, f"no mimic joint: {why}", code=Code.NO_MIMIC)
        return super().precheck(asset, config)

    def run(self, ctx: Ctx) -> Iterator[None]:
        cfg = ctx.config
        followers = [(j, j.mimic) for j in ctx.asset.joints.values() if j.mimic is not None and j.mimic.enabled]
        if not ctx.engine_capabilities.mimic_joints:
            ctx.finish(Status.SKIP, f"{len(followers)} mimic joint(s), but the {ctx.engine.name} engine does not simulate "
                                    "mimic couplings: nothing could be measured", code=Code.ENGINE_WITHOUT_MIMIC)
            return
        pairs = self._pairs(ctx, followers)
        ctx.metric("mimic_pairs", len(followers))
        ctx.metric("pairs_tested", len(pairs))
        if not pairs and not ctx.result.joints:
            reasons = listed([f"{e.joint}: {e.why}" for e in ctx.result.excluded_joints], 4, "; ")
            ctx.finish(Status.SKIP, f"no mimic pair can be swept: {reasons}", code=DrivenCode.NOTHING_TO_TEST)
            return
        yield from settle(ctx, cfg.settle_seconds) if pairs else iter(())
        watch = explosion_watch(ctx)
        series = SeriesRecorder(ctx)
        for follower, reference, mimic, chain in pairs:
            record = yield from self._sweep(ctx, PairRecord(follower, reference, mimic,
                                                            cfg.thresholds_for(follower, reference, mimic, chain), chain=chain),
                                            watch, series)
            row = self._row(record)
            ctx.joint_row(row)
            swept = row.number("reference_sweep")
            commanded = record.thresholds.reference_range[1] - record.thresholds.reference_range[0]
            if DEAD_DRIVE_FRACTION * commanded <= swept < record.thresholds.stopped_short:
                ctx.warn(f"{follower.name}: its reference {reference.name} swept {jv(reference, swept)} of "
                         f"{jv(reference, commanded)}: something stopped it; the coupling is judged over that part")
            if record.exploded:
                break
        self._verdict(ctx)

    # -- phases --------------------------------------------------------------------------------------------------
    def _pairs(self, ctx: Ctx, followers: list[tuple["JointInfo", "MimicInfo"]]) -> list[Pair]:
        """The pairs whose reference can be swept (directly, or through the chain of couplings above it when it is a
        follower itself: a mimic of a mimic); a coupling the runtime does not build is a failing row; the others are
        listed as excluded, with why."""
        simulated = set(ctx.dof_joints)
        only = set(ctx.config.joints or ())
        pairs: list[Pair] = []
        for follower, mimic in followers:
            reference = ctx.asset.joints.get(follower.mimic_reference or "")
            why, code = "", None
            named = {follower.name, follower.path} | ({reference.name, reference.path} if reference else set())
            chain = self._chain(ctx, reference) if reference is not None else ()
            swept = None if chain is None else chain[0][0] if chain else reference
            if only and not named & only:
                why, code = EXCLUSION_REASONS[Excluded.NOT_REQUESTED], Excluded.NOT_REQUESTED
            elif mimic.rejected:
                self._rejected_row(ctx, follower, mimic)
                continue
            elif reference is None or not reference.is_dof or not reference.enabled or swept is None:
                why = f"reference {follower.mimic_reference} is not an enabled revolute or prismatic joint"
                code = Excluded.NO_REFERENCE
            elif not {follower.path, reference.path, swept.path} <= simulated:
                why = "the engine does not simulate the follower or its reference as a degree of freedom"
                code = Excluded.NOT_SIMULATED
            elif not swept.has_limits:
                why, code = f"reference {swept.name} has no finite limits to sweep between", Excluded.NO_LIMITS
            elif not (swept.drive is not None and swept.drive.active) and not (
                    set(swept.actuator_schemas) & ctx.engine_capabilities.simulated_actuator_schemas):
                why, code = f"reference {swept.name} has no drive with stiffness or damping > 0 to sweep it", Excluded.PASSIVE
            if code is not None or reference is None or chain is None:
                ctx.exclude_joint(follower.name, why, follower.path, code or "")
            else:
                pairs.append((follower, reference, mimic, chain))
        return pairs

    @staticmethod
    def _chain(ctx: Ctx, reference: "JointInfo") -> Chain | None:
        """When `reference` follows a coupling itself: the joints from the first one up the chain that no coupling
        moves (the one to sweep) down to `reference`, each with its coupling; () when it follows none; None when the
        chain loops or leads to no joint (nothing to sweep)."""
        chain: list[tuple["JointInfo", "MimicInfo | None"]] = []
        joint: "JointInfo | None" = reference
        while joint is not None and joint.is_mimic_follower and joint.mimic is not None:
            if any(joint is j for j, _ in chain):
                return None
            chain.insert(0, (joint, joint.mimic))
            joint = ctx.asset.joints.get(joint.mimic_reference or "")
        if not chain:
            return ()
        return ((joint, None), *chain) if joint is not None else None

    def _rejected_row(self, ctx: Ctx, follower: "JointInfo", mimic: "MimicInfo") -> None:
        """A coupling the runtime does not build. On a joint with no degree of freedom (a URDF <mimic> on a fixed joint,
        carried over by the converter) nothing can be coupled: the reason says so, and the hint (by `follower_type`)
        names what applies instead of repointing the reference."""
        fixed = "" if follower.is_dof else (f"{follower.name} is a {follower.type} joint, with no degree of freedom to "
                                            "couple; ")
        ctx.joint_row(JointRow(
            joint=follower.name, path=follower.path, status=Status.FAIL, codes=[Code.COUPLING_REJECTED],
            reason=f"its {mimic.schema} coupling to {(follower.mimic_reference or '?').rsplit('/', 1)[-1]} does not act: "
                   f"{fixed}{mimic.rejected}",
            measured={"reference": follower.mimic_reference or ""},
            limits={"authored_slope": mimic.slope, "authored_intercept": mimic.intercept, "gearing": mimic.gearing,
                    "offset": mimic.offset, "schema": mimic.schema, "follower_type": follower.type},
            units=row_units(follower, positions=("authored_intercept",), authored_slope="", gearing=""),
        ))

    def _sweep(self, ctx: Ctx, record: PairRecord, watch: BoxWatch,
               series: SeriesRecorder) -> Generator[None, None, PairRecord]:
        """Approach, hold, sweep to the far end, hold, sweep back, hold (the reference, or the head of its chain);
        returns the PairRecord filled."""
        cfg = ctx.config
        follower, reference, mimic, swept = record.follower, record.reference, record.mimic, record.swept
        low, high = record.sweep
        i_ref, i_fol = ctx.dof_index(reference.path), ctx.dof_index(follower.path)
        i_swept = ctx.dof_index(swept.path)
        legs = (("approach", low, cfg.approach_seconds, False), ("to far end", high, cfg.sweep_seconds / 2, True),
                ("back", low, cfg.sweep_seconds / 2, True))
        for label, goal, seconds, judged in legs:
            ctx.label = f"mimic {follower.name} <- {reference.name}: {label}"
            start = float(ctx.joint_positions()[i_swept])
            frames = max(1, int(round(seconds / ctx.dt)))
            hold = int(round(cfg.hold_seconds / ctx.dt))
            for frame in range(frames + hold):
                target = ramp(start, goal, frame, frames) if frame < frames else goal
                ctx.set_joint_target(swept.path, target)
                yield
                q = ctx.joint_positions()
                r, f = float(q[i_ref]), float(q[i_fol])
                series.sample(follower.name, reference=r, follower=f, expected=mimic.intercept + mimic.slope * r)
                if judged or frame >= frames:
                    record.references.append(r)
                    record.followers.append(f)
                if not (math.isfinite(r) and math.isfinite(f)) or (
                        frame % BBOX_CHECK_EVERY == 0 and watch.exploded(ctx.bounds())):
                    record.exploded = True
                    return record
            record.rest_errors.append(relation_error(r, f, mimic.slope, mimic.intercept))
        ctx.set_joint_target(swept.path, swept.drive.target_position if swept.drive else low)
        return record

    def _row(self, record: PairRecord) -> JointRow:
        follower, reference, mimic, thresholds = record.follower, record.reference, record.mimic, record.thresholds
        # the reference's whole range: its limits, or where its chain takes it over the swept joint's limits
        whole = judged_limits(record.swept)
        ref_lower, ref_upper = chain_image(record.chain, whole) if record.chain else whole
        slope = mimic.slope
        commanded = thresholds.reference_range[1] - thresholds.reference_range[0]
        refs = [r for r in record.references if math.isfinite(r)]
        ref_span = (max(refs) - min(refs)) if refs else 0.0
        measured_slope = fitted_slope(record.references, record.followers)
        image_low, image_high = image(slope, mimic.intercept, ref_lower, ref_upper)
        overrun = outside(image_low, image_high, follower.lower, follower.upper, thresholds.limits_slack)
        offset_tolerance = thresholds.offset_tolerance
        rest_error = max(record.rest_errors, default=math.nan)
        findings: list[tuple[str, str]] = []
        blocked = ref_span < DEAD_DRIVE_FRACTION * commanded
        if overrun > 0:
            held = (f" (the reference moved {jv(reference, ref_span)} of its {jv(reference, commanded)} sweep: the "
                    "coupling held it)") if blocked and not record.exploded else ""
            findings.append((Code.LIMITS_INCOMPATIBLE.value,
                             f"coupling leaves the follower's limits: over {reference.name}'s range "
                             f"[{jv(reference, ref_lower)}, {jv(reference, ref_upper)}]{self._through(record)} it drives "
                             f"{follower.name} "
                             f"over [{jv(follower, image_low)}, {jv(follower, image_high)}], its limits are "
                             f"[{jv(follower, follower.lower)}, {jv(follower, follower.upper)}]{held}"))
        if record.exploded:
            findings.append((DrivenCode.EXPLODED.value, EXPLODED_WORDS))
        elif blocked and overrun > 0:
            pass  # the limits explain the blocked reference
        elif blocked:
            findings.append((DrivenCode.DEAD_DRIVE.value,
                             f"reference {reference.name} moved {jv(reference, ref_span)} of the {jv(reference, commanded)} "
                             "sweep: the coupling could not be measured"))
        else:
            findings += self._coupling_findings(record, measured_slope, rest_error)
        return JointRow(
            joint=follower.name, path=follower.path, status=Status.FAIL if findings else Status.PASS,
            codes=[c for c, _ in findings] or [DrivenCode.OK], reason="; ".join(t for _, t in findings),
            measured={"reference": reference.name, "measured_slope": measured_slope, "reference_sweep": ref_span,
                      "rest_error": rest_error, "image_lower": image_low, "image_upper": image_high,
                      "slope_error": abs(measured_slope - slope) / abs(slope) if slope and math.isfinite(measured_slope)
                      else math.nan},
            limits={"authored_slope": slope, "authored_intercept": mimic.intercept, "gearing": mimic.gearing,
                    "offset": mimic.offset, "schema": mimic.schema, "slope_tolerance": thresholds.slope_tolerance,
                    "offset_tolerance": offset_tolerance, "lower": follower.lower, "upper": follower.upper},
            units=row_units(follower, positions=("rest_error", "image_lower", "image_upper", "authored_intercept",
                                                 "offset_tolerance", "lower", "upper"),
                            measured_slope="", slope_error="", authored_slope="", gearing="", slope_tolerance="",
                            reference_sweep="rad" if reference.is_angular else "m"),
        )

    @staticmethod
    def _through(record: PairRecord) -> str:
        """' (where the chain from joint_a takes it)' for a reference that is a follower itself, else ''."""
        return f" (where its coupling to {record.swept.name} takes it)" if record.chain else ""

    @staticmethod
    def _coupling_findings(record: PairRecord, measured: float, rest_error: float) -> list[tuple[str, str]]:
        follower, reference, thresholds = record.follower, record.reference, record.thresholds
        slope = record.mimic.slope
        where = f"{follower.name} against {reference.name}: d follower / d reference"
        if not math.isfinite(measured) or abs(measured) < thresholds.following_slope:
            return [(Code.NOT_FOLLOWING.value, f"{follower.name} did not follow {reference.name}: {where} = "
                                               f"{measured:.3g}, authored {slope:.3g}")]
        out = []
        if slope * measured < 0:
            out.append((Code.WRONG_DIRECTION.value, f"{follower.name} moved against the authored coupling: {where} = "
                                                    f"{measured:.3g}, authored {slope:.3g} ({record.mimic.schema})"))
        elif abs(measured - slope) > thresholds.slope_tolerance * abs(slope):
            out.append((Code.GEAR_MISMATCH.value, f"gear ratio off: {where} = {measured:.3g}, authored {slope:.3g} "
                                                  f"(> {thresholds.slope_tolerance:.0%} apart)"))
        if not rest_error <= thresholds.offset_tolerance:
            out.append((Code.OFFSET_MISMATCH.value, f"off the authored relation at rest: {follower.name} is "
                                                    f"{jv(follower, rest_error)} from intercept + slope x reference "
                                                    f"(tolerance {jv(follower, thresholds.offset_tolerance)})"))
        return out

    def _verdict(self, ctx: Ctx) -> None:
        rows = ctx.result.joints
        failed = [r for r in rows if r.status is not Status.PASS]
        errors = [r.number("slope_error") for r in rows]
        ctx.metric("pairs_passed", len(rows) - len(failed))
        ctx.metric("pairs_failed", len(failed))
        ctx.metric("max_slope_error", max((e for e in errors if math.isfinite(e)), default=None))
        rest_errors = [r.number("rest_error") for r in rows]
        ctx.metric("max_rest_error", max((e for e in rest_errors if math.isfinite(e)), default=None))
        if failed:
            detail = listed([f"{r.joint}: {r.reason}" for r in failed], 4, "; ")
            ctx.finish(Status.FAIL, f"{len(failed)} of {len(rows)} mimic pairs do not move as authored: {detail}",
                       [h for r in failed for h in r.fix_hints], code=Code.PAIRS_FAILED)
        else:
            worst = max((e for e in errors if math.isfinite(e)), default=0.0)
            ctx.finish(Status.PASS, f"{len(rows)} mimic followers moved with their references as authored (slope within "
                                    f"{worst:.1%}, sign and offset held, limits compatible)", code=DrivenCode.OK)
