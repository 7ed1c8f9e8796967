"""Writing output safely: all or nothing, never a partial file, never onto an input.

* A regular file is written to a temporary file in its folder and renamed into place only when
  complete (after every file of a batch has been written), with the mode a new file would get
  (or the mode of the file it replaces).  A symbolic link is written through to its target.
  The folder must exist: it is not created (a typo in a path is an error, not a new folder).
* A file the user did not name (a report's charts beside it: ``new`` in :func:`write_files`)
  is only ever created: one of that name that exists, or a symbolic link of that name (even a
  dangling one), is refused before anything is written (:func:`refuse_existing`), and the
  complete file is put in place with ``link(2)``, which fails rather than replace a file that
  appeared meanwhile or follow a link.
* ``/dev/stdout``, ``/dev/stderr`` and ``/dev/fd/N`` (also through a link) are this process's
  open descriptors: written directly, at the descriptor's own position and mode, so
  ``-o /dev/stdout >> app.log`` appends and ``-o /dev/stdout | cat`` works.  Other special
  files (a FIFO, ``/dev/null``, a terminal) are opened and written directly: there is nothing
  to replace atomically, and nothing is truncated.
* :func:`refuse_inputs` refuses an output that is one of the command's inputs (the same
  device and inode: also through a link or a hard link, and standard output redirected onto
  an input).
* :func:`replace_folder` writes a whole folder (``tables --out``) as a sibling folder and swaps
  it into place: the old folder stays whole until the new one is complete.

Steps that must not be cut in half (create a temporary file and note it for cleanup; rename
the files of a batch; swap two folders) run with SIGINT, SIGTERM and SIGHUP held back
(``signal.pthread_sigmask``); the signal is then acted on as the step ends, and every other
step cleans up in its ``finally`` (the CLI turns SIGTERM and SIGHUP into an exception).
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import re
import signal
import stat
import sys
import warnings
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, TextIO, cast

from analyzer.errors import OutputError as OutputError  # re-exported: its old home
from analyzer.text import ASCII_FALLBACK

#: Paths that name one of this process's open descriptors.
_DESCRIPTOR = re.compile(r"/dev/(?:(stdout)|(stderr)|fd/(\d+))|/proc/(self|thread-self|\d+)/fd/(\d+)")
_HELD = {getattr(signal, n) for n in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, n)}


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """SIGINT, SIGTERM and SIGHUP wait until the block ends (then take effect as usual)."""
    if not hasattr(signal, "pthread_sigmask"):  # pragma: no cover - not POSIX
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _descriptor(text: str) -> int | None:
    """The open descriptor of this process that ``text`` names (``/dev/stdout`` is 1,
    ``/dev/fd/3`` is 3, ``/proc/self/fd/N``), following symbolic links to such a name; else
    ``None``."""
    path = text
    for _ in range(40):
        match = _DESCRIPTOR.fullmatch(os.path.normpath(path))
        if match is not None:
            out, err, fd, pid, proc_fd = match.groups()
            if out or err:
                return 1 if out else 2
            if fd is not None:
                return int(fd)
            if pid in ("self", "thread-self") or pid == str(os.getpid()):
                return int(proc_fd)
            return None
        try:
            link = os.readlink(path)
        except OSError:
            return None
        path = os.path.join(os.path.dirname(path), link)
    return None


@dataclass(frozen=True)
class _Target:
    """Where an output goes: ``given`` as named; an open descriptor ``fd``, or the resolved
    ``path``; ``info`` the stat of what is there now (``None``: a new file)."""

    given: str
    path: Path | None
    fd: int | None
    info: os.stat_result | None
    new: bool = False

    @property
    def replaced(self) -> bool:
        """True for a regular file (new or existing): written by temporary file and rename."""
        return self.fd is None and (self.info is None or stat.S_ISREG(self.info.st_mode))

    def fail(self, exc: OSError | str) -> OutputError:
        why = exc if isinstance(exc, str) else exc.strerror or str(exc)
        return OutputError(f"cannot write {self.given!r}: {why}")


def _target(path: Path | str) -> _Target:
    """Resolve an output path, checking it can be written.

    Raises:
        OutputError: an empty path, a folder, a missing parent folder, a closed descriptor.
    """
    text = str(path)
    if not text.strip():
        raise OutputError("empty output path: give a file name")
    fd = _descriptor(text)
    if fd is not None:
        try:
            return _Target(text, None, fd, os.fstat(fd))
        except OSError:
            raise OutputError(f"cannot write {text!r}: descriptor {fd} is not open") from None
    real = Path(os.path.realpath(text))  # write through symbolic links
    try:
        info: os.stat_result | None = real.stat()
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise OutputError(f"cannot write {text!r}: {exc.strerror or exc}") from None
    if info is not None and stat.S_ISDIR(info.st_mode):
        raise OutputError(f"cannot write {text!r}: it is a folder")
    if text.endswith(("/", os.sep)):  # realpath() drops the slash: 'out/' would write a file 'out'
        raise OutputError(f"cannot write {text!r}: a name ending in '/' is a folder; give a file name")
    if info is None and not real.parent.is_dir():
        folder = os.path.dirname(text) or "."
        raise OutputError(f"cannot write {text!r}: the folder {folder!r} does not exist (create it first)")
    return _Target(text, real, None, info)


def _exists_refusal(text: str) -> OutputError:
    return OutputError(
        f"refusing to write {text!r}: it exists (a file or a link), and a file the command was "
        "not given by name is never replaced; remove it, or choose another output name"
    )


def _new_target(path: Path | str) -> _Target:
    """Check a file that must be created new (see :func:`refuse_existing`)."""
    text = str(path)
    if not text.strip():
        raise OutputError("empty output path: give a file name")
    given = Path(text)
    try:
        os.lstat(given)  # a link of that name counts, even a dangling one: never followed
    except FileNotFoundError:
        pass
    except OSError as exc:
        raise OutputError(f"cannot write {text!r}: {exc.strerror or exc}") from None
    else:
        raise _exists_refusal(text)
    parent = Path(os.path.realpath(given.parent))
    if not parent.is_dir():
        folder = os.path.dirname(text) or "."
        raise OutputError(f"cannot write {text!r}: the folder {folder!r} does not exist (create it first)")
    return _Target(text, parent / given.name, None, None, new=True)


def refuse_existing(paths: Iterable[str | Path]) -> None:
    """Refuse, before any work, to write files the user did not name where something exists:
    each of ``paths`` must not exist, not even as a symbolic link (dangling or not), and its
    folder must exist.  :func:`write_files` checks its ``new`` paths the same way.

    Raises:
        OutputError: the first path that exists (the message names it) or has no folder.
    """
    for path in paths:
        _new_target(path)


def check_targets(paths: Iterable[str | Path]) -> None:
    """Check, before a long computation, that each of ``paths`` could be written by
    :func:`write_files` (nothing is written).

    Raises:
        OutputError: as :func:`write_files` would for the first bad path.
    """
    for path in paths:
        _target(path)


def refuse_inputs(outputs: Iterable[str | Path | None], inputs: Iterable[str | Path]) -> None:
    """Refuse to write onto an input.  ``outputs`` are paths, or ``None`` for standard output;
    ``inputs`` are paths, or ``"-"`` for standard input.  Two are the same when they are the
    same regular file (device and inode): through a symbolic link, a hard link, ``/dev/stdout``
    or a shell redirection alike.  An input that cannot be read is left to its reader.

    Raises:
        OutputError: an output is one of the inputs (the message names both), or cannot be
            written (:func:`_target`).
    """
    outputs = list(outputs)
    for output in outputs:  # as given: a caller's Path('out/') drops the slash that names a folder
        if output is not None:
            _target(output)
    known: dict[tuple[int, int], str] = {}
    for given in inputs:
        try:
            info = os.fstat(sys.stdin.fileno()) if str(given) == "-" else os.stat(given)
        except (OSError, ValueError, AttributeError):
            continue
        if stat.S_ISREG(info.st_mode):
            name = "standard input" if str(given) == "-" else str(given)
            known.setdefault((info.st_dev, info.st_ino), name)
    if not known:
        return
    for output in outputs:
        if output is None:
            try:
                out_info: os.stat_result | None = os.fstat(sys.stdout.fileno())
            except (OSError, ValueError, AttributeError):
                continue
            name = "standard output"
        else:
            out_info, name = _target(output).info, repr(str(output))
        if out_info is not None and stat.S_ISREG(out_info.st_mode):
            source = known.get((out_info.st_dev, out_info.st_ino))
            if source is not None:
                raise OutputError(
                    f"refusing to write {name}: it is the input {source!r} (the same file); "
                    "write the output elsewhere"
                )


def same_file(a: str | Path, b: str | Path) -> bool:
    """True when two output paths name one file: the same path once resolved (links followed),
    or the same existing file (device and inode, e.g. hard links).

    Raises:
        OutputError: a path cannot be an output (see :func:`write_files`).
    """
    ta, tb = _target(a), _target(b)
    if ta.fd is not None or tb.fd is not None:
        return ta.fd == tb.fd
    if ta.path == tb.path:
        return True
    return (
        ta.info is not None
        and tb.info is not None
        and (ta.info.st_dev, ta.info.st_ino) == (tb.info.st_dev, tb.info.st_ino)
    )


def _encoded(content: str | bytes) -> bytes:
    """Text as UTF-8 (a lone surrogate as its escape, never an error), bytes as they are."""
    return content.encode("utf-8", ASCII_FALLBACK) if isinstance(content, str) else content


def _write_new(path: Path, content: str | bytes, mode: int) -> None:
    """Write a file that does not exist yet (a staging folder's member)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    with os.fdopen(fd, "wb") as fh:
        fh.write(_encoded(content))


def _write_all(fd: int, data: bytes) -> None:
    """``os.write`` until every byte of ``data`` is taken (a pipe takes part of a large write
    when its reader goes away; the next write then raises ``BrokenPipeError``)."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _write_descriptor(fd: int, data: bytes) -> None:
    """Write all of ``data`` to an open descriptor (standard output first flushed)."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError, AttributeError):
            if stream.fileno() == fd:
                stream.flush()
    _write_all(fd, data)


#: Special files are opened to append: a device or FIFO is never truncated.
_SPECIAL_FLAGS = os.O_WRONLY | os.O_APPEND | getattr(os, "O_NOCTTY", 0)


class _Sink(io.TextIOBase):
    """Text streamed into an open descriptor that this object owns (a pipe, a FIFO, a device):
    UTF-8 with the ASCII fallback, gathered up to 64 KiB and then written with ``os.write``
    until every byte is taken.  (A buffered file object ignores a short write into a pipe
    whose reader went away, and drops the rest silently.)"""

    def __init__(self, fd: int) -> None:
        super().__init__()
        self._fd = fd
        self._parts: list[bytes] = []
        self._size = 0

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        data = _encoded(text)
        self._parts.append(data)
        self._size += len(data)
        if self._size >= 1 << 16:
            self.flush()
        return len(text)

    def flush(self) -> None:
        if self._parts:
            data, self._parts, self._size = b"".join(self._parts), [], 0
            _write_all(self._fd, data)

    def close(self) -> None:
        if self.closed:
            return
        try:
            super().close()  # flushes
        finally:
            os.close(self._fd)


def _write_special(target: _Target, content: str | bytes) -> None:
    """Write to a descriptor or special file directly (nothing to replace, nothing truncated).

    Raises:
        BrokenPipeError: the reader went away (for the CLI to end quietly); OutputError: any
            other failure.
    """
    data = _encoded(content)
    try:
        if target.fd is not None:
            _write_descriptor(target.fd, data)
        else:
            assert target.path is not None
            fd = os.open(target.path, _SPECIAL_FLAGS)  # a FIFO, a device: append, never truncate
            try:
                _write_all(fd, data)
            finally:
                os.close(fd)
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise target.fail(exc) from None


def _temporary(target: _Target) -> tuple[int, str]:
    """A new temporary file beside ``target`` (call with signals held, and note it at once)."""
    import tempfile  # lazy: printing to standard output never needs it

    assert target.path is not None
    try:
        return tempfile.mkstemp(dir=target.path.parent, prefix=f".{target.path.name}.", suffix=".tmp")
    except OSError as exc:
        raise target.fail(exc) from None


def _mode(target: _Target) -> int:
    return stat.S_IMODE(target.info.st_mode) if target.info is not None else 0o666 & ~_umask()


def _put_new(target: _Target, tmp: str) -> None:
    """Give the complete temporary file ``tmp`` the name of ``target``, a file that must be
    created new: ``link(2)`` fails if anything has that name (a link is not followed); where
    the file system has no hard links, an exclusive create (``O_EXCL | O_NOFOLLOW``) and a copy.
    Call with signals held.

    Raises:
        OutputError: the name exists now, or the file cannot be written.
    """
    assert target.path is not None
    try:
        os.link(tmp, target.path)
    except FileExistsError:
        raise _exists_refusal(target.given) from None
    except OSError as exc:
        if exc.errno not in (errno.EPERM, errno.EXDEV, errno.EMLINK, errno.ENOTSUP, errno.EOPNOTSUPP):
            raise target.fail(exc) from None
        _copy_new(target, tmp)
    Path(tmp).unlink(missing_ok=True)


def _copy_new(target: _Target, tmp: str) -> None:
    """:func:`_put_new` where hard links are not supported."""
    assert target.path is not None
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(target.path, flags, _mode(target))
    except FileExistsError:
        raise _exists_refusal(target.given) from None
    except OSError as exc:
        raise target.fail(exc) from None
    import shutil  # lazy: as tempfile above

    try:
        with os.fdopen(fd, "wb") as out, open(tmp, "rb") as src:
            shutil.copyfileobj(src, out)
    except OSError as exc:
        target.path.unlink(missing_ok=True)
        raise target.fail(exc) from None


def write_files(files: Mapping[Path | str, str | bytes], *, new: Iterable[Path | str] = ()) -> None:
    """Write every ``path -> text`` (or bytes, e.g. an image); every path is checked before any
    is written; on any failure no regular file is replaced and no temporary file is left.

    ``new`` names the paths among ``files`` that the user did not name (a report's charts):
    each is created, never replaced, and never written through a link (see
    :func:`refuse_existing`); they are put in place before the named files are replaced, so a
    refusal at that point leaves every named file as it was.

    Raises:
        OutputError: a path is empty, a folder, in a folder that does not exist, or cannot be
            written; a ``new`` path exists; the message names the path as given.
            BrokenPipeError: a pipe's reader went away.
    """
    fresh = {str(Path(p)) for p in new}
    plan = [
        (_new_target(p) if str(Path(p)) in fresh else _target(p), content) for p, content in files.items()
    ]
    staged: list[tuple[_Target, str]] = []
    created: list[Path] = []
    try:
        for target, content in plan:
            if not target.replaced:
                continue  # special files are written last, directly
            with _signals_held():
                fd, tmp = _temporary(target)
                staged.append((target, tmp))
            try:
                with os.fdopen(fd, "wb") as fh:
                    fh.write(_encoded(content))
                os.chmod(tmp, _mode(target))
            except OSError as exc:
                raise target.fail(exc) from None
        with _signals_held():
            for target, tmp in staged:
                if target.new:
                    assert target.path is not None
                    _put_new(target, tmp)
                    created.append(target.path)
            for target, tmp in staged:
                assert target.path is not None
                if not target.new:
                    try:
                        os.replace(tmp, target.path)
                    except OSError as exc:
                        raise target.fail(exc) from None
            staged, created = [], []
        for target, content in plan:
            if not target.replaced:
                _write_special(target, content)
    finally:
        for _, tmp in staged:
            Path(tmp).unlink(missing_ok=True)
        for path in created:  # files this call created, when a later step failed
            path.unlink(missing_ok=True)


@contextlib.contextmanager
def open_atomic(path: Path | str) -> Iterator[TextIO]:
    """A text file to stream into; it replaces ``path`` only when the block ends without an
    error or a signal (otherwise nothing is written, and no temporary file is left).  Same
    rules as :func:`write_files`; a descriptor or special file is streamed into directly.

    Raises:
        OutputError: the path cannot be written.
    """
    with _open_atomic(path, False) as fh:
        yield cast(TextIO, fh)


@contextlib.contextmanager
def open_atomic_binary(path: Path | str) -> Iterator[BinaryIO]:
    """:func:`open_atomic` for bytes (a Parquet file), into a regular file only.

    Raises:
        OutputError: the path cannot be written, or is a descriptor or special file (a pipe,
            a device, standard output): binary output is written to a file.
    """
    with _open_atomic(path, True) as fh:
        yield cast(BinaryIO, fh)


@contextlib.contextmanager
def _open_atomic(path: Path | str, binary: bool) -> Iterator[object]:
    target = _target(path)
    if not target.replaced and binary:
        raise target.fail("binary output is written to a regular file, not a pipe, device or standard output")
    if not target.replaced:
        try:
            if target.fd is not None:
                _write_descriptor(target.fd, b"")  # flush what standard output holds first
                sink = _Sink(os.dup(target.fd))
            else:
                assert target.path is not None
                sink = _Sink(os.open(target.path, _SPECIAL_FLAGS))
        except OSError as exc:
            raise target.fail(exc) from None
        try:
            with sink:
                yield cast(TextIO, sink)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise target.fail(exc) from None
        return
    assert target.path is not None
    tmp: str | None = None
    try:
        with _signals_held():
            fd, tmp = _temporary(target)
        opened = (
            os.fdopen(fd, "wb")
            if binary
            else os.fdopen(fd, "w", encoding="utf-8", errors=ASCII_FALLBACK, newline="\n")
        )
        with opened as fh:
            yield fh
        os.chmod(tmp, _mode(target))
        with _signals_held():
            os.replace(tmp, target.path)
            tmp = None
    except BrokenPipeError:  # standard output's reader went away while the block ran
        raise
    except OSError as exc:
        raise target.fail(exc) from None
    finally:
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)


