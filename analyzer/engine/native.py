"""The compiled evaluation kernel: a shoe's tables evaluated in C, exactly (docs/speed.md).

``pip install .`` builds ``analyzer/engine/_native.c`` with the system's C compiler when it
finds one.  The kernel evaluates what :mod:`analyzer.engine.evaluate` evaluates, with the same
definitions: a shoe's value weights (:func:`~analyzer.engine.values.weights`), the value part
and the label part of one table or of several laid side by side (each row's S / D(R), the
weight program of :mod:`analyzer.engine.algebra`, the leaves), and each table's total.  It is a
kernel, not a second engine: it reads the tables the Python path compiles (the plan built here
is their index arrays, flat), and the Python path -- Python integers, or numpy int64 -- stays
the reference the tests hold it to, and the fallback.

Exact by proof: every count of a shoe of N cards (a column's count, a row's S and D(R), a
weight) is a number of ordered draws of at most six distinct cards, at most N**6.  The kernel
counts in the integers modulo 2**64 when N**6 < 2**63 (N <= 1,448 cards: the bound of
:func:`~analyzer.engine.algebra.fits_int64`, which the numpy path relies on too), modulo
2**128 below 2**21 cards (N**6 < 2**126; where the compiler has 128-bit integers), and leaves
larger shoes to the pure path's Python integers.  Additions, subtractions and products modulo
2**b are exact for a result whose true value lies in the signed b-bit range, whatever the
values between; the one division, S / D(R), divides two exact counts.

A batch of many shoes (:mod:`analyzer.engine.batch`) uses the same evaluation, shoe by shoe
in one call per chunk (``Plan.many``), on a plan of every bet's label part whose columns are
the batch's pay classes (:func:`batch_plan`); it writes each shoe's value weights too, for the
batch's float64 product (exactly: only where every weight is below 2**53).

Inside, the plan's terms are products of factors shared as a trie (each distinct prefix of a
term's factors multiplied once), and its leaves and their compositions' terms are summed in
groups of one multiplier and one pair of columns (``shared_products``, ``leaf_groups`` in
_native.c): regroupings of sums and products, which the ring's arithmetic leaves exact.

``PUNTO_BANCO_KERNEL`` chooses: ``auto`` (the default: the kernel when it was built), ``off``
(the pure path), ``on`` (the kernel, and a :class:`~analyzer.errors.KernelError` when it was
not built: for a check that it is there).  The extension is loaded on the first evaluation
that uses it, never at import: `import analyzer` and the command line's start-up do not pay
for it.
"""

from __future__ import annotations

import importlib
import os
import threading
from collections.abc import Sequence
from typing import Any

from analyzer.core.cards import RANK_POINTS, RANKS_OF_POINT
from analyzer.core.shoe import MAX_CARDS
from analyzer.engine.algebra import (
    PICTURE_RANKS,
    POOLS,
    Program,
    ShoeCounts,
    concatenate,
    fits_int64,
    pool_members,
)
from analyzer.engine.table import BetTable, first_four_orderings
from analyzer.engine.values import (
    COMPOSITIONS,
)
from analyzer.errors import KernelError

ENV = "PUNTO_BANCO_KERNEL"
#: What ``PUNTO_BANCO_KERNEL`` may say, and what each spelling means.
SETTINGS = {"": "auto", "auto": "auto", "on": "on", "1": "on", "yes": "on", "true": "on",
            "off": "off", "0": "off", "no": "off", "false": "off"}

_LOCK = threading.Lock()
#: [the extension, initialised, or None (off or not built)] once decided; empty before.
_LOADED: list[Any] = []


def setting() -> str:
    """``auto``, ``on`` or ``off``, from ``PUNTO_BANCO_KERNEL``.

    Raises:
        KernelError: any other value.
    """
    raw = os.environ.get(ENV, "")
    chosen = SETTINGS.get(raw.strip().lower())
    if chosen is None:
        raise KernelError(f"bad {ENV}={raw!r}: use auto (the default), on or off")
    return chosen


