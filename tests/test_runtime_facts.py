"""One model of the asset: no test, rig or fix rule reads a physics property from the USD reading where the runtime's
model has it (issue 40; docs/architecture.md "One model of the asset").

The asset model keeps the authored values beside the runtime's, under different names:

- BodyInfo / ColliderInfo `.mass`, `.density`, BodyInfo `.center_of_mass`, `.diagonal_inertia`, `.principal_axes` are
  authored; the runtime's are `BodyInfo.built_mass_properties` (`.mass`, `.com`, `.inertia`);
- ColliderInfo `.collision_enabled`, `.trigger` are authored; the runtime's is `ColliderInfo.collides`;
- JointInfo `.exclude_from_articulation` is authored; the runtime's membership is `JointInfo.articulation`,
  `BodyInfo.articulation`, `AssetModel.articulations`.

This test walks every module under physics_tests/ (the tests and their rigs) and fix/ and fails on a read of an
authored name. A read is allowed only where it is listed below with why: writing an authored spelling, naming the
authored attribute behind what the runtime did, or a fact the runtime's model does not hold. An entry that no longer
matches anything fails too, so the list stays exact. `.mass` is a read of the authored value only on a body or a
collider (a name bound from `.bodies` / `.colliders`, or called body / collider); `.collision_enabled` on a joint
(whether a joint's two bodies collide) is not in the runtime's model and is not flagged.
"""

from __future__ import annotations

import ast
from pathlib import Path

import omni.simready.physics_validator as package

ROOT = Path(package.__file__).parent
SCOPE = ("physics_tests", "fix")

RUNTIME_NAME = {
    "mass": "BodyInfo.built_mass_properties.mass",
    "density": "BodyInfo.built_mass_properties (the runtime's mass, whatever the spelling)",
    "center_of_mass": "BodyInfo.built_mass_properties.com",
    "diagonal_inertia": "BodyInfo.built_mass_properties.inertia (or .principal_moments)",
    "principal_axes": "BodyInfo.built_mass_properties.principal_axes",
    "collision_enabled": "ColliderInfo.collides",
    "trigger": "ColliderInfo.collides",
    "exclude_from_articulation": "JointInfo.articulation / ctx.asset.articulations (the runtime's membership)",
}
BODY_SOURCES = ("bodies", "colliders", "dynamic_bodies", "static_colliders", "bounding_colliders")
BODY_NAMES = {"body", "collider", "info"}
JOINT_SOURCES = ("joints", "world_anchors", "dof_joints")
JOINT_NAMES = {"j", "joint"}

# (module, enclosing function, attribute) -> why this read of an authored value is right. Keep it exact.
ALLOWED: dict[tuple[str, str, str], str] = {
    ("physics_tests/ground/ground_drop/test.py", "collisions_disabled", "collision_enabled"):
        "names the authored attribute behind a fall-through the runtime simulated (the verdict is the fall)",
    ("physics_tests/driven/jacobian_ik/membership.py", "outside_story", "exclude_from_articulation"):
        "names the authored attribute behind a joint the runtime left out of its articulation (the SKIP follows the "
        "runtime's membership)",
}


