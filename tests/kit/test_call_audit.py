"""The extension's omni.* / carb calls checked against the Python sources and stubs of the real Isaac Sim 6.2 wheels
(omni.physx, omni.physics.tensors, omni.physx.tensors, omni.physics.stageupdate at 110.4.4,
isaacsim.core.simulation_manager, the kernel's omni.kit.app, omni.ext and carb): a module, name, method or keyword
they do not have fails the audit. Negative controls: deliberately wrong calls, and the extension's own modules with
one call broken, must fail it. Nothing here starts Kit; it reads the wheels the kit tier installed.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from tests.kit.api_index import ApiIndex
from tests.kit.call_audit import STUB_ONLY, CallAudit
from tests.kit.harness import EXT_ROOT, SITE

PACKAGE = "omni.simready.physics_validator"
PACKAGE_ROOT = EXT_ROOT / "omni" / "simready" / "physics_validator"
# every module of the Kit layer (the ones that import omni.* or carb)
KIT_LAYER = ["extension.py", "ui/window.py", "live/runner.py", "live/open_stage.py", "live/viewport.py",
             "live/active_engine.py", "engines/kit/engine.py", "engines/kit/layer.py"]
REAL = ["omni.physx", "omni.physics.tensors", "omni.physx.tensors", "omni.physics.stageupdate", "omni.physics.physx",
        "omni.physics"]


def _index() -> ApiIndex:
    isaacsim = SITE / "isaacsim"
    roots = [isaacsim / "kit" / "kernel" / "py", isaacsim / "exts" / "isaacsim.core.simulation_manager"]
    for name in REAL:
        (folder,) = sorted((isaacsim / "extscache").glob(f"{name}-110.4.4+*"))
        roots.append(folder)
    return ApiIndex(roots)


def _audit(files=KIT_LAYER, replace: tuple[str, str, str] | None = None):
    audit = CallAudit(_index(), PACKAGE_ROOT, PACKAGE)
    if replace is None:
        return audit.audit_files(list(files))
    relative, old, new = replace
    source = (PACKAGE_ROOT / relative).read_text(encoding="utf-8")
    assert old in source, f"{relative} no longer contains {old!r}"
    return audit.audit_source(source.replace(old, new), name=relative[:-3].replace("/", "."))


@pytest.fixture(scope="module")
def findings(kit_venv):
    return _audit()


def test_every_call_to_the_real_6_2_wheels_exists_with_its_keywords(findings):
    wrong = [f for f in findings if f.status in ("missing", "bad call", "untyped")]
    assert not wrong, "\n".join(f"{f.file}:{f.line} {f.call}: {f.status} {f.detail}" for f in wrong)
    counts = Counter(f.status for f in findings)
    checked = [f for f in findings if f.status == "ok" and not f.call.startswith(("import ", "from "))]
    assert len(checked) >= 60, counts
    print(f"\ncall audit: {dict(counts)}; {len(checked)} calls and attributes checked against the wheels")


def test_the_calls_that_matter_are_among_the_checked(findings):
    """The audit must reach into helpers, `self` attributes and the duck-typed layer module, not just top-level
    calls: these are the calls issue 23 names or that a Kit update is most likely to break."""
    checked = {re.sub(r".*\.", "", f.call) for f in findings if f.status == "ok"}
    for name in ("set_simulation_layer", "subscribe_physics_on_step_events", "get_simulation_event_stream_v2",
                 "overwrite_gpu_setting", "get_overwrite_gpu_setting", "reset_simulation", "attach_stage",
                 "apply_force_at_pos", "create_simulation_view", "create_articulation_view", "set_dof_position_targets",
                 "observe_event", "GLOBAL_EVENT_UPDATE", "get_settings", "get_extension_name", "log_warn", "Float3",
                 "get_enabled_extension_id", "dof_paths", "get_physics_interface", "get_simulation_ids",
                 "get_simulation_name", "is_simulation_active", "get_kit_version", "is_extension_enabled", "log_info"):
        assert name in checked, name


def test_calls_into_stub_only_extensions_are_cited_where_they_are_made(findings):
    """omni.ui, omni.usd, omni.timeline ... are defined only by the kit-sdk that PyPI ships as a stub: they cannot be
    audited here, so each calling module names the extension in its docstring with the public source it follows."""
    cited = [f for f in findings if f.status == "cited"]
    assert cited
    used: dict[str, set] = {}
    for f in cited:
        used.setdefault(f.file, set()).add(next(m for m in STUB_ONLY if f.detail == m or f.detail.startswith(m + ".")))
    for file, modules in used.items():
        doc = Path(file).read_text(encoding="utf-8").split('"""')[1]
        uncited = {m for m in modules if m not in doc}
        assert not uncited, f"{file} calls {sorted(uncited)} without naming them and their source in its docstring"
    print(f"\nstub-only calls (cited, not auditable): {len(cited)} in {len(used)} modules: "
          f"{sorted(set().union(*used.values()))}")


def test_negative_control_wrong_calls_fail_the_audit(kit_venv):
    source = '''
import omni.physx
import omni.physx.no_such_module
import omni.physics.tensors as tensors
import carb.eventdispatcher
from omni.physx.bindings._physx import SimulationEvents


def run(fn):
    physx = omni.physx.get_physx_interface()
    physx.set_simulation_layer(layer="x", flush=True)
    physx.subscribe_physics_on_step(fn)
    physx.set_simulation_layer(None)
    tensors.create_simulation_view("numpy", stage=1)
    carb.eventdispatcher.get_eventdispatcher().observe_event(event="x", on_event=fn)
    omni.physx.get_physx_simulation_interface().simulate(1.0 / 60.0)
'''
    audit = CallAudit(_index(), PACKAGE_ROOT, PACKAGE)
    wrong = {(f.line, f.status) for f in audit.audit_source(source) if f.status in ("missing", "bad call")}
    assert wrong == {(3, "missing"), (6, "missing"), (11, "bad call"), (12, "missing"), (13, "bad call"),
                     (14, "bad call"), (15, "bad call"), (16, "bad call")}, sorted(wrong)


@pytest.mark.parametrize("relative, old, new", [
    ("live/runner.py", "interface.subscribe_physics_on_step_events(pre_step, True, 0)",
     "interface.subscribe_physics_on_step_events(pre_step, True, order=0, priority=1)"),
    ("engines/kit/engine.py", "set_simulation_layer(NO_SIMULATION_LAYER)", "set_simulation_layer(None)"),
    ("extension.py", "omni.ext.get_extension_name(ext_id)", "omni.ext.get_extension_id_name(ext_id)"),
    ("live/runner.py", "event_name=omni.kit.app.GLOBAL_EVENT_UPDATE", "event_name=omni.kit.app.GLOBAL_EVENT_TICK"),
], ids=["keyword", "None-for-str", "function", "constant"])
def test_negative_control_the_extension_with_one_call_broken_fails_the_audit(kit_venv, relative, old, new):
    wrong = [f for f in _audit(replace=(relative, old, new)) if f.status in ("missing", "bad call")]
    assert len(wrong) == 1, wrong
