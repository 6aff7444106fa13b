"""Result records: what every test produces and every report consumes.

Pydantic models so the JSON report, the Kit panel's view-model and the worker-process pipe
share one schema (docs/report-schema.md).
"""

from __future__ import annotations

import math
from typing import Any

from pydantic import BaseModel, Field, computed_field, field_serializer, field_validator, model_validator

from .codes import code_value
from .feature_ids import canonical
from .status import Status, asset_verdict, worst

# 2.0: `engine` is an EngineInfo block (was a string); 2.1: `fix` block per asset (`fix` command);
# 2.2: verdict codes (`code` on every result, `code` / `codes` on joint rows, `code` on excluded joints);
# 2.3: `runtime_readback` block per asset (what the runtime read, core/readback.py);
# 2.4: `verdict` per asset (its headline: PASS only when every test that applies ran, else e.g. INCOMPLETE);
# 2.5: `plausibility` block per asset (what needs no simulation: mass, inertia, limits, rest overlap; core/plausibility)
SCHEMA_VERSION = "2.5"

Scalar = float | int | bool | str | None


def _finite_or_none(value: Any) -> Any:
    """JSON has no NaN/Inf: keep them readable as strings instead of emitting invalid JSON."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    return value


class JointRow(BaseModel):
    """One joint's outcome inside a joint test: measured values next to their limits."""

    joint: str  # joint prim name (DOF name)
    path: str = ""
    status: Status
    code: str = ""  # the row's verdict code (the test's codes.py); the first of `codes`
    codes: list[str] = Field(default_factory=list)  # every finding that decided the row, `code` first
    reason: str = ""
    measured: dict[str, Scalar] = Field(default_factory=dict)
    limits: dict[str, Scalar] = Field(default_factory=dict)
    units: dict[str, str] = Field(default_factory=dict)  # SI unit of each measured/limits key (core.quantities)
    fix_hints: list[str] = Field(default_factory=list)

    @model_validator(mode="before")
    @classmethod
    def _code_and_codes(cls, data: Any) -> Any:
        """`code` is the first of `codes`: either may be given (enum members or strings)."""
        if isinstance(data, dict):
            codes = [code_value(c) for c in data.get("codes") or []]
            code = code_value(data.get("code")) or (codes[0] if codes else "")
            data = {**data, "code": code, "codes": codes or ([code] if code else [])}
        return data

    @field_serializer("measured", "limits")
    def _ser(self, values: dict[str, Scalar]):
        return {k: _finite_or_none(v) for k, v in values.items()}

    def number(self, key: str) -> float:
        """measured[key] as a float, for the verdicts that rank rows; NaN when absent or not a number."""
        value = self.measured.get(key)
        return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else math.nan

    def set_verdict(self, status: Status, codes, reason: str) -> None:
        """Replace the row's verdict after the fact (e.g. a passing row found not to prove anything)."""
        self.status = status
        self.codes = [code_value(c) for c in codes]
        self.code = self.codes[0] if self.codes else ""
        self.reason = reason


class ExcludedJoint(BaseModel):
    """A joint a test did not exercise, and why (passive, mimic follower, loop, no limits...)."""

    joint: str
    path: str = ""
    code: str = ""  # why, for machines: a core.codes.ExclusionCode (PASSIVE, MIMIC_FOLLOWER, NO_VELOCITY_LIMIT ...)
    why: str