def kernel() -> Any:
    """The extension module, initialised, or ``None`` when the pure path runs (switched off,
    or not built).  Decided once per process (:func:`reset` decides again).

    Raises:
        KernelError: a bad ``PUNTO_BANCO_KERNEL``, or ``on`` and the kernel not built.
    """
    if _LOADED:
        return _LOADED[0]
    with _LOCK:
        if not _LOADED:
            _LOADED.append(_load())
    return _LOADED[0]


def _load() -> Any:
    chosen = setting()
    if chosen == "off":
        return None
    try:
        extension = _extension()
    except ImportError as exc:
        if chosen == "on":
            raise KernelError(
                f"{ENV}=on, but the compiled kernel was not built ({exc}): reinstall with a C compiler "
                f"(pip install .), or unset {ENV}"
            ) from None
        return None
    pools = [(pool_members(p), _pool_ranks(p)) for p in POOLS]
    extension.init(COMPOSITIONS, pools, RANK_POINTS)
    return extension


def _extension() -> Any:
    """The extension module (a shared library, loaded on first use: never at import).

    Raises:
        ImportError: it was not built.
    """
    return importlib.import_module("analyzer.engine._native")


def _pool_ranks(pool: tuple[str, int, int]) -> list[int] | None:
    """The ranks a pool holds whole (a value's, or one rank), or ``None`` when its size needs
    the suits of the cards."""
    kind, label, _ = pool
    if kind == "v":
        return list(RANKS_OF_POINT[label])
    if kind == "r":
        return [label]
    if kind == "p":
        return list(PICTURE_RANKS)
    return None


def reset() -> None:
    """Decide again, from ``PUNTO_BANCO_KERNEL``, whether the kernel runs (for tests that switch
    it; plans and shoes made before keep what they were made with)."""
    with _LOCK:
        _LOADED.clear()


def built() -> bool:
    """True when the compiled kernel was built and loads (whatever ``PUNTO_BANCO_KERNEL`` says)."""
    try:
        _extension()
    except ImportError:
        return False
    return True


def tier(size: int) -> int:
    """The ring the kernel counts a shoe of ``size`` cards in: 64 (bits), 128, or 0 when the
    kernel is off or not built, or the shoe is past its bound (the pure path's Python
    integers take it)."""
    module = kernel()
    if module is None:
        return 0
    if fits_int64(size):
        return 64
    return 128 if size <= module.MAX_SIZE_128 else 0


def shoe_state(counts: ShoeCounts, ring: int) -> Any:
    """The kernel's view of a shoe (its pool sizes; its weights on first use) in the ring of
    ``ring`` bits (:func:`tier`)."""
    return kernel().ShoeState(counts.ranks, counts.cards, ring)


def plan(tables: Sequence[BetTable], suits_alike: bool, tens_alike: bool) -> Any:
    """The kernel's plan of ``tables`` laid side by side (their columns one after another), on
    shoes of these symmetries; ``None`` when the kernel is not running or a number of a table
    is past int64 (the pure path evaluates it)."""
    module = kernel()
    if module is None:
        return None
    try:
        return module.Plan(plan_spec(tables, suits_alike, tens_alike))
    except OverflowError:
        return None


