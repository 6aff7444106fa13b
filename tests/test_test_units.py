"""A test is one unit: nothing outside its folder names it, no module matches the words of a reason, and every code
a test gives is one it declares (issue: each test one unit, coded verdicts).

The first two walk the package's source (string constants that are not docstrings; comparisons and string methods
on `reason` / `why` attributes); the third runs nothing: it reads each test's declared code enums and hint tables.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import omni.simready.physics_validator as package
from omni.simready.physics_validator.core.codes import CommonCode, code_value
from omni.simready.physics_validator.physics_tests import default_registry

ROOT = Path(package.__file__).parent
TEST_NAMES = default_registry().names()
REASON_ATTRIBUTES = {"reason", "why", "before_reason", "after_reason"}
STRING_METHODS = {"startswith", "endswith", "find", "index", "count", "split", "partition", "rpartition"}


def package_modules(outside: str | None = None):
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT)
        if rel.parts[0] == "tests":  # the Kit suites ship outside the wheel and may name what they test
            continue
        if outside is not None and rel.parts[0] == outside:
            continue
        yield rel, ast.parse(path.read_text(encoding="utf-8"))


def docstrings(tree: ast.AST) -> set[int]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                out.add(id(first.value))
    return out


def test_no_module_outside_physics_tests_names_a_test():
    pattern = re.compile(r"(?<![A-Za-z0-9_])(" + "|".join(map(re.escape, TEST_NAMES)) + r")(?![A-Za-z0-9_])")
    found = []
    for rel, tree in package_modules(outside="physics_tests"):
        skip = docstrings(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
                if pattern.search(node.value):
                    found.append(f"{rel}:{node.lineno}: {node.value[:70]!r}")
    assert not found, "test names outside physics_tests/ (ask the registry instead):\n" + "\n".join(found)


def _reason_attribute(node: ast.AST) -> bool:
    return isinstance(node, ast.Attribute) and node.attr in REASON_ATTRIBUTES


def test_no_module_matches_the_words_of_a_reason():
    found = []
    for rel, tree in package_modules():
        for node in ast.walk(tree):
            if isinstance(node, ast.Compare) and any(isinstance(op, (ast.In, ast.NotIn)) for op in node.ops):
                if any(_reason_attribute(c) for c in node.comparators):
                    found.append(f"{rel}:{node.lineno}: `... in <reason>`")
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in STRING_METHODS:
                if _reason_attribute(node.func.value):
                    found.append(f"{rel}:{node.lineno}: <reason>.{node.func.attr}(...)")
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in (
                    "match", "search", "fullmatch", "findall") and any(_reason_attribute(a) for a in node.args):
                found.append(f"{rel}:{node.lineno}: a regular expression on a reason")
    assert not found, "reasons are sentences for people; act on codes:\n" + "\n".join(found)


def test_fix_reads_no_reason_at_all():
    found = []
    for rel, tree in package_modules():
        if rel.parts[0] != "fix":
            continue
        conditions = []
        for node in ast.walk(tree):
            if isinstance(node, (ast.If, ast.IfExp, ast.While, ast.Assert)):
                conditions.append(node.test)
            elif isinstance(node, ast.comprehension):
                conditions.extend(node.ifs)
            elif isinstance(node, ast.Compare):
                conditions.append(node)
        for condition in conditions:
            if any(_reason_attribute(n) for n in ast.walk(condition)):
                found.append(f"{rel}:{condition.lineno}")
    assert not found, "fix/ decides on reasons (it may only copy them into its own sentences):\n" + "\n".join(found)


def test_every_hint_and_fix_rule_names_a_declared_code():
    registry = default_registry()
    for name in registry.names():
        test_cls = registry.get(name)
        declared = registry.declared_codes(test_cls)
        assert test_cls.codes, f"{name} declares no codes"
        table = test_cls.hints
        used = set(table.by_code) | set(table.suppressed_by) | set(table.exclusive)
        rules = test_cls.fix_rules
        used |= set(rules.tunes) | set(rules.migrated) | set(rules.not_fixable) | set(rules.tune_on_skip)
        used |= set(rules.adds_drives_on)
        undeclared = {code_value(c) for c in used} - declared
        assert not undeclared, f"{name}: hints or fix rules name codes it does not declare: {undeclared}"
    assert CommonCode.NO_VERDICT.value in registry.declared_codes(registry.get(registry.names()[0]))


# -- each threshold stated once, with its unit (issue: thresholds as one typed object per test) -------------------------
def _float_settings(config_cls):
    """(key, field) of every float or list-of-float setting of a test's config."""
    for key, field in config_cls.model_fields.items():
        if field.annotation in (float, list[float]):
            yield key, field


