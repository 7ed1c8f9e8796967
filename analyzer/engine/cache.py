"""The disk cache of compiled tables: compact, verified, never trusted.

A cache file holds one :class:`~analyzer.engine.table.Table`: a header line with a SHA-256
digest over the table's key (analyser version, rules fingerprint, what it prices) and the
body; the body is zlib-compressed: a small JSON header (the columns, the arrays' places)
followed by little-endian int64 arrays, read without numpy (``array``) so that a command that
prices one shoe never imports it. Loading checks, in order: the folder and the file belong to
this user and no one else can write them (as ssh does with its keys); the size
(:data:`MAX_BYTES`); the digest, before anything is decompressed or parsed; the decompressed
size (at most :data:`MAX_BYTES` again); the header's structure and every index and offset;
each record of a distribution agrees with itself and the rules; then the table's meaning:
evaluated on a six-deck shoe its counts are non-negative, sum to 312!/306! and equal the counts
the file recorded when written (six copies of every card let every composition of at most six
cards be dealt, so every tally weighs there). Any failure is a miss: the table is compiled again
and the file replaced atomically (a temporary file renamed into place). Temporary files a
killed writer left behind are removed.

The folder is ``$PUNTO_BANCO_CACHE_DIR`` (``""`` or ``off`` disables the disk cache), else the
platform's user cache folder (platformdirs, which follows the XDG rules: a relative
``XDG_CACHE_HOME`` is ignored). A refused folder means tables are compiled in memory; that is
said once per process (a :class:`CacheWarning`). The folder holds at most
:data:`MAX_FOLDER_BYTES` (``PUNTO_BANCO_CACHE_MAX_BYTES``): beyond it the files used least
recently are removed.

The tables of the catalogue under the standard tableau ship inside the package
(:data:`SHIPPED`, written by ``punto-banco tables``) and are checked the same way, except for
ownership and the six-deck evaluation: they are part of the installed package, as trusted as its
code, so the digest (damage) and the structure are checked on load and their meaning by the test
suite (``tests/test_shipped.py``), which saves a full evaluation per table on every start
(``PUNTO_BANCO_SHIPPED_TABLES=off`` ignores them, to time a compile).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import stat
import sys
import time
import warnings
import zlib
from array import array
from fractions import Fraction
from pathlib import Path
from typing import Any

from analyzer import __version__
from analyzer.core.coup_json import record_from_json, record_to_json
from analyzer.core.digest import sha256_hex
from analyzer.core.exact import MAX_NUMBER_CHARS, whole_number
from analyzer.core.reads import FIELD_INDEX
from analyzer.core.shoe import Shoe
from analyzer.core.tableau import Tableau
from analyzer.engine.algebra import POOLS, Program
from analyzer.engine.values import COMPOSITIONS, falling

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
_ARRAYS = (
    "value_col",
    "value_comp",
    "value_tally",
    "row_read",
    "row_rest",
    "row_start",
    "row_comp",
    "row_tally",
    "leaf_row",
    "leaf_comp",
    "leaf_col",
    "leaf_mult",
    "falls",
    "sub_start",
    "sub_items",
    "fac_start",
    "fac_items",
    "fac_flags",
    "cards",
    "term_start",
    "term_factors",
    "factor_start",
    "term_mult",
    "term_orbit",
)


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


def load(key: str, tableau: Tableau) -> Any:
    """The table for ``key`` if a verified one exists (shipped, then the cache folder), else
    ``None``."""
    shipped = SHIPPED / file_name(key)
    if os.environ.get(SHIPPED_ENV, "").strip().lower() not in ("off", "0", "no") and shipped.is_file():
        table = _read(shipped, key, tableau, evaluate=False)
        if table is not None:
            return table
    path = file_for(key)
    try:  # is_dir() and is_file() raise for a name the system refuses (ENAMETOOLONG)
        if path is None or not path.parent.is_dir() or not _safe(path.parent, "folder"):
            return None
        if not path.is_file() or not _safe(path, "file"):
            return None
    except OSError:
        return None
    table = _read(path, key, tableau)
    if table is not None:
        with contextlib.suppress(OSError):
            os.utime(path)  # used: the last to be evicted
    return table


#: What decoding or evaluating a damaged or forged file can raise: each is a miss.
_BROKEN = (
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


def _read(path: Path, key: str, tableau: Tableau, evaluate: bool = True) -> Any:
    """The verified table of the file at ``path``, else ``None``; ``evaluate=False`` skips the
    six-deck evaluation (:func:`sound`), for the tables that ship in the package."""
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
        table, table_expected = decode(_inflate(body), key, tableau)
        # a forged file's structure can still break the evaluation: a miss, as a bad decode
        return table if not evaluate or sound(table, table_expected) else None
    except _BROKEN:
        return None


def store(table: Any) -> None:
    """Write ``table`` to the cache atomically; an unusable folder only costs a compile."""
    path = file_for(table.key)
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
    blob = encode_file(table)
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


def encode_file(table: Any) -> bytes:
    """The whole file of a table: the signed header line and the compressed body."""
    body = zlib.compress(encode(table), 6)
    return f"{FORMAT} {_signed(table.key, body)}\n".encode() + body


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


# -- the binary form ----------------------------------------------------------------------------


def encode(table: Any) -> bytes:
    """The body of a table's file: a JSON header, then int64 arrays (8-byte aligned)."""
    program = table.program
    arrays: dict[str, list[int]] = {name: list(getattr(table, name)) for name in _ARRAYS[:12]}
    arrays["falls"] = [x for f in program.falls for x in f]
    arrays["sub_start"], arrays["sub_items"] = _csr(program.subterms)
    arrays["fac_start"], arrays["fac_items"] = _csr([s for s, _, _ in program.factors])
    arrays["fac_flags"] = [int(ten) | 2 * int(suit) for _, ten, suit in program.factors]
    for name in ("cards", "term_start", "term_factors", "factor_start", "term_mult", "term_orbit"):
        arrays[name] = list(getattr(program, name))
    places: dict[str, list[int]] = {}
    blobs: list[bytes] = []
    at = 0
    for name in _ARRAYS:
        raw = array("q", arrays[name])
        if sys.byteorder != "little":  # pragma: no cover - the file is little-endian
            raw.byteswap()
        blob = raw.tobytes()
        places[name] = [at, len(raw)]
        blobs.append(blob)
        at += len(blob)
    head = {
        "key": table.key,
        "first_four": table.first_four,
        "distribution": table.distribution,
        "symmetric": table.symmetric,
        "columns": [_column_json(c, table.distribution) for c in table.columns],
        "six_decks": [str(c) for c in six_deck_counts(table)],
        "arrays": places,
    }
    text = json.dumps(head, separators=(",", ":")).encode()
    text += b" " * (-(len(text) + 8) % 8)
    return len(text).to_bytes(8, "little") + text + b"".join(blobs)


