"""Config defaults, overrides and their errors; the test registry and entry-point plugins."""

from __future__ import annotations

import math

import pytest

from omni.simready.physics_validator.core.config import ConfigError, ValidationConfig, parse_value
from omni.simready.physics_validator.core.plugin import PhysicsTest, TestRegistry, UnknownTestError
from omni.simready.physics_validator.physics_tests import default_registry


def test_ground_drop_defaults_are_the_spec_values():
    cfg = ValidationConfig.defaults(default_registry()).for_test("ground_drop")
    assert (cfg.drop_rule, cfg.drop_height_factor, cfg.floor_margin, cfg.rest_tolerance_m) == ("3.2.0", 0.0, 0.1, 0.02)
    assert cfg.minimum_drop_distance == 0.1
    assert (cfg.rest_detection_hold_seconds, cfg.rest_detection_max_seconds, cfg.simulation_seconds) == (2.0, 8.0, 10.0)
    assert (cfg.penetration_check_seconds, cfg.physics_fps, cfg.ground_restitution) == (1.0, 240.0, 0.0)


def test_set_override_parses_values_and_names_bad_keys():
    cfg = ValidationConfig.defaults(default_registry())
    cfg.apply_set(["ground_drop.rest_tolerance_m=0.01", "run.video=false"])
    assert cfg.for_test("ground_drop").rest_tolerance_m == 0.01 and cfg.run.video is False
    with pytest.raises(ConfigError, match=r"unknown key 'ground_drop.rest_tolerence'"):
        cfg.apply_set(["ground_drop.rest_tolerence=0.01"])
    with pytest.raises(ConfigError, match=r"'ground_drop.rest_tolerance_m'"):
        cfg.apply_set(["ground_drop.rest_tolerance_m=abc"])
    with pytest.raises(ConfigError, match=r"unknown section 'ground_dorp'"):
        cfg.apply_set(["ground_dorp.rest_tolerance=0.1"])
    with pytest.raises(ConfigError, match="expected test.key=value"):
        cfg.apply_set(["rest_tolerance"])


@pytest.mark.parametrize("setting, key, value", [
    ("full_range_sweep.zero_return_tolerance_rad=0.5deg", "zero_return_tolerance_rad", 0.5 * 3.141592653589793 / 180),
    ("full_range_sweep.rest_tolerance_m=5mm", "rest_tolerance_m", 0.005),
    ("velocity_limit.tolerance_fraction=2%", "tolerance_fraction", 0.02),
    ("drive_gain_validation.max_overshoot_pct=20%", "max_overshoot_pct", 20.0),
    ("drive_gain_validation.step_magnitude_deg=0.5rad", "step_magnitude_deg", 0.5 * 180 / 3.141592653589793),
    ("ground_drop.rest_detection_max_seconds=500ms", "rest_detection_max_seconds", 0.5),
    ("full_range_sweep.max_sweep_range=2m", "max_sweep_range", 2.0),  # a setting in rad or m takes either
    ("ground_drop.rest_tolerance_m=0.03", "rest_tolerance_m", 0.03),  # a plain number: the setting's own unit
])
def test_set_accepts_values_with_units(setting, key, value):
    cfg = ValidationConfig.defaults(default_registry())
    cfg.apply_set([setting])
    assert getattr(cfg.for_test(setting.split(".")[0]), key) == pytest.approx(value)


def test_a_unit_of_another_kind_is_an_error_naming_both():
    cfg = ValidationConfig.defaults(default_registry())
    with pytest.raises(ConfigError, match=r"'ground_drop.rest_tolerance_m' is in m: '5deg' is an angle"):
        cfg.apply_set(["ground_drop.rest_tolerance_m=5deg"])
    with pytest.raises(ConfigError, match=r"unknown unit 'furlong'"):
        cfg.apply_set(["ground_drop.rest_tolerance_m=3furlong"])