def test_every_float_setting_of_every_test_declares_a_unit_and_converts_from_one():
    """Every float setting declares a known unit, `si()` converts it, and `--set T.K=VALUE<unit>` sets it: the default
    written in the setting's own unit (or, for a list, each item so) reads back as the default."""
    from omni.simready.physics_validator.core.config import ValidationConfig
    from omni.simready.physics_validator.core.setting_units import UNITS, unit_of

    registry = default_registry()
    missing, checked = [], 0
    for name in registry.names():
        config_cls = registry.get(name).Config
        for key, field in _float_settings(config_cls):
            declared = unit_of(config_cls, key)
            if not declared or not all(part in UNITS for part in declared.split(" or ")):
                missing.append(f"{name}.{key} ({declared or 'no unit'})")
                continue
            default = field.get_default(call_default_factory=True)
            own = declared.split(" or ")[0]
            suffix = {"fraction": "x", "ratio": "x", "deg/s": "deg/s"}.get(own, own)
            text = f"[{', '.join(f'{v!r}{suffix}' for v in default)}]" if isinstance(default, list) else f"{default!r}{suffix}"
            config = ValidationConfig.defaults(registry)
            config.apply_set([f"{name}.{key}={text}"])
            value = getattr(config.for_test(name), key)
            assert value == pytest.approx(default, rel=1e-12, abs=1e-15), (name, key, text, value)
            if not isinstance(default, list):
                assert config.for_test(name).si(key) == pytest.approx(default * UNITS[own][1] if " or " not in declared
                                                                      else default)
            checked += 1
    assert not missing, "float settings without a known unit:\n" + "\n".join(missing)
    assert checked >= 100  # ten tests' configs (and the family's), not an empty walk


def _numbers_in(node) -> list[ast.Constant]:
    return [n for n in ast.walk(node) if isinstance(n, ast.Constant) and type(n.value) is float
            and n.value not in (0.0, 1.0) and 1e-6 < abs(n.value) < 1e6]


LOOKUPS = {"config", "cfg", "metrics", "limits", "measured"}


def _lookup_fallbacks(node) -> list[ast.Constant]:
    """Float defaults of `num(x, D)` and `<config|metrics|limits|measured>.get(key, D)`: a default restated."""
    if not isinstance(node, ast.Call) or len(node.args) != 2:
        return []
    func = node.func
    if isinstance(func, ast.Name) and func.id == "num":
        return _numbers_in(node.args[1])
    if isinstance(func, ast.Attribute) and func.attr == "get":
        receiver = func.value
        name = receiver.attr if isinstance(receiver, ast.Attribute) else getattr(receiver, "id", "")
        if name in LOOKUPS:
            return _numbers_in(node.args[1])
    return []


def test_no_threshold_literal_outside_a_tests_config():
    """Outside each test's config.py (its settings and `thresholds_for`), no module of physics_tests/ compares against
    a number literal, and none restates a default as the fallback of a config, metric or row lookup: the run, the fix
    rules, the rows and the plot read the one typed object (0, 1, epsilons and sentinels aside)."""
    found = []
    for path in sorted((ROOT / "physics_tests").rglob("*.py")):
        if path.name == "config.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            hits = _numbers_in(node) if isinstance(node, ast.Compare) else _lookup_fallbacks(node)
            found += [f"{path.relative_to(ROOT)}:{hit.lineno}: {hit.value!r}" for hit in hits]
    assert not found, "threshold literals outside a test's config (state them once, in its config.py):\n" + "\n".join(found)


def test_each_test_judges_a_joint_by_one_thresholds_object():
    """Every test's config has `thresholds_for`, and its fix rules size a joint against what the test judges: for
    state_accuracy, the waypoint tolerance capped by the step the joint's range caps (a 20° joint steps 2°: the
    tolerance is 0.5°, not the 3.75° of the uncapped 15° step)."""
    import math

    from omni.simready.physics_validator.core.asset_model import JointInfo, Pose
    from omni.simready.physics_validator.core.fix_rules import JointAllowance

    registry = default_registry()
    assert all(hasattr(registry.get(name).Config, "thresholds_for") for name in registry.names())
    test_cls = registry.get("state_accuracy")
    joint = JointInfo(path="/r/j", type="revolute", body0="/r/a", body1="/r/b", local_pose0=Pose(), local_pose1=Pose(),
                      lower=-math.radians(10), upper=math.radians(10))
    config = test_cls.Config()
    thresholds = config.thresholds_for(joint)
    assert thresholds.step == pytest.approx(math.radians(2.0)) and thresholds.tolerance == pytest.approx(math.radians(0.5))
    out = JointAllowance(hold=0.0)
    test_cls.fix_rules.allowance("state_accuracy", joint, config, out)
    assert [tol for _, _, tol in out.deflections] == [thresholds.tolerance]