def _csr(rows: Any) -> tuple[list[int], list[int]]:
    starts = [0]
    items: list[int] = []
    for row in rows:
        items.extend(row)
        starts.append(len(items))
    return starts, items


def _column_json(column: Any, records: bool) -> object:
    if records:
        return record_to_json(column)
    if isinstance(column, int):
        return column
    event, pays = column
    return [event, f"{pays.numerator}/{pays.denominator}"]


#: A pay as :func:`_column_json` writes it: ``numerator/denominator``, the digits bounded well
#: above any pay a user can give (amounts are at most MAX_NUMBER_CHARS characters).
_DIGITS = 8 * MAX_NUMBER_CHARS
_PAYS = re.compile(rf"-?[0-9]{{1,{_DIGITS}}}/[1-9][0-9]{{0,{_DIGITS}}}")


def _column_from_json(data: object, records: bool, tableau: Tableau) -> Any:
    if records:
        record = record_from_json(data)
        if not _coherent(record, tableau):
            raise ValueError("a record contradicts itself or the rules")
        return record
    if type(data) is int:
        if data < 0:
            raise ValueError("bad line")
        return data
    if not (
        isinstance(data, list) and len(data) == 2 and isinstance(data[0], str) and isinstance(data[1], str)
    ):
        raise ValueError("bad event")
    if not _PAYS.fullmatch(data[1]):  # as written: p/q in bounded digits (a long exponent would hang)
        raise ValueError("bad pays")
    return (data[0], Fraction(data[1]))