def test_renamed_settings_are_read_under_their_old_names_with_a_notice():
    """ground_drop's metres and the sweep's radians no longer share a name; the old names still set them."""
    cfg = ValidationConfig.defaults(default_registry())
    cfg.apply_set(["ground_drop.rest_tolerance=0.01", "full_range_sweep.rest_tolerance=0.2",
                   "velocity_limit.tolerance_percent=0.1"])
    assert cfg.for_test("ground_drop").rest_tolerance_m == 0.01
    sweep = cfg.for_test("full_range_sweep")
    assert (sweep.rest_tolerance_rad, sweep.rest_tolerance_m) == (0.2, 0.2)  # the old key judged both joint kinds
    assert cfg.for_test("velocity_limit").tolerance_fraction == 0.1
    assert len(cfg.notices) == 3
    assert "'ground_drop.rest_tolerance' is now ground_drop.rest_tolerance_m (the same value, in m)" in cfg.notices[0]
    assert "rest_tolerance_rad and full_range_sweep.rest_tolerance_m (the same value, in rad and m)" in cfg.notices[1]
    from omni.simready.physics_validator.physics_tests.ground.ground_drop.config import GroundDropConfig

    assert GroundDropConfig.model_validate({"rest_tolerance": 0.004}).rest_tolerance_m == 0.004  # an older report's config


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


def test_a_reports_config_reads_back_through_the_test_config():
    """Plots and views read a report's config through the test's own class: old names, unknown keys left out, a value
    this version refuses at its default, missing keys at the defaults (the one place they are stated)."""
    from omni.simready.physics_validator.physics_tests.driven.velocity_limit.config import VelocityLimitConfig
    from omni.simready.physics_validator.physics_tests.ground.ground_drop.config import GroundDropConfig

    old = GroundDropConfig.from_report({"rest_tolerance": 0.004, "floor_margin": -1.0, "from_a_newer_version": 3})
    assert (old.rest_tolerance_m, old.floor_margin, old.rest_detection_max_seconds) == (0.004, 0.1, 8.0)
    assert VelocityLimitConfig.from_report({"tolerance_percent": 0.2}).allowed_ratio() == pytest.approx(1.2)
    assert GroundDropConfig.from_report(None) == GroundDropConfig()


def test_settings_convert_to_si_once():
    from omni.simready.physics_validator.physics_tests.driven.drive_gain_validation.config import DriveGainValidationConfig

    cfg = DriveGainValidationConfig(step_magnitude_deg=30.0, max_overshoot_pct=50.0, prismatic_step_m=0.05)
    assert cfg.si("step_magnitude_deg") == pytest.approx(math.radians(30.0))
    assert cfg.si("max_overshoot_pct") == pytest.approx(0.5)
    assert cfg.joint_si("step_magnitude_deg", "prismatic_step_m", angular=False) == 0.05


def test_engine_settings_come_from_the_engine_not_the_core():
    """core/config.py names no engine: an engine's section comes from the engine registry (engines.engine_settings);
    a config built without it has none, and an engine then runs at its defaults."""
    import inspect

    from omni.simready.physics_validator.core import config as config_module
    from omni.simready.physics_validator.engines import engine_settings

    assert "physx" not in inspect.getsource(config_module)
    bare = ValidationConfig.defaults(default_registry())
    assert bare.engines == {} and bare.engine_settings("physx") == {}
    with pytest.raises(ConfigError, match="unknown section 'physx'"):
        bare.apply_set(["physx.target=latest"])
    cfg = ValidationConfig.defaults(default_registry(), engine_settings())
    assert cfg.engine_settings("physx") == {"physx.target": "isaacsim-5"}
    cfg.apply_set(["physx.target=latest"])
    assert cfg.to_dict()["physx"] == {"target": "latest"} and cfg.copy().engine_settings("physx") == {"physx.target": "latest"}
    with pytest.raises(ConfigError, match="isaacsim-5"):
        cfg.apply_set(["physx.target=isaacsim-4"])