class TestResult(BaseModel):
    """The verdict of one test on one asset."""

    __test__ = False  # not a pytest class

    name: str
    version: str = ""
    features: list[str] = Field(default_factory=list)
    status: Status
    code: str = ""  # the verdict's code: the test's codes.py or core.codes.CommonCode
    reason: str = ""
    config: dict[str, Any] = Field(default_factory=dict)
    metrics: dict[str, Scalar] = Field(default_factory=dict)
    metric_units: dict[str, str] = Field(default_factory=dict)  # SI unit of each metric that has one (core.quantities)
    joints: list[JointRow] = Field(default_factory=list)
    excluded_joints: list[ExcludedJoint] = Field(default_factory=list)
    fix_hints: list[str] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)
    log: list[str] = Field(default_factory=list)
    artifacts: dict[str, str] = Field(default_factory=dict)
    engine: str = ""
    # the physics-runtime variant selections the asset was composed with for the engine, e.g.
    # "/Robot {PhysX = Enabled} (authored: Disabled)" (core.usd.variants); empty when it has none
    physics_variants: list[str] = Field(default_factory=list)
    wall_seconds: float = 0.0
    simulated_seconds: float = 0.0
    # Time series for plots (name -> list of numbers). Kept out of the main JSON report; the HTML
    # report and the panel read them from here or from the series artifact.
    series: dict[str, list[float]] = Field(default_factory=dict, exclude=True)

    @field_serializer("metrics")
    def _ser_metrics(self, values: dict[str, Scalar]):
        return {k: _finite_or_none(v) for k, v in values.items()}

    @field_validator("features")
    @classmethod
    def _new_feature_names(cls, values: list[str]) -> list[str]:
        """A report or cache entry written before tier-core 2026.8's rename reads with the new feature names."""
        return [canonical(v) for v in values]


class FixChange(BaseModel):
    """One attribute the fix layer changes, in USD units as authored (per degree for angular drives)."""

    attribute: str  # e.g. drive:angular:physics:stiffness, physxJointAxis:angular:maxJointVelocity
    before: Scalar = None  # None: not authored
    after: Scalar = None
    unit: str = ""  # e.g. N·m/°
    why: str = ""  # the rule and its numbers
    before_attribute: str = ""  # where `before` was read when it is another spelling (a legacy attribute carried over)
    assumed: bool = False  # no rating authored: a value the author must confirm (e.g. a first drive's maxForce)


class FixJoint(BaseModel):
    """One joint in the fix: what changed, why, and its verdict rows before and after (test -> status)."""

    joint: str
    path: str = ""
    changes: list[FixChange] = Field(default_factory=list)
    reason: str = ""
    before: dict[str, Status] = Field(default_factory=dict)
    after: dict[str, Status] = Field(default_factory=dict)
    measured: dict[str, Scalar] = Field(default_factory=dict)  # SI: inertia, loads, lever arm, achieved omega_n / zeta

    @field_serializer("measured")
    def _ser(self, values: dict[str, Scalar]):
        return {k: _finite_or_none(v) for k, v in values.items()}


class FixTest(BaseModel):
    """One test's verdict on the asset as authored and with the fix layer."""

    __test__ = False

    test: str
    before: Status
    after: Status | None = None
    before_reason: str = ""
    after_reason: str = ""
    before_code: str = ""  # the verdicts' codes (what `fix` and CI read; reasons are for people)
    after_code: str = ""


class NotFixable(BaseModel):
    """A failure drive values cannot fix, and why (cause: collision, limit_unit, no_velocity_limit, ...)."""

    joint: str = ""
    path: str = ""
    test: str = ""
    cause: str
    why: str
    bodies: list[str] = Field(default_factory=list)  # e.g. the colliding bodies


class FixResult(BaseModel):
    """The `fix` block of an asset: the proposed layer, whether the re-run proved it, and the before/after."""

    # accepted, partially_accepted (some joints left as authored: named), nothing_to_fix, rejected, not_fixable, error
    status: str
    summary: str = ""
    layer: str = ""  # <asset>.fix.usda (an override layer; only when accepted)
    composed: str = ""  # root layer sublayering the fix layer over the asset (validate it as a plain file)
    rounds: int = 0  # re-runs it took
    targets: dict[str, Scalar] = Field(default_factory=dict)
    joints: list[FixJoint] = Field(default_factory=list)
    tests: list[FixTest] = Field(default_factory=list)
    not_fixable: list[NotFixable] = Field(default_factory=list)
    fixed: int = 0  # FAIL/WARN verdicts that became PASS
    broken: int = 0  # verdicts that passed before and fail with the layer (an accepted layer has none)
    # wall seconds by phase (validate as authored, round N measure/re-run)
    seconds: dict[str, float] = Field(default_factory=dict)

    @property
    def accepted(self) -> bool:
        """A layer the re-run proved: every proposed joint (accepted) or the joints that improved (partially_accepted)."""
        return self.status in ("accepted", "partially_accepted")

    def verdict_with_layer(self) -> str:
        """The asset's headline with the accepted layer (core.status.asset_verdict of the re-run), '' without one."""
        if not self.accepted or not self.tests:
            return ""
        return asset_verdict(t.after if t.after is not None else t.before for t in self.tests)