def decode(body: bytes, key: str, tableau: Tableau) -> tuple[Any, list[int]]:
    """The table of a body written by :func:`encode`, checked (any error is a ``ValueError``
    or a sibling the caller treats as a miss), and the six-deck counts it recorded."""
    from analyzer.engine.table import Table  # lazy: a cycle, table looks its tables up here

    size = int.from_bytes(body[:8], "little")
    if not 0 < size <= len(body) - 8:
        raise ValueError("bad header size")
    head = json.loads(body[8 : 8 + size])
    if not isinstance(head, dict) or head.get("key") != key:
        raise ValueError("another table")
    records = head["distribution"]
    first_four = head["first_four"]
    symmetric = head["symmetric"]
    if type(records) is not bool or type(first_four) is not bool or type(symmetric) is not bool:
        raise ValueError("bad flags")
    # the key names the flags the table was compiled under (records_key / bet_key): a file
    # whose flags say otherwise holds another table (a symmetric one priced on suited shoes)
    if not key.endswith(f"|first_four={int(first_four)}|sym={int(symmetric)}") or records != key.startswith(
        "records|"
    ):
        raise ValueError("flags contradict the key")
    columns = tuple(_column_from_json(c, records, tableau) for c in head["columns"])
    data = memoryview(body)[8 + size :]
    places = head["arrays"]
    got: dict[str, array[int]] = {}
    for name in _ARRAYS:
        at, n = places[name]
        if type(at) is not int or type(n) is not int or at < 0 or n < 0 or at + 8 * n > len(data):
            raise ValueError("bad array place")
        raw = array("q")
        raw.frombytes(data[at : at + 8 * n])
        if sys.byteorder != "little":  # pragma: no cover
            raw.byteswap()
        got[name] = raw

    def ints(name: str, low: int, high: int | None) -> tuple[int, ...]:
        values = tuple(got[name])  # min and max of a tuple: no second boxing of each entry
        if values and (min(values) < low or (high is not None and max(values) >= high)):
            raise ValueError(f"bad {name}")
        return values

    def offsets(name: str, end: int, count: int) -> tuple[int, ...]:
        out = ints(name, 0, end + 1)
        if len(out) != count + 1 or out[0] != 0 or out[-1] != end or not _ordered(out):
            raise ValueError(f"bad {name}")
        return out

    ncols = len(columns)
    flat = ints("falls", 0, None)
    if len(flat) % 3:
        raise ValueError("bad falling factorials")
    falls = tuple(zip(flat[0::3], flat[1::3], flat[2::3], strict=True))
    if any(pool >= len(POOLS) or shift > 6 or not 0 <= m <= 6 for pool, shift, m in falls):
        raise ValueError("bad falling factorial")
    sub_items = ints("sub_items", 0, len(falls))
    n_sub = len(got["sub_start"]) - 1
    sub_start = offsets("sub_start", len(sub_items), n_sub)
    subterms = tuple(sub_items[sub_start[i] : sub_start[i + 1]] for i in range(n_sub))
    fac_items = ints("fac_items", 0, len(subterms))
    n_fac = len(got["fac_start"]) - 1
    fac_start = offsets("fac_start", len(fac_items), n_fac)
    fac_flags = ints("fac_flags", 0, 4)
    if len(fac_flags) != n_fac or any(fac_start[i] == fac_start[i + 1] for i in range(n_fac)):
        raise ValueError("bad factors")
    factors = tuple(
        (fac_items[fac_start[i] : fac_start[i + 1]], bool(fac_flags[i] & 1), bool(fac_flags[i] & 2))
        for i in range(n_fac)
    )
    cards = ints("cards", 0, 7)
    if any(c not in (0, 4, 5, 6) for c in cards):
        raise ValueError("bad cards")
    term_mult = ints("term_mult", -(2**62), 2**62)
    term_orbit = ints("term_orbit", 0, 1 << 20)
    if len(term_orbit) != len(term_mult) or 0 in term_mult:
        raise ValueError("bad terms")
    term_start = offsets("term_start", len(term_mult), len(cards))
    term_factors = ints("term_factors", 0, len(factors))
    factor_start = offsets("factor_start", len(term_factors), len(term_mult))
    if any(term_start[i] == term_start[i + 1] for i in range(len(cards))):
        raise ValueError("a composition without terms")
    program = Program(
        falls, subterms, factors, cards, term_start, term_factors, factor_start, term_mult, term_orbit
    )
    ncomp = len(COMPOSITIONS)
    value_col = ints("value_col", 0, ncols)
    value_comp = ints("value_comp", 0, ncomp)
    value_tally = ints("value_tally", 1, None)
    row_comp = ints("row_comp", 0, ncomp)
    row_tally = ints("row_tally", 1, None)
    row_read = ints("row_read", 1, 8**10)
    row_start = offsets("row_start", len(row_comp), len(row_read))
    leaf_row = ints("leaf_row", 0, len(row_read))
    leaf_comp = ints("leaf_comp", 0, len(cards))
    leaf_col = ints("leaf_col", 0, ncols)
    leaf_mult = ints("leaf_mult", 1, None)
    row_rest = ints("row_rest", 0, ncols)
    if len(row_rest) != len(row_read):
        raise ValueError("bad rows")
    if not (len(value_col) == len(value_comp) == len(value_tally)) or len(row_tally) != len(row_comp):
        raise ValueError("bad value part")
    if not (len(leaf_row) == len(leaf_comp) == len(leaf_col) == len(leaf_mult)):
        raise ValueError("bad leaves")
    if not _ordered(value_col) or not _ordered(leaf_col):
        raise ValueError("unsorted columns")
    if any(row_start[r] == row_start[r + 1] for r in range(len(row_read))):
        raise ValueError("a row without compositions")
    table = Table(
        key,
        columns,
        first_four,
        records,
        symmetric,
        value_col,
        value_comp,
        value_tally,
        row_read,
        row_rest,
        row_start,
        row_comp,
        row_tally,
        leaf_row,
        leaf_comp,
        leaf_col,
        leaf_mult,
        program,
    )
    expected = head["six_decks"]
    if not isinstance(expected, list) or len(expected) != ncols or not all(type(x) is str for x in expected):
        raise ValueError("bad recorded counts")
    return table, [int(x) for x in expected]


