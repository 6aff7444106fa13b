"""Which tests get their video and plots drawn: what a person will look at, by default.

Drawing is most of what a run costs beyond its physics (a video frame costs more than the physics steps it shows; a
plot 0.1-0.4 s), and people watch the video and read the plots of a test that did not pass cleanly. So by default
(`run.media = "failing"`) they are drawn for FAIL, WARN and ERROR verdicts and for a PASS with warnings about the
asset (PASS*), with the USD replay layer; every recorded test keeps its recording (the poses and the timeline), so
nothing of the motion is lost. `"all"` draws them for every test (`--media all`).
"""

from __future__ import annotations

from typing import Literal

from .status import Status, verdict_label

MediaPolicy = Literal["failing", "all"]
MEDIA_CHOICES: tuple[str, ...] = ("failing", "all")
DRAWN_LABELS = frozenset({"FAIL", "WARN", "ERROR", "PASS*"})  # what "failing" draws (core.status.verdict_label)
ALL_HINT = "--media all draws them for every test"


def drawn(result, media: str) -> bool:
    """Whether `result`'s video and plots are drawn under the media policy `media`."""
    if media == "all":
        return True
    return verdict_label(result) in DRAWN_LABELS


def not_drawn_note(result, media: str) -> str:
    """The sentence a report shows where a recorded test's video and plots were left undrawn by the policy, else ""."""
    if drawn(result, media) or Status(result.status) in (Status.NOT_APPLICABLE, Status.PRECHECK_FAILURE):
        return ""
    return f"video and plots are drawn for tests that did not pass cleanly ({', '.join(sorted(DRAWN_LABELS))}); {ALL_HINT}"
