"""Reading settings as text: a TOML config file, or one `--set` value, into plain values (or a ConfigError naming where).

Hostile text is a usage error here, never a Python error further on (issue 42): a file of arrays or inline tables
nested 50,000 deep ended `RecursionError` (exit 3); a `--set` value with a newline read as a whole TOML document, kept
its first line and silently dropped the rest (`--set 'ground_drop.rest_tolerance_m=0.02\\n[run]\\nwatchdog_seconds=1'`);
a 100,000-digit value failed on Python's integer limit without naming the flag. A setting is a number, a word, a flag
or a short list: nothing nests deeper than MAX_NESTING, and a `--set` value is one line of at most MAX_VALUE_CHARS.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from .status import UsageError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10 (Kit 105)
    import tomli as tomllib

MAX_CONFIG_BYTES = 1 << 20  # a config file; larger is refused unread
MAX_NESTING = 16  # arrays and tables below a setting's section (a setting's own list is 1 level)
MAX_VALUE_CHARS = 1000  # one --set value


class ConfigError(UsageError):
    """A config problem the user must fix (a usage error: exit code 2); the message names the key."""


def read_config_text(path: Path) -> str:
    """A config file's text: a regular file of at most 1 MiB (a folder, a FIFO or /dev/zero is refused, never read)."""
    from .usd.dependencies import REGULAR, file_kind

    kind = file_kind(path)
    if kind and kind != REGULAR:
        raise OSError(f"it is {kind}, not a TOML file")
    if path.stat().st_size > MAX_CONFIG_BYTES:
        raise OSError(f"larger than {MAX_CONFIG_BYTES >> 20} MiB")
    return path.read_text(encoding="utf-8")


def load_toml(text: str, where: str) -> dict[str, Any]:
    """`text` as a TOML document; a ConfigError that starts with `where` when it is not one this tool reads."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{where}: not valid TOML ({exc})") from None
    except RecursionError:
        raise ConfigError(f"{where}: arrays or tables nested too deep to read (a setting nests at most {MAX_NESTING} "
                          f"levels)") from None
    except ValueError as exc:  # Python's integer-string limit (4300 digits)
        raise ConfigError(f"{where}: a number too long to read ({str(exc).split(':')[0]})") from None
    depth = nesting(data)
    if depth > MAX_NESTING + 1:  # + the section's own table
        raise ConfigError(f"{where}: arrays or tables nested {depth} levels deep (a setting nests at most {MAX_NESTING})")
    return data


def nesting(value: Any) -> int:
    """How deep lists and tables nest in `value` (a scalar is 0), without recursion."""
    deepest, todo = 0, [(value, 0)]
    while todo:
        item, depth = todo.pop()
        if isinstance(item, dict):
            todo += [(v, depth + 1) for v in item.values()]
        elif isinstance(item, list):
            todo += [(v, depth + 1) for v in item]
        else:
            deepest = max(deepest, depth)
            continue
        deepest = max(deepest, depth + 1)
    return deepest


def brief(text: str, limit: int = 80) -> str:
    """`text` for a one-line message: control characters escaped, a long text cut with its length said."""
    escaped = text.encode("unicode_escape").decode("ascii")
    return escaped if len(escaped) <= limit else f"{escaped[:limit - 20]}… ({len(text):,} characters)"


def parse_value(raw: str, where: str = "--set") -> Any:
    """Parse one setting's value the way TOML would (1, 0.5, true, "x", [1, 2]); bare words stay strings, and a list of
    values with units ([30%, 60%]) is a list of them (each converted by the setting's unit). A newline, a value longer
    than MAX_VALUE_CHARS or one nested deeper than MAX_NESTING is a ConfigError starting with `where`."""
    if "\n" in raw or "\r" in raw:
        raise ConfigError(f"{where}: a value is one value, on one line (a newline would start another setting)")
    if len(raw) > MAX_VALUE_CHARS:
        raise ConfigError(f"{where}: a value of {len(raw):,} characters (at most {MAX_VALUE_CHARS:,} are read)")
    try:
        document = load_toml(f"v = {raw}", where)
    except ConfigError as exc:
        if "not valid TOML" not in str(exc):
            raise
        if raw.startswith("[") and raw.endswith("]"):
            return [parse_value(item.strip(), where) for item in raw[1:-1].split(",") if item.strip()]
        lowered = raw.lower()
        if lowered in ("nan", "inf", "-inf", "+inf"):
            return float(lowered)
        return raw
    if set(document) != {"v"}:  # `1 # x` is one value; nothing but a newline could add a key, and those are refused
        raise ConfigError(f"{where}: a value is one value (it read as {sorted(document)})")
    return document["v"]
