"""TestContext.applied_forces: what the test applied for the coming step, seen by observers after that step
(the recorder draws it as arrows), then cleared."""

from __future__ import annotations

import numpy as np

from omni.simready.physics_validator.core.context import TestContext
from omni.simready.physics_validator.core.engine import EngineCapabilities
from omni.simready.physics_validator.core.results import TestResult
from omni.simready.physics_validator.core.status import Status


class ForceEngine:
    """The one protocol call this test watches (apply_force), and the capabilities record TestContext reads."""

    def __init__(self):
        self.received = []

    def capabilities(self):
        return EngineCapabilities()

    def apply_force(self, body, force, point=None):
        self.received.append((body, force, point))


def test_forces_reach_the_engine_and_observers_once_then_clear():
    engine = ForceEngine()
    ctx = TestContext(engine, asset=None, config=None, result=TestResult(name="t", status=Status.ERROR))
    seen = []
    ctx.add_observer(lambda c: seen.append(list(c.applied_forces)))
    force = np.array([0.0, 0.0, -10.0])
    ctx.apply_force("/robot/link2", force)
    ctx.apply_force("/robot/link3", [1.0, 0.0, 0.0], point=[0.1, 0.2, 0.3])
    force[2] = 99.0  # the caller reuses its array: the record keeps what was applied
    ctx.after_step()
    ctx.after_step()
    assert len(engine.received) == 2
    (body, applied, point), (body3, _, point3) = seen[0]
    assert body == "/robot/link2" and applied.tolist() == [0.0, 0.0, -10.0] and point is None
    assert body3 == "/robot/link3" and point3.tolist() == [0.1, 0.2, 0.3]
    assert seen[1] == [] and ctx.applied_forces == []