def plan_spec(tables: Sequence[BetTable], suits_alike: bool, tens_alike: bool) -> dict[str, list[Any]]:
    """The flat index arrays of ``tables`` laid side by side, as the kernel reads them (the
    names of ``PlanObject`` in _native.c):

    * ``col_start``: each table's first column, and the end;
    * ``value_parts``: each table's value part as it is compiled, (``value_col`` (sorted),
      ``value_comp``, ``value_tally``), laid side by side by the kernel;
    * the rows of the tables with a label part, one after another: ``row_read`` (the
      multiset code of the read values); ``row_coef`` and ``row_pad`` where S / D(R) is a
      constant times a padding (:func:`row_constants`), else ``row_pad`` -1 and the row's
      compositions and tallies (``row_start``, ``row_comp``, ``row_tally``);
    * their programs as one (:func:`~analyzer.engine.algebra.concatenate`), flattened for the
      shoe's symmetries as :class:`~analyzer.engine.algebra.VectorPlan` does (see
      :func:`program_spec`);
    * the leaves: ``leaf_row``, ``leaf_comp`` (a composition of the program), ``leaf_col``,
      ``leaf_rest`` (the column of its row's rest), ``leaf_mult``.
    """
    col_start = [0]
    for t in tables:
        col_start.append(col_start[-1] + len(t.columns))
    spec: dict[str, list[Any]] = {
        "col_start": col_start,
        "value_parts": [(t.value_col, t.value_comp, t.value_tally) for t in tables],
    }
    labelled = [i for i, t in enumerate(tables) if t.row_read]
    row_start = [0]
    row_comp: list[int] = []
    row_tally: list[int] = []
    row_read: list[int] = []
    leaf_row: list[int] = []
    leaf_comp: list[int] = []
    leaf_col: list[int] = []
    leaf_rest: list[int] = []
    leaf_mult: list[int] = []
    programs: list[Program] = []
    row_coef: list[int] = []
    row_pad: list[int] = []
    for i in labelled:
        t = tables[i]
        programs.append(t.program)
        rows, at = len(row_read), col_start[i]
        row_read.extend(t.row_read)
        for r, (coef, pad) in enumerate(_row_constants(t)):
            row_coef.append(coef)
            row_pad.append(pad)
            if pad < 0:  # S / D(R) summed over the row's compositions
                row_comp.extend(t.row_comp[t.row_start[r] : t.row_start[r + 1]])
                row_tally.extend(t.row_tally[t.row_start[r] : t.row_start[r + 1]])
            row_start.append(len(row_comp))
        leaf_row.extend(rows + r for r in t.leaf_row)
        leaf_col.extend(at + c for c in t.leaf_col)
        leaf_rest.extend(at + t.row_rest[r] for r in t.leaf_row)
        leaf_mult.extend(t.leaf_mult)
    if programs:
        program, comp_at = concatenate(programs)
        for i, c0 in zip(labelled, comp_at, strict=True):
            leaf_comp.extend(c0 + c for c in tables[i].leaf_comp)
    else:
        program = concatenate([])[0]
    spec.update(
        row_start=row_start,
        row_comp=row_comp,
        row_tally=row_tally,
        row_read=row_read,
        row_coef=row_coef,
        row_pad=row_pad,
        leaf_row=leaf_row,
        leaf_comp=leaf_comp,
        leaf_col=leaf_col,
        leaf_rest=leaf_rest,
        leaf_mult=leaf_mult,
    )
    spec.update(program_spec(program, suits_alike, tens_alike))
    return spec


def batch_plan(parts: Sequence[tuple[BetTable, Sequence[int], int]], width: int) -> Any:
    """The kernel's plan of a batch's label parts (:func:`batch_spec`), for
    :meth:`Plan.many <analyzer.engine._native>` (each shoe's value weights and the label parts'
    counts per pay class); ``None`` when the kernel is not running or a number of a table is
    past int64 (the numpy path evaluates them)."""
    module = kernel()
    if module is None:
        return None
    try:
        return module.Plan(batch_spec(parts, width))
    except OverflowError:
        return None


