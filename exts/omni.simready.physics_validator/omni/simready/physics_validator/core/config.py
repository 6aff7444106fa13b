"""Run configuration: every default threshold lives in one pydantic model per test.

Overrides come from a TOML file (`[ground_drop] rest_tolerance = 0.01`) and from
`--set ground_drop.rest_tolerance=0.01`. Unknown keys and wrong types are errors that name the key:
a typo must never silently fall back to a default.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal, Mapping

from pydantic import BaseModel, ConfigDict, Field, ValidationError

try:
    import tomllib
except ModuleNotFoundError:  # pragma: no cover - Python 3.10 (Kit 105)
    import tomli as tomllib  # type: ignore


class ConfigError(ValueError):
    """A config problem the user must fix; the message names the key."""


class TestConfig(BaseModel):
    """Base of every test's config: strict keys, validated on assignment (the panel edits it live)."""

    __test__ = False
    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    physics_fps: float = Field(240.0, gt=0, description="Physics steps per simulated second.")
    capture_fps: float = Field(15.0, gt=0, description="Video frames per simulated second.")


class RunConfig(BaseModel):
    """Settings of the run itself, not of one test."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    watchdog_seconds: float = Field(
        120.0, gt=0, description="A test whose physics makes no progress for this long (wall clock) is a hang: ERROR."
    )
    max_test_seconds: float = Field(
        3600.0, gt=0, description="Wall-clock cap per test even while it progresses (a test that never decides): ERROR."
    )
    video: bool = Field(True, description="Record a video per test (needs the [video] extra).")
    video_width: int = Field(640, ge=16)
    video_height: int = Field(360, ge=16)
    isolate: bool = Field(True, description="Run each asset in a worker process (crash/hang isolation).")


PHYSX_TARGETS = ("isaacsim-5", "latest")


class PhysxConfig(BaseModel):
    """Settings of the `physx` engine (ovphysx, the Omni PhysX runtime); part of every results-cache key."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    target: Literal["isaacsim-5", "latest"] = Field(
        "isaacsim-5",
        description=(
            "Which runtime a verdict speaks for. isaacsim-5: legacy physxJoint:maxJointVelocity / armature / "
            "jointFriction are carried over to physxJointAxis:<axis>:* in the engine's wrapper layer, as Isaac Sim "
            "5.x honours them, with a forward-compatibility warning. latest: the runtime as it is (PhysX 5.12 / "
            "ovphysx 0.7 ignores PhysxJointAPI)."
        ),
    )


class ValidationConfig:
    """The effective config of a run: one TestConfig per registered test, the RunConfig and the engine
    sections (`physx`)."""

    ENGINE_SECTIONS = ("physx",)

    def __init__(self, tests: Mapping[str, TestConfig], run: RunConfig | None = None, physx: PhysxConfig | None = None):
        self.tests: dict[str, TestConfig] = dict(tests)
        self.run = run or RunConfig()
        self.physx = physx or PhysxConfig()

    @classmethod
    def defaults(cls, registry) -> "ValidationConfig":
        """Every test of `registry` (a core.plugin.TestRegistry) at its spec defaults."""
        return cls({name: test_cls.Config() for name, test_cls in registry.items()})

    def for_test(self, name: str) -> TestConfig:
        return self.tests[name]

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"run": self.run.model_dump(), "physx": self.physx.model_dump()}
        out.update({name: cfg.model_dump() for name, cfg in self.tests.items()})
        return out

    def copy(self) -> "ValidationConfig":
        return ValidationConfig({k: v.model_copy() for k, v in self.tests.items()}, self.run.model_copy(), self.physx.model_copy())

    def engine_settings(self, engine: str) -> dict[str, Any]:
        """The settings of `engine` that can change a verdict, as dotted keys ({"physx.target": ...} for
        physx; nothing for the other engines). Engines get them at creation; they enter the cache key."""
        if engine == "physx":
            return {f"physx.{k}": v for k, v in self.physx.model_dump().items()}
        return {}

    # -- overrides --------------------------------------------------------------------------------
    def apply(self, overrides: Mapping[str, Mapping[str, Any]], origin: str = "config") -> None:
        """Apply {section: {key: value}}; sections are test names, 'run' or 'physx'."""
        for section, values in overrides.items():
            if not isinstance(values, Mapping):
                raise ConfigError(f"{origin}: '{section}' must be a table of keys, got {values!r}")
            target = self._section(section, origin)
            merged = target.model_dump()
            for key, value in values.items():
                if key not in type(target).model_fields:
                    known = ", ".join(sorted(type(target).model_fields))
                    raise ConfigError(f"{origin}: unknown key '{section}.{key}' (known keys: {known})")
                merged[key] = value
            try:
                validated = type(target).model_validate(merged)
            except ValidationError as exc:
                raise ConfigError(_describe_validation_error(exc, section, origin)) from None
            self._store(section, validated)

    def apply_file(self, path: str | Path) -> None:
        path = Path(path)
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise ConfigError(f"config file not found: {path}") from None
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise ConfigError(f"{path}: not valid TOML ({exc})") from None
        self.apply(data, origin=str(path))

    def apply_set(self, assignments: list[str]) -> None:
        """Apply `--set section.key=value` strings; values are parsed as TOML literals (else strings)."""
        for item in assignments:
            if "=" not in item or "." not in item.split("=", 1)[0]:
                raise ConfigError(f"--set {item!r}: expected test.key=value, e.g. {self.example_setting()}")
            dotted, raw = item.split("=", 1)
            section, key = dotted.strip().split(".", 1)
            self.apply({section: {key: parse_value(raw.strip())}}, origin=f"--set {item}")

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
        if section == "physx":
            return self.physx
        if section not in self.tests:
            known = ", ".join(["run", "physx", *sorted(self.tests)])
            raise ConfigError(f"{origin}: unknown section '{section}' (known: {known})")
        return self.tests[section]

    def _store(self, section: str, validated: BaseModel) -> None:
        if section == "run":
            self.run = validated  # type: ignore[assignment]
        elif section == "physx":
            self.physx = validated  # type: ignore[assignment]
        else:
            self.tests[section] = validated  # type: ignore[assignment]


def parse_value(raw: str) -> Any:
    """Parse a --set value the way TOML would (1, 0.5, true, "x", [1, 2]); bare words stay strings."""
    try:
        return tomllib.loads(f"v = {raw}")["v"]
    except tomllib.TOMLDecodeError:
        lowered = raw.lower()
        if lowered in ("nan", "inf", "-inf", "+inf"):
            return float(lowered)
        return raw


def _describe_validation_error(exc: ValidationError, section: str, origin: str) -> str:
    parts = []
    for err in exc.errors():
        loc = ".".join(str(p) for p in err.get("loc", ()))
        parts.append(f"'{section}.{loc}': {err.get('msg')} (got {err.get('input')!r})")
    return f"{origin}: " + "; ".join(parts)
