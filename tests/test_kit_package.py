"""Headless checks of the Kit extension package: every module outside the Kit layer imports with
omni.*/carb blocked, every file compiles, extension.toml parses and declares what Kit needs."""

from __future__ import annotations

import ast
import importlib
import py_compile
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

EXT_ROOT = Path(__file__).resolve().parents[1] / "exts" / "omni.simready.physics_validator"
PACKAGE = EXT_ROOT / "omni" / "simready" / "physics_validator"
MODULE = "omni.simready.physics_validator"

# Files that import omni.*/carb at module level and only run inside Kit.
KIT_LAYER = {"extension", "ui.window", "tests.test_extension", "tests.test_kit_engine", "tests.test_panel"}
# The Kit engine, the live frontend and the panel: they import omni only inside functions, so they import here.
KIT_SIDE_OMNI_FREE = (
    "engines.kit", "engines.kit.engine", "engines.kit.layer", "engines.kit.dof_map", "engines.validation_layer",
    "live", "live.loop", "live.runner", "live.open_stage", "live.viewport", "live.active_engine",
    "ui", "ui.view_model", "ui.rows", "ui.video", "ui.headless_runner", "ui.engine_line",
)


def _modules() -> list[str]:
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).with_suffix("")
        parts = [p for p in rel.parts if p != "__init__"]
        out.append(".".join(parts))
    return out


BLOCKER = """
import importlib.abc, sys
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        top = name.split('.')[0]
        if top == 'carb' or (top == 'omni' and not name.startswith('omni.simready') and name != 'omni'):
            raise ImportError(f'blocked outside Kit: {name}')
        return None
sys.meta_path.insert(0, Block())
import importlib
failed = []
for name in sys.argv[1:]:
    try:
        importlib.import_module(name)
    except Exception as exc:
        failed.append(f'{name}: {type(exc).__name__}: {exc}')
print('\\n'.join(failed))
sys.exit(1 if failed else 0)
"""


def test_every_module_outside_the_kit_layer_imports_without_omni_or_carb():
    names = [f"{MODULE}.{m}" if m else MODULE for m in _modules() if m not in KIT_LAYER]
    kit_side = {f"{MODULE}.{m}" for m in KIT_SIDE_OMNI_FREE}
    assert kit_side <= set(names)
    proc = subprocess.run([sys.executable, "-c", BLOCKER, *names], capture_output=True, text=True, timeout=300)
    # Only omni/carb leaks fail this check; a module broken for another reason is its owner's test to catch.
    leaks = [line for line in proc.stdout.splitlines() if "blocked outside Kit" in line]
    assert not leaks, "\n".join(leaks)
    imported = set(names) - {line.split(":", 1)[0] for line in proc.stdout.splitlines()}
    assert kit_side <= imported


