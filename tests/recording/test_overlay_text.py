"""The overlay's text layout without rendering: long reasons wrap on word boundaries inside the card, end in an
ellipsis when they do not fit, and the card stays above the control bar at any frame size."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("PIL")

from omni.simready.physics_validator.recording.overlay import CONTROL_BAR_FRACTION, Overlay, _width, wrap  # noqa: E402

LONG = ("3 of 6 joints failed the sweep: shoulder_lift_joint: did not reach and hold max endpoint 144° : error 117° > "
        "rest_tolerance 5.73° for most of the pause; elbow_joint: did not return to zero 0°: error 0.74° > 0.57°; "
        "wrist_1_joint: bounding box exploded during to_min (volume 12.5 x baseline > 10); ") * 6


@pytest.mark.parametrize("size", [(640, 360), (320, 180), (1280, 720), (480, 480)])
def test_card_wraps_long_reasons_inside_the_frame_above_the_controls(size):
    width, height = size
    overlay = Overlay(width, height)
    image = np.full((height, width, 3), 200, np.uint8)
    out, (x0, y0, x1, y1), lines = overlay.card(image, "FAIL", LONG)
    assert out.shape == image.shape
    assert 0 < x0 < x1 < width and 0 < y0 < y1 <= (1 - CONTROL_BAR_FRACTION) * height
    assert lines and lines[-1].endswith("…")  # this reason is longer than any card holds
    words = " ".join(lines).replace(" …", "").split()
    assert words == LONG.split()[: len(words)]  # nothing cut mid-word
    for line in lines:
        assert _width(overlay.reason_font, line) <= x1 - x0


def test_short_reason_is_kept_whole_and_card_is_narrow():
    overlay = Overlay(640, 360)
    _, (x0, _, x1, _), lines = overlay.card(np.zeros((360, 640, 3), np.uint8), "PASS", "at rest 0.52 s after first contact")
    assert lines == ["at rest 0.52 s after first contact"]
    assert x1 - x0 < 400


def test_wrap_handles_a_word_wider_than_the_line():
    font = Overlay(640, 360).reason_font
    lines = wrap(font, "x" * 200 + " tail", 150, 3)
    assert lines[0].endswith("…") and lines[-1] == "tail"
