"""Run configuration: every default threshold lives in one pydantic model per test.

Overrides come from a TOML file (`[ground_drop] rest_tolerance_m = 0.01`) and from
`--set ground_drop.rest_tolerance_m=0.01`. Unknown keys and wrong types are errors that name the key:
a typo must never silently fall back to a default. Each setting declares its unit (core.setting_units): a value
may carry one (`--set ground_drop.rest_tolerance_m=5mm`). A setting that was renamed is still read under its old
name, with a notice (`ValidationConfig.notices`) saying the new one.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar, Mapping, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, field_validator, model_validator

from .config_text import ConfigError, brief, load_toml, parse_value, read_config_text
from .media import MediaPolicy
from .setting_bounds import bounded
from .setting_units import UnitError, convert, si_factor, unit, unit_of

__all__ = ["ConfigError", "RunConfig", "TestConfig", "ValidationConfig", "parse_value"]


class TestConfig(BaseModel):
    """Base of every test's config: strict keys, validated on assignment (the panel edits it live)."""

    __test__ = False
    # strict: a string is never read as a number or a flag; finite: no inf or NaN (core.setting_bounds)
    model_config = ConfigDict(extra="forbid", validate_assignment=True, strict=True, allow_inf_nan=False)
    # an old setting name -> the name(s) it now sets (read with a notice; `ValidationConfig.notices`)
    renamed: ClassVar[dict[str, tuple[str, ...]]] = {}

    @model_validator(mode="before")
    @classmethod
    def _old_names(cls, data: Any) -> Any:
        """A renamed setting given under its old name (a config dict from an older report or cache) sets the new one."""
        if isinstance(data, dict) and cls.renamed:
            data = dict(data)
            for old, new in cls.renamed.items():
                if old in data:
                    value = data.pop(old)
                    for name in new:
                        data.setdefault(name, value)
        return data

    physics_fps: float = Field(240.0, gt=0, description="Physics steps per simulated second.", json_schema_extra=unit("Hz"))
    capture_fps: float = Field(15.0, gt=0, description="Video frames per simulated second.", json_schema_extra=unit("Hz"))

    # -- the settings in SI, converted here once (each test's thresholds_for reads these) ---------------------------
    def si(self, key: str) -> float:
        """Setting `key` in SI: its value times its declared unit's factor (deg -> rad, % -> fraction, deg/s -> rad/s)."""
        return float(getattr(self, key)) * si_factor(unit_of(type(self), key))

    def joint_si(self, angular_key: str, linear_key: str, angular: bool) -> float:
        """The SI value of a setting stated per joint kind: `angular_key` (deg or rad) for a revolute joint,
        `linear_key` (m) for a prismatic one."""
        return self.si(angular_key if angular else linear_key)

    @classmethod
    def from_report(cls: "type[ReportedT]", data: Mapping[str, Any] | None) -> "ReportedT":
        """This config as a report recorded it (`TestResult.config`), for what reads a report later (plots, fix):
        old names through `renamed`, keys this version does not know left out, missing or invalid ones at their
        defaults, so nothing outside this class restates a default."""
        data = dict(data or {})
        known = {k: v for k, v in data.items() if k in cls.model_fields or k in cls.renamed}
        try:
            return cls.model_validate(known)
        except ValidationError:
            return cls.model_validate({k: v for k, v in known.items() if _valid_alone(cls, k, v)})

    @field_validator("*")
    @classmethod
    def _below_ceiling(cls, value: Any, info: ValidationInfo) -> Any:
        return bounded(cls, info.field_name or "", value)


# A test's own config class: TestContext[C] and PhysicsTest[C] give the test its own settings' types.
ConfigT = TypeVar("ConfigT", bound=TestConfig)
ReportedT = TypeVar("ReportedT", bound=TestConfig)