def _ordered(values: tuple[int, ...]) -> bool:
    """True when ``values`` never decrease (a sort of sorted input is one linear pass in C)."""
    return list(values) == sorted(values)


def _coherent(record: Any, tableau: Tableau) -> bool:
    """What a record carries agrees with itself and the rules: the winner with the final
    totals, a natural with the two-card total, and a natural's hand with two cards.  (A file
    forged by someone who may write the cache folder, and re-signed, can still pass: the
    folder is refused when other users may write it.)"""

    f = record._fields
    winner, pt, bt = f[FIELD_INDEX["winner"]], f[FIELD_INDEX["player_total"]], f[FIELD_INDEX["banker_total"]]
    told = isinstance(pt, int) and isinstance(bt, int) and isinstance(winner, str)
    if told and winner != ("player" if pt > bt else "banker" if bt > pt else "tie"):
        return False
    for side in ("player", "banker"):
        natural, two = f[FIELD_INDEX[f"{side}_natural"]], f[FIELD_INDEX[f"{side}_two_card_total"]]
        if isinstance(natural, bool) and isinstance(two, int) and natural != (two in tableau.naturals):
            return False
        cards = f[FIELD_INDEX[f"{side}_cards"]]
        if natural is True and isinstance(cards, int) and cards != 2:
            return False
    return True


def six_deck_counts(table: Any) -> list[int]:
    """The table's counts per column on a six-deck shoe (exact)."""
    from analyzer.engine.evaluate import (  # lazy: a cycle, evaluate imports table
        _scalar_counts,
        _Shoe,
        _vector_counts,
    )

    # with numpy already imported (most commands), its evaluation is the quicker one
    memo = _Shoe(Shoe.from_suited_counts([6] * 52), vector="numpy" in sys.modules)
    counts = _vector_counts(table, memo) if memo.vector else _scalar_counts(table, memo)
    return counts if isinstance(counts, list) else counts.tolist()


def sound(table: Any, expected: Any) -> bool:
    """Evaluated on six decks, the table's counts are non-negative, sum to 312!/306!, and equal
    ``expected``, the counts the file recorded when it was written.

    Six copies of every card let every composition (at most six cards) be dealt, so every
    tally weighs there; on one deck a composition holding two identical cards weighs 0, and a
    wrong tally there would pass unseen.  The sum alone cannot see a wrong leaf (a leaf's count
    is added to its event and taken back from its row's rest, so the sum holds whatever it is):
    the recorded counts can, unless the file was forged by someone who may write the cache
    folder, which is refused when other users may."""

    values = six_deck_counts(table)
    return all(c >= 0 for c in values) and sum(values) == falling(312, 6) and values == expected
