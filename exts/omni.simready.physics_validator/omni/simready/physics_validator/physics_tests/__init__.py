"""The built-in physics tests and the registry a run uses.

`ground_drop` is one module; the four driven-joint tests and what they share live in `driven/`.
`default_registry()` holds the built-ins, then third-party tests from the entry-point group
`omni.simready.physics_validator.tests` (core.plugin.ENTRY_POINT_GROUP).
"""

from __future__ import annotations

from ..core.plugin import PhysicsTest, TestRegistry, load_entry_points
from .driven.drive_gain_validation import DriveGainValidationTest
from .driven.effort_limit import EffortLimitTest
from .driven.full_range_sweep import FullRangeSweepTest
from .driven.velocity_limit import VelocityLimitTest
from .ground_drop import GroundDropTest

BUILTIN_TESTS: tuple[type[PhysicsTest], ...] = (
    GroundDropTest,
    VelocityLimitTest,
    FullRangeSweepTest,
    DriveGainValidationTest,
    EffortLimitTest,
)

_REGISTRY: TestRegistry | None = None


def default_registry() -> TestRegistry:
    """The process-wide registry: the built-in tests in spec order, then entry-point plugins."""
    global _REGISTRY
    if _REGISTRY is None:
        registry = TestRegistry()
        for test_cls in BUILTIN_TESTS:
            registry.register(test_cls)
        load_entry_points(registry)
        _REGISTRY = registry
    return _REGISTRY


__all__ = ["BUILTIN_TESTS", "default_registry"]
