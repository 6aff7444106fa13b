"""How a test's verdict is shown and compared: the metrics it is decided on, the threshold beside each, how a
joint row pairs a measured value with the limit that judges it, and the plot of the deciding quantity.

Each test declares one `TestView` (its folder's view.py); the HTML report, the cross-engine comparison and
the panel ask the registry for it and name no test themselves. A test that declares none gets the generic
view: every metric listed, every series plotted against time.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Mapping

if TYPE_CHECKING:
    from .results import JointRow, Scalar, TestResult

# A plot: (figure, caption) pairs drawn from a result and its recorded series (matplotlib figures).
Plotter = Callable[["TestResult", dict], list[tuple[Any, str]]]


@dataclass(frozen=True)
class JudgedMetric:
    """A metric the verdict is decided on and the rule that judges it.

    rule: "max" (value <= threshold), "min" (value >= threshold), "true" / "false" (the flag must be so), "zero" (must be
    0).
    The threshold is a config key (`threshold_key`), another metric of the result (`threshold_metric`, a bound
    measured on the asset), or computed from the effective config (`threshold_of`, shown as `threshold_label`), or
    none for flag and zero rules.
    """

    metric: str
    rule: str = "max"
    threshold_key: str | None = None
    threshold_metric: str | None = None
    threshold_label: str = ""
    threshold_of: Callable[[dict], float] | None = None


@dataclass(frozen=True)
class RowPair:
    """A measured value beside the limit that judges it, for a pairing a row's keys cannot express alone
    (e.g. another joint that moved, judged by that joint's own limit)."""

    key: str
    value: "Scalar"
    unit: str
    limit_key: str
    limit: "Scalar"
    limit_unit: str


# (row, the test's rows by joint name) -> (extra pairs, the measured keys they consumed)
RowPairs = Callable[["JointRow", Mapping[str, "JointRow"]], tuple[list[RowPair], set[str]]]


@dataclass(frozen=True)
class TestView:
    __test__ = False  # not a pytest class

    judged: tuple[JudgedMetric, ...] = ()
    deciding: tuple[str, ...] | None = None  # compared across engines; None = the judged metrics
    metric_units: Mapping[str, str] = field(default_factory=dict)  # for metrics recorded without a unit
    row_limits: Mapping[str, str] = field(default_factory=dict)  # joint-row measured key -> limits key judging it
    row_positions: frozenset[str] = frozenset()  # row keys that are joint positions (unit inferred when unrecorded)
    row_rates: frozenset[str] = frozenset()  # row keys that are joint velocities
    row_pairs: RowPairs | None = None
    plot: Plotter | None = None

    def deciding_metrics(self) -> tuple[str, ...] | None:
        """The metrics a cross-engine comparison shows (None: every scalar metric)."""
        if self.deciding is not None:
            return self.deciding
        return tuple(j.metric for j in self.judged) or None


GENERIC_VIEW = TestView()
