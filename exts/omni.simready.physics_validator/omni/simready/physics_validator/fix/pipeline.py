"""`fix_assets`: validate, diagnose, measure, propose, re-run, keep only what the re-run proves.

For every asset (the asset itself is never written; everything goes below `out_dir`):

1. validate it with the selected tests (the verdicts as authored);
2. diagnose the failing rows (`diagnose`): drive-fixable joints, legacy velocity spellings to migrate, and what
   drive values cannot fix;
3. measure through the engine (`probe`, in a spawned process) and propose (`rules`, verified by `plan`);
4. write the round's override layer and a root that sublayers it over the asset; validate that root with the
   same tests (`rounds.compare`): what was fixed, broken, still failing;
5. next round (at most `targets.max_rounds`): a joint still failing is escalated (f_n and margins x2), a joint
   whose change broke a row that passed is reverted, newly judged joints are added;
6. the best clean round (nothing that passed fails) that improved anything is accepted: `<asset>.fix.usda` (only
   the changed attributes, a comment per joint) and `<asset>.fixed.usda` next to the report; else nothing is.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import functools
import hashlib
import time
from pathlib import Path

from ..core.config import ValidationConfig
from ..core.results import NotFixable, RunReport
from ..core.status import Status
from ..core.usd import read_asset
from ..physics_tests import default_registry
from ..run.interrupts import stop_requested
from ..run.worker import run_calls
from .diagnose import LEGACY_ONLY, diagnose, movable
from .layers import authored_value, open_stage, per_axis_attr
from .causes import explained_joints
from .overlaps import rest_overlaps
from .outcome import TOOL, build_result, named_joints, write_final_layers, write_round_layers
from .plan import Plan, PlanRequest, plan_asset
from .rounds import Round, best_round, compare, ledger, set_aside_exposed
from .state import AssetFix
from .targets import MAX_LEVEL, FixTargets, allowance, endpoint_tolerance

NOT_RUN = {Status.PRECHECK_FAILURE, Status.ERROR}  # a test that could not run: a re-run shows no layer's effect


def fix_assets(paths, tests: list[str] | None = None, config: ValidationConfig | None = None, engine: str = "physx",
               out_dir="simready-fix", jobs: int | None = None, targets: FixTargets | None = None, progress=None,
               in_process: bool = False, say=None, joints: list[str] | None = None, privacy=None) -> RunReport:
    """Propose, prove and write drive-tuning layers for the assets under `paths`; returns the report of the assets
    as authored with each asset's `fix` block (core.results.FixResult). `joints` (names or paths) limits the
    proposal to those joints (the panel's Propose fix on one joint row); every test is still re-run. `privacy`
    (reports.path_privacy): how the layers' headers name the asset (the CLI: relative to the current folder). See
    docs/fix.md."""
    from ..run.batch import validate_batch

    say = say or (lambda text: None)
    registry = default_registry()
    names = [t.name for t in registry.select(tests)]
    config = (config or ValidationConfig.defaults(registry)).copy()
    config.run.video = False
    if in_process:
        config.run.isolate = False
    targets = targets or FixTargets()
    out = Path(out_dir)
    work = out / ".fix"
    clock = PhaseClock(say)
    with clock("validating the assets as authored", "validate as authored"):
        report = validate_batch(paths, names, config, engine, work / "before", progress=progress, jobs=jobs)
    _keep(report, work / "before")
    stopped = stop_requested()  # SIGTERM or Ctrl-C (the CLI): stop at the next safe point, accept no layer
    states = [AssetFix(a, work / _slug(a.path), config, names) for a in report.assets]
    for state in states:
        _prepare(state, set(joints or ()), targets)
    active = [s for s in states if not s.done]
    index = 0
    for index in range(1, targets.max_rounds + 1):
        if not active or stopped:
            break
        try:
            with clock(f"round {index}: measuring and proposing for {len(active)} asset(s)", f"round {index} measure"):
                _plan(active, engine, config, targets, jobs)
        except KeyboardInterrupt:  # the measurements stopped (their workers killed): nothing of this round is kept
            stopped = stop_requested() or "SIGINT"
            break
        ready = []
        for state in active:
            rnd = write_round_layers(state, index, engine_target(config, engine))
            if rnd is None or _repeats(state, rnd):  # nothing, or a layer a round already re-ran: nothing new to show
                state.done = True
                continue
            state.rounds.append(rnd)
            ready.append(state)
        _rerun(ready, index, names, config, engine, work, jobs, clock)
        stopped = stop_requested()
        if stopped:
            break
        for state in ready:
            _next(state, state.rounds[-1], index == targets.max_rounds, set(joints or ()))
        active = [s for s in ready if not s.done]
    ran = max((r.index for s in states for r in s.rounds), default=0)  # the last round re-run (one may have stopped)
    for extra in range(1, SALVAGE_ROUNDS + 1):  # joint by joint: keep what the last re-run showed improving
        ready = [] if stopped else [s for s in states if _salvage(s, ran + extra, engine_target(config, engine))]
        if not ready:
            break
        _rerun(ready, ran + extra, names, config, engine, work, jobs, clock,
               what="re-running {tests} test(s) on {assets} asset(s) with only the joints that improved")
        stopped = stop_requested()
    taken: set[str] = set()
    stopped = stopped or stop_requested()
    for state in states:
        best = None if stopped else best_round(state.rounds)
        if stopped:  # no layer is offered: what a stopped re-run said proves nothing
            state.status = "interrupted"
            state.summary = (f"stopped by {stopped} after {len(state.rounds)} round(s): no layer is accepted; run fix "
                             "again to finish")
        if best is not None:
            write_final_layers(state, best, out, engine_target(config, engine), taken, privacy)
        state.before.fix = build_result(state, best, targets)
        state.before.fix.seconds = dict(clock.seconds)
    report.assets = [s.before for s in states]
    report.complete = report.complete and not stopped  # the report says the fix did not finish
    report.finished = _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")  # the whole fix, not its first run
    return report


SALVAGE_ROUNDS = 2  # re-runs after the last round, each of only the joints the one before showed improving


class PhaseClock:
    """Says each phase as it starts and keeps its wall seconds by name (`seconds`), for the fix block and the console:
    where a fix's time goes (the validation as authored, each round's measurement and its re-run)."""

    def __init__(self, say):
        self.say, self.seconds = say, {}

    @contextlib.contextmanager
    def __call__(self, text: str, name: str):
        self.say(text)
        start = time.monotonic()
        try:
            yield
        finally:
            self.seconds[name] = round(self.seconds.get(name, 0.0) + time.monotonic() - start, 1)


def _rerun(ready: list[AssetFix], index: int, names: list[str], config, engine: str, work: Path, jobs, clock: PhaseClock,
           what: str = "re-running {tests} test(s) on {assets} asset(s) with the proposed layer") -> None:
    """Validate each asset's latest round (its layer over the asset) and compare it with the verdicts as authored."""
    from ..run.batch import validate_batch

    if not ready:
        return
    with clock(f"round {index}: " + what.format(tests=len(names), assets=len(ready)), f"round {index} re-run"):
        after = validate_batch([str(s.rounds[-1].composed) for s in ready], names, config, engine, work / f"round{index}",
                               jobs=jobs)
    _keep(after, work / f"round{index}")
    for state, result in zip(ready, after.assets):
        rnd = state.rounds[-1]
        rnd.after = result
        compare(state.before, rnd)
        needs_force = {path for path, prop in rnd.proposals.items() if "maxForce" in prop.proposed
                       and prop.derived.get("load_max", 0.0) > prop.current["maxForce"]}
        set_aside_exposed(rnd, needs_force, functools.partial(_path, state))
        _name_by_rules(state, rnd)
        named = named_joints(state)
        rnd.unnamed = [(test, joint) for test, joint in rnd.worse if not _named(state, joint, named)]


