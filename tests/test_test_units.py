"""A test is one unit: nothing outside its folder names it, no module matches the words of a reason, and every code
a test gives is one it declares (issue: each test one unit, coded verdicts).

The first two walk the package's source (string constants that are not docstrings; comparisons and string methods
on `reason` / `why` attributes); the third runs nothing: it reads each test's declared code enums and hint tables.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

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
