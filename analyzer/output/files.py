"""Writing output files safely: all or nothing, never a partial file.

Regular files are written through a temporary file in the same folder and renamed into place
(after every file of a batch has been written), with the mode a new file would get (or the
mode of the file it replaces).  A symbolic link is written through to its target.  Special
files (``/dev/stdout``, a FIFO) are written directly: there is nothing to replace atomically.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import BinaryIO, TextIO

from analyzer.errors import OutputError as OutputError  # re-exported: its old home


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _target(path: Path | str) -> tuple[Path, os.stat_result | None]:
    text = str(path)
    if not text.strip():
        raise OutputError("empty output path: give a file name")
    target = Path(os.path.realpath(text))  # write through symbolic links
    try:
        info = target.stat()
    except FileNotFoundError:
        return target, None
    except OSError as exc:
        raise OutputError(f"cannot write {text!r}: {exc.strerror or exc}") from None
    if stat.S_ISDIR(info.st_mode):
        raise OutputError(f"cannot write {text!r}: it is a folder")
    return target, info


def write_files(files: Mapping[Path | str, str | bytes]) -> None:
    """Write every ``path -> text`` (or bytes, e.g. an image); on any failure nothing is
    replaced and no temporary file is left behind.

    Raises:
        OutputError: a path is empty, a folder, or cannot be written; the message names the path
            as given.
    """
    plan = [(str(p), *_target(p), text) for p, text in files.items()]
    staged: list[tuple[str, str, Path]] = []
    try:
        for given, target, info, text in plan:
            if info is not None and not stat.S_ISREG(info.st_mode):
                continue  # special files are written last, directly
            try:
                target.parent.mkdir(parents=True, exist_ok=True)
                fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
            except OSError as exc:
                raise OutputError(f"cannot write {given!r}: {exc.strerror or exc}") from None
            staged.append((given, tmp, target))
            mode = stat.S_IMODE(info.st_mode) if info is not None else 0o666 & ~_umask()
            try:
                _write(os.fdopen(fd, "wb"), text)
                os.chmod(tmp, mode)
            except OSError as exc:
                raise OutputError(f"cannot write {given!r}: {exc.strerror or exc}") from None
        for given, tmp, target in staged:
            try:
                os.replace(tmp, target)
            except OSError as exc:
                raise OutputError(f"cannot write {given!r}: {exc.strerror or exc}") from None
        staged = []
        for given, target, info, text in plan:
            if info is not None and not stat.S_ISREG(info.st_mode):
                try:
                    _write(open(target, "wb"), text)  # noqa: SIM115 - _write closes it
                except OSError as exc:
                    raise OutputError(f"cannot write {given!r}: {exc.strerror or exc}") from None
    finally:
        for _, tmp, _ in staged:
            Path(tmp).unlink(missing_ok=True)


def _write(fh: BinaryIO, content: str | bytes) -> None:
    """Write text as UTF-8 (newlines as written) or bytes as they are, then close."""
    with fh:
        fh.write(content.encode("utf-8") if isinstance(content, str) else content)


@contextlib.contextmanager
def open_atomic(path: Path | str) -> Iterator[TextIO]:
    """A text file to stream into; it replaces ``path`` only when the block ends without an
    error (otherwise nothing is written).  Same rules as :func:`write_files`.

    Raises:
        OutputError: the path cannot be written.
    """
    given = str(path)
    target, info = _target(path)
    if info is not None and not stat.S_ISREG(info.st_mode):
        try:
            with open(target, "w", encoding="utf-8", newline="\n") as fh:
                yield fh
        except OSError as exc:
            raise OutputError(f"cannot write {given!r}: {exc.strerror or exc}") from None
        return
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as exc:
        raise OutputError(f"cannot write {given!r}: {exc.strerror or exc}") from None
    mode = stat.S_IMODE(info.st_mode) if info is not None else 0o666 & ~_umask()
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            yield fh
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except OSError as exc:
        raise OutputError(f"cannot write {given!r}: {exc.strerror or exc}") from None
    finally:
        Path(tmp).unlink(missing_ok=True)