def _remove_previous(old: str, names: Iterable[str], given: str) -> None:
    """Remove the previous output swapped out to ``old``: only the files of ``names`` (what
    the check found there), then the folder; anything else that appeared meanwhile is kept,
    with a warning naming where."""
    for name in names:
        with contextlib.suppress(OSError):  # what cannot be removed is kept, and warned about
            path = Path(old, name)
            if stat.S_ISREG(path.lstat().st_mode):
                path.unlink()
    try:
        os.rmdir(old)
    except OSError:
        warnings.warn(
            f"the previous contents of {given!r} are kept in {old!r}: files appeared there while "
            "this command ran",
            stacklevel=2,
        )


def check_folder(
    folder: Path | str, names: Collection[str], previous: Callable[[str], bool] | None = None
) -> tuple[Path, os.stat_result | None]:
    """Refuse, before anything is built, a folder that :func:`replace_folder` may not make hold
    the files ``names``: the same checks, without writing.  Returns the folder resolved (links
    followed) and its stat (``None``: it does not exist yet).  ``previous``: the names of files
    an earlier run of the command wrote that it no longer writes (they are replaced too).

    Raises:
        OutputError: as :func:`replace_folder`, except a write failure.
    """
    given = str(folder)
    if not given.strip():
        raise OutputError("empty folder name: give a folder, e.g. results/")
    real = Path(os.path.realpath(given))
    fail = _Target(given, real, None, None).fail
    try:
        info: os.stat_result | None = real.stat()
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise fail(exc) from None
    if info is not None and not stat.S_ISDIR(info.st_mode):
        raise fail("it is a file, not a folder")
    if not real.parent.is_dir():
        parent = os.path.dirname(given.rstrip("/")) or "."
        raise fail(f"the folder {parent!r} does not exist (create it first)")
    for name in names:
        if not name or name in (".", "..") or "/" in name or os.sep in name:
            raise OutputError(f"bad file name {name!r} for the folder {given!r}")
    if info is not None:
        with os.scandir(real) as entries:
            others = sorted(
                e.name
                for e in entries
                if not e.is_file(follow_symlinks=False)
                or (e.name not in names and not (previous is not None and previous(e.name)))
            )
        if others:
            more = f" and {len(others) - 1} more" if len(others) > 1 else ""
            raise OutputError(
                f"refusing to replace the folder {given!r}: it holds {others[0]!r}{more}, "
                "which this command does not write; give a new folder, or one holding "
                "only its output"
            )
    return real, info


