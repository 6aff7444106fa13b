"""Docs stay current and true of the code: every registered test has its page; the page's threshold table lists
every config key with the code's default; its verdict table lists exactly the statuses the test can give, and each
reason it quotes (in backticks) is text the code emits."""

from __future__ import annotations

from pathlib import Path

import inspect
import math
import re

import pytest

from omni.simready.physics_validator.core.status import Status
from omni.simready.physics_validator.physics_tests import default_registry

DOCS = Path(__file__).resolve().parents[1] / "docs"
PACKAGE = Path(inspect.getfile(default_registry)).resolve().parents[1]


@pytest.mark.parametrize("name", default_registry().names())
def test_each_test_has_a_page_listing_every_config_key(name):
    page = DOCS / "tests" / f"{name}.md"
    assert page.is_file(), f"docs/tests/{name}.md is missing"
    text = page.read_text(encoding="utf-8")
    missing = [key for key in default_registry().get(name).Config.model_fields if f"| {key} |" not in text]
    assert not missing, f"docs/tests/{name}.md does not list: {missing}"
    assert "fix" in text.lower()


def test_readme_links_resolve():
    import re

    readme = (DOCS.parent / "README.md").read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)#]+)\)", readme):
        if "://" not in target:
            assert (DOCS.parent / target).exists(), f"README links to a missing {target}"


def _table_rows(text: str, heading: str) -> list[list[str]]:
    """The cells of the first markdown table after `heading` (header and separator dropped)."""
    section = text.split(heading, 1)[1]
    rows = []
    for line in section.splitlines()[1:]:
        line = line.strip()
        if not line.startswith("|"):
            if rows:
                break
            continue
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return [r for r in rows[1:] if not set("".join(r)) <= set("-: ")]


def _documented_default(cell: str):
    if cell.startswith("[") and "]" in cell:  # a list: "[]", "[0.3, 0.6, 0.5]" (then a note)
        import json

        return json.loads(cell[: cell.index("]") + 1])
    token = cell.split()[0] if cell.split() else ""
    if token == "2π":
        return 2 * math.pi
    if token.lower() in ("true", "false"):
        return token.lower() == "true"
    if token == "[]":
        return []
    try:
        return float(token)
    except ValueError:
        return token


@pytest.mark.parametrize("name", default_registry().names())
def test_each_documented_default_is_the_codes(name):
    text = (DOCS / "tests" / f"{name}.md").read_text(encoding="utf-8")
    fields = default_registry().get(name).Config.model_fields
    wrong = []
    for key, default_cell, *_ in _table_rows(text, "| key | default |"):
        code = fields[key].get_default(call_default_factory=True)
        documented = _documented_default(default_cell)
        same = (math.isclose(documented, float(code), rel_tol=1e-9) if isinstance(documented, float)
                and not isinstance(code, (bool, list, str)) else documented == code)
        if not same:
            wrong.append((key, default_cell, code))
    assert not wrong, f"docs/tests/{name}.md defaults differ from the code: {wrong}"


@pytest.mark.parametrize("name", default_registry().names())
def test_each_documented_default_carries_the_unit_the_setting_declares(name):
    """'15.0 deg', '0.1 (fraction)', '[0.3, 0.6, 0.5] (fraction)': the unit beside each default is the one its setting
    declares (core.setting_units), so the page and `--set` mean the same number."""
    from omni.simready.physics_validator.core.setting_units import unit_of

    text = (DOCS / "tests" / f"{name}.md").read_text(encoding="utf-8")
    config_cls = default_registry().get(name).Config
    wrong = []
    for key, default_cell, *_ in _table_rows(text, "| key | default |"):
        declared = unit_of(config_cls, key)
        value = default_cell[: default_cell.index("]") + 1] if default_cell.startswith("[") else default_cell.split()[0]
        documented = default_cell[len(value):].strip()
        if declared and documented not in (declared, f"({declared})"):
            wrong.append((key, default_cell, declared))
    assert not wrong, f"docs/tests/{name}.md units differ from the code's: {wrong}"


def _unit_files(name: str) -> list[Path]:
    """The test's own folder (a test is one unit) and its family's shared base and selection modules."""
    folder = Path(inspect.getfile(default_registry().get(name))).resolve().parent
    return sorted(folder.glob("*.py")) + [f for f in (folder.parent / "base.py", folder.parent / "selection.py")
                                           if f.exists()]


def _sources(name: str) -> str:
    """The text of the test's unit, the shared family modules it uses, and the runner's verdict paths."""
    files = _unit_files(name) + [PACKAGE / "core" / "session.py", PACKAGE / "run" / "worker.py"]
    return "\n".join(f.read_text(encoding="utf-8") for f in files)


@pytest.mark.parametrize("name", default_registry().names())
def test_each_page_lists_exactly_the_statuses_the_test_gives(name):
    text = (DOCS / "tests" / f"{name}.md").read_text(encoding="utf-8")
    assert "## Verdicts" in text, f"docs/tests/{name}.md has no '## Verdicts' table"
    rows = _table_rows(text, "## Verdicts")
    names = {s.value for s in Status}
    documented = {word for row in rows for word in re.findall(r"[A-Z_]{4,}", row[0]) if word in names}
    own = "".join(f.read_text(encoding="utf-8") for f in _unit_files(name))
    # Every test can also end as PRECHECK_FAILURE (broken asset content) and ERROR (exception, hang, no verdict).
    emitted = set(re.findall(r"Status\.([A-Z_]+)", own)) | {"PRECHECK_FAILURE", "ERROR"}
    assert documented == emitted, f"docs/tests/{name}.md lists {sorted(documented)}, the code gives {sorted(emitted)}"
    sources = _sources(name)
    missing = [quote for row in rows for quote in re.findall(r"`([^`]+)`", row[2]) if quote not in sources]
    assert not missing, f"docs/tests/{name}.md quotes reasons the code never says: {missing}"


@pytest.mark.parametrize("name", default_registry().names())
def test_each_page_lists_every_code_the_test_declares_and_no_other(name):
    registry = default_registry()
    text = (DOCS / "tests" / f"{name}.md").read_text(encoding="utf-8")
    declared = {member.value for enum in registry.get(name).codes for member in enum}
    listed = set(re.findall(r"^- `([A-Z_]+)`:", text.split("## Codes", 1)[1], re.M)) if "## Codes" in text else set()
    assert listed == declared, f"docs/tests/{name}.md '## Codes' lists {sorted(listed)}, the test declares {sorted(declared)}"
    in_table = {c for row in _table_rows(text, "## Verdicts") for c in re.findall(r"`([A-Z_]+)`", row[1])}
    unknown = in_table - registry.declared_codes(registry.get(name))
    assert not unknown, f"docs/tests/{name}.md's verdict table names codes the test never gives: {unknown}"
