"""The doubles of the stub-only extensions refuse what Kit 110.4 refuses, checked against the C++ headers that ship
with the real kernel (isaacsim-kernel 6.2.0.0, `isaacsim/kit/dev/include`): a test double that accepts a call the
real API would not see through lets a wrong call pass here and fail in Isaac Sim.

- omni.ui: every constructor's keywords are the ones `bind/Bind<Class>.h` lists in `OMNIUI_PYBIND_INIT_<Class>` (its
  base class's included); the real binding ignores any other keyword silently (`bind/BindUtils.h`), the double
  refuses it;
- omni.timeline: `TimelineEventType` has the members and values of `omni/timeline/TimelineTypes.h`;
- omni.usd: `StageEventType` has the values of `omni/usd/UsdTypes.h`, and `stage_event_name()` gives the Events 2.0
  names of its `detail::stageEventName` table, refusing anything that is not a StageEventType.

Nothing here starts Kit; it reads the headers the kit tier installed.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

from tests.fixtures.fake_kit import EXTS, kit as double
from tests.kit.harness import SITE

INCLUDE = SITE / "isaacsim" / "kit" / "dev" / "include" / "omni"
DEFINE = re.compile(r"^#define (OMNIUI_PYBIND_INIT_\w+)((?:[^\n]*\\\n)*[^\n]*)", re.M)
KEYWORD = re.compile(r"OMNIUI_PYBIND_INIT_(?:CAST|CALL|EXT_CALL|CALLBACK)\(\s*(?:\\\s*)*(\w+)")
NESTED = re.compile(r"\b(OMNIUI_PYBIND_INIT_[A-Z]\w*)\b")
SETTERS = {"OMNIUI_PYBIND_INIT_CAST", "OMNIUI_PYBIND_INIT_CALL", "OMNIUI_PYBIND_INIT_EXT_CALL",
           "OMNIUI_PYBIND_INIT_CALLBACK", "OMNIUI_PYBIND_INIT_STYLES"}


def _omni_ui_double():
    """The omni.ui double's keyword table, loaded from its file (not as omni.ui, which plain pytest does not need)."""
    path = EXTS / "omni.ui" / "omni" / "ui" / "_keywords.py"
    spec = importlib.util.spec_from_file_location("omni_ui_double_keywords", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _binding_keywords():
    """`keywords(cls)`: the keywords Kit 110.4's omni.ui binding reads in the class's constructor (bind/Bind*.h)."""
    macros = {}
    for header in sorted((INCLUDE / "ui" / "bind").glob("Bind*.h")):
        macros.update((m.group(1), m.group(2)) for m in DEFINE.finditer(header.read_text(encoding="utf-8")))

    def keywords(name: str) -> set[str]:
        body = macros[name]
        found = set(KEYWORD.findall(body)) | ({"style"} if "OMNIUI_PYBIND_INIT_STYLES" in body else set())
        for nested in NESTED.findall(body):
            if nested not in SETTERS and nested != name:
                found |= keywords(nested)
        return found

    return lambda cls: keywords(f"OMNIUI_PYBIND_INIT_{cls}")


def _cpp_enum(path: Path, name: str) -> list[str]:
    """The enumerators of `enum class <name>` in order (an `= other` alias dropped, as it takes no new value)."""
    body = re.search(rf"enum class {name}\s*{{(.*?)}};", path.read_text(encoding="utf-8"), re.S).group(1)
    body = re.sub(r"/\*.*?\*/|//[^\n]*", "", body, flags=re.S)
    return [e.strip() for e in body.split(",") if e.strip() and "=" not in e]


@pytest.fixture(scope="module")
def binding(kit_venv):
    return _binding_keywords()


def test_the_omni_ui_doubles_keywords_are_kit_110_4s_binding(binding):
    table = _omni_ui_double().KEYWORDS
    assert binding("Label") >= {"word_wrap", "elided_text", "identifier", "tooltip", "width"}  # the parse reads them
    for cls, keywords in table.items():
        assert keywords == binding(cls), f"{cls}: only the double {sorted(keywords - binding(cls))}, only the " \
                                         f"binding {sorted(binding(cls) - keywords)}"
    print(f"\nomni.ui double: {len(table)} classes, {sum(map(len, table.values()))} keywords, as Kit 110.4's binding")


def test_the_real_binding_ignores_an_unknown_keyword_silently(kit_venv):
    """Why the double refuses: the real constructors' keyword loop has no else (a misspelling is a lost setting)."""
    utils = (INCLUDE / "ui" / "bind" / "BindUtils.h").read_text(encoding="utf-8")
    loop = re.search(r"#define OMNIUI_PYBIND_INIT_BEGIN(.*?)#define OMNIUI_PYBIND_INIT_END \}", utils, re.S).group(1)
    assert "for (auto item : kwargs)" in loop and "if (0)" in loop and "throw" not in loop


@pytest.mark.parametrize("call", [
    ("Label", ("x",), {"wrod_wrap": True}), ("Label", ("x",), {"an_invented_option": 1}),
    ("Window", ("t",), {"dock_preferenc": 0}), ("Button", ("b",), {"clicked": None}),
    ("Frame", (), {"build": None}), ("CollapsableFrame", ("c",), {"colapsed": True}),
])
def test_the_omni_ui_double_refuses_an_unknown_keyword(omni_ui, call):
    cls, args, kwargs = call
    with pytest.raises(TypeError, match="unknown keyword argument"):
        getattr(omni_ui, cls)(*args, **kwargs)


def test_the_omni_ui_double_takes_every_keyword_the_binding_reads(omni_ui, binding):
    """Negative control of the refusals: what the binding lists is accepted, for every class the double has."""
    from omni.ui._keywords import KEYWORDS

    class Rows(omni_ui.AbstractItemModel):
        def get_item_children(self, item):
            return []

        def get_item_value_model_count(self, item):
            return 1

    builds = {"Window": ("t",), "Label": ("x",), "TreeView": (Rows(),), "ImageWithProvider": (None,)}
    for cls in KEYWORDS:
        if cls in ("Widget", "Stack"):
            continue
        values = {k: (lambda *_a, **_k: None) if k.endswith("_fn") else None for k in binding(cls)}
        values.pop("delegate", None)
        if cls in builds:  # a keyword also given by position (Window's title)
            values.pop("title", None)
        getattr(omni_ui, cls)(*builds.get(cls, ()), **values)


@pytest.fixture
def omni_ui():
    """The omni.ui double imported as omni.ui, without a kernel (nothing draws)."""
    root = str(EXTS / "omni.ui")
    sys.path.insert(0, root)
    saved = {n: m for n, m in sys.modules.items() if n == "omni.ui" or n.startswith("omni.ui.")}
    for name in saved:
        del sys.modules[name]
    try:
        import omni.ui

        yield omni.ui
    finally:
        sys.path.remove(root)
        for name in [n for n in sys.modules if n == "omni.ui" or n.startswith("omni.ui.")]:
            del sys.modules[name]
        sys.modules.update(saved)


def test_the_timeline_doubles_event_types_are_kit_110_4s(kit_venv):
    cpp = _cpp_enum(INCLUDE / "timeline" / "TimelineTypes.h", "TimelineEventType")
    python = {e.name: e.value for e in double.TimelineEventType}  # aliases (FAST_MODE_CHANGED) collapse to one
    renamed = {"TIME_CODES_PER_SECOND_CHANGED": "TIME_CODE_PER_SECOND_CHANGED"}  # omni.timeline's Python spelling
    expected = {}
    for value, enumerator in enumerate(cpp):
        name = re.sub(r"(?<!^)(?=[A-Z])", "_", enumerator.removeprefix("e")).upper()
        expected[renamed.get(name, name)] = value
    assert python == expected
    assert double.TimelineEventType.CURRENT_TIME_TICKED == 5 and double.TimelineEventType.FAST_MODE_CHANGED == 14


def test_the_usd_doubles_stage_events_are_kit_110_4s(kit_venv):
    types_h = (INCLUDE / "usd" / "UsdTypes.h").read_text(encoding="utf-8")
    cpp = _cpp_enum(INCLUDE / "usd" / "UsdTypes.h", "StageEventType")
    assert cpp[-1] == "eCount" and len(double.StageEventType) == len(cpp)
    table = re.findall(r'carb::RString\("omni\.usd::stage:(\w+)"\)', types_h)  # detail::stageEventName, in order
    assert list(double.STAGE_EVENT_NAMES) == table and len(table) == len(cpp) - 1
    assert double.stage_event_name(double.StageEventType.OPENED) == "omni.usd::stage:opened"
    assert double.stage_event_name(double.StageEventType.CLOSING, "ctx") == "omni.usd:ctx:stage:closing"


@pytest.mark.parametrize("wrong", [3, "OPENED", "omni.usd::stage:opened", double.StageEventType.COUNT])
def test_the_usd_double_refuses_a_stage_event_name_of_anything_but_a_stage_event_type(wrong):
    with pytest.raises((TypeError, ValueError)):
        double.stage_event_name(wrong)
