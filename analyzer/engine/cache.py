"""The disk cache of compiled tables: files of bytes, signed, bounded, never trusted.

The cache stores and loads bytes; what they mean is its callers' (:mod:`analyzer.engine.lookup`
passes the check that turns a table file's body into a verified
:class:`~analyzer.engine.table.BetTable`). A file holds one body: a header line with a SHA-256
digest over the key (analyser version, rules fingerprint, what it prices) and the body, then the
body zlib-compressed. Loading checks, in order: the folder and the file belong to this user and
no one else can write them (as ssh does with its keys); the size (:data:`MAX_BYTES`); the
digest, before anything is decompressed or parsed; the decompressed size (at most
:data:`MAX_BYTES` again); then the caller's check (:data:`Check`; for a table: its structure,
every index and offset, each record against the rules, and its counts on six decks, see
:func:`analyzer.engine.table.decode` and :func:`analyzer.engine.evaluate.sound`). Any failure is
a miss: the caller compiles the table again and the file is replaced atomically (a temporary
file renamed into place). Temporary files a killed writer left behind are removed.

The folder is ``$PUNTO_BANCO_CACHE_DIR`` (``""`` or ``off`` disables the disk cache), else the
platform's user cache folder (platformdirs, which follows the XDG rules: a relative
``XDG_CACHE_HOME`` is ignored). A refused folder means tables are compiled in memory; that is
said once per process (a :class:`CacheWarning`). The folder holds at most
:data:`MAX_FOLDER_BYTES` (``PUNTO_BANCO_CACHE_MAX_BYTES``): beyond it the files used least
recently are removed.

The tables of the catalogue under the standard tableau ship inside the package
(:data:`SHIPPED`, written by ``punto-banco tables``) and are checked the same way, except for
ownership and the check's evaluation (``evaluate=False``): they are part of the installed
package, as trusted as its code, so the digest (damage) and the structure are checked on load
and their meaning by the test suite (``tests/test_shipped.py``), which saves a full evaluation
per table on every start (``PUNTO_BANCO_SHIPPED_TABLES=off`` ignores them, to time a compile).
"""

from __future__ import annotations

import contextlib
import os
import stat
import time
import warnings
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from analyzer import __version__
from analyzer.core.digest import sha256_hex
from analyzer.core.exact import whole_number

T = TypeVar("T")

#: Environment variable naming the cache folder; empty or ``off`` disables the disk cache.
CACHE_ENV = "PUNTO_BANCO_CACHE_DIR"
#: Environment variable bounding the cache folder's size (bytes).
CACHE_MAX_ENV = "PUNTO_BANCO_CACHE_MAX_BYTES"
FORMAT = "punto-banco-table 3"
#: The largest cache file read or written (bytes); a table beyond it is kept in memory only.
MAX_BYTES = 64 * 1024 * 1024
#: The most the cache folder holds by default (bytes).
MAX_FOLDER_BYTES = 256 * 1024 * 1024
#: Temporary files older than this (seconds), or of a writer no longer running, are removed.
STALE_SECONDS = 3600
#: The folder of the tables that ship with the package.
SHIPPED = Path(__file__).resolve().parent.parent / "tables"
#: Environment variable that, set to ``off``, ignores the shipped tables (to time a compile).
SHIPPED_ENV = "PUNTO_BANCO_SHIPPED_TABLES"


class CacheWarning(UserWarning):
    """The disk cache cannot be used (shown once per process; tables compile in memory)."""


_WARNED: set[str] = set()


def _warn_once(text: str) -> None:
    if text not in _WARNED:
        _WARNED.add(text)
        warnings.warn(text, CacheWarning, stacklevel=4)


def cache_dir() -> Path | None:
    """The cache folder, or ``None`` when the disk cache is off (see the module docstring)."""
    env = os.environ.get(CACHE_ENV)
    if env is not None:
        if env.strip().lower() in ("", "off", "0", "none"):
            return None
        path = Path(env)
        if not path.is_absolute():
            path = Path.cwd() / path
        return path
    import platformdirs  # lazy: only when no folder is named (shipped tables are read first)

    base = Path(platformdirs.user_cache_dir("punto-banco-analyzer", appauthor=False))
    return base if base.is_absolute() else None


def folder_limit() -> int:
    """The most bytes the cache folder holds (``PUNTO_BANCO_CACHE_MAX_BYTES``, default
    :data:`MAX_FOLDER_BYTES`); a value that is not a whole number is ignored (the default)."""

    raw = os.environ.get(CACHE_MAX_ENV)
    value = whole_number(raw) if raw is not None else None
    return MAX_FOLDER_BYTES if value is None else value


def _safe(path: Path, what: str) -> bool:
    """True when ``path`` belongs to this user and neither group nor others can write it."""
    try:
        info = path.stat()
    except OSError:
        return False
    uid = os.geteuid() if hasattr(os, "geteuid") else info.st_uid
    if info.st_uid != uid or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        _warn_once(
            f"not using the table cache {what} {path}: it is writable by other users or owned by "
            f"another (mode {stat.S_IMODE(info.st_mode):o}); tables are compiled in memory"
        )
        return False
    return True


def file_name(key: str) -> str:
    """The file name of a table key (the same in the cache folder and the shipped tables)."""
    digest = sha256_hex(f"{FORMAT}|{_version()}|{key}".encode())[:32]
    return f"table-{digest}.pbt"