def _salvage(state: AssetFix, index: int, target: str) -> bool:
    """After the rounds, joint by joint (their proposals as they were: nothing is measured again), the others reverted
    and named. True when such a round was written (to be re-run):
    - when the last round improved something but broke something too: a round of only the joints whose own rows it
      showed improving and none getting worse;
    - when, with the best clean round, a test that could not judge before fails on one joint alone, or only on joints
      whose change improved none of their rows (a first drive on a joint nothing moves: its rows go SKIP -> FAIL,
      named): a round without them, so that the test judges the joints the fix did improve. The re-runs' scores
      decide which round is kept (`rounds.best_round`)."""
    last = state.rounds[-1] if state.rounds else None
    if last is None or last.after is None or not last.proposals:
        return False
    rows = functools.partial(_path, state)
    if not last.clean and last.worth:
        base = last
        drop = {path: (f"its change made {', '.join(sorted(worse))} worse with round {last.index}'s layer" if worse else
                       f"its change improved none of its rows with round {last.index}'s layer, which broke "
                       + ", ".join(sorted(set(last.broken) | {t for t, _ in last.regressed + last.worsened + last.unnamed})))
                for path, (better, worse) in ledger(state.before, last, rows).items() if not better or worse}
    else:
        best = best_round(state.rounds)
        if best is None or best.after is None or best.kept_from:
            return False
        base = best
        idle = {path for path, (better, _) in ledger(state.before, base, rows).items() if not better}
        failing = {}  # test -> the joints it fails with the base round's layer
        for test in best.after.tests:
            failing[test.name] = {rows(r.path or r.joint) for r in test.joints if r.status.value in ("FAIL", "WARN")}
        judged_now = {t for t, _ in base.worse}  # tests that could not judge before: their failing rows are the layer's
        # a test fails on one joint alone (the xArm 7's stuck joint7: three tests), or only on joints it improved nothing of
        freed = sorted(t for t, joints in failing.items() if t in judged_now and joints and (len(joints) == 1 or joints <= idle)
                       and joints < set(base.proposals))
        culprits = {p for t in freed for p in failing[t]}
        if not culprits:
            return False
        drop = {path: f"its change made {', '.join(t for t in freed if path in failing[t])} fail on it alone with round "
                      f"{base.index}'s layer (tests that could not judge it before): left as authored, so that those tests "
                      "judge the joints the fix improved" for path in culprits}
    keep = {path: prop for path, prop in base.proposals.items() if path not in drop}
    if not keep or len(keep) == len(base.proposals):
        return False  # nothing proved to improve, or nothing the rows blame: another re-run would show the same
    for path, why in drop.items():
        state.reverted[path] = why + "; kept as authored"
        state.dropped.add(path)
    rnd = write_round_layers(state, index, target, proposals=keep)
    if rnd is None or _repeats(state, rnd):
        return False
    rnd.kept_from = base.index
    state.rounds.append(rnd)
    return True


