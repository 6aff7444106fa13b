"""Hints agree with the physics and with `fix` (issue 25): chosen by code, none asks for a setting of its own test
to change (that would loosen the test), the zero-return hint names stiffness (what `fix` raises for a gravity
offset), and a blocked joint's sentence says where it stopped relative to its endpoint."""

from __future__ import annotations

import math

import pytest

from omni.simready.physics_validator.core.results import JointRow
from omni.simready.physics_validator.core.status import Status
from omni.simready.physics_validator.fix.outcome import stop_text
from omni.simready.physics_validator.physics_tests import default_registry

REGISTRY = default_registry()


def all_hints(test_cls) -> list[tuple[str, str]]:
    row = JointRow(joint="j", status=Status.FAIL, limits={"unit": "rad/s", "source": "physxJoint:maxJointVelocity"})
    out = []
    for code, hints in test_cls.hints.by_code.items():
        for hint in hints:
            text = hint(row) if callable(hint) and "row" in hint.__code__.co_varnames[:1] else (
                hint(None) if callable(hint) else hint)
            out.append((code, text or ""))
    return out


@pytest.mark.parametrize("name", REGISTRY.names())
def test_no_hint_asks_to_loosen_its_test(name):
    """A hint naming one of its test's own settings would tell the author to weaken the test that judged him."""
    test_cls = REGISTRY.get(name)
    settings = {k for k in set(test_cls.Config.model_fields) | set(getattr(test_cls.Config, "renamed", {})) if "_" in k}
    for code, text in all_hints(test_cls):
        named = sorted(k for k in settings if k in text)
        assert not named, f"{name} {code}: the hint names the test's setting(s) {named}: {text}"


def test_the_zero_return_hint_is_stiffness_as_fix_proposes():
    (zero,) = REGISTRY.get("full_range_sweep").hints.for_codes(["NOT_RETURNED"])
    assert "raise drivestiffness" in zero.lower() and "does not remove an offset" in zero
    assert "raise drivedamping" not in zero.lower() and "sweep_speed_scale" not in zero


def test_a_drive_less_skip_without_an_engine_still_says_what_to_add():
    """Called with no context (a precheck): the generic sentence naming the flag, and no snippet."""
    hints = REGISTRY.get("effort_limit").hints.for_codes(["NOTHING_TO_TEST"])
    assert len(hints) == 1 and "--add-drives" in hints[0]


def test_a_blocked_joints_sentence_never_reads_blocked_before_an_endpoint_it_passed():
    end, past, short = math.radians(144), math.radians(149), math.radians(31.7)
    assert stop_text("max", end, past, 0.0, "rad") == "held past its max endpoint 144°, at 149° (something pushes it there)"
    assert stop_text("max", end, short, 0.0, "rad") == "stops at 31.7°, short of its max endpoint 144°"
    assert stop_text("min", -end, -past, 0.0, "rad").startswith("held past its min endpoint -144°, at -149°")
    assert stop_text("min", -end, -short, 0.0, "rad") == "stops at -31.7°, short of its min endpoint -144°"


def test_a_stop_and_its_endpoint_never_read_the_same():
    """The Z1's joint6 read "stops at 128°, short of its max endpoint 128°": digits enough to tell them apart."""
    assert stop_text("max", math.radians(128.4), math.radians(127.6), 0.0, "rad") == \
        "stops at 127.6°, short of its max endpoint 128.4°"