def authored_reads(source: str) -> list[tuple[str, str, int]]:
    """(enclosing function, attribute, line) of every read of an authored physics value in `source`."""
    tree = ast.parse(source)
    found: list[tuple[str, str, int]] = []

    def kind_of(node: ast.expr, bound: dict[str, str]) -> str:
        """'body' (a body or collider), 'joint', or '' for what a receiver expression is."""
        if isinstance(node, ast.Name):
            if node.id in BODY_NAMES:
                return "body"
            if node.id in JOINT_NAMES:
                return "joint"
            return bound.get(node.id, "")
        if isinstance(node, ast.Subscript):
            return _source_kind(node.value)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get":
            return _source_kind(node.func.value)
        return ""

    def visit(node: ast.AST, function: str, bound: dict[str, str]) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            name = node.name if not function else f"{function}.{node.name}"
            for child in ast.iter_child_nodes(node):
                visit(child, name if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) else node.name, dict(bound))
            return
        if isinstance(node, (ast.For, ast.comprehension)):
            kind = _source_kind(node.iter)
            for target in ast.walk(node.target):
                if isinstance(target, ast.Name) and kind:
                    bound[target.id] = kind
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            kind = kind_of(node.value, bound)
            if kind:
                bound[node.targets[0].id] = kind
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            for generator in node.generators:
                visit(generator, function, bound)
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load) and node.attr in RUNTIME_NAME:
            receiver = kind_of(node.value, bound)
            flagged = {"mass": receiver == "body", "collision_enabled": receiver != "joint"}.get(node.attr, True)
            if flagged and not _under_built(node.value):
                found.append((function or "<module>", node.attr, node.lineno))
        for child in ast.iter_child_nodes(node):
            if not isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)) or \
                    not isinstance(child, ast.comprehension):
                visit(child, function, bound)

    visit(tree, "", {})
    return sorted(set(found), key=lambda f: (f[2], f[1]))


def _source_kind(node: ast.expr) -> str:
    """What iterating or indexing `node` yields: 'body' for bodies and colliders, 'joint' for joints, else ''."""
    text = ast.unparse(node)
    if any(f".{name}" in text or text == name for name in BODY_SOURCES):
        return "body"
    if any(f".{name}" in text or text == name for name in JOINT_SOURCES):
        return "joint"
    return ""


def _under_built(node: ast.expr) -> bool:
    return "built_mass_properties" in ast.unparse(node)


def _reads() -> dict[tuple[str, str, str], list[int]]:
    out: dict[tuple[str, str, str], list[int]] = {}
    for folder in SCOPE:
        for path in sorted((ROOT / folder).rglob("*.py")):
            module = path.relative_to(ROOT).as_posix()
            for function, attribute, line in authored_reads(path.read_text()):
                out.setdefault((module, function, attribute), []).append(line)
    return out


def test_no_test_rig_or_fix_rule_reads_an_authored_physics_value():
    reads = _reads()
    unlisted = [f"{module}:{lines[0]} {function}(): .{attribute} is the authored value; the runtime's is "
                f"{RUNTIME_NAME[attribute]}" for (module, function, attribute), lines in reads.items()
                if (module, function, attribute) not in ALLOWED]
    assert not unlisted, "tests, rigs and fix rules take physics from what the runtime built:\n" + "\n".join(unlisted)


def test_every_allowed_read_still_exists():
    """Each entry still matches a read (an entry for a module this checkout does not have yet, another helper's work in
    flight, waits for it)."""
    reads = _reads()
    stale = [f"{key}" for key in ALLOWED if key not in reads and (ROOT / key[0]).exists()]
    assert not stale, "allow-list entries that match nothing (remove them):\n" + "\n".join(stale)


def test_the_rule_tells_a_body_s_authored_mass_from_other_masses():
    """What the walk flags and what it leaves: the rule itself, on code written for it."""
    source = '''
def sized(asset, plan, props):
    body = asset.bodies["/a"]
    heavy = [b.mass for b in asset.bodies.values() if b.mass]
    light = asset.colliders["/c"].density
    ok = plan.mass + props.mass + body.built_mass_properties.mass
    blocked = [j for j in asset.joints.values() if not j.collision_enabled]
    touching = [c for c in asset.colliders.values() if c.collision_enabled and not c.trigger]
    return body.mass, body.center_of_mass, heavy, light, ok, blocked, touching
'''
    flagged = [(attribute, line) for _, attribute, line in authored_reads(source)]
    assert flagged == [("mass", 4), ("density", 5), ("collision_enabled", 8), ("trigger", 8), ("center_of_mass", 9),
                       ("mass", 9)], flagged
