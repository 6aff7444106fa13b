"""Kit 110.4's own dependency solver on the extension, against Isaac Sim 6.2's real extension folders (the PyPI
wheels) plus the one folder of test doubles standing in only for extensions PyPI ships as stubs; and the manifest
from before issue 23 (with "omni.kit.app") as the negative control, through the solver API and through Kit's
command line, which stops with exit code 55."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from tests.kit.harness import EXT_ROOT, FAKE_KIT, SITE, run_kit, run_kit_cli

EXT = "omni.simready.physics_validator"
CORE = "simready.kit_doubles"  # the doubles' shared state: an extension of its own, standing in for none
OLD_MANIFEST = Path(__file__).resolve().parent / "data" / "extension_before_issue_23.toml"


def _manifest(path: Path) -> dict:
    return tomllib.loads(path.read_text(encoding="utf-8"))


def _extension_tomls() -> list[Path]:
    """Isaac Sim 6.2's extensions in the wheels: isaacsim/{exts,extscache,extsDeprecated} and the kernel's extscore."""
    root = SITE / "isaacsim"
    return sorted(root.glob("exts*/*/config/extension.toml")) + sorted(root.glob("kit/extscore/*/config/extension.toml"))


def _real_extensions() -> dict[str, dict]:
    """name -> extension.toml of every extension folder the real 6.2 wheels ship."""
    out = {}
    for toml in _extension_tomls():
        name = toml.parent.parent.name.split("-")[0] if "+" in toml.parent.parent.name else toml.parent.parent.name
        out[name] = _manifest(toml)
    return out


def _declared_by_the_wheels() -> dict[str, set[str]]:
    """name -> the exact versions real 6.2 files pin for it (empty when only named): every [dependencies] entry of
    every extension.toml and Isaac Sim .kit app file (isaacsim/apps) in the wheels."""
    declared: dict[str, set[str]] = {}
    files = _extension_tomls() + sorted((SITE / "isaacsim" / "apps").glob("*.kit"))
    for path in files:
        try:
            manifest = _manifest(path)
        except tomllib.TOMLDecodeError:
            continue
        for name, spec in manifest.get("dependencies", {}).items():
            if name.startswith("filter:"):
                continue
            pins = declared.setdefault(name, set())
            if isinstance(spec, dict) and spec.get("exact") and spec.get("version"):
                pins.add(str(spec["version"]))
    return declared


def _copy_extension(folder: Path, manifest_text: str) -> Path:
    """An extension folder holding only a manifest (the solver reads nothing else)."""
    config = folder / EXT / "config"
    config.mkdir(parents=True)
    (config / "extension.toml").write_text(manifest_text, encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def solved(kit_venv, tmp_path_factory):
    return run_kit("solve", {}, tmp_path_factory.mktemp("solve")).check()


def test_kit_resolves_the_extension_against_isaac_sim_6_2s_real_extensions(solved):
    assert solved["ok"], solved["error"]
    by_name = {row["id"].rsplit("-", 1)[0]: row for row in solved["solution"]}
    for name in _manifest(EXT_ROOT / "config" / "extension.toml")["dependencies"]:
        assert name in by_name, f"{name} is not in the solution"
    # the physics chain resolves to the real 110.4.4 wheels, the stub-only extensions to the doubles
    for name in ("omni.physx", "omni.physics.tensors", "omni.physx.tensors", "omni.physics.physx",
                 "omni.physics.stageupdate"):
        assert by_name[name]["where"] == "real" and by_name[name]["id"] == f"{name}-110.4.4", by_name[name]
    doubles = {n for n, row in by_name.items() if row["where"] == "double"}
    assert doubles and doubles <= {p.name for p in (FAKE_KIT / "exts").iterdir()}
    assert by_name[EXT]["where"] == "extension"
    print(f"\nsolution: {len(by_name)} extensions, {len(by_name) - len(doubles) - 1} real, {len(doubles)} doubles "
          f"({', '.join(sorted(doubles))})")


def test_negative_control_a_manifest_with_omni_kit_app_does_not_resolve(kit_venv, tmp_path):
    text = (EXT_ROOT / "config" / "extension.toml").read_text(encoding="utf-8")
    text = text.replace("[dependencies]\n", '[dependencies]\n"omni.kit.app" = {}\n', 1)
    folder = _copy_extension(tmp_path / "exts", text)
    result = run_kit("solve", {"ext_folder": str(folder)}, tmp_path / "kit").check()
    assert not result["ok"]
    assert "No versions of omni.kit.app that satisfies" in result["error"], result["error"]


def test_negative_control_kit_stops_with_exit_55_on_the_manifest_before_issue_23(kit_venv, tmp_path):
    assert '"omni.kit.app" = {}' in OLD_MANIFEST.read_text(encoding="utf-8")
    folder = _copy_extension(tmp_path / "exts", OLD_MANIFEST.read_text(encoding="utf-8"))
    real = [["--ext-folder", str(SITE / "isaacsim" / sub)] for sub in ("exts", "extscache", "extsDeprecated")]
    run = run_kit_cli(["omni.app.empty.kit", "--no-window", "--allow-root", "--/app/extensions/registryEnabled=0",
                       *[a for pair in real for a in pair], "--ext-folder", str(FAKE_KIT / "exts"),
                       "--ext-folder", str(folder), "--enable", EXT], tmp_path)
    assert run.returncode == 55, run.stdout[-3000:]
    assert "dependency solver failure" in run.stdout and "omni.kit.app" in run.stdout, run.stdout[-3000:]


def test_every_dependency_is_named_in_isaac_sim_6_2s_extension_set(kit_venv):
    known = set(_real_extensions()) | set(_declared_by_the_wheels())
    dependencies = set(_manifest(EXT_ROOT / "config" / "extension.toml")["dependencies"])
    assert dependencies <= known, sorted(dependencies - known)
    assert not {"omni.kit.app", "omni.kit.pipapi"} & dependencies
    assert "omni.kit.pipapi" not in known  # named by no 6.2 extension or app: issue 23
    test_dependencies = set(_manifest(EXT_ROOT / "config" / "extension.toml")["test"][0]["dependencies"])
    assert test_dependencies <= known, sorted(test_dependencies - known)


def test_every_double_stands_in_for_a_6_2_name_and_says_it_is_a_double(kit_venv):
    real, declared = _real_extensions(), _declared_by_the_wheels()
    stubs = sorted(p for p in (FAKE_KIT / "exts").iterdir() if (p / "config" / "extension.toml").is_file()
                   and p.name != CORE)
    core = _manifest(FAKE_KIT / "exts" / CORE / "config" / "extension.toml")["package"]
    assert "Test double" in core["description"] and CORE not in declared and CORE not in real  # shadows nothing
    for folder in stubs:
        package = _manifest(folder / "config" / "extension.toml")["package"]
        assert "Test double" in package["description"] and "test double" in package["title"], folder.name
        assert folder.name in declared, f"{folder.name}: no real 6.2 file names it"
        assert folder.name not in real, f"{folder.name}: the real extension is on PyPI, it needs no stub double"
        pins = declared[folder.name]
        assert pins <= {package["version"]}, f"{folder.name}: 6.2 pins {pins}, the double is {package['version']}"
    physics = sorted(p for p in (FAKE_KIT / "physics_exts").iterdir() if (p / "config" / "extension.toml").is_file())
    for folder in physics:  # the omni.physx chain: real on PyPI, cannot load here; same name and version
        package = _manifest(folder / "config" / "extension.toml")["package"]
        assert "Test double" in package["description"], folder.name
        assert package["version"] == real[folder.name]["package"]["version"], folder.name
    assert len(stubs) >= 14 and len(physics) == 6
