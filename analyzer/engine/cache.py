"""The disk cache of compiled tables: verified, never trusted.

A cache file holds one :class:`~analyzer.engine.table.CompiledTable` as JSON (a format that
cannot crash the interpreter on bad bytes, unlike marshal or pickle) under a header line with a
SHA-256 digest over the table's key (analyser version, rules fingerprint, reads) and the JSON.
Loading checks, in order: the folder and the file belong to this user and no one else can write
them (as ssh does with its keys); the digest; the JSON's structure and every index; then the
table's meaning: evaluated on a six-deck shoe its counts are non-negative and sum to 312!/306!.
Any failure is a miss: the table is compiled again and the file replaced atomically (a
temporary file renamed into place).  Temporary files a killed writer left behind are removed.

The folder is ``$PUNTO_BANCO_CACHE_DIR`` (``""`` or ``off`` disables the disk cache), else the
platform's user cache folder (platformdirs, which follows the XDG rules: a relative
``XDG_CACHE_HOME`` is ignored).  A refused folder means tables are compiled in memory; that is
said once per process (a :class:`CacheWarning`).
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import json
import os
import stat
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

from analyzer.core.coup import record_from_json, record_to_json
from analyzer.core.reads import Reads
from analyzer.core.tableau import Tableau
from analyzer.engine.algebra import Program

#: Environment variable naming the cache folder; empty or ``off`` disables the disk cache.
CACHE_ENV = "PUNTO_BANCO_CACHE_DIR"
FORMAT = "punto-banco-table 2"
#: The largest cache file read (bytes); larger files are misses.
MAX_BYTES = 512 * 1024 * 1024
#: Temporary files older than this (seconds), or of a writer no longer running, are removed.
STALE_SECONDS = 3600


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
    try:
        import platformdirs
    except ImportError:  # pragma: no cover - a declared dependency
        return None
    base = Path(platformdirs.user_cache_dir("punto-banco-analyzer", appauthor=False))
    return base if base.is_absolute() else None


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


def file_for(key: str) -> Path | None:
    """The cache file of a table key (``None`` when the cache is off)."""
    folder = cache_dir()
    if folder is None:
        return None
    digest = hashlib.sha256(f"{FORMAT}|{_version()}|{key}".encode()).hexdigest()[:32]
    return folder / f"table-{digest}.json"


def _version() -> str:
    from analyzer import __version__

    return __version__


def _signed(key: str, body: bytes) -> str:
    return hashlib.sha256(f"{FORMAT}|{_version()}|{key}\n".encode() + body).hexdigest()


def load(key: str, tableau: Tableau, reads: Reads, first_four: bool) -> Any:
    """The cached table for ``key`` if a verified one exists, else ``None``."""
    path = file_for(key)
    if path is None or not path.parent.is_dir() or not _safe(path.parent, "folder"):
        return None
    try:
        if not path.is_file() or not _safe(path, "file"):
            return None
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
        table = _decode(json.loads(body), tableau, reads, first_four)
    except (ValueError, TypeError, KeyError, IndexError, RecursionError, AssertionError):
        return None
    return table if _sound(table) else None


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
    body = json.dumps(_encode(table), separators=(",", ":")).encode()
    blob = f"{FORMAT} {_signed(table.key, body)}\n".encode() + body
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".tmp-{os.getpid()}-", suffix=".json")
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


# -- the JSON form -----------------------------------------------------------------------------


def _encode(table: Any) -> dict[str, object]:
    program: Program = table.program
    return {
        "key": table.key,
        "falls": [x for f in program.falls for x in f],
        "subterms": [list(s) for s in program.subterms],
        "factors": [[list(s), int(ten), int(suit)] for s, ten, suit in program.factors],
        "cards": list(program.cards),
        "term_start": list(program.term_start),
        "term_factors": list(program.term_factors),
        "factor_start": list(program.factor_start),
        "term_mult": list(program.term_mult),
        "term_orbit": list(program.term_orbit),
        "records": [record_to_json(r) for r in table.records],
        "entries": [list(table.entry_comp), list(table.entry_record), list(table.tally)],
    }


def _ints(values: object, limit: int | None = None, low: int = 0) -> tuple[int, ...]:
    """``values`` as a tuple of whole numbers in [low, limit), checked at C speed."""
    if not isinstance(values, list):
        raise TypeError("expected a list")
    if values and (
        set(map(type, values)) != {int} or min(values) < low or (limit is not None and max(values) >= limit)
    ):
        raise ValueError("bad index")
    return tuple(values)


def _signed_ints(values: object) -> tuple[int, ...]:
    """``values`` as a tuple of non-zero whole numbers."""
    if not isinstance(values, list) or (values and (set(map(type, values)) != {int} or 0 in values)):
        raise ValueError("bad multiplicities")
    return tuple(values)


def _offsets(values: object, end: int) -> tuple[int, ...]:
    """Non-decreasing offsets from 0 to ``end``."""
    out = _ints(values, end + 1)
    if not out or out[0] != 0 or out[-1] != end or any(b < a for a, b in itertools.pairwise(out)):
        raise ValueError("bad offsets")
    return out


def _decode(doc: Any, tableau: Tableau, reads: Reads, first_four: bool) -> Any:
    from analyzer.engine.algebra import POOLS, Program
    from analyzer.engine.table import CompiledTable, table_key

    if not isinstance(doc, dict) or doc.get("key") != table_key(tableau, reads, first_four):
        raise ValueError("another table")
    flat = _ints(doc["falls"])
    if len(flat) % 3:
        raise ValueError("bad falling factorials")
    falls = tuple(zip(flat[0::3], flat[1::3], flat[2::3], strict=True))
    if any(pool >= len(POOLS) or shift > 6 or m > 6 for pool, shift, m in falls):
        raise ValueError("bad falling factorial")
    subterms = tuple(_ints(st, len(falls)) for st in doc["subterms"])
    factors = []
    for entry in doc["factors"]:
        subs, ten, suit = entry
        if not subs or ten not in (0, 1) or suit not in (0, 1):
            raise ValueError("bad factor")
        factors.append((_ints(subs, len(subterms)), bool(ten), bool(suit)))
    cards = _ints(doc["cards"], 7, 4)
    term_mult = _signed_ints(doc["term_mult"])
    term_orbit = _ints(doc["term_orbit"], 1 << 20)
    if len(term_orbit) != len(term_mult):
        raise ValueError("bad orbits")
    term_start = _offsets(doc["term_start"], len(term_mult))
    term_factors = _ints(doc["term_factors"], len(factors))
    factor_start = _offsets(doc["factor_start"], len(term_factors))
    if len(term_start) != len(cards) + 1 or len(factor_start) != len(term_mult) + 1:
        raise ValueError("bad compositions")
    if any(b == a for a, b in itertools.pairwise(term_start)):
        raise ValueError("a composition without terms")
    records = tuple(record_from_json(r) for r in doc["records"])
    if not all(_coherent(r, tableau) for r in records):
        raise ValueError("a record contradicts itself or the rules")
    comps, recs, tallies = doc["entries"]
    comps, recs, tallies = _ints(comps, len(cards)), _ints(recs, len(records)), _ints(tallies, None, 1)
    if not (len(comps) == len(recs) == len(tallies)) or any(
        b < a for a, b in itertools.pairwise(recs)
    ):
        raise ValueError("bad entries")
    program = Program(
        falls, subterms, tuple(factors), cards, term_start, term_factors, factor_start, term_mult, term_orbit
    )
    return CompiledTable(tableau.fingerprint, reads, first_four, program, records, comps, recs, tallies)


def _coherent(record: Any, tableau: Tableau) -> bool:
    """What a record carries agrees with itself and the rules: the winner with the final
    totals, a natural with the two-card total, and a natural's hand with two cards.  (A file
    forged by someone who may write the cache folder, and re-signed, can still pass: the
    folder is refused when other users may write it.)"""
    from analyzer.core.reads import FIELD_INDEX

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


def _sound(table: Any) -> bool:
    """Evaluated on six decks, the table's counts are non-negative and sum to 312!/306!.

    Six copies of every card let every composition (at most six cards) be dealt, so every
    tally weighs on the sum; on one deck a composition holding two identical cards weighs 0,
    and a wrong tally there would pass unseen."""
    from analyzer.engine.algebra import ShoeCounts, evaluate_scalar, falling

    shoe = ShoeCounts.of([24] * 13, [6] * 52)
    weights = evaluate_scalar(table.program, shoe)
    counts = [0] * len(table.records)
    for c, r, t in zip(table.entry_comp, table.entry_record, table.tally, strict=True):
        counts[r] += t * weights[c]
    return all(c >= 0 for c in counts) and sum(counts) == falling(312, 6)