def batch_spec(parts: Sequence[tuple[BetTable, Sequence[int], int]], width: int) -> dict[str, list[Any]]:
    """The label parts of a batch's tables as one plan of ``width`` columns, the batch's pay
    classes (:mod:`analyzer.engine.batch`), with no value part (the batch's matrix product
    counts it).  ``parts``: per table, (the table, the pay class of each of its columns, the
    offset of its bet's classes); column ``c``'s counts go to ``offset + classes[c]``.

    As :class:`~analyzer.engine.labels.LabelPart` reduces a label part, a leaf whose column
    pays what its row's rest pays (it adds and takes back one class) is dropped, and so is a
    row no kept leaf needs; tables with one program (a bet's variants, mirrored bets) share
    its compositions, evaluated once.  Rows and leaves are laid out as :func:`plan_spec` lays
    them; the program is flattened for shoes of any symmetry (the batch's shoes differ).
    """
    spec: dict[str, list[Any]] = {"col_start": [0, width], "value_parts": [((), (), ())]}
    row_start = [0]
    row_comp: list[int] = []
    row_tally: list[int] = []
    row_read: list[int] = []
    row_coef: list[int] = []
    row_pad: list[int] = []
    leaf_row: list[int] = []
    leaf_comp: list[tuple[int, int]] = []  # (program number, composition), resolved below
    leaf_col: list[int] = []
    leaf_rest: list[int] = []
    leaf_mult: list[int] = []
    programs: dict[Program, int] = {}
    for table, classes, offset in parts:
        if not table.row_read:
            continue
        rest = [classes[c] for c in table.row_rest]  # the class of each row's rest
        plus = [classes[c] for c in table.leaf_col]
        minus = [rest[r] for r in table.leaf_row]
        kept = [i for i, (a, b) in enumerate(zip(plus, minus, strict=True)) if a != b]
        if not kept:
            continue
        number = programs.setdefault(table.program, len(programs))
        used = sorted({table.leaf_row[i] for i in kept})
        at = {r: len(row_read) + k for k, r in enumerate(used)}
        for r, (coef, pad) in zip(used, _row_constants(table, used), strict=True):
            row_read.append(table.row_read[r])
            row_coef.append(coef)
            row_pad.append(pad)
            if pad < 0:  # S / D(R) summed over the row's compositions
                row_comp.extend(table.row_comp[table.row_start[r] : table.row_start[r + 1]])
                row_tally.extend(table.row_tally[table.row_start[r] : table.row_start[r + 1]])
            row_start.append(len(row_comp))
        rows, comps, mults = table.leaf_row, table.leaf_comp, table.leaf_mult
        leaf_row.extend([at[rows[i]] for i in kept])
        leaf_comp.extend([(number, comps[i]) for i in kept])
        leaf_col.extend([offset + plus[i] for i in kept])
        leaf_rest.extend([offset + minus[i] for i in kept])
        leaf_mult.extend([mults[i] for i in kept])
    program, comp_at = concatenate(list(programs))
    spec.update(
        row_start=row_start,
        row_comp=row_comp,
        row_tally=row_tally,
        row_read=row_read,
        row_coef=row_coef,
        row_pad=row_pad,
        leaf_row=leaf_row,
        leaf_comp=[comp_at[k] + c for k, c in leaf_comp],
        leaf_col=leaf_col,
        leaf_rest=leaf_rest,
        leaf_mult=leaf_mult,
    )
    spec.update(program_spec(program, False, False))
    return spec


def _row_constants(table: BetTable, rows: Sequence[int] | None = None) -> list[tuple[int, int]]:
    """Per row of ``table`` (of ``rows``, when given): (c, p) where the row's S / D(R) is c
    times padding number p of the kernel (0-6: falling(N - k, K - k) for k = p; 7-13:
    falling(N - r, 6 - r) for r = p - 7), else (0, -1): S and D(R) computed and divided.

    * A row of a first-four table (nothing read past the first four cards): S / D(R) = n_R x
      falling(N - r, 6 - r), n_R the orderings of its r read values
      (:func:`~analyzer.engine.table.first_four_orderings`), as
      the numpy path counts it (:mod:`analyzer.engine.labels`).
    * A row read whole (its one composition is its read values): S = tally x padding(k) x
      D(R), so S / D(R) = tally x padding(k).  Where D(R) = 0 the shoe cannot deal the read
      values, and every leaf's weight N(leaf), a way of dealing them, is 0 too.
    """
    if table.first_four:
        return [(n, MAX_CARDS + 1 + r) for n, r in first_four_orderings(table, rows)]
    out = []
    for r in range(len(table.row_read)) if rows is None else rows:
        coded = table.row_read[r]
        start, end = table.row_start[r], table.row_start[r + 1]
        if end - start == 1 and COMPOSITIONS[table.row_comp[start]][1] == coded:
            out.append((table.row_tally[start], COMPOSITIONS[table.row_comp[start]][0]))
        else:
            out.append((0, -1))
    return out