def _repeats(state: AssetFix, rnd: Round) -> bool:
    """Whether `rnd`'s layer says what an earlier round's did (its header aside): an escalation whose values came out
    the same (held at a rating), a joint-by-joint round that keeps every joint. Its re-run would show nothing new (the
    TALOS arm re-ran round 1's layer as round 2)."""
    def body(path) -> str:
        return "\n".join(line for line in Path(path).read_text(encoding="utf-8").splitlines()
                         if not line.lstrip().startswith(f'"{TOOL}: round '))

    text = body(rnd.layer)
    return any(body(earlier.layer) == text for earlier in state.rounds if earlier.layer.is_file())


def engine_target(config: ValidationConfig, engine: str) -> str:
    return str(config.engine_settings(engine).get("physx.target", "")) if engine == "physx" else ""


def _slug(path: str) -> str:
    p = Path(path)
    return f"{p.stem}-{hashlib.sha1(str(p.resolve()).encode()).hexdigest()[:8]}"


def _prepare(state: AssetFix, only: set[str], targets: FixTargets) -> None:
    try:
        asset = read_asset(state.path)
    except Exception as exc:  # noqa: BLE001 - the verdicts already say why
        state.done, state.status, state.summary = True, "not_fixable", f"the asset cannot be read: {exc}"
        return
    registry = default_registry()
    d = state.diagnosis = diagnose(state.before, asset, registry, targets.add_drives)
    statuses = {t.status for t in state.before.tests}
    if statuses & NOT_RUN and statuses <= NOT_RUN | {Status.NOT_APPLICABLE}:  # no verdict a layer could be proved by
        state.done, state.status = True, "not_fixable"
        state.summary = "no test could run (PRECHECK_FAILURE or ERROR): there is no verdict to prove a layer by"
        return
    if only:
        for found in (d.drive, d.migrate, d.negate):
            for path in [p for p in found if not ({p, p.rsplit("/", 1)[-1]} & only)]:
                del found[path]
        d.added &= set(d.drive)
    stage = open_stage(state.path)
    for path, joint in asset.joints.items():  # other legacy PhysxJointAPI attributes the runtime ignores
        if movable(joint) and (not only or {path, joint.name} & only):
            extra = [a for a in LEGACY_ONLY if authored_value(stage, path, a) is not None]
            if extra:
                d.migrate.setdefault(path, []).extend(extra)
    for path in list(d.migrate):
        joint = asset.joints[path]
        if joint.is_passive and path not in d.added:  # no drive moves it: a per-axis value changes no verdict
            del d.migrate[path]
            continue
        # already spelled per axis (e.g. an asset fixed before): nothing to carry
        d.migrate[path] = [a for a in d.migrate[path] if authored_value(stage, path, per_axis_attr(a, joint.is_angular)) is None]
        if not d.migrate[path]:
            del d.migrate[path]
    state.allow = {p: allowance(asset.joints[p], state.config, state.names, registry) for p in d.drive}
    if not d.drive and not d.migrate and not d.negate:
        state.done = True
        state.status = "nothing_to_fix" if not d.failing and not d.not_fixable else "not_fixable"
        no_drive = ("nothing done: the driven-joint tests skip joints that have no drive; `simready-physics fix "
                    "--add-drives` proposes first drives" if any(n.cause == "no_drive" and not n.joint for n in d.not_fixable)
                    else "")
        state.summary = (no_drive or "no failing verdict to fix" if not d.failing and not d.not_fixable else
                         no_drive or "no failure that drive values can fix")