def file_for(key: str) -> Path | None:
    """The cache file of a table key (``None`` when the cache is off)."""
    folder = cache_dir()
    return None if folder is None else folder / file_name(key)


def _version() -> str:
    return __version__


def _signed(key: str, body: bytes) -> str:
    return sha256_hex(f"{FORMAT}|{_version()}|{key}\n".encode() + body)


#: A cache file's check: ``check(body, evaluate)`` turns the decompressed body into the verified
#: value, or ``None`` (a miss); ``evaluate`` is False for a file shipped in the package, whose
#: meaning the test suite checks (only its structure is checked on load).
Check = Callable[[bytes, bool], T | None]


def load(key: str, check: Check[T]) -> T | None:
    """The value of the file of ``key`` (shipped, then the cache folder), as ``check`` verifies
    it, else ``None``: the file must be this user's, bear the digest of ``key`` and its body,
    and decompress within :data:`MAX_BYTES`; what ``check`` raises of :data:`BROKEN` is a miss."""
    shipped = SHIPPED / file_name(key)
    if os.environ.get(SHIPPED_ENV, "").strip().lower() not in ("off", "0", "no") and shipped.is_file():
        value = _read(shipped, key, check, evaluate=False)
        if value is not None:
            return value
    path = file_for(key)
    try:  # is_dir() and is_file() raise for a name the system refuses (ENAMETOOLONG)
        if path is None or not path.parent.is_dir() or not _safe(path.parent, "folder"):
            return None
        if not path.is_file() or not _safe(path, "file"):
            return None
    except OSError:
        return None
    value = _read(path, key, check)
    if value is not None:
        with contextlib.suppress(OSError):
            os.utime(path)  # used: the last to be evicted
    return value


#: What checking a damaged or forged file can raise: each is a miss.
BROKEN = (
    ValueError,
    TypeError,
    KeyError,
    IndexError,
    RecursionError,
    AssertionError,
    OverflowError,
    ZeroDivisionError,
    zlib.error,
)


def _read(path: Path, key: str, check: Check[T], evaluate: bool = True) -> T | None:
    """The value of the file at ``path`` as ``check`` verifies it, else ``None``;
    ``evaluate=False`` for a shipped file (see :data:`Check`)."""
    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_BYTES + 1)
    except OSError:
        return None
    if len(data) > MAX_BYTES:
        return None
    header, sep, body = data.partition(b"\n")
    if not sep or header != f"{FORMAT} {_signed(key, body)}".encode():
        return None  # damaged, truncated, or another version's file
    try:
        # a forged file's structure can still break the check: a miss, as a bad body
        return check(_inflate(body), evaluate)
    except BROKEN:
        return None


def store(key: str, body: bytes) -> None:
    """Write ``body`` as the file of ``key`` atomically (:func:`sealed`); an unusable folder
    only costs a compile."""
    path = file_for(key)
    if path is None:
        return
    folder = path.parent
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError:
        return
    if not _safe(folder, "folder"):
        return
    _remove_stale(folder)
    blob = sealed(key, body)
    if len(blob) > MAX_BYTES:
        return  # kept in memory only: the reader would refuse it
    try:
        import tempfile  # lazy: only a compile writes

        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".tmp-{os.getpid()}-", suffix=".pbt")
    except OSError:
        return
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(blob)
        os.replace(tmp, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
    except BaseException:  # interrupted: leave no temporary file behind
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _evict(folder, folder_limit(), keep=path)


def sealed(key: str, body: bytes) -> bytes:
    """The whole file of ``key`` holding ``body``: the signed header line and the compressed
    body."""
    packed = zlib.compress(body, 6)
    return f"{FORMAT} {_signed(key, packed)}\n".encode() + packed


def _inflate(body: bytes) -> bytes:
    """The decompressed body, at most :data:`MAX_BYTES` (a larger one is refused, not read)."""
    unpack = zlib.decompressobj()
    out = unpack.decompress(body, MAX_BYTES)
    if unpack.unconsumed_tail or not unpack.eof or unpack.unused_data:
        raise ValueError("bad compressed body")
    return out


def _remove_stale(folder: Path) -> None:
    """Remove temporary files of writers that are gone (or older than an hour)."""
    now = time.time()
    try:
        entries = list(folder.glob(".tmp-*"))
    except OSError:
        return
    for entry in entries:
        try:
            pid = int(entry.name.split("-")[1])
        except (IndexError, ValueError):
            pid = -1
        alive = False
        if pid > 0 and pid != os.getpid():
            try:
                os.kill(pid, 0)
                alive = True
            except ProcessLookupError:
                alive = False
            except OSError:
                alive = True  # someone else's process: leave it to its age
        elif pid == os.getpid():
            continue
        with contextlib.suppress(OSError):
            if not alive or now - entry.stat().st_mtime > STALE_SECONDS:
                entry.unlink()


def _evict(folder: Path, limit: int, keep: Path) -> None:
    """Remove the least recently used table files until the folder holds at most ``limit``
    bytes (the file just written stays)."""
    try:
        files = [(p.stat().st_mtime, p.stat().st_size, p) for p in folder.glob("table-*")]
    except OSError:
        return
    total = sum(size for _, size, _ in files)
    for _, size, p in sorted(files):
        if total <= limit:
            break
        if p == keep:
            continue
        with contextlib.suppress(OSError):
            p.unlink()
            total -= size
