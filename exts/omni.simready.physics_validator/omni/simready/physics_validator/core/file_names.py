"""Names the tool gives its own files and folders: bounded in length, so any asset name fits the file system.

A file or folder name may have at most 255 bytes (ext4, APFS, NTFS); a name made from an asset's 250-character
file name plus a tag would not fit, and one such asset used to cost the whole batch its HTML report. A longer name
keeps its first characters and ends in a hash of the whole, so it stays unique and stable.
"""

from __future__ import annotations

import hashlib

MAX_NAME_CHARS = 80  # of a name made from an asset or test name (the tool adds at most ~30 characters around it)


def bounded(name: str, limit: int = MAX_NAME_CHARS) -> str:
    """`name` when it has at most `limit` characters, else its first ones, '-' and 8 hex digits of its sha1."""
    if len(name) <= limit:
        return name
    return f"{name[: limit - 9]}-{hashlib.sha1(name.encode('utf-8', 'surrogatepass')).hexdigest()[:8]}"