def _plan(states: list[AssetFix], engine: str, config: ValidationConfig, targets: FixTargets, jobs) -> None:
    """Each asset's plan, measured in the run layer's worker processes (in this one when the run is not isolated)."""
    requests = []
    for state in states:
        joints = [p for p in state.allow if p not in state.reverted]
        probe = state.plan.probe if state.plan else None
        reuse = {p: prop for p, prop in state.plan.proposals.items() if p in joints and p not in state.retuned} \
            if state.plan and probe else {}  # a verified proposal whose targets did not change is not measured again
        requests.append(PlanRequest(state.path, engine, config, joints, state.allow, targets,
                                    dict(state.levels), str(state.work), probe, reuse, rest_overlaps(state.before)))
        state.retuned = set()
    todo = [r for r in requests if r.joints]
    results = dict(zip((r.asset_path for r in todo), run_calls(plan_asset, todo, config.run, engine, jobs or 1)))
    for state, request in zip(states, requests):
        if not request.joints:
            state.plan = Plan(probe=state.plan.probe if state.plan else None)
            continue
        plan, error = results[request.asset_path]
        if plan is None or plan.error:
            state.plan = Plan(probe=None, error=error or plan.error)
            continue
        state.plan = plan
        _blocked(state, plan)


def _blocked(state: AssetFix, plan: Plan) -> None:
    """A joint blocked at a sweep endpoint: the sweep's failure is not the drive's (named in the result); a joint
    that fails nothing else is not tuned."""
    registry = default_registry()
    assert plan.probe is not None and state.diagnosis is not None  # a measured plan of a diagnosed asset
    for path, m in plan.probe.joints.items():
        allow = state.allow.get(path)
        if not any(allow is None or abs(info["error"]) > endpoint_tolerance(allow, pose) for pose, info in m.blocked.items()):
            continue  # not blocked, or stopped inside the tolerance the test judges the endpoint by
        tests = state.diagnosis.drive_tests.get(path, set())
        if tests and all(registry.fix_rules_of(t).blocked_endpoint_explains for t in tests):
            state.reverted.setdefault(path, "blocked at a sweep endpoint: its only failure is not the drive's")
            plan.proposals.pop(path, None)