Value = float | int | str | None | list[float]


def _readable(value: Any) -> Any:
    if isinstance(value, list):
        return [_finite_or_none(v) for v in value]
    return _finite_or_none(value)


def _unreadable(value: Any) -> Any:
    """The inverse of `_readable` ("inf" -> inf), so a block that crossed a process or a file compares again."""
    if isinstance(value, list):
        return [_unreadable(v) for v in value]
    if isinstance(value, str) and value in ("inf", "-inf", "nan"):
        return float(value)
    return value


class ReadbackEntry(BaseModel):
    """One (joint or body, property): the authored value beside the value the runtime uses, in the author's
    units (degrees where USD authors degrees, SI otherwise; `unit` names it), and what differs (`flag`)."""

    joint: str | None = None  # joint prim path (a DOF joint)
    body: str | None = None  # rigid body prim path
    property: str  # stiffness, damping, max_force, max_velocity, armature, ..., mass, inertia, com, ...
    authored: Value = None  # None: not authored
    authored_attribute: str = ""  # the attribute the authored value comes from
    runtime: Value = None  # None: the engine cannot say (e.g. a joint outside any articulation)
    unit: str = ""
    flag: str | None = None  # ignored, clamped, from_other_attribute, defaulted, differs (None: as authored)
    note: str = ""  # one sentence for people: what the runtime did
    explains: list[str] = Field(default_factory=list)  # verdicts this flag explains, e.g. "velocity_limit FAIL"
    fix: str = ""  # how to fix it

    @field_serializer("authored", "runtime")
    def _ser(self, value: Value):
        return _readable(value)

    @field_validator("authored", "runtime", mode="before")
    @classmethod
    def _parse(cls, value: Any) -> Any:
        return _unreadable(value)


class RuntimeReadback(BaseModel):
    """The `runtime_readback` block of an asset: read once, from the first test's engine after its verdict."""

    engine: str = ""
    settings: dict[str, Scalar] = Field(default_factory=dict)  # e.g. {"physx.target": "latest"}
    entries: list[ReadbackEntry] = Field(default_factory=list)
    seconds: float = 0.0  # wall time of the read and the comparison
    error: str = ""  # why nothing could be read (the engine cannot say, or the read failed)

    def flagged(self) -> list[ReadbackEntry]:
        return [e for e in self.entries if e.flag]


class PlausibilityFinding(BaseModel):
    """One finding of the checks that need no simulation (core/plausibility), on what the runtime built: the numbers
    in SI beside their limit, the verdicts it explains, and the fix."""

    code: str  # core.plausibility.codes.PlausibilityCode
    requirement: str = ""  # NVIDIA's requirement naming the same rule (e.g. "RB.008"), '' when none does
    severity: str = "warning"  # error: the runtime cannot use it as authored; warning: it can, but it is implausible
    body: str | None = None  # the rigid body it is about
    other_body: str | None = None  # the second body of a pair (an overlap)
    joint: str | None = None  # the joint it is about (a limit)
    message: str = ""  # for people, with units
    measured: dict[str, Scalar | list[float]] = Field(default_factory=dict)  # SI
    limits: dict[str, Scalar] = Field(default_factory=dict)  # SI
    units: dict[str, str] = Field(default_factory=dict)
    joints: list[str] = Field(default_factory=list)  # the joints whose rows it can explain (those that move it)
    explains: list[str] = Field(default_factory=list)  # e.g. "joint_movement FAIL: wrist_rotate"
    fix: str = ""
    runtime_record: str = ""  # the runtime's own log record of it, when it wrote one
    proposal: dict[str, list[float]] = Field(default_factory=dict)  # what `fix` may write (SI), e.g. diagonal_inertia

    @field_serializer("measured")
    def _ser(self, values: dict):
        return {k: _readable(v) for k, v in values.items()}