class RunConfig(BaseModel):
    """Settings of the run itself, not of one test."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True, strict=True, allow_inf_nan=False)

    watchdog_seconds: float = Field(
        120.0, gt=0, description="A test whose physics makes no progress for this long (wall clock) is a hang: ERROR.",
        json_schema_extra=unit("s"),
    )
    max_test_seconds: float = Field(
        3600.0, gt=0, description="Wall-clock cap per test even while it progresses (a test that never decides): ERROR.",
        json_schema_extra=unit("s"),
    )
    video: bool = Field(True, description="Record each test: its 3D replay, and its video where `media` says (a video "
                                          "needs the [video] extra).")
    media: MediaPolicy = Field(
        "replay", description="What is drawn beside every test's 3D replay: 'replay' (plots for FAIL, WARN, ERROR, PASS "
                              "with warnings; no video), 'failing' (their videos too) or 'all' (videos and plots for "
                              "every test) (core.media).",
    )
    video_width: int = Field(640, ge=16)
    video_height: int = Field(360, ge=16)
    isolate: bool = Field(True, description="Run each asset in a worker process (crash/hang isolation).")

    @field_validator("*")
    @classmethod
    def _below_ceiling(cls, value: Any, info: ValidationInfo) -> Any:
        return bounded(cls, info.field_name or "", value)


class ValidationConfig:
    """The effective config of a run: one TestConfig per registered test, the RunConfig, and the settings of each
    engine that has its own (a pydantic model each engine declares: `engines.engine_settings()`, passed in by the
    front door; an engine whose section is absent runs at its defaults)."""

    def __init__(self, tests: Mapping[str, TestConfig], run: RunConfig | None = None,
                 engines: Mapping[str, BaseModel] | None = None):
        self.tests: dict[str, TestConfig] = dict(tests)
        self.run = run or RunConfig()
        self.engines: dict[str, BaseModel] = dict(engines or {})
        self.notices: list[str] = []  # renamed settings read under their old name

    @classmethod
    def defaults(cls, registry, engines: Mapping[str, type[BaseModel]] | None = None) -> "ValidationConfig":
        """Every test of `registry` (a core.plugin.TestRegistry) at its spec defaults, and each engine of `engines`
        (name -> its settings model) at its defaults."""
        return cls({name: test_cls.Config() for name, test_cls in registry.items()},
                   engines={name: model() for name, model in (engines or {}).items()})

    @classmethod
    def load(cls, registry, files=(), assignments=(), engines: Mapping[str, type[BaseModel]] | None = None
             ) -> "ValidationConfig":
        """What a command's `--config FILE`... and `--set TEST.KEY=VALUE`... make of the defaults: every test of
        `registry` (and engine of `engines`) at its defaults, then each TOML file in order, then each assignment
        (ConfigError names the key)."""
        config = cls.defaults(registry, engines)
        for path in files:
            config.apply_file(path)
        config.apply_set(list(assignments))
        return config

    def for_test(self, name: str) -> TestConfig:
        return self.tests[name]

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"run": self.run.model_dump()}
        out.update({name: settings.model_dump() for name, settings in self.engines.items()})
        out.update({name: cfg.model_dump() for name, cfg in self.tests.items()})
        return out

    def copy(self) -> "ValidationConfig":
        out = ValidationConfig({k: v.model_copy() for k, v in self.tests.items()}, self.run.model_copy(),
                               {k: v.model_copy() for k, v in self.engines.items()})
        out.notices = list(self.notices)
        return out

    def engine_settings(self, engine: str) -> dict[str, Any]:
        """The settings of `engine` (its section here), as dotted keys ({"<engine>.<key>": value}); {} for an engine
        without a section. Engines get them at creation; they enter the cache key."""
        section = self.engines.get(engine)
        return {f"{engine}.{k}": v for k, v in section.model_dump().items()} if section is not None else {}

    # -- overrides --------------------------------------------------------------------------------
    def apply(self, overrides: Mapping[str, Mapping[str, Any]], origin: str = "config") -> None:
        """Apply {section: {key: value}}; sections are test names, 'run' or an engine's name."""
        for section, values in overrides.items():
            if not isinstance(values, Mapping):
                raise ConfigError(f"{origin}: '{section}' must be a table of keys, got {values!r}")
            target = self._section(section, origin)
            merged = target.model_dump()
            model = type(target)
            for key, value in values.items():
                for new in self._renamed(model, section, key, origin):
                    merged[new] = self._with_unit(model, section, new, value, origin)
            try:
                validated = type(target).model_validate(merged)
            except ValidationError as exc:
                raise ConfigError(_describe_validation_error(exc, section, origin)) from None
            self._store(section, validated)

    def _renamed(self, model, section: str, key: str, origin: str) -> tuple[str, ...]:
        """The setting(s) `key` sets: itself, or what it was renamed to (with a notice); unknown keys are errors."""
        if key in model.model_fields:
            return (key,)
        new = getattr(model, "renamed", {}).get(key)
        if new:
            notice = (f"{origin}: '{section}.{key}' is now {' and '.join(f'{section}.{n}' for n in new)} (the same value, "
                      f"in {' and '.join(unit_of(model, n) or 'its unit' for n in new)}); the old name is still read")
            if notice not in self.notices:
                self.notices.append(notice)
            return tuple(new)
        known = ", ".join(sorted(model.model_fields))
        raise ConfigError(f"{origin}: unknown key '{section}.{key}' (known keys: {known})")

    @staticmethod
    def _with_unit(model, section: str, key: str, value: Any, origin: str) -> Any:
        """A value written with a unit ('0.5deg', '5mm', '2%') in the setting's own unit; each item of a list alike."""
        try:
            if isinstance(value, list):
                return [convert(v, unit_of(model, key), f"{section}.{key}") if isinstance(v, str) else v for v in value]
            if not isinstance(value, str):
                return value
            return convert(value, unit_of(model, key), f"{section}.{key}")
        except UnitError as exc:
            raise ConfigError(f"{origin}: {exc}") from None

    def apply_file(self, path: str | Path) -> None:
        path = Path(path)
        try:
            text = read_config_text(path)
        except FileNotFoundError:
            raise ConfigError(f"config file not found: {path}") from None
        except OSError as exc:  # a folder, a FIFO, no permission: a usage error, one line
            raise ConfigError(f"cannot read config file {path}: {exc.strerror or exc}") from None
        except UnicodeDecodeError as exc:
            raise ConfigError(f"{path}: not valid TOML ({exc})") from None
        self.apply(load_toml(text, str(path)), origin=str(path))

    def apply_set(self, assignments: list[str]) -> None:
        """Apply `--set section.key=value` strings; values are parsed as TOML literals (else strings)."""
        for item in assignments:
            if "=" not in item or "." not in item.split("=", 1)[0]:
                raise ConfigError(f"--set {brief(item)!r}: expected test.key=value, e.g. {self.example_setting()}")
            dotted, raw = item.split("=", 1)
            section, key = dotted.strip().split(".", 1)
            origin = f"--set {brief(item)}"  # a 100,000-digit value is named, not printed
            self.apply({section: {key: parse_value(raw.strip(), origin)}}, origin=origin)

    def example_setting(self) -> str:
        """A `test.key=value` assignment of this config, for help texts: a tolerance of the first test (its default)."""
        for name, config in self.tests.items():
            fields = [k for k, v in config.model_dump().items() if isinstance(v, float)]
            key = next((k for k in fields if "tolerance" in k), fields[0] if fields else None)
            if key is not None:
                return f"{name}.{key}={getattr(config, key):g}"
        return "test.key=value"

    def _section(self, section: str, origin: str) -> BaseModel:
        if section == "run":
            return self.run
        if section in self.engines:
            return self.engines[section]
        if section not in self.tests:
            known = ", ".join(["run", *self.engines, *sorted(self.tests)])
            raise ConfigError(f"{origin}: unknown section '{section}' (known: {known})")
        return self.tests[section]

    def _store(self, section: str, validated: BaseModel) -> None:
        if section == "run":
            self.run = validated  # type: ignore[assignment]
        elif section in self.engines:
            self.engines[section] = validated
        else:
            self.tests[section] = validated  # type: ignore[assignment]


def _valid_alone(model, key: str, value: Any) -> bool:
    """Whether one recorded setting is valid on its own (a report's value this version refuses falls back)."""
    try:
        model.model_validate({key: value})
        return True
    except ValidationError:
        return False


def _describe_validation_error(exc: ValidationError, section: str, origin: str) -> str:
    parts = []
    for err in exc.errors():
        loc = ".".join(str(p) for p in err.get("loc", ()))
        parts.append(f"'{section}.{loc}': {err.get('msg')} (got {err.get('input')!r})")
    return f"{origin}: " + "; ".join(parts)