def program_spec(program: Program, suits_alike: bool, tens_alike: bool) -> dict[str, list[int]]:
    """A :class:`~analyzer.engine.algebra.Program` as flat arrays: ``fall_pool``,
    ``fall_shift``, ``fall_m`` (falling(|pool| - shift, m)); subterms (``sub_start``,
    ``sub_fall``: products of falls); factors (``fac_start``, ``fac_sub``, ``fac_mult``: a sum
    of subterms times a multiplier); compositions (``comp_start``: runs of terms) and terms
    (``term_start``, ``term_factor``, ``term_cards``, ``term_mult``: multiplicity x padding of
    that many cards (none for 0) x a product of factors).

    On a shoe whose 10-valued ranks (suits) are alike, a factor whose summands are alike is one
    summand times their number, and on a suit-alike shoe the terms of one orbit are one term
    times the orbit's multiplicity: the shortcuts of
    :func:`~analyzer.engine.algebra.evaluate_scalar`, whose results they equal on such shoes.
    """
    fac_start, fac_sub, fac_mult = [0], [], []  # type: tuple[list[int], list[int], list[int]]
    for subterms, ten, suit in program.factors:
        if (not ten or tens_alike) and (not suit or suits_alike):
            fac_sub.append(subterms[0])
            fac_mult.append(len(subterms))
        else:
            fac_sub.extend(subterms)
            fac_mult.append(1)
        fac_start.append(len(fac_sub))
    sub_start: list[int] = [0]
    sub_fall: list[int] = []
    for st in program.subterms:
        sub_fall.extend(st)
        sub_start.append(len(sub_fall))
    comp_start, term_start = [0], [0]
    term_factor: list[int] = []
    term_cards: list[int] = []
    term_mult: list[int] = []
    ts, fs, tf = program.term_start, program.factor_start, program.term_factors
    mult, orbit = program.term_mult, program.term_orbit
    if not suits_alike:  # every term as it is: the program's own arrays
        comp_start, term_start, term_factor, term_mult = list(ts), list(fs), list(tf), list(mult)
        term_cards = [cards for c, cards in enumerate(program.cards) for _ in range(ts[c], ts[c + 1])]
    for c, cards in enumerate(program.cards if suits_alike else ()):
        chosen: list[list[int]] = []
        for t in range(ts[c], ts[c + 1]):
            if suits_alike and t != ts[c] and orbit[t] == orbit[t - 1]:
                chosen[-1][1] += mult[t]  # the orbit's terms are equal here: one, times their sum
            else:
                chosen.append([t, mult[t]])
        for t, m in chosen:
            term_factor.extend(tf[fs[t] : fs[t + 1]])
            term_start.append(len(term_factor))
            term_cards.append(cards)
            term_mult.append(m)
        comp_start.append(len(term_mult))
    return {
        "fall_pool": [p for p, _, _ in program.falls],
        "fall_shift": [s for _, s, _ in program.falls],
        "fall_m": [m for _, _, m in program.falls],
        "sub_start": sub_start,
        "sub_fall": sub_fall,
        "fac_start": fac_start,
        "fac_sub": fac_sub,
        "fac_mult": fac_mult,
        "comp_start": comp_start,
        "term_start": term_start,
        "term_factor": term_factor,
        "term_cards": term_cards,
        "term_mult": term_mult,
    }


def summary(settled: Any, counts: Any) -> tuple[Any, ...] | None:
    """A bet's statistics from the counts of its table's columns, as
    :meth:`analyzer.engine.pricing.Settlement.summary` computes them with no void coup:
    ``(events, first, second, pushes, hits)`` (events: (event, pays, count) per key), summed in
    C; ``None`` when the kernel is not running or a number is past its integers (a count
    past int64, a moment past 128 bits), for the Python integers to take.

    ``settled``: a :class:`~analyzer.engine.pricing.Settlement` (its ``keys``, ``index`` and
    ``scaled``; the kernel's copy is kept here, by the object, for the last
    :data:`SETTLEMENTS`); ``counts``: an int64 array or a list of ints."""
    module = kernel()
    if module is None:
        return None
    hit = _SETTLED.get(id(settled))
    if hit is None or hit[0] is not settled:
        try:
            made = module.Settled(settled.index, settled.scaled, settled.keys)
        except OverflowError:  # a pay past int64: Python integers
            made = None
        if len(_SETTLED) >= SETTLEMENTS:
            _SETTLED.clear()
        hit = _SETTLED[id(settled)] = (settled, made)  # the settlement held: its id is not reused
    if hit[1] is None:
        return None
    return hit[1].summary(counts)  # type: ignore[no-any-return]


#: Settlements whose kernel copy is kept (then all are dropped and made again as needed).
SETTLEMENTS = 4096
_SETTLED: dict[int, tuple[Any, Any]] = {}
