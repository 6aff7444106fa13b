"""The names the writers used before issue 42, kept for code that still imports them: everything is written by
`core.out_writer` (the one writer of OUT; its docstring says how)."""

from __future__ import annotations

from .out_writer import folder as real_folder
from .out_writer import replacing
from .out_writer import write_bytes as write_bytes_atomic
from .out_writer import write_text as write_atomic

__all__ = ["real_folder", "replacing", "write_atomic", "write_bytes_atomic"]
