"""What a fix names as beyond drive values, each with the cause measured on the asset: the diagnosis' findings, joints
the probe found blocked (collision geometry or something else, with what can hold them), the bounds that kept a
proposal short (the actuator's rating, a need no mass explains, a static error not met), what the maxForce a load
needs exposed, joints reverted, rows still failing and, when no layer was accepted, what the rounds broke."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ..core.quantities import for_people
from ..core.results import NotFixable
from ..core.status import Status
from ..core.usd import read_asset
from .overlaps import tried_text
from .rounds import Round, verdict_of
from .targets import endpoint_tolerance

if TYPE_CHECKING:
    from .state import AssetFix


def clip(text: str, limit: int) -> str:
    """`text` cut to `limit` characters at a word boundary, with an ellipsis when anything was cut."""
    if len(text) <= limit:
        return text
    return text[: limit - 1].rsplit(" ", 1)[0].rstrip(" ;,:") + "…"


# Causes `fix` measures on the asset (or reads from it) before a re-run: a joint named with one of these is not a
# regression of the layer when its first drive makes a test fail that could not judge it before.
MEASURED_CAUSES = frozenset({"collision", "blocked", "actuator_rating", "not_met", "limit_unit", "outside_articulation",
                             "not_drive_joint", "exploded", "velocity_cap_exceeded", "implausible_need"})


# Measured causes no escalation of a drive's targets changes (a rating caps the force, geometry or the model holds the
# joint): a joint whose every failing row one of them explains is not escalated, so a round that could change nothing
# is not re-run (the TALOS left arm: three rounds of 70-140 s re-ran joints held at their ratings and by collisions)
BEYOND_ESCALATION = (MEASURED_CAUSES - {"not_met"}) | {"implausible_need"}


def explained_joints(state: "AssetFix", result) -> set[str]:
    """The joint paths whose every failing row in `result` (a round's re-run) a cause in BEYOND_ESCALATION explains:
    named for that row's test, or for the joint as a whole."""
    covered = {(n.path, n.test) for n in not_fixable(state, None) if n.path and n.cause in BEYOND_ESCALATION}
    failing: dict[str, set[str]] = {}
    for test in result.tests:
        for row in test.joints:
            if row.status in (Status.FAIL, Status.WARN) and row.path:
                failing.setdefault(row.path, set()).add(test.name)
    return {path for path, tests in failing.items()
            if all((path, t) in covered or (path, "") in covered for t in tests)}


def named_joints(state: "AssetFix") -> set[str]:
    """The joint paths `fix` names with a measured cause (MEASURED_CAUSES) for the round last proposed."""
    return {n.path for n in not_fixable(state, None) if n.path and n.cause in MEASURED_CAUSES}


def not_fixable(state: "AssetFix", best: Round | None) -> list[NotFixable]:
    out = list(state.diagnosis.not_fixable) if state.diagnosis else []
    if best is not None:  # a row the accepted layer made pass was fixable after all (e.g. an overspeed damped away)
        out = [n for n in out if not (n.joint and n.test and verdict_of(best.after, n.test, n.path, n.joint) == Status.PASS)]
        out = [n for n in out if not (n.cause == "precheck" and best.unblocked and n.test in best.unblocked)]  # it runs now
    probe = state.plan.probe if state.plan else None
    asset = read_asset(state.path) if probe is not None and any(m.blocked for m in probe.joints.values()) else None
    for path, m in (probe.joints.items() if probe else ()):
        for pose, info in m.blocked.items():
            allow = state.allow.get(path)
            if allow is not None and abs(info["error"]) <= endpoint_tolerance(allow, pose):
                continue  # stopped inside the tolerance the test judges the endpoint by: no failure of the test's
            end = allow.ends.get(pose, math.nan) if allow is not None else math.nan
            test = allow.ends_test if allow is not None else ""
            unit = "rad" if m.angular else "m"
            where = stop_text(pose, end, end - info["error"], allow.hold if allow is not None else 0.0, unit)
            if info.get("collision") and info.get("unseen"):
                bodies = []
                why = (f"{where} even under an unlimited probe drive; with every collision of the links it moves against the "
                       "rest filtered it reaches it: collision geometry stops it, not the drive (a pair no collider box "
                       "showed touching on the way). Fix the colliders, filter the pair, or narrow the joint's limits")
            elif info.get("collision"):
                bodies = sorted({b for pair in info["pairs"] for b in pair})
                pairs = ", ".join(f"{a.rsplit('/', 1)[-1]} with {b.rsplit('/', 1)[-1]}" for a, b in info["pairs"])
                why = (f"{where} even under an unlimited probe drive; with the collisions of {pairs} filtered it reaches it: "
                       "collision geometry stops it, not the drive. Fix the colliders, filter the pair, or narrow the joint's "
                       "limits")
            if info.get("collision"):
                out.append(NotFixable(joint=m.name, path=path, test=test, cause="collision", why=why, bodies=bodies))
            else:
                assert asset is not None  # read above: a joint is blocked
                out.append(NotFixable(joint=m.name, path=path, test=test, cause="blocked",
                                      why=f"{where} even under a 20x stiffer unlimited probe drive: "
                                          f"{held_by(asset, path, m, info)}"))
    shown = best or (state.rounds[-1] if state.rounds else None)
    limited = dict(state.plan.proposals) if state.plan else {}  # unchanged proposals too (an exploded probe sizes none)
    limited.update(shown.proposals if shown else {})
    for path, prop in limited.items():  # bounds and findings that kept a value short or unproposed
        for cause, sentence in prop.limits:
            if cause == "exploded" and probe is not None and probe.overlaps is not None and not probe.overlaps.settled:
                sentence += tried_text(probe.overlaps)  # the rest overlaps were filtered and it blew up too
            if not any(n.path == path and n.cause == cause for n in out):
                out.append(NotFixable(joint=prop.name, path=path, cause=cause, why=sentence))
    for test, joint in (shown.exposed if shown else ()):  # what the maxForce a load needs exposed, named
        assert shown is not None and shown.after is not None  # rows of a round that ran
        path = joint if joint.startswith("/") else next((p for p in shown.proposals if p.endswith("/" + joint)), joint)
        raised = shown.proposals.get(path)
        row = next((r for t in shown.after.tests if t.name == test for r in t.joints if joint in (r.path, r.joint)), None)
        if raised is None:
            continue
        unit = "N·m" if raised.angular else "N"
        out.append(NotFixable(joint=raised.name, path=path, test=test, cause="max_force_exposes",
                              why=clip(f"its measured load {for_people(raised.derived.get('load_max', math.nan), unit)} "
                                       f"exceeds the authored maxForce {for_people(raised.current['maxForce'], unit)}, so the "
                                       f"maxForce it needs comes first ({for_people(raised.value('maxForce'), unit)}); "
                                       f"with it {test} "
                                       f"judges the joint and fails it: {row.reason if row else ''}", 500)))
    for path, why in state.reverted.items():
        if best is not None and path in best.proposals:
            continue  # reverted in a later round, kept at the accepted round's values
        if path in state.dropped or not any(n.path == path for n in out):  # a joint left out joint by joint: always said
            out.append(NotFixable(joint=path.rsplit("/", 1)[-1], path=path, cause="reverted", why=why))
    final = best or (state.rounds[-1] if state.rounds and state.rounds[-1].after else None)
    if final is not None:  # rows still failing with the accepted layer (or, none accepted, with the last one tried)
        tried = "the proposed drive" if best is not None else f"round {final.index}'s drive (no layer accepted)"
        for test, joint in final.remaining:
            path = joint if joint.startswith("/") else next((p for p in state.allow if p.endswith("/" + joint)), joint)
            if any(n.path == path and n.test in ("", test) for n in out):
                continue
            if path in state.allow:
                assert final.after is not None  # a round that ran
                after = next((r for t in final.after.tests if t.name == test for r in t.joints if path in (r.path, r.joint)),
                             None)
                out.append(NotFixable(joint=path.rsplit("/", 1)[-1], path=path, test=test, cause="not_fixed",
                                      why=clip(f"still {after.status.value if after else 'failing'} with {tried} after "
                                          f"{state.levels.get(path, 0)} escalation(s): {after.reason if after else ''}", 500)))
    if best is None:  # why no round was accepted: what the improving rounds broke
        for rnd in [r for r in state.rounds if r.worth and not r.clean][-1:]:
            for test, joint in rnd.regressed:
                assert rnd.after is not None  # it regressed: it ran
                row = next((r for t in rnd.after.tests if t.name == test for r in t.joints if joint in (r.path, r.joint)), None)
                side = "" if joint in rnd.proposals else " (its own drive unchanged: a side effect of the other joints' changes)"
                out.append(NotFixable(joint=joint.rsplit("/", 1)[-1], path=joint, test=test, cause="regression",
                                      why=clip(f"PASS as authored, {row.status.value if row else 'failing'} with round "
                                               f"{rnd.index}'s layer"
                                          f"{side}: {row.reason if row else ''}", 500)))
            for test in rnd.broken:
                out.append(NotFixable(test=test, cause="regression",
                                      why=f"{test} passed as authored and not with round {rnd.index}'s layer"))
    if best is not None and best.after is not None:  # a test the first drives still leave skipping: why, never silent
        for result in best.after.tests:
            if result.status == Status.SKIP and not any(n.test == result.name for n in out):
                out.append(NotFixable(test=result.name, cause="still_skips", why=f"{result.name} SKIP with the layer: "
                                      f"{result.reason}"))
    if state.plan is not None and state.plan.error:
        out.append(NotFixable(cause="error", why=f"measurement failed: {state.plan.error.splitlines()[0]}"))
    return out


def held_by(asset, path: str, m, info: dict) -> str:
    """What can hold a joint the stiff probe could not take to its endpoint, from what this asset has: the colliders
    filtered there, its joint friction against the probe's pull, a mimic coupling, a kinematic loop. Only causes the
    asset carries are named; each with its numbers."""
    unit = "N·m" if m.angular else "N"
    tried = sorted({b.rsplit("/", 1)[-1] for pair in info.get("candidates", []) for b in pair})
    seen = f"; {', '.join(tried)} touched there" if tried else ""
    found = [f"not collision geometry (every collision of the links it moves filtered, it still stops{seen})"
             if info.get("all_filtered") else f"no collider of the links it moves can collide with the rest{seen}"]
    pull = float(info.get("pull", math.nan))
    if m.friction > 0 and math.isfinite(pull):
        found.append(f"its joint friction {for_people(m.friction, unit)} can hold it (the probe pulled with "
                     f"{for_people(pull, unit)})" if m.friction >= 0.5 * pull else
                     f"not its joint friction ({for_people(m.friction, unit)} against the probe's pull of "
                     f"{for_people(pull, unit)})")
    joint = asset.joints.get(path)
    coupled = [j.name for j in asset.joints.values() if j.mimic_reference == path or (j.path == path and j.mimic_reference)]
    if coupled:
        found.append(f"a mimic coupling ({', '.join(coupled)}) can hold it")
    if joint is not None and any(j.loop_closing for j in asset.joints.values()):
        found.append("a loop-closing joint of the asset can hold it")
    if len(found) == 1 or all(f.startswith(("not ", "no ")) for f in found):
        found.append("what holds it is none of these: look at the joint's limits in the runtime readback and at "
                     "other constraints on its bodies")
    return "; ".join(found)


def stop_text(pose: str, end: float, stop: float, hold: float, unit: str) -> str:
    """Where a blocked joint stopped, relative to the endpoint it was driven to from `hold`: short of it, or held past
    it (something pushes it there), never 'blocked before' an endpoint it went beyond. Digits enough to tell the two
    apart ("stops at 127.6°, short of its max endpoint 128.4°", never "128°, short of 128°")."""
    digits = 3
    while digits < 7 and for_people(stop, unit, digits) == for_people(end, unit, digits):
        digits += 1
    stop_text_, end_text = for_people(stop, unit, digits), for_people(end, unit, digits)
    toward = 1.0 if end >= hold else -1.0
    if (stop - end) * toward > 0:
        return f"held past its {pose} endpoint {end_text}, at {stop_text_} (something pushes it there)"
    return f"stops at {stop_text_}, short of its {pose} endpoint {end_text}"
