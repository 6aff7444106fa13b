"""Control characters in names: escaped on the console, XML-legal in JUnit."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from omni.simready.physics_validator.reports.safe_text import escape, printable, xml_text


def test_escape_sequences_newlines_and_bidi_controls_are_shown_escaped():
    name = "bad\x01name\x1b[31mRED\nFORGED PASS\u202e.usda"
    shown = printable(name)
    assert shown == "bad\\x01name\\x1b[31mRED\\nFORGED PASS\\u202e.usda"
    assert "\x1b" not in escape(name) and "\n" not in escape(name)
    assert escape("[bold]x[/bold]") == "\\[bold]x\\[/bold]"  # markup stays text


def test_xml_text_keeps_what_xml_allows_and_makes_the_rest_parseable():
    text = xml_text("a\x01b\tc\nd\x1b")
    assert text == "a\\x01b\tc\nd\\x1b"
    ET.fromstring(f"<t v='{text}'>{text}</t>")
