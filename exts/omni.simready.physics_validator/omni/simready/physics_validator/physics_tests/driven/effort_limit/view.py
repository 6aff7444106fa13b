"""How reports show effort_limit: failed joints, each row's deflection beside its tolerance (and another joint
the load moved, beside that joint's own tolerance), and the deflection-per-direction plot."""

from ....core.test_view import JudgedMetric, RowPair, TestView
from .plot import effort_limit_plot


def other_joint_moved(row, siblings) -> tuple[list[RowPair], set[str]]:
    """When the load moved another joint most: how far, judged by that joint's deflection tolerance."""
    other, moved = row.measured.get("most_deflected_joint"), row.measured.get("max_deflection_any_joint")
    other_row = siblings.get(other) if other and other != row.joint else None
    limit = other_row.limits.get("deflection_tolerance") if other_row is not None else None
    if other_row is None or not isinstance(moved, (int, float)) or not isinstance(limit, (int, float)):
        return [], set()
    unit = (other_row.units or {}).get("deflection_tolerance", "")
    return [RowPair(f"{other} moved", moved, unit, f"{other}'s deflection_tolerance", limit, unit)], {"max_deflection_any_joint"}


VIEW = TestView(
    judged=(JudgedMetric("joints_failed", "zero"),),
    deciding=("joints_failed", "max_deflection"),
    row_limits={"max_deflection": "deflection_tolerance"},
    row_positions=frozenset({"max_deflection", "max_deflection_any_joint", "deflection_tolerance", "held_pose_sag",
                             "lower", "upper"}),
    row_pairs=other_joint_moved,
    plot=effort_limit_plot,
)
