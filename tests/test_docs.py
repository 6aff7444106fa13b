"""Docs stay current: every registered test has its page, and the page's threshold table lists every config key."""

from __future__ import annotations

from pathlib import Path

import pytest

from omni.simready.physics_validator.physics_tests import default_registry

DOCS = Path(__file__).resolve().parents[1] / "docs"


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
