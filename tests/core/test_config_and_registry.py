"""Config defaults, overrides and their errors; the test registry and entry-point plugins."""

from __future__ import annotations

import pytest

from omni.simready.physics_validator.core.config import ConfigError, ValidationConfig, parse_value
from omni.simready.physics_validator.core.plugin import PhysicsTest, TestRegistry, UnknownTestError
from omni.simready.physics_validator.physics_tests import default_registry


def test_ground_drop_defaults_are_the_spec_values():
    cfg = ValidationConfig.defaults(default_registry()).for_test("ground_drop")
    assert (cfg.drop_height_factor, cfg.floor_margin, cfg.rest_tolerance) == (8.0, 0.1, 0.02)
    assert (cfg.rest_detection_hold_seconds, cfg.rest_detection_max_seconds, cfg.simulation_seconds) == (2.0, 8.0, 10.0)
    assert (cfg.penetration_check_seconds, cfg.physics_fps, cfg.ground_restitution) == (1.0, 240.0, 0.0)


def test_set_override_parses_values_and_names_bad_keys():
    cfg = ValidationConfig.defaults(default_registry())
    cfg.apply_set(["ground_drop.rest_tolerance=0.01", "run.video=false"])
    assert cfg.for_test("ground_drop").rest_tolerance == 0.01 and cfg.run.video is False
    with pytest.raises(ConfigError, match=r"unknown key 'ground_drop.rest_tolerence'"):
        cfg.apply_set(["ground_drop.rest_tolerence=0.01"])
    with pytest.raises(ConfigError, match=r"'ground_drop.rest_tolerance'"):
        cfg.apply_set(["ground_drop.rest_tolerance=abc"])
    with pytest.raises(ConfigError, match=r"unknown section 'ground_dorp'"):
        cfg.apply_set(["ground_dorp.rest_tolerance=0.1"])
    with pytest.raises(ConfigError, match="expected test.key=value"):
        cfg.apply_set(["rest_tolerance"])


def test_toml_file_overrides_and_errors(tmp_path):
    good = tmp_path / "c.toml"
    good.write_text("[ground_drop]\nsimulation_seconds = 4.0\n[run]\nwatchdog_seconds = 30\n")
    cfg = ValidationConfig.defaults(default_registry())
    cfg.apply_file(good)
    assert cfg.for_test("ground_drop").simulation_seconds == 4.0 and cfg.run.watchdog_seconds == 30
    broken = tmp_path / "broken.toml"
    broken.write_text("[ground_drop\n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        cfg.apply_file(broken)
    with pytest.raises(ConfigError, match="should be greater than 0"):
        cfg.apply({"ground_drop": {"rest_tolerance": -1}})
    with pytest.raises(ConfigError, match="config file not found"):
        cfg.apply_file(tmp_path / "missing.toml")


def test_parse_value_follows_toml():
    assert parse_value("1") == 1 and parse_value("0.5") == 0.5 and parse_value("true") is True
    assert parse_value('"x"') == "x" and parse_value("word") == "word" and parse_value("[1, 2]") == [1, 2]


def test_registry_rejects_unknown_and_duplicate_names():
    registry = default_registry()
    assert "ground_drop" in registry
    with pytest.raises(UnknownTestError, match="unknown test 'grond_drop'"):
        registry.get("grond_drop")

    class Twin(PhysicsTest):
        name = "ground_drop"

    local = TestRegistry()
    local.register(registry.get("ground_drop"))
    with pytest.raises(ValueError, match="already registered"):
        local.register(Twin)


def test_config_files_under_config_folder_are_valid():
    from pathlib import Path

    folder = Path(__file__).resolve().parents[2] / "config"
    files = sorted(folder.glob("*.toml"))
    assert files, "config/ holds the run profiles"
    for path in files:
        ValidationConfig.defaults(default_registry()).apply_file(path)
