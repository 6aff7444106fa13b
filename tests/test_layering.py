"""The package's import structure: core at the bottom, no circles, each layer importing only those below it.

Walks every module's source (imports at module level, inside functions and under TYPE_CHECKING all
count: a lazy import is still a dependency) and checks the rules docs/architecture.md states.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import omni.simready.physics_validator as package

ROOT = Path(package.__file__).parent
NAME = package.__name__

# What each top-level room may import from the package (its own room always allowed).
ALLOWED = {
    "_version": set(),
    "core": {"_version"},
    "plotting": {"core"},
    "physics_tests": {"core", "plotting"},
    "engines": {"core"},
    "recording": {"core"},
    "reports": {"core", "plotting", "_version"},
    "run": {"core", "physics_tests", "engines", "recording", "_version"},
    "fix": {"core", "physics_tests", "engines", "run", "reports", "_version"},
    "ui": {"core", "physics_tests", "engines", "run", "reports", "fix", "_version"},
    "live": {"core", "physics_tests", "engines", "run", "ui", "_version"},
    "robot_import": {"core", "_version"},
    "cli": {"core", "physics_tests", "engines", "run", "reports", "fix", "robot_import", "_version"},
    "extension": {"core", "physics_tests", "engines", "run", "reports", "ui", "live", "fix", "_version"},
    "__init__": {"run", "extension", "_version"},
    "tests": None,  # the Kit test suites may use anything (they ship outside the wheel)
}


def module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = [NAME, *rel.parts]
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(ROOT.rglob("*.py"))}


def imports_of(name: str, path: Path, known: set[str], at_load: bool = False) -> set[str]:
    """Package modules that `name` imports anywhere in its source (`at_load`: in its top-level statements only)."""
    is_package = path.name == "__init__.py"
    base = name if is_package else name.rsplit(".", 1)[0]
    found: set[str] = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in (tree.body if at_load else ast.walk(tree)):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                anchor = base.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                stem = ".".join(anchor + ([node.module] if node.module else []))
            else:
                stem = node.module or ""
            targets = [f"{stem}.{alias.name}" if f"{stem}.{alias.name}" in known else stem for alias in node.names]
        for target in targets:
            while target and target not in known and "." in target:
                target = target.rsplit(".", 1)[0]
            if target in known and target != name:
                found.add(target)
    return found


def room(module: str) -> str:
    rest = module[len(NAME) + 1 :] if module != NAME else "__init__"
    return rest.split(".", 1)[0]


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    mods = modules()
    known = set(mods)
    return {name: imports_of(name, path, known) for name, path in mods.items()}


def test_core_imports_nothing_above_it(graph):
    above = ("engines", "recording", "run", "reports", "ui", "live", "cli", "extension", "physics_tests", "batch", "fix",
             "plotting")
    offenders = [(m, t) for m, targets in graph.items() if room(m) == "core" for t in targets if room(t) in above]
    assert not offenders, f"core imports a layer above it: {offenders}"


def test_every_room_imports_only_the_rooms_below_it(graph):
    offenders = []
    for module, targets in graph.items():
        allowed = ALLOWED.get(room(module), set())
        assert room(module) in ALLOWED, f"{module}: room '{room(module)}' has no layering rule in this test"
        if allowed is None:
            continue
        offenders += [(module, t) for t in targets if room(t) != room(module) and room(t) not in allowed]
    assert not offenders, "imports against the layering:\n" + "\n".join(f"  {m} -> {t}" for m, t in offenders)


def test_no_import_circle_inside_the_package(graph):
    # Tarjan's strongly connected components over the module graph.
    index, low, stack, on_stack, circles = {}, {}, [], set(), []
    counter = [0]

    def visit(node: str) -> None:
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                item = stack.pop()
                on_stack.discard(item)
                component.append(item)
                if item == node:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for node in graph:
        if node not in index:
            visit(node)
    assert not circles, f"import circles: {circles}"


def test_the_walker_sees_lazy_and_relative_imports():
    mods = modules()
    known = set(mods)
    run_batch = f"{NAME}.run.batch"
    assert f"{NAME}.engines" in imports_of(run_batch, mods[run_batch], known)  # imported inside a function
    assert f"{NAME}.core.cache" in imports_of(run_batch, mods[run_batch], known)  # from ..core.cache import ...


def test_no_module_over_450_lines():
    long = {str(p.relative_to(ROOT)): n for p in ROOT.rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > 450}
    assert not long, f"modules over 450 lines: {long}"


NOT_IN_ISAAC_SIM = ("rich", "matplotlib", "typer")  # the CLI's libraries; Isaac Sim's Python ships none of them


def module_level_imports(path: Path) -> set[str]:
    """Top-level names imported when the module loads (function bodies and TYPE_CHECKING blocks not)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in tree.body:
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            found.add(node.module.split(".")[0])
    return found


def test_the_panel_loads_without_the_command_lines_libraries(graph):
    """Kit imports the panel at the menu click; a module-level `import rich` on that path was a ModuleNotFoundError
    in Isaac Sim (the Kit tier caught it, after 8 minutes). Lazy imports inside functions the panel never calls may
    use them."""
    mods = modules()
    eager = {name: imports_of(name, path, set(mods), at_load=True) for name, path in mods.items()}
    reached, todo = set(), [m for m in mods if room(m) in ("ui", "live", "extension")]
    while todo:
        module = todo.pop()
        if module not in reached:
            reached.add(module)
            todo += eager[module]
    offenders = {m: sorted(module_level_imports(mods[m]) & set(NOT_IN_ISAAC_SIM)) for m in reached}
    assert not {m: libs for m, libs in offenders.items() if libs}

