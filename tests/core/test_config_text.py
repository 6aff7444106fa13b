"""Hostile settings text is a usage error naming where it came from (issue 42): deep nesting, a newline in a --set
value, a value too long for Python's integer limit."""

from __future__ import annotations

import pytest

from omni.simready.physics_validator.core.config import ConfigError, ValidationConfig
from omni.simready.physics_validator.core.config_text import MAX_NESTING, nesting, parse_value
from omni.simready.physics_validator.physics_tests import default_registry


def _load(files=(), sets=()):
    return ValidationConfig.load(default_registry(), files, sets)


@pytest.mark.parametrize("text", ["x = " + "[" * 50_000 + "]" * 50_000,
                                  "[ground_drop]\nx = " + "{a=" * 20_000 + "1" + "}" * 20_000,
                                  "[ground_drop]\nrest_tolerance_m = " + "[" * 40 + "1" + "]" * 40])
def test_deep_nesting_names_the_file(tmp_path, text):
    path = tmp_path / "deep.toml"
    path.write_text(text + "\n")
    with pytest.raises(ConfigError, match=r"deep\.toml: arrays or tables nested"):
        _load([path])


def test_a_number_past_pythons_digit_limit_names_the_file_and_the_flag(tmp_path):
    path = tmp_path / "digits.toml"
    path.write_text("[ground_drop]\nrest_tolerance_m = " + "9" * 100_000 + "\n")
    with pytest.raises(ConfigError, match=r"digits\.toml: a number too long"):
        _load([path])
    with pytest.raises(ConfigError, match=r"^--set ground_drop\.rest_tolerance_m=9+… \(100,029 characters\): a value of"):
        _load(sets=["ground_drop.rest_tolerance_m=" + "9" * 100_000])


def test_a_newline_in_a_set_value_is_refused_not_half_read():
    smuggled = "ground_drop.rest_tolerance_m=0.02\n[run]\nwatchdog_seconds=0.001"
    with pytest.raises(ConfigError, match=r"a value is one value") as caught:
        _load(sets=[smuggled])
    assert "\n" not in str(caught.value)  # the message is one line; the newline is shown escaped
    with pytest.raises(ConfigError, match="one line"):
        parse_value("1\r2")


def test_ordinary_values_still_parse():
    assert parse_value("0.5") == 0.5 and parse_value("[30%, 60%]") == ["30%", "60%"] and parse_value("nan") != 0
    assert parse_value("0.02 # a comment") == 0.02 and parse_value("word") == "word"
    assert _load(sets=["ground_drop.rest_tolerance_m=5mm"]).for_test("ground_drop").rest_tolerance_m == pytest.approx(0.005)
    assert nesting({"a": [[1]]}) == 3 and nesting(1) == 0 and MAX_NESTING >= 3