def test_the_blocker_really_blocks_the_kit_layer():
    proc = subprocess.run([sys.executable, "-c", BLOCKER, f"{MODULE}.extension"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1 and "blocked outside Kit: carb" in proc.stdout  # its first Kit import


def _package_imports(module: str) -> list[tuple[str, str]]:
    """(module, name) for every `from <package module> import name` in `module`'s source, lazy ones included."""
    path = PACKAGE / (module.replace(".", "/") + ".py")
    base = f"{MODULE}.{module}".rsplit(".", 1)[0].split(".")
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                stem = ".".join(base[: len(base) - (node.level - 1)] + ([node.module] if node.module else []))
            else:
                stem = node.module or ""
            if stem.startswith(MODULE):
                found += [(stem, alias.name) for alias in node.names]
    return found


@pytest.mark.parametrize("module", sorted(KIT_LAYER | set(KIT_SIDE_OMNI_FREE) - {"engines.kit", "live", "ui"}))
def test_the_kit_layer_imports_only_what_exists(module):
    """Kit code never runs here, so a moved module would only show in Kit: every package name it
    imports (at the top or inside a function) must exist."""
    for stem, name in _package_imports(module):
        short = stem[len(MODULE) + 1 :]
        if short in KIT_LAYER:  # imports omni itself: look for the name in its source
            tree = ast.parse((PACKAGE / (short.replace(".", "/") + ".py")).read_text(encoding="utf-8"))
            defined = {n.name for n in tree.body if isinstance(n, (ast.ClassDef, ast.FunctionDef))}
            defined |= {t.id for n in tree.body if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)}
            assert name in defined, f"{module} imports {name} from {stem}, which does not define it"
            continue
        target = importlib.import_module(stem)
        if name != "*" and not hasattr(target, name):
            importlib.import_module(f"{stem}.{name}")  # a submodule, or ModuleNotFoundError names it


@pytest.mark.parametrize("path", sorted(EXT_ROOT.rglob("*.py")), ids=lambda p: str(p.relative_to(EXT_ROOT)))
def test_every_extension_file_compiles(path, tmp_path):
    py_compile.compile(str(path), cfile=str(tmp_path / "out.pyc"), doraise=True)


@pytest.fixture(scope="module")
def manifest():
    return tomllib.loads((EXT_ROOT / "config" / "extension.toml").read_text(encoding="utf-8"))


def test_extension_toml_package_metadata(manifest):
    package = manifest["package"]
    for key in ("title", "version", "description", "category", "readme", "changelog", "icon", "preview_image", "keywords"):
        assert package.get(key), key
    for key in ("readme", "changelog", "icon", "preview_image"):
        assert (EXT_ROOT / package[key]).is_file(), package[key]
    from omni.simready.physics_validator import __version__

    assert package["version"] == __version__


def test_extension_toml_dependencies_and_module(manifest):
    required = {
        "omni.physx",
        "omni.physics.tensors",
        "omni.physx.tensors",  # registers the tensor API's "physx" backend
        "omni.physics.physx",  # with omni.physics.stageupdate: what steps physics on Play
        "omni.physics.stageupdate",
        "omni.timeline",
        "omni.usd",
        "omni.ui",
        "omni.kit.actions.core",
        "omni.kit.menu.utils",
        "omni.kit.viewport.utility",
    }
    assert required == set(manifest["dependencies"])
    # only one stage-update connector may be active (omni.physx.stageupdate detaches itself otherwise)
    assert "omni.physx.stageupdate" not in manifest["dependencies"]
    # omni.kit.app is the kernel (Kit 110.4's solver exits 55 on it); omni.kit.pipapi is in no Isaac Sim 6.2 app,
    # and [python.pipapi] means nothing without it (issue 23; tests/kit/test_kit_solver.py runs Kit's solver)
    assert not {"omni.kit.app", "omni.kit.pipapi"} & set(manifest["dependencies"])
    assert "pipapi" not in manifest.get("python", {})
    assert [m["name"] for m in manifest["python"]["module"]] == [MODULE]
    assert manifest["settings"]["exts"][MODULE]["record_video"] is True


def test_extension_toml_test_section(manifest):
    (test,) = manifest["test"]
    assert "--no-window" in test["args"]
    assert "omni.kit.ui_test" in test["dependencies"] and "omni.kit.test" in test["dependencies"]
    excludes = test["stdoutFailPatterns"]["exclude"]
    assert any("carb.glinterop.plugin" in e for e in excludes)
    assert test["pythonTests"]["include"] == [f"{MODULE}.tests.*"]


def test_the_package_does_not_swallow_the_extensions_import_error():
    """Inside Kit a broken import must fail the enable, not enable an extension without its IExt class."""
    tree = ast.parse((PACKAGE / "__init__.py").read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Try):
            guarded = [n for n in ast.walk(node) if isinstance(n, ast.ImportFrom) and n.module == "extension"]
            assert not guarded, "from .extension import * sits inside a try"


def test_each_extension_names_itself_in_its_own_premake():
    """get_current_extension_info() takes the calling script's folder name: it belongs in the extension's
    folder, never in the repository root's premake5.lua."""
    root = (EXT_ROOT.parents[1] / "premake5.lua").read_text(encoding="utf-8")
    code = "\n".join(line.split("--", 1)[0] for line in root.splitlines())
    assert "get_current_extension_info" not in code and 'include(ext)' in code
    own = (EXT_ROOT / "premake5.lua").read_text(encoding="utf-8")
    assert "get_current_extension_info()" in own and "project_ext(ext)" in own
    linked = {folder for folder in ("data", "docs", "omni") if f'{{ "{folder}", ext.target_dir' in own}
    assert linked == {"data", "docs", "omni"}


def test_kit_suites_use_the_harness_ways_in_and_wall_clock_waits():
    panel = (PACKAGE / "tests" / "test_panel.py").read_text(encoding="utf-8")
    assert ".window.vm" not in panel and "MAX_FRAMES" not in panel
    assert "time.monotonic()" in panel and "ui_test.find(" in panel and "wait_n_updates" in panel
    engine = (PACKAGE / "tests" / "test_kit_engine.py").read_text(encoding="utf-8")
    assert "PhysicsMemoryStageBaseAsyncTestCase" in engine and "def_up_and_mpu=False" in engine


def test_kit_suites_are_registered_in_the_tests_package():
    init = (PACKAGE / "tests" / "__init__.py").read_text()
    for suite in sorted((PACKAGE / "tests").glob("test_*.py")):
        assert f"from .{suite.stem} import *" in init, suite.name


def test_extension_images_are_pngs():
    from PIL import Image

    with Image.open(EXT_ROOT / "data" / "icon.png") as icon:
        assert icon.format == "PNG" and icon.size[0] == icon.size[1] >= 128
    with Image.open(EXT_ROOT / "data" / "preview.png") as preview:
        assert preview.format == "PNG" and preview.size[0] > preview.size[1]


def test_version_is_declared_once(manifest):
    from omni.simready.physics_validator._version import __version__

    pyproject = tomllib.loads((EXT_ROOT.parents[1] / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" in pyproject["project"]["dynamic"], "pyproject.toml must read the version from _version.py"
    assert manifest["package"]["version"] == __version__, "config/extension.toml's version differs from _version.py"


def test_the_wheel_leaves_out_the_kit_suites(tmp_path):
    """The omni.kit.test suites need Kit; they ship in the extension folder, never in the pip wheel."""
    import zipfile

    pytest.importorskip("wheel")
    repo = EXT_ROOT.parents[1]
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation", str(repo), "-w", str(tmp_path)],
        capture_output=True, text=True, timeout=600,
    )
    assert build.returncode == 0, build.stderr[-2000:]
    names = zipfile.ZipFile(next(tmp_path.glob("*.whl"))).namelist()
    package = "omni/simready/physics_validator/"
    assert f"{package}core/session.py" in names and f"{package}reports/templates/report.html.j2" in names
    assert f"{package}reports/viewer/three-replay.min.js" in names  # the 3D replay's viewer: nothing fetched at view time
    assert not [n for n in names if n.startswith(f"{package}tests/")]
