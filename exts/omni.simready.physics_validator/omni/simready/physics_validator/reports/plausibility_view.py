"""The plausibility findings for people (core/plausibility): the console lines under the summary, the HTML section and
the panel's rows of one asset. Errors first (what the runtime cannot use as authored), then those that explain a
verdict; each with its code, NVIDIA's requirement where one names the rule, the verdicts it explains and the fix."""

from __future__ import annotations

from ..core.results import AssetResult, PlausibilityFinding, RunReport
from .safe_text import escape  # control characters escaped too: names are data

LIMIT = 5


def ordered(findings: list[PlausibilityFinding]) -> list[PlausibilityFinding]:
    return sorted(findings, key=lambda f: (f.severity != "error", not f.explains))


def line(found: PlausibilityFinding) -> str:
    """'MASSLESS_LINK (RB.007): gripper_link has no mass of its own ... → joint_movement FAIL: wrist_rotate'."""
    rule = f"{found.code} ({found.requirement})" if found.requirement else found.code
    text = f"{rule}: {found.message}"
    if found.explains:
        text += f" → {', '.join(found.explains)}"
    return text


def console_lines(asset: AssetResult, limit: int = LIMIT) -> list[str]:
    block = asset.plausibility
    if block is None:
        return []
    if block.error:
        return [f"plausibility checks failed: {block.error}"]
    findings = ordered(block.findings)
    lines = [line(f) for f in findings[:limit]]
    if len(findings) > limit:
        lines.append(f"… and {len(findings) - limit} more (see the report)")
    return lines


def tables(asset: AssetResult) -> dict | None:
    """{"rows": [...], "engine", "seconds", "checked", "not_checked", "error"} for the HTML report and the panel."""
    block = asset.plausibility
    if block is None:
        return None
    rows = [{"code": f.code, "requirement": f.requirement, "severity": f.severity,
             "subject": " / ".join(p.rsplit("/", 1)[-1] for p in (f.body, f.other_body, f.joint) if p),
             "path": f.body or f.joint or "", "message": f.message, "explains": list(f.explains), "fix": f.fix,
             "runtime_record": f.runtime_record} for f in ordered(block.findings)]
    return {"rows": rows, "engine": block.engine, "seconds": block.seconds, "checked": dict(block.checked),
            "not_checked": list(block.not_checked), "error": block.error}


def print_plausibility(report: RunReport, console) -> None:
    """Under the summary: per asset with findings, what needs no simulation to see."""
    from .console import short_name

    for asset in report.assets:
        lines = console_lines(asset)
        if not lines:
            continue
        engine = asset.plausibility.engine if asset.plausibility else ""
        console.print(f"plausibility {escape(short_name(asset.path))} ({engine}):", highlight=False, soft_wrap=True)
        for text in lines:
            console.print(f"    {escape(text)}", highlight=False, soft_wrap=True)
