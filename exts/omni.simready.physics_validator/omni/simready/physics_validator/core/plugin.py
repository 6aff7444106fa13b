"""Test plugins: a base class, a registry, and entry-point discovery.

A test is a class with a pydantic `Config`, a `precheck` on the asset model, a `scene` it needs,
and `run(ctx)`: a generator that yields once per physics step. Straight-line multi-phase code that
every engine can drive: headless engines call next() in a loop, the Kit engine resumes it from an
omni.physx pre-step subscription.

A test is one unit: besides the class it declares its verdict codes (`codes`), the hints for each code
(`hints`), how reports show it (`view`) and what `fix` may do about its failures (`fix_rules`). Reports,
the comparison and `fix` ask the registry for these and never name a test (docs/architecture.md).

Third parties add tests through the entry-point group `omni.simready.physics_validator.tests`;
the built-ins and the process-wide registry live in `physics_tests` (above core).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import metadata
from typing import TYPE_CHECKING, Callable, ClassVar, Generic, Iterator

from .codes import VerdictCode, code_value
from .config import ConfigT, TestConfig
from .feature_ids import canonical, family, is_legacy, legacy_notice
from .fix_rules import NO_FIX_RULES, FixRules
from .hints import HintTable
from .status import Status
from .test_view import GENERIC_VIEW, TestView

if TYPE_CHECKING:
    from .asset_model import AssetModel
    from .context import TestContext
    from .scene import SceneSpec

ENTRY_POINT_GROUP = "omni.simready.physics_validator.tests"


@dataclass
class Precheck:
    """A decision taken before physics: the test does not run and reports this verdict."""

    status: Status
    reason: str
    fix_hints: list[str] = field(default_factory=list)
    metrics: dict = field(default_factory=dict)
    code: str = ""  # the verdict code (the test's codes, or core.codes.CommonCode)

    def __post_init__(self) -> None:
        self.code = code_value(self.code)


class PhysicsTest(Generic[ConfigT]):
    """Base class of the five tests (and of any third-party test); generic in its config class (`Config`)."""

    __test__ = False  # not a pytest class

    name: ClassVar[str] = ""
    version: ClassVar[str] = "0.0.0"
    features: ClassVar[tuple[str, ...]] = ()
    summary: ClassVar[str] = ""
    Config: ClassVar[type[TestConfig]] = TestConfig
    codes: ClassVar[tuple[type[VerdictCode], ...]] = ()  # the enums of the codes its verdicts and rows carry
    hints: ClassVar[HintTable] = HintTable()  # fix hints by code
    view: ClassVar[TestView] = GENERIC_VIEW  # deciding metrics, thresholds, row pairing, plot
    fix_rules: ClassVar[FixRules] = NO_FIX_RULES  # what `fix` may do about its failures
    # False: run only when asked for (by name or a feature of it): a test that cannot run here would otherwise make
    # every asset it applies to read INCOMPLETE (ik_target_reach: Lula exists only inside Isaac Sim)
    runs_by_default: ClassVar[bool] = True
    # runtime-readback properties ("joint:max_velocity", "body:mass", ...) whose runtime value can decide its verdicts,
    # each with the joint-row limit it is judged against (None: none); core/readback_links.py links a flag to them
    readback: ClassVar[dict[str, str | None]] = {}
    # plausibility codes (core/plausibility/codes.py) whose finding on a body or joint can decide its verdicts: the
    # finding is named as the cause of its failing rows (core/plausibility/links.py)
    plausibility: ClassVar[frozenset[str]] = frozenset()
    # True: scene() gets the asset as the engine's runtime builds it alone (TestContext.asset_built_alone: its mass
    # properties, colliding shapes, articulations), not the USD reading, for a scene sized from physics (a jaw's squeeze
    # from the prop's mass); costs one load of the asset before the test's own
    scene_reads_runtime_model: ClassVar[bool] = False

    def precheck(self, asset: "AssetModel", config: ConfigT) -> Precheck | None:
        """Return a verdict that stops the test before physics, or None to run it."""
        return None

    def precheck_built(self, authored: "AssetModel", ctx: "TestContext[ConfigT]") -> Precheck | None:
        """After the load, before the first step: a verdict that stops the test on what the runtime built
        (`ctx.asset`, `ctx.built`) where it differs from what the asset authors (`authored`, the USD reading), or None."""
        return None

    def scene(self, asset: "AssetModel", config: ConfigT) -> "SceneSpec":
        """What the test asks of the engine; `asset` is the USD reading, or the runtime's model of the asset alone
        (`scene_reads_runtime_model`)."""
        from .scene import SceneSpec

        return SceneSpec(physics_fps=config.physics_fps)

    def run(self, ctx: "TestContext[ConfigT]") -> Iterator[None]:
        """Drive the simulation: yield once per physics step; report through ctx."""
        raise NotImplementedError
        yield  # pragma: no cover


class UnknownTestError(KeyError):
    def __str__(self) -> str:
        return self.args[0]


class TestRegistry:
    """Name -> test class. Built-ins register by decorator; others via entry points."""

    __test__ = False

    def __init__(self) -> None:
        self._tests: dict[str, type[PhysicsTest]] = {}

    def register(self, test_cls: type[PhysicsTest]) -> type[PhysicsTest]:
        if not test_cls.name:
            raise ValueError(f"{test_cls.__name__} has no name")
        existing = self._tests.get(test_cls.name)
        if existing is not None and existing is not test_cls and existing.__qualname__ != test_cls.__qualname__:
            raise ValueError(f"test name '{test_cls.name}' already registered by {existing.__module__}")
        self._tests[test_cls.name] = test_cls
        return test_cls

    def unregister(self, name: str) -> None:
        self._tests.pop(name, None)

    def get(self, name: str) -> type[PhysicsTest]:
        try:
            return self._tests[name]
        except KeyError:
            known = ", ".join(self.names())
            families = sorted({fam for t in self._tests.values() for f in t.features if (fam := family(f))})
            raise UnknownTestError(f"unknown test '{name}' (known tests: {known}; feature families: "
                                   f"{', '.join(families)})") from None

    def select(self, names: list[str] | None) -> list[type[PhysicsTest]]:
        """The tests to run: those that run by default, in registry order, when `names` is None, else in the order
        given. A name that is no test
        may be a feature (FET_022_PHYSX; a pre-2026.8 name such as FET022_DRIVEN_JOINTS_PHYSX is read as its new name,
        core.feature_ids) or a family (FET022, FET_022): every test declaring it, in registry order."""
        if not names:
            return [t for t in self._tests.values() if t.runs_by_default]
        chosen: list[type[PhysicsTest]] = []
        for name in names:
            for test_cls in ([self._tests[name]] if name in self._tests else self.by_feature(name) or [self.get(name)]):
                if test_cls not in chosen:
                    chosen.append(test_cls)
        return chosen

    def by_feature(self, feature: str) -> list[type[PhysicsTest]]:
        """The tests declaring `feature` (its new name when it is an old one), or a feature of the family it names
        ("FET022" and "FET_022" match FET_022_*); matched without case or underscores."""
        wanted = canonical(feature).replace("_", "").upper()
        if not wanted.startswith("FET"):
            return []
        return [t for t in self._tests.values()
                if any(canonical(f).replace("_", "").upper().startswith(wanted) for f in t.features)]

    def legacy_notices(self, names: list[str] | None) -> list[str]:
        """A notice for each name in `names` that is a pre-2026.8 feature ID (read as its new name by `select`)."""
        return [legacy_notice(n) for n in names or () if n not in self._tests and is_legacy(n)]

    def names(self) -> list[str]:
        return list(self._tests)

    @staticmethod
    def declared_codes(test_cls: type[PhysicsTest]) -> set[str]:
        """Every code a test may give: its own enums' and the framework's (core.codes.CommonCode)."""
        from .codes import CommonCode

        enums: tuple[type[VerdictCode], ...] = (*test_cls.codes, CommonCode)
        return {member.value for enum in enums for member in enum}

    def view_of(self, name: str) -> TestView:
        """How reports show results of `name` (the generic view for a test this registry does not hold)."""
        test_cls = self._tests.get(name)
        return test_cls.view if test_cls is not None else GENERIC_VIEW

    def fix_rules_of(self, name: str) -> FixRules:
        """What `fix` may do about failures of `name` (nothing, for a test this registry does not hold)."""
        test_cls = self._tests.get(name)
        return test_cls.fix_rules if test_cls is not None else NO_FIX_RULES

    def items(self):
        return self._tests.items()

    def __contains__(self, name: str) -> bool:
        return name in self._tests

    def __len__(self) -> int:
        return len(self._tests)


def load_entry_points(registry: TestRegistry, on_error: Callable[[str], None] | None = None) -> None:
    """Add the tests third parties declare in ENTRY_POINT_GROUP; a broken plugin never breaks the run."""
    for entry in metadata.entry_points(group=ENTRY_POINT_GROUP):
        try:
            test_cls = entry.load()
            if test_cls.name not in registry:
                registry.register(test_cls)
        except Exception as exc:  # a broken third-party plugin must not break the run
            if on_error:
                on_error(f"plugin {entry.name}: {exc}")
