"""Text from an asset (file and prim names, reasons quoting them) made safe for where it is shown.

A file name may hold anything but '/' and NUL: an escape sequence (`\\x1b[31m` colours the terminal, `\\x1b]0;...\\x07`
sets the window title), a carriage return or a newline (a forged log line: 'FORGED PASS'), a bidi override. The
console shows each such character as its escape (`\\x1b`, `\\n`), never raw (`escape`, used for every piece of data
the console prints), and XML gets only characters XML 1.0 allows (`xml_text`: a \\x01 in a name made junit.xml
unparseable for the whole batch). The JSON report needs nothing (json escapes them); the HTML shows them as text.
"""

from __future__ import annotations

import re

_CONSOLE_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_XML_UNSAFE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _shown(char: str) -> str:
    code = ord(char)
    return _NAMED.get(char) or (f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")


def printable(text: str) -> str:
    """`text` with every control character (C0, DEL, C1), line separator and bidi control as its escape."""
    return _CONSOLE_UNSAFE.sub(lambda m: _shown(m.group()), str(text))


def escape(text: str) -> str:
    """For rich's console: control characters escaped (`printable`), then markup escaped ('[bold]' stays text).

    rich is imported here, not at the top: the Kit panel reads this module's neighbours and Kit has no rich."""
    from rich.markup import escape as markup_escape

    return markup_escape(printable(text))


def xml_text(text: str | None) -> str | None:
    """`text` with the characters XML 1.0 forbids as their escape (newlines and tabs are allowed and stay)."""
    return None if text is None else _XML_UNSAFE.sub(lambda m: _shown(m.group()), text)
