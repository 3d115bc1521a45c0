"""A path the user gave, looked at once: missing, a file, a folder, or a one-line error.

``Path.exists()`` and ``Path.is_dir()`` raise on a name too long for the file system, and say
"missing" of ``file.txt/x.db`` (a file where a folder should be). ``path_kind`` asks the file
system once and turns every answer into one of three kinds or one clear error naming the path.
"""

from __future__ import annotations

import enum
import errno
import os
import stat
from pathlib import Path

from pegboard.errors import PegboardError, quote

__all__ = ["PathKind", "path_kind"]


class PathKind(enum.Enum):
    """What is at a path."""

    MISSING = "missing"
    FILE = "file"
    OTHER = "other"  # a folder, a device, a socket: anything but a regular file


def path_kind(path: Path, error: type[PegboardError], *, what: str = "") -> PathKind:
    """What is at *path*, or *error* with one line naming it and the reason.

    *what* goes before the path in the message (e.g. ``"--out "``).

    Raises:
        error: the path cannot be looked at: its name is too long, a part of it is a file
            and not a folder, or it may not be searched (no permission).

    >>> path_kind(Path("/"), PegboardError)
    <PathKind.OTHER: 'other'>
    >>> path_kind(Path("a" * 300), PegboardError)
    Traceback (most recent call last):
    ...
    pegboard.errors.PegboardError: cannot open 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'...: File name too long
    """  # noqa: E501
    shown = quote(str(path))
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return PathKind.MISSING
    except OSError as e:
        if e.errno == errno.ENOTDIR:
            part = _file_in_the_way(path)
            if part is not None:
                raise error(
                    f"cannot open {what}{shown}: {quote(str(part))} is a file, not a folder"
                ) from None
        raise error(f"cannot open {what}{shown}: {e.strerror or e}") from None
    except ValueError:  # a NUL byte in the name
        raise error(f"cannot open {what}{shown}: a file name has no NUL character") from None
    return PathKind.FILE if stat.S_ISREG(mode) else PathKind.OTHER


def _file_in_the_way(path: Path) -> Path | None:
    """The first of *path*'s folders that is not a folder, if any."""
    for parent in reversed(path.parents):
        try:
            if not stat.S_ISDIR(os.stat(parent).st_mode):
                return parent
        except OSError:
            return None
    return None
