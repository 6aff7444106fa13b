"""What a recorded test gets drawn: its 3D replay always, plots and videos where a person will look at them.

Every recorded test gets its 3D replay (recording/replay_glb.py): the browser draws it from the poses, so it costs
milliseconds. Plots (0.1-0.4 s each) are drawn for the tests that did not pass cleanly (FAIL, WARN, ERROR and a PASS
with warnings about the asset, PASS*). A video costs more than the physics it shows (about 20 CPU ms a frame), so by
default (`run.media = "replay"`) none is drawn; `"failing"` draws one, with its USD replay layer, for each test that
did not pass cleanly (the default before the 3D replay), `"all"` draws video and plots for every test (`--media`).
"""

from __future__ import annotations

from typing import Literal

from .status import Status, verdict_label

MediaPolicy = Literal["replay", "failing", "all"]
MEDIA_CHOICES: tuple[str, ...] = ("replay", "failing", "all")
DRAWN_LABELS = frozenset({"FAIL", "WARN", "ERROR", "PASS*"})  # what is drawn by default (core.status.verdict_label)
ALL_HINT = "--media all draws them for every test"


def drawn(result, media: str) -> bool:
    """Whether `result`'s plots are drawn under the media policy `media`."""
    if media == "all":
        return True
    return verdict_label(result) in DRAWN_LABELS


def video_drawn(result, media: str) -> bool:
    """Whether `result`'s video and USD replay layer are made under the media policy `media` ('replay': none)."""
    return media == "all" or (media == "failing" and drawn(result, media))


def not_drawn_note(result, media: str) -> str:
    """The sentence a report shows where a recorded test's plots were left undrawn by the policy, else ""."""
    if drawn(result, media) or Status(result.status) in (Status.NOT_APPLICABLE, Status.PRECHECK_FAILURE):
        return ""
    return f"plots are drawn for tests that did not pass cleanly ({', '.join(sorted(DRAWN_LABELS))}); {ALL_HINT}"
