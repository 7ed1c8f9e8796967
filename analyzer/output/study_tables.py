"""The shoe walk's results (:class:`~analyzer.studies.study.StudyResult`) as tables
(:class:`~analyzer.output.render.Table`), as JSON and as one tidy CSV table; JSON and CSV
write the same data rows (:func:`study_records`)."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import Any

from analyzer.output.render import Column, Table, long_csv
from analyzer.studies.counting import EXACT
from analyzer.studies.moments import Estimate
from analyzer.studies.study import StrategyResult, StudyResult
from analyzer.text import json_text

STUDY_TABLES = ("results", "depth", "cut-card")
_ESTIMATES = (
    "coups_per_shoe",
    "bets_per_shoe",
    "bet_frequency",
    "edge_when_betting",
    "units_per_shoe",
    "units_per_100_coups",
    "realised_edge_when_betting",
    "realised_units_per_shoe",
    "realised_units_per_100_coups",
    "opportunities_per_shoe",
)


def _number(x: float) -> float | None:
    return None if math.isnan(x) or math.isinf(x) else x


def result_record(result: StudyResult, row: StrategyResult) -> dict[str, object]:
    """One JSON record: the bet, the strategy, the shoes, every estimate with its ``_se`` and
    ``_ci95`` twins (numbers; ``null`` where undefined), and the settings."""
    out: dict[str, object] = {
        "bet": row.bet,
        "strategy": row.strategy,
        "true_count": row.true_count,
        "shoes": row.shoes,
    }
    for key in _ESTIMATES:
        est: Estimate | None = getattr(row, key)
        if est is None:
            if key == "opportunities_per_shoe":
                continue
            out[key] = out[f"{key}_se"] = out[f"{key}_ci95"] = None
            continue
        out[key] = _number(est.value)
        out[f"{key}_se"] = _number(est.se)
        lo, hi = est.ci95
        out[f"{key}_ci95"] = [_number(lo), _number(hi)]
    multi = row.units_per_shoe is None
    out["ev_method"] = (
        "realised results only (a multi-coup bet has no exact per-coup EV)"
        if multi
        else "exact EV before every coup, float64 within ev_bound (decisions exact)"
    )
    out["ev_bound"] = None if multi else result.ev_bounds.get(row.bet)
    out["exact_decisions"] = row.exact_decisions
    out["settings"] = {**result.settings(), "strategy": row.strategy}
    return out


def _flat(prefix: str, value: object, out: dict[str, object]) -> None:
    """``value`` as CSV fields: a mapping's keys joined with ``_``, an interval as ``_low`` and
    ``_high``."""
    if isinstance(value, dict):
        for k, v in value.items():
            _flat(f"{prefix}_{k}" if prefix else str(k), v, out)
    elif isinstance(value, list | tuple) and len(value) == 2 and prefix.endswith("_ci95"):
        out[f"{prefix}_low"], out[f"{prefix}_high"] = value
    elif isinstance(value, list | tuple):
        out[prefix] = " ".join(str(v) for v in value)
    else:
        out[prefix] = value


def study_records(result: StudyResult) -> dict[str, list[dict[str, object]]]:
    """The study's data rows, by table (``results``, ``depth``, ``cut_card``): what
    :func:`study_json` writes and :func:`study_csv` flattens.  ``results``: one record per bet
    and strategy (:func:`result_record`); ``depth``: the exact EVs by depth; ``cut_card``:
    flat betting against the full-shoe EV.  Floats are ``None`` where undefined."""
    return {
        "results": [result_record(result, r) for r in result.results],
        "depth": [
            {
                "bet": d.bet,
                "depth_from": d.low,
                "depth_to": d.high,
                "coups": d.coups,
                "ev_mean": _number(d.mean),
                "ev_sd": _number(d.sd),
                "ev_min": _number(d.smallest),
                "ev_max": _number(d.largest),
                "ev_percentiles": dict(zip(("p5", "p25", "p50", "p75", "p95"), d.percentiles, strict=True)),
                "p_ev_positive": float(d.positive),
                "p_ev_positive_exact": str(d.positive),
            }
            for d in result.depth
        ],
        "cut_card": [
            {
                "bet": c.bet,
                "full_shoe_ev": float(c.full_shoe_ev),
                "full_shoe_ev_exact": str(c.full_shoe_ev),
                "flat_ev_per_coup": _number(c.flat_ev_per_coup.value),
                "flat_ev_per_coup_se": _number(c.flat_ev_per_coup.se),
                "effect": _number(c.effect.value),
                "effect_se": _number(c.effect.se),
            }
            for c in result.cut_card
        ],
    }


def study_json(result: StudyResult, meta: dict[str, object] | None = None) -> str:
    """The study as JSON: ``{"results": [...]}`` (one record per bet and strategy, see
    :func:`result_record`), with the EVs by depth, the cut-card effect and the settings
    (the rows of :func:`study_records`)."""
    records = study_records(result)
    doc = {
        "meta": meta or {},
        "settings": result.settings(),
        "results": records["results"],
        "voids_per_shoe": _number(result.voids_per_shoe.value),
        "depth": records["depth"],
        "cut_card": records["cut_card"],
    }
    # valid UTF-8 JSON for strict parsers: a lone surrogate of the command line as text (json_text)
    return json_text(json.dumps(doc, indent=2, allow_nan=False, ensure_ascii=False)) + "\n"


def _csv_field(value: object) -> object:
    """A CSV cell as JSON would give it back: a float as Python writes it, ``None`` empty."""
    if value is None:
        return ""
    return float(value) if isinstance(value, float) else value


def study_csv(result: StudyResult) -> str:
    """The study as one long tidy CSV table that ``pandas.read_csv`` loads as it is: a ``table``
    column (``results``, ``depth``, ``cut-card``), then the fields of :func:`study_records`,
    flattened (``units_per_shoe``, ``units_per_shoe_se``, ``units_per_shoe_ci95_low``, ...,
    ``settings_decks``, ...); a field a table does not have is an empty cell."""
    records = study_records(result)
    rows: list[dict[str, object]] = []
    for table, key in (("results", "results"), ("depth", "depth"), ("cut-card", "cut_card")):
        for record in records[key]:
            flat: dict[str, object] = {"table": table}
            _flat("", record, flat)
            rows.append(flat)
    fields: dict[str, None] = {}
    for r in rows:
        fields.update(dict.fromkeys(r))
    return long_csv(rows, fields, _csv_field)


def _text(x: float | None, digits: int) -> str:
    return "-" if x is None or math.isnan(x) else f"{x:.{digits}f}"


def _pm(e: Estimate | None, digits: int) -> str:
    if e is None or math.isnan(e.value):
        return "-"
    return f"{e.value:.{digits}f} ± {e.se:.{digits}f}" if not math.isnan(e.se) else f"{e.value:.{digits}f}"


def study_tables(result: StudyResult, names: Sequence[str] = STUDY_TABLES, digits: int = 4) -> list[Table]:
    """The study as :class:`analyzer.output.render.Table` objects: ``results`` (per bet and
    strategy, each estimate ± its standard error), ``depth`` (the exact EVs by depth) and
    ``cut-card`` (flat betting against the full-shoe EV)."""
    d = min(digits, 8)
    s = result.spec
    setting = (
        f"{s.shoes:,} shoes, seed {s.seed}; {s.dealing.decks} decks, cut card {s.dealing.cut_card}, "
        f"burn {s.dealing.burn}, end rule {s.dealing.end_rule}; block {s.block}"
    )
    tables = []
    rows: tuple[tuple[Any, ...], ...]
    if "results" in names:
        cols = tuple(
            Column(h)
            for h in (
                "Bet",
                "Strategy",
                "Coups/shoe",
                "Bets/shoe",
                "Bet frequency",
                "Edge when betting",
                "Units/shoe",
                "Units/100 coups",
                "Realised units/shoe",
                "Realised units/100 coups",
                "Exact decisions",
            )
        )
        rows = tuple(
            (
                r.bet,
                r.label,
                _pm(r.coups_per_shoe, 2),
                _pm(r.bets_per_shoe, 3),
                _pm(r.bet_frequency, d),
                _pm(r.edge_when_betting, d),
                _pm(r.units_per_shoe, d),
                _pm(r.units_per_100_coups, d),
                _pm(r.realised_units_per_shoe, d),
                _pm(r.realised_units_per_100_coups, d),
                str(r.exact_decisions),
            )
            for r in result.results
        )
        notes = [
            setting,
            "Each estimate ± its standard error (CLT over shoes; 95% interval = ± 1.96 SE). "
            "Units per unit staked. 'Units' use the exact EV before each coup bet (float64 within "
            "the bound below); 'realised' the coups' actual results (the cross-check).",
        ]
        notes += [f"{b}: |float EV - exact EV| <= {v:.3g} per coup" for b, v in result.ev_bounds.items()]
        if s.count is not None:
            notes.append("count: " + s.count.describe())
            if EXACT not in s.count.true_counts and s.count.kind == "tc":
                chosen = ", ".join(tc.name for tc in s.count.true_counts)
                notes.append(f"count (tc exact): the same count with the exact true count, beside {chosen}.")
        if any(r.units_per_shoe is None for r in result.results):
            notes.append(
                "banker-streak: a multi-coup bet, priced by its realised results only; a streak "
                "running when the shoe ends is settled on the wins so far."
            )
        tables.append(
            Table("study", "Shoe-walk study: results per bet and strategy", cols, rows, tuple(notes))
        )
    if "depth" in names and result.depth:
        cols = tuple(
            Column(h)
            for h in (
                "Bet",
                "Depth (cards out)",
                "Coups",
                "Mean EV",
                "SD",
                "Min",
                "P5",
                "Median",
                "P95",
                "Max",
                "P(EV > 0)",
            )
        )
        rows = tuple(
            (
                r.bet,
                f"{r.low}-{r.high}",
                f"{r.coups:,}",
                _text(r.mean, d),
                _text(r.sd, d),
                _text(r.smallest, d),
                _text(r.percentiles[0], 3),
                _text(r.percentiles[2], 3),
                _text(r.percentiles[4], 3),
                _text(r.largest, d),
                _text(float(r.positive), d),
            )
            for r in result.depth
        )
        tables.append(
            Table(
                "depth",
                "The exact EV before each coup, by depth",
                cols,
                rows,
                (
                    setting,
                    "Depth counts the shown and burned cards. Percentiles to 0.001; P(EV > 0) is decided "
                    "exactly for every coup.",
                ),
            )
        )
    if "cut-card" in names and result.cut_card:
        cols = tuple(
            Column(h) for h in ("Bet", "Full-shoe EV (exact)", "Flat EV per coup", "Cut-card effect")
        )
        rows = tuple(
            (
                c.bet,
                _text(float(c.full_shoe_ev), max(d, 6)),
                _pm(c.flat_ev_per_coup, max(d, 6)),
                _pm(c.effect, max(d, 6)),
            )
            for c in result.cut_card
        )
        tables.append(
            Table(
                "cut-card",
                "The cut-card effect: flat betting over real shoes",
                cols,
                rows,
                (
                    setting,
                    "Flat EV per coup = sum of the exact EVs of every coup / coups dealt; the effect is its "
                    "difference from the EV off the top of a full shoe.",
                ),
            )
        )
    return tables


__all__ = ["STUDY_TABLES", "result_record", "study_csv", "study_json", "study_records", "study_tables"]