class Plausibility(BaseModel):
    """The `plausibility` block of an asset: read once, beside the runtime readback, from what the runtime built."""

    engine: str = ""
    seconds: float = 0.0
    findings: list[PlausibilityFinding] = Field(default_factory=list)
    checked: dict[str, int] = Field(default_factory=dict)  # what was looked at: bodies, joints, pairs
    not_checked: list[str] = Field(default_factory=list)  # what could not be judged, and why (sentences)
    error: str = ""  # why nothing could be checked


class AssetResult(BaseModel):
    path: str
    sha256: str = ""
    error: str = ""  # asset-level problem (e.g. worker crash) shown next to the per-test verdicts
    tests: list[TestResult] = Field(default_factory=list)
    peak_rss_mb: float | None = None  # peak resident memory of the worker process(es) for this asset
    from_cache: list[str] = Field(default_factory=list)  # tests whose verdict was reused (--changed-only)
    fix: FixResult | None = None  # `simready-physics fix` only: the proposed drive-tuning layer and its proof
    runtime_readback: RuntimeReadback | None = None  # what the runtime read per joint and body (core/readback.py)
    plausibility: Plausibility | None = None  # checks that need no simulation (core/plausibility)

    @property
    def status(self) -> Status | None:
        """The worst test verdict (None without tests); the headline people read is `verdict`."""
        return worst(t.status for t in self.tests)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def verdict(self) -> str:
        """The asset's headline (core.status.asset_verdict): the worst verdict, but INCOMPLETE where a PASS stands
        beside a test that applies and could not run (SKIP); '' without tests."""
        return asset_verdict(t.status for t in self.tests)


class EngineInfo(BaseModel):
    """Which engine a run used: its name, its version string, the libraries behind it and the engine
    settings that can change a verdict (e.g. {"physx.target": "isaacsim-5"})."""

    name: str = ""
    version: str = ""  # the engine's own version string, e.g. "ovphysx 0.7.0.74035321 / PhysX 5.12"
    components: dict[str, str] = Field(default_factory=dict)  # library -> version, e.g. {"ovphysx": ..., "PhysX": ...}
    settings: dict[str, Scalar] = Field(default_factory=dict)

    @classmethod
    def from_label(cls, text: str) -> "EngineInfo":
        """A schema-1.0 engine string, "name (version)" or "name", as an EngineInfo."""
        name, _, rest = str(text).partition(" (")
        return cls(name=name.strip(), version=rest[:-1] if rest.endswith(")") else rest)

    def __str__(self) -> str:
        """One line for people: "physx (ovphysx 0.7.0.74035321 / PhysX 5.12; physx.target=isaacsim-5)"."""
        extra = "; ".join(f"{k}={v}" for k, v in self.settings.items())
        inner = "; ".join(part for part in (self.version, extra) if part)
        return f"{self.name} ({inner})" if inner else self.name


class RunReport(BaseModel):
    schema_version: str = SCHEMA_VERSION
    tool_version: str = ""
    engine: EngineInfo = Field(default_factory=EngineInfo)
    started: str = ""
    finished: str = ""
    complete: bool = True  # False for an interrupted run: see `not_run`
    not_run: list[str] = Field(default_factory=list)
    assets: list[AssetResult] = Field(default_factory=list)

    @field_validator("engine", mode="before")
    @classmethod
    def _engine_from_label(cls, value: Any) -> Any:
        """Schema 1.0 reports (and callers that only know a name) give the engine as a string."""
        return EngineInfo.from_label(value) if isinstance(value, str) else value

    def all_results(self):
        for asset in self.assets:
            yield from asset.tests

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {s.value: 0 for s in Status}
        for result in self.all_results():
            out[result.status.value] += 1
        return out
