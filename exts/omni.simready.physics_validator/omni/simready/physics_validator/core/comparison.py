"""Cross-engine comparison: the verdicts of two engines on the same assets, side by side.

Pure: it reads two RunReports and pairs their results by (asset path, test name). A pair agrees when
both verdicts are the same status. Each side carries its deciding metrics (the numbers its verdict
was decided on, as the test's own TestView names them) and, for joint tests, the joints whose own
verdicts differ, so a disagreement can be traced to a measurement rather than argued about. Known
causes: docs/engine-divergences.md.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from .plugin import TestRegistry
from .results import RunReport, Scalar, TestResult, _finite_or_none
from .status import Status
from .test_view import GENERIC_VIEW, TestView


class EngineVerdict(BaseModel):
    status: Status | None = None  # None: the engine has no result for this asset/test
    code: str = ""
    reason: str = ""
    deciding: dict[str, Scalar] = Field(default_factory=dict)
    units: dict[str, str] = Field(default_factory=dict)  # SI unit of each deciding metric that has one
    engine_version: str = ""


class JointDisagreement(BaseModel):
    joint: str
    statuses: dict[str, Status | None]  # engine -> joint verdict
    measured: dict[str, dict[str, Scalar]]  # engine -> measured values of that joint


class ComparisonRow(BaseModel):
    asset: str
    test: str
    agree: bool
    verdicts: dict[str, EngineVerdict]  # engine name -> verdict, in the comparison's engine order
    joints: list[JointDisagreement] = Field(default_factory=list)


class Comparison(BaseModel):
    engines: list[str]
    rows: list[ComparisonRow] = Field(default_factory=list)

    @property
    def disagreements(self) -> list[ComparisonRow]:
        return [r for r in self.rows if not r.agree]

    def summary(self) -> dict[str, int]:
        return {"pairs": len(self.rows), "agree": len(self.rows) - len(self.disagreements), "disagree": len(self.disagreements)}

    def to_json_dict(self) -> dict:
        data = self.model_dump(mode="json")
        data["summary"] = self.summary()
        return data


def deciding_metrics(result: TestResult, test_view: TestView = GENERIC_VIEW) -> dict[str, Scalar]:
    """The metrics the verdict of `result` rests on (all of them when its view names none), NaN/inf readable."""
    names = test_view.deciding_metrics()
    if names is None:
        picked = dict(result.metrics)
    else:
        picked = {name: result.metrics[name] for name in names if name in result.metrics}
    return {k: _finite_or_none(v) for k, v in picked.items()}


def _verdict(result: TestResult, test_view: TestView, engine_version: str) -> EngineVerdict:
    deciding = deciding_metrics(result, test_view)
    units = {**test_view.metric_units, **result.metric_units}
    return EngineVerdict(status=result.status, code=result.code, reason=result.reason, deciding=deciding,
                         units={k: units[k] for k in deciding if units.get(k)}, engine_version=engine_version)


def _rows_by_joint(result: TestResult | None) -> dict:
    return {row.path or row.joint: row for row in (result.joints if result else [])}


def _joint_disagreements(results: dict[str, TestResult | None], engines: list[str]) -> list[JointDisagreement]:
    rows = {e: _rows_by_joint(results[e]) for e in engines}
    keys = list(dict.fromkeys(k for e in engines for k in rows[e]))
    out = []
    for key in keys:
        statuses = {e: rows[e][key].status if key in rows[e] else None for e in engines}
        if len(set(statuses.values())) > 1:
            name = next(rows[e][key].joint for e in engines if key in rows[e])
            measured = {
                e: {k: _finite_or_none(v) for k, v in rows[e][key].measured.items()} if key in rows[e] else {}
                for e in engines
            }
            out.append(JointDisagreement(joint=name, statuses=statuses, measured=measured))
    return out


def compare_reports(reports: dict[str, RunReport], registry: TestRegistry) -> Comparison:
    """Pair the results of two (or more) engines' reports by asset path and test name, in report order; each
    result's deciding metrics are those its test's view names (`registry.view_of`)."""
    engines = list(reports)
    if len(engines) < 2:
        raise ValueError("a comparison needs the reports of at least two engines")
    by_engine: dict[str, dict[tuple[str, str], TestResult]] = {}
    order: list[tuple[str, str]] = []
    for engine, report in reports.items():
        table = {}
        for asset in report.assets:
            for result in asset.tests:
                key = (asset.path, result.name)
                table[key] = result
                order.append(key)
        by_engine[engine] = table
    comparison = Comparison(engines=engines)
    for key in dict.fromkeys(order):
        results = {e: by_engine[e].get(key) for e in engines}
        verdicts = {
            e: _verdict(r, registry.view_of(r.name), str(reports[e].engine) or r.engine)
            if r is not None else EngineVerdict(reason="not run on this engine")
            for e, r in results.items()
        }
        agree = len({v.status for v in verdicts.values()}) == 1 and None not in {v.status for v in verdicts.values()}
        comparison.rows.append(
            ComparisonRow(asset=key[0], test=key[1], agree=agree, verdicts=verdicts,
                          joints=_joint_disagreements(results, engines))
        )
    return comparison