def _next(state: AssetFix, rnd: Round, last: bool, only: set[str]) -> None:
    """Decide the next round from this one's re-run: a joint whose own rows got worse is reverted (named), one still
    failing is escalated, one judged only now is added."""
    changed = set(rnd.proposals)
    worse = rnd.regressed + rnd.worsened + rnd.unnamed
    hit = ({_path(state, j) for _, j in worse} | _joints_of_broken(rnd)) & changed
    for path in hit:
        tests = sorted({t for t, j in worse if _path(state, j) == path} or set(rnd.broken))
        state.reverted[path] = f"changing its drive made {', '.join(tests)} fail; kept as authored"
        state.dropped.add(path)
    moved = bool(hit)  # a joint broken as a side effect (unchanged itself) is tuned next round, when drives can fix it
    asset = read_asset(state.path)
    registry = default_registry()
    assert rnd.after is not None and state.diagnosis is not None  # the round ran on a diagnosed asset
    found = diagnose(rnd.after, asset, registry, added=state.diagnosis.added)
    for path, why in found.negate.items():  # a jaw judged only now (its first drive let the gripper tests run)
        if path not in state.diagnosis.negate and (not only or {path, path.rsplit("/", 1)[-1]} & only):
            state.diagnosis.negate[path] = why
            moved = True
    explained = explained_joints(state, rnd.after)  # every failing row named with a cause no escalation changes
    for path, why in found.drive.items():  # rows drive values can still fix
        if path in state.reverted or path not in asset.joints or (only and not ({path, path.rsplit("/", 1)[-1]} & only)):
            continue
        if path in state.allow and path in explained:
            continue  # escalating it changes nothing its rows are failed for: not measured, not re-run for it
        if path not in state.allow:  # judged only now (e.g. not loaded before)
            state.diagnosis.drive[path] = why
            state.diagnosis.drive_tests[path] = found.drive_tests.get(path, set())
            state.allow[path] = allowance(asset.joints[path], state.config, state.names, registry)
            state.retuned.add(path)
            moved = True
        elif state.levels.get(path, 0) < MAX_LEVEL:
            state.levels[path] = state.levels.get(path, 0) + 1
            state.retuned.add(path)
            moved = True
    if last or not moved:
        state.done = True


def _keep(report: RunReport, folder: Path) -> None:
    """Each validation's JSON report in the work folder: the evidence behind every round."""
    from ..reports.json_report import write_json_report

    try:
        write_json_report(report, folder / "report.json")
    except OSError:
        pass


def _name_by_rules(state: AssetFix, rnd: Round) -> None:
    """A row the first drives made fail, where the test's own rules say no drive value fixes that finding (a joint
    overrunning its authored velocity cap by 0.2 %: velocity_cap_exceeded), is named by the test's measurement."""
    registry = default_registry()
    assert rnd.after is not None and state.diagnosis is not None  # a round that ran on a diagnosed asset
    for test, joint in rnd.worse:
        row = next((r for t in rnd.after.tests if t.name == test for r in t.joints if joint in (r.path, r.joint)), None)
        if row is None:
            continue
        action = registry.fix_rules_of(test).row_action(row, migratable=False)
        if action.kind == "not_fixable":
            state.diagnosis.cannot(NotFixable(joint=row.joint, path=_path(state, joint), test=test, cause=action.cause,
                                              why=action.why or row.reason))


def _named(state: AssetFix, joint: str, named: set[str]) -> bool:
    """A failing row's joint is named with a measured cause, or it is a mimic follower whose reference is (the
    follower moves only as its reference does: a reference blocked at 15 mm fails the coupling's row)."""
    path = _path(state, joint)
    if path in named:
        return True
    follower = read_asset(state.path).joints.get(path)
    return follower is not None and follower.mimic_reference in named


def _joints_of_broken(rnd: Round) -> set[str]:
    """The joints a broken test blames: its rows that got worse, or, when none did (a test broken as a whole), every
    failing row's."""
    out = set()
    assert rnd.after is not None  # the round ran
    worse = rnd.regressed + rnd.worsened + rnd.unnamed
    for test in rnd.after.tests:
        if test.name in rnd.broken:
            rows = {j for t, j in worse if t == test.name}
            out |= rows or {row.path or row.joint for row in test.joints if row.status.value in ("FAIL", "WARN")}
    return out


def _path(state: AssetFix, joint: str) -> str:
    if joint.startswith("/"):
        return joint
    for path in state.allow:
        if path.rsplit("/", 1)[-1] == joint:
            return path
    return joint