def replace_folder(
    folder: Path | str, files: Mapping[str, str | bytes], previous: Callable[[str], bool] | None = None
) -> None:
    """Make ``folder`` hold exactly ``files`` (file name -> content), all or nothing: the files
    are written into a new sibling folder, which is then swapped into place; on any failure,
    or a signal, the old folder is left as it was and no sibling folder remains.

    An existing folder may hold only files of those names (the previous run's output): one
    that holds anything else is refused, never replaced (``tables --out .`` would otherwise
    swap away the current folder).  The parent folder must exist.  A command whose files take
    long to build calls :func:`check_folder` with their names first.  ``previous``: as
    :func:`check_folder` (the files of an earlier run that this one no longer writes).

    Raises:
        OutputError: an empty name, a file where the folder should be, a missing parent folder,
            a folder holding other files, a bad file name, or a write failure.
    """
    real, info = check_folder(folder, frozenset(files), previous)
    given = str(folder)
    found = set(files)
    if info is not None and previous is not None:
        with os.scandir(real) as entries:
            found |= {e.name for e in entries if previous(e.name) and e.is_file(follow_symlinks=False)}
    fail = _Target(given, real, None, None).fail
    import shutil  # lazy: as in _temporary
    import tempfile  # lazy: as in _temporary

    staging: str | None = None
    try:
        with _signals_held():
            staging = tempfile.mkdtemp(dir=real.parent, prefix=f".{real.name}.", suffix=".tmp")
        mode = 0o666 & ~_umask()
        for name, content in files.items():
            _write_new(Path(staging, name), content, mode)
        os.chmod(staging, stat.S_IMODE(info.st_mode) if info is not None else 0o777 & ~_umask())
        with _signals_held():
            if info is None:
                os.rename(staging, real)
            else:
                # a new empty folder of our own, which the rename replaces (never another's)
                old = tempfile.mkdtemp(dir=real.parent, prefix=f".{real.name}.", suffix=".old")
                os.rename(real, old)
                try:
                    os.rename(staging, real)
                except OSError:
                    os.rename(old, real)
                    raise
            staging = None
        if info is not None:
            _remove_previous(old, found, given)
    except OSError as exc:
        raise fail(exc) from None
    finally:
        if staging is not None:
            shutil.rmtree(staging, ignore_errors=True)


__all__ = [
    "OutputError",
    "check_folder",
    "check_targets",
    "open_atomic",
    "refuse_existing",
    "refuse_inputs",
    "replace_folder",
    "same_file",
    "write_files",
]
