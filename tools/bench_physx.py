r"""Benchmark (issue 12): the five tests on `physx`, on `sapien` and as a bare ovphysx script, per simulated second.

    python tools/bench_physx.py [--asset ROBOT.usda] [--repeat 3] [--tests a,b] [--engines physx,sapien]

For each test on the asset (default: the 6-DOF fixture arm, `tests/fixtures/arms.build_arm`), in this process,
no video, the runtime already started:

- **physx / sapien**: wall seconds of the whole `TestSession` (precheck, load, test logic, steps), best of N;
- **bare**: a plain ovphysx loop over the same scene (the engine's own wrapper stage, loaded the same way) that
  replays, step by step, the raw target and wrench tensors the physx engine wrote in that test, calls
  `step_sync` and reads q, qd and every body pose through tensor bindings (three reads per step, the public
  `TensorBinding.read` into reused float32 buffers): the same state, stepped and read with nothing else;
- **bare\***: the same loop through the one-ctypes-call path the engine uses (`engines/physx/fastpath.py`), so
  physx / bare\* is the validator's own cost (test logic, context, session, conversions, bounds);
- the ratio physx / bare (goal <= 1.5) and x real time (simulated / wall; goal >= 100x for the five tests);
- every time includes the load and the close, as the runner pays them for every test;
- the per-step cost split of the physx run (instrumented separately, so the timed runs carry no probes):
  `step_sync`, binding reads, binding writes (and pre-step session writes), load + reset + close, and the rest
  (Python: the test, TestContext, session, the engine's conversions and bounds).

Timings move with machine load: the load average is printed before and after. Never put these goals in tests.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
import warnings
from collections import defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the repository root: tests.fixtures

TESTS = ["ground_drop", "velocity_limit", "full_range_sweep", "drive_gain_validation", "effort_limit"]


def _session(name: str, asset, engine):
    from omni.simready.physics_validator.core.session import TestSession
    from omni.simready.physics_validator.physics_tests import default_registry

    test_cls = default_registry().get(name)
    return TestSession(test_cls(), asset, test_cls.Config(), engine)


def validator_run(engine_name: str, name: str, asset) -> tuple[float, object]:
    from omni.simready.physics_validator.engines import create_engine

    engine = create_engine(engine_name)
    start = time.perf_counter()
    result = _session(name, asset, engine).run_to_end()
    engine.close()  # as the runner closes it after every test
    return time.perf_counter() - start, result


# -- what the physx engine wrote, step by step ------------------------------------------------------
class Tape:
    """Raw tensors the physx engine wrote per step (binding units), its resets and its scene."""

    def __init__(self):
        self.steps: list[list[tuple[str, bool, np.ndarray]]] = [[]]
        self.resets: set[int] = set()
        self.scene = None


def record_tape(name: str, asset) -> Tape:
    from omni.simready.physics_validator.engines import create_engine
    from omni.simready.physics_validator.engines.physx import engine as engine_module
    from omni.simready.physics_validator.engines.physx.reads import StateIO

    tape = Tape()
    originals = {k: getattr(StateIO, k) for k in ("write_dof_targets", "write_wrenches")}
    engine = create_engine("physx")
    original_step, original_reset, original_load = engine.step, engine.reset, engine.load

    def patched(kind):
        def write(io, raw):
            tape.steps[-1].append((kind, io.live, np.array(raw, np.float32)))
            return originals[kind](io, raw)
        return write

    def step():
        original_step()
        tape.steps.append([])

    def reset():
        tape.resets.add(len(tape.steps) - 1)
        original_reset()

    def load(asset_, scene):
        tape.scene = scene
        original_load(asset_, scene)

    engine.step, engine.reset, engine.load = step, reset, load
    try:
        for kind in originals:
            setattr(StateIO, kind, patched(kind))
        _session(name, asset, engine).run_to_end()
    finally:
        for kind, fn in originals.items():
            setattr(StateIO, kind, fn)
        engine.close()
    del engine_module
    tape.steps.pop()  # the list opened after the last step
    return tape


def bare_run(asset, tape: Tape, native: bool = False) -> float:
    """Load the same wrapper scene, then replay the tape with plain ovphysx calls: wall seconds (load and close
    included). `native`: steps, reads and writes through the same one-ctypes-call path as the engine (fastpath.py)
    instead of the public `step_sync` / `TensorBinding.read` / `.write`."""
    from omni.simready.physics_validator.engines.physx import OvPhysxEngine
    from omni.simready.physics_validator.engines.physx.session import write_per_prim

    if native:
        from omni.simready.physics_validator.engines.physx.fastpath import Stepper, direct_call

    loader = OvPhysxEngine()
    start = time.perf_counter()
    loader.load(asset, tape.scene)  # the same wrapper stage and attach (what any ovphysx script must do)
    px, stage, rt, b = loader._physx, loader._stage, loader._runtime, loader._built
    TT, SOT = rt.TensorType, rt.SimObjectType
    dt = loader.dt

    def bind():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            out = {}
            if b.articulations:
                for key, tt in (("q", TT.ARTICULATION_DOF_POSITION), ("qd", TT.ARTICULATION_DOF_VELOCITY),
                                ("target", TT.ARTICULATION_DOF_POSITION_TARGET)):
                    out[key] = px.create_tensor_binding(prim_paths=b.articulations, tensor_type=tt)
            out["pose"] = px.create_tensor_binding(prim_paths=b.bodies, tensor_type=TT.RIGID_BODY_POSE)
            if b.wrench_bodies:
                out["wrench"] = px.create_tensor_binding(prim_paths=b.wrench_bodies, tensor_type=TT.RIGID_BODY_WRENCH)
        return out

    loader._state_io.close()  # the engine's own bindings: the bare loop has its own
    bindings = bind()
    q = np.zeros(bindings["q"].shape, np.float32) if "q" in bindings else None
    qd = np.zeros_like(q) if q is not None else None
    pose = np.zeros(bindings["pose"].shape, np.float32)
    buffers = {"write_dof_targets": np.zeros(bindings["target"].shape, np.float32) if "target" in bindings else None,
               "write_wrenches": np.zeros((len(b.wrench_bodies), 9), np.float32)}
    live = False
    step = Stepper(px, dt) if native else (lambda: px.step_sync(dt))
    calls: dict = {}

    def call(key, buffer, write=False):
        if not native:
            (bindings[key].write if write else bindings[key].read)(buffer)
        elif key in calls:
            calls[key]()
        else:
            (bindings[key].write if write else bindings[key].read)(buffer)
            calls[key] = direct_call(bindings[key], buffer, write)

    for index, writes in enumerate(tape.steps):
        if index in tape.resets:
            calls.clear()
            for binding in bindings.values():
                binding.destroy()
            px.wait_task(px.detach_ovstage())
            px.wait_task(px.attach_ovstage(stage, read_ordinal=1))
            bindings, live = bind(), False
        for kind, _was_live, raw in writes:
            if live:
                buffer = buffers[kind]
                buffer[...] = raw  # one buffer per binding, as the engine (a new array costs ~10x)
                call("target" if kind == "write_dof_targets" else "wrench", buffer, write=True)
            elif kind == "write_dof_targets":
                values = {}
                for a, joints in enumerate(b.art_dofs):
                    for c, joint in enumerate(joints):
                        values[joint] = float(np.degrees(raw[a, c])) if loader._state_io.angular.get(joint,
                                                                                                     True) else float(raw[a, c])
                write_per_prim(px, stage, rt, SOT.ARTICULATION_JOINT, "jointPositionTarget", values)
            else:
                rows = {p: raw[i] for i, p in enumerate(b.wrench_bodies) if np.any(raw[i, :6])}
                for sim_type in (SOT.RIGID_BODY, SOT.ARTICULATION_LINK):
                    write_per_prim(px, stage, rt, sim_type, "wrench", rows)
        step()
        live = True
        if q is not None:
            call("q", q)
            call("qd", qd)
        call("pose", pose)
    calls.clear()
    for binding in bindings.values():
        binding.destroy()
    loader._state_io = None
    loader.close()
    return time.perf_counter() - start


# -- where the physx engine's time goes ---------------------------------------------------------------
def cost_split(name: str, asset) -> tuple[dict, int, float]:
    """Per-category seconds of one instrumented physx run (load and close included), its step count and its wall
    seconds. step = `Stepper.__call__` (the engine's step_sync); read / write = the binding calls (the public
    method the first time, the native call after it) and the pre-step session writes; load = load + reset + close;
    python = the rest."""
    import ovphysx

    from omni.simready.physics_validator.engines import create_engine
    from omni.simready.physics_validator.engines.physx import OvPhysxEngine, reads
    from omni.simready.physics_validator.engines.physx import session as session_module

    try:
        from omni.simready.physics_validator.engines.physx import fastpath
    except ImportError:  # code before the native fast path (the "before" measurement): the public step_sync
        fastpath = None

    spent: dict[str, float] = defaultdict(float)
    counts: dict[str, int] = defaultdict(int)
    patches = []

    def timed(fn, category):
        def wrapper(*args, **kwargs):
            t0 = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                spent[category] += time.perf_counter() - t0
                counts[category] += 1
        return wrapper

    def probe(owner, attr, category):
        original = getattr(owner, attr)
        setattr(owner, attr, timed(original, category))
        patches.append((owner, attr, original))

    if fastpath is not None:
        probe(fastpath.Stepper, "__call__", "step")
    else:
        probe(ovphysx.PhysX, "step_sync", "step")
    for attr in ("load", "reset", "close"):
        probe(OvPhysxEngine, attr, "load")
    probe(reads, "write_per_prim", "write")
    original_remember, original_bind = getattr(reads.StateIO, "_remember", None), reads.StateIO._bind

    def remember(io, key, binding, buffer, write):
        original_remember(io, key, binding, buffer, write)
        if key in io._direct:
            buffer_, call = io._direct[key]
            io._direct[key] = (buffer_, timed(call, "write" if write else "read"))

    def bind(io, key, tensor_type, prim_paths):
        binding = original_bind(io, key, tensor_type, prim_paths)
        for attr, category in (("read", "read"), ("write", "write")):
            setattr(binding, attr, timed(getattr(binding, attr), category))  # the public call (first of each buffer)
        return binding

    reads.StateIO._bind = bind
    if original_remember is not None:
        reads.StateIO._remember = remember
    engine = create_engine("physx")
    start = time.perf_counter()
    try:
        _session(name, asset, engine).run_to_end()
        engine.close()
    finally:
        wall = time.perf_counter() - start
        reads.StateIO._bind = original_bind
        if original_remember is not None:
            reads.StateIO._remember = original_remember
        for owner, attr, original in reversed(patches):
            setattr(owner, attr, original)
    del session_module
    steps = counts["step"]
    spent["python"] = wall - sum(spent[k] for k in ("step", "read", "write", "load"))
    spent["reads_per_step"] = counts["read"] / max(steps, 1)
    spent["writes_per_step"] = counts["write"] / max(steps, 1)
    return spent, steps, wall


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--asset", default="", help="robot USD (default: the 6-DOF fixture arm)")
    parser.add_argument("--repeat", type=int, default=3, help="best of N runs (default 3)")
    parser.add_argument("--tests", default=",".join(TESTS))
    parser.add_argument("--engines", default="physx,sapien")
    args = parser.parse_args(argv)

    from omni.simready.physics_validator.core.usd import read_asset
    from omni.simready.physics_validator.engines import EngineUnavailable, engine_class

    if args.asset:
        path = Path(args.asset)
    else:
        from tests.fixtures.arms import build_arm

        path = build_arm(Path(tempfile.mkdtemp(prefix="bench_physx_")) / "arm6.usda")
    asset = read_asset(path)
    tests = [t.strip() for t in args.tests.split(",") if t.strip()]
    engines = []
    for name in [e.strip() for e in args.engines.split(",") if e.strip()]:
        try:
            engine_class(name)
            engines.append(name)
        except EngineUnavailable as exc:
            print(f"{name}: skipped ({exc})")
    load_before = os.getloadavg()
    for name in engines:  # start each runtime once (ovphysx + Warp ≈ 0.5 s): not part of any test's time
        validator_run(name, "ground_drop", asset)

    rows = []
    for test in tests:
        row = {"test": test}
        for name in engines:
            best, result = np.inf, None
            for _ in range(args.repeat):
                wall, result = validator_run(name, test, asset)
                best = min(best, wall)
            row[name] = (best, result.simulated_seconds, result.status.value)
        if "physx" in engines:
            tape = record_tape(test, asset)
            row["bare"] = (min(bare_run(asset, tape) for _ in range(args.repeat)),
                           len(tape.steps) / 240.0) if tape.scene else None
            try:
                row["native"] = min(bare_run(asset, tape, native=True) for _ in range(args.repeat)) if tape.scene else None
            except ImportError:  # code without engines/physx/fastpath.py
                row["native"] = None
            row["split"] = cost_split(test, asset)
        rows.append(row)
    load_after = os.getloadavg()

    print(f"asset: {path}  ({len(asset.dof_joints)} DOF); load average before {load_before[0]:.2f}/{load_before[1]:.2f}, "
          f"after {load_after[0]:.2f}/{load_after[1]:.2f} (1/5 min), {os.cpu_count()} CPUs; best of {args.repeat}")
    head = f"{'test':24s} {'sim s':>6s}"
    for name in engines:
        head += f" {name + ' s':>9s} {'x real':>7s}"
    head += f" {'bare s':>8s} {'x real':>7s} {'physx/bare':>10s} {'bare* s':>8s} {'physx/bare*':>11s}  verdicts"
    print(head)
    totals = defaultdict(float)
    for row in rows:
        sim = row[engines[0]][1] if engines else 0.0
        line = f"{row['test']:24s} {sim:6.2f}"
        verdicts = []
        for name in engines:
            wall, sim_e, status = row[name]
            totals[name] += wall
            totals[name + "_sim"] += sim_e
            line += f" {wall:9.3f} {sim_e / wall:6.0f}x"
            verdicts.append(f"{name} {status}")
        if row.get("bare"):
            bare, sim_b = row["bare"]
            totals["bare"] += bare
            totals["bare_sim"] += sim_b
            line += f" {bare:8.3f} {sim_b / bare:6.0f}x {row['physx'][0] / bare:9.2f}x"
            if row["native"]:
                totals["native"] += row["native"]
                line += f" {row['native']:8.3f} {row['physx'][0] / row['native']:10.2f}x"
        print(line + "  " + ", ".join(verdicts))
    line = f"{'five tests' if len(tests) == 5 else 'all':24s} {totals[engines[0] + '_sim'] if engines else 0:6.2f}"
    for name in engines:
        line += f" {totals[name]:9.3f} {totals[name + '_sim'] / totals[name]:6.0f}x"
    if totals["bare"]:
        line += f" {totals['bare']:8.3f} {totals['bare_sim'] / totals['bare']:6.0f}x {totals['physx'] / totals['bare']:9.2f}x"
        if totals["native"]:
            line += f" {totals['native']:8.3f} {totals['physx'] / totals['native']:10.2f}x"
    print(line)
    if any(r.get("split") for r in rows):
        print("\nphysx per-step cost split (µs per step, instrumented run; load + reset + close in ms per test):")
        print(f"{'test':24s} {'steps':>6s} {'step':>7s} {'reads':>7s} {'writes':>7s} {'python':>7s} {'total':>7s} "
              f"{'reads/st':>8s} {'writes/st':>9s} {'load ms':>8s}")
        for row in rows:
            spent, steps, wall = row["split"]
            us = {k: spent[k] / max(steps, 1) * 1e6 for k in ("step", "read", "write", "python")}
            total = (wall - spent["load"]) / max(steps, 1) * 1e6
            print(f"{row['test']:24s} {steps:6d} {us['step']:7.1f} {us['read']:7.1f} {us['write']:7.1f} {us['python']:7.1f} "
                  f"{total:7.1f} {spent['reads_per_step']:8.2f} {spent['writes_per_step']:9.2f} "
                  f"{spent['load'] * 1e3:8.1f}")
    print("goals: the five tests >= 100x real time on physx; physx <= 1.5x the bare ovphysx loop")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
