"""Charts of the studies' results, as image bytes or written files (matplotlib, the ``plot``
extra, imported only here and only when a chart is drawn): the effects of removal of an
:class:`~analyzer.studies.eor.EORReport` (bars per group, a panel per bet) and the EV by depth
of a :class:`~analyzer.studies.study.StudyResult`.  Values become floats only for drawing."""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from analyzer.errors import AnalyzerError, PlotUnavailableError, StudyError
from analyzer.output.files import write_files

if TYPE_CHECKING:  # annotations only: the study's module imports numpy
    from analyzer.studies.eor import EORReport
    from analyzer.studies.peek import PeekResult
    from analyzer.studies.study import StudyResult


def _pyplot(error: type[AnalyzerError]) -> Any:
    """matplotlib's pyplot on the Agg backend (no display needed).

    Raises:
        error: matplotlib is not installed (the one line names the extra to install).
    """
    try:
        import matplotlib  # lazy: an optional extra, heavy to import

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt  # lazy: as above
    except ImportError:
        raise error("--plot needs matplotlib: pip install 'punto-banco-analyzer[plot]'") from None
    return plt


def _saved(plt: Any, fig: Any, fmt: str) -> bytes:
    """``fig`` drawn in image format ``fmt``, closed whatever happens."""
    image = io.BytesIO()
    try:
        fig.savefig(image, format=fmt)
    finally:
        plt.close(fig)
    return image.getvalue()


def eor_plot(report: EORReport, path: str | Path) -> None:
    """Draw the EOR chart (bars per group, one panel per bet) to ``path`` (.png or .svg),
    written atomically.  Needs matplotlib (the ``plot`` extra); values are converted to
    floats only for drawing.

    Raises:
        PlotUnavailableError: matplotlib is not installed, or the suffix is not .png / .svg.
        OutputError: ``path`` cannot be written.
    """
    write_files({path: eor_image(report, path)})


def eor_image(report: EORReport, path: str | Path) -> bytes:
    """The EOR chart of :func:`eor_plot` as the bytes of a .png or .svg file, in the format that
    ``path``'s suffix names (nothing is written).

    Raises:
        PlotUnavailableError: matplotlib is not installed, or the suffix is not .png / .svg.
    """
    target = Path(path)
    fmt = target.suffix.lower().lstrip(".")
    if fmt not in ("png", "svg"):
        raise PlotUnavailableError(f"bad plot file {str(path)!r}: the name must end in .png or .svg")
    plt = _pyplot(PlotUnavailableError)
    n = len(report.bets)
    fig, axes = plt.subplots(n, 1, figsize=(8, 2.6 * n), squeeze=False)
    labels = [g.label for g in report.groups]
    for ax, b in zip(axes[:, 0], report.bets, strict=False):
        heights = [0.0 if e is None else float(e * 100) for e in b.house_edge_change]
        ax.bar(labels, heights, color=["#b22222" if h > 0 else "#2e6b30" for h in heights])
        if all(e is None or e == 0 for e in b.eor):  # exactly 0, not a float that rounds to it
            ax.text(0.5, 0.5, "every effect of removal is exactly 0 on this shoe: nothing to draw",
                    transform=ax.transAxes, ha="center", va="center", fontsize=9)
        ax.axhline(0, color="black", linewidth=0.6)
        ax.set_title(f"{b.bet.title}: change in house edge (%) when one card leaves", fontsize=9)
        ax.set_ylabel("house edge change (%)", fontsize=8)
        ax.tick_params(labelsize=8)
    fig.suptitle(f"Effects of removal: {report.shoe.describe()}", fontsize=10)
    fig.tight_layout()
    return _saved(plt, fig, fmt)


#: The image formats of ``--plot``, by the file name's extension.
PLOT_FORMATS = ("png", "svg", "pdf")


def plot_format(path: str) -> str:
    """The image format that ``path``'s extension names (:data:`PLOT_FORMATS`).

    Raises:
        StudyError: another extension (checked before the study runs).
    """
    fmt = os.path.splitext(str(path))[1].lower().lstrip(".")
    if fmt not in PLOT_FORMATS:
        raise StudyError(f"bad plot file {str(path)!r}: the name must end in .png, .svg or .pdf")
    return fmt


def study_image(result: StudyResult, path: str) -> bytes:
    """The chart of :func:`study_plot` as the bytes of a PNG, SVG or PDF file, in the format that
    ``path``'s extension names (nothing is written).

    Raises:
        StudyError: matplotlib is missing, or the extension names no such format.
    """
    fmt = plot_format(path)
    plt = _pyplot(StudyError)
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(8, 7), sharex=True)
    for name in dict.fromkeys(r.bet for r in result.depth):
        rows = [r for r in result.depth if r.bet == name]
        mid = [(r.low + r.high) / 2 for r in rows]
        (line,) = top.plot(mid, [r.mean for r in rows], marker="o", label=name)
        top.fill_between(
            mid,
            [r.percentiles[0] for r in rows],
            [r.percentiles[4] for r in rows],
            color=line.get_color(),
            alpha=0.15,
        )
        bottom.plot(mid, [float(r.positive) for r in rows], marker="o", label=name)
    top.axhline(0, color="grey", linewidth=0.8)
    top.set_ylabel("exact EV per unit (mean, 5-95%)")
    bottom.set_ylabel("P(EV > 0)")
    bottom.set_xlabel("cards out of the shoe (shown and burned included)")
    top.legend()
    s = result.spec
    top.set_title(f"{s.shoes:,} shoes, {s.dealing.decks} decks, cut card {s.dealing.cut_card}")
    return _saved(plt, fig, fmt)


def study_plot(result: StudyResult, path: str) -> None:
    """Draw the mean exact EV (with its 5-95% band) and P(EV > 0) by depth, per bet, into
    ``path`` (PNG, SVG or PDF by its extension; needs matplotlib, the ``plot`` extra), written
    atomically (a temporary file renamed into place, as every output).

    Raises:
        StudyError: matplotlib is missing, or the extension names no such format.
        OutputError: the file cannot be written.
    """
    write_files({path: study_image(result, path)})


__all__ = ["PLOT_FORMATS", "eor_image", "eor_plot", "plot_format", "study_image", "study_plot"]


def peek_image(result: PeekResult, path: str) -> bytes:
    """The chart of a partial-information analysis: a bar per pattern seen, the best bet's EV
    given it (green when positive, red otherwise), its probability under its label; as the bytes of a
    PNG, SVG or PDF file by ``path``'s extension (nothing is written).  Values become floats
    only for drawing.

    Raises:
        StudyError: matplotlib is missing, or the extension names no such format.
    """
    fmt = plot_format(path)
    plt = _pyplot(StudyError)
    rows = result.rows
    fig, ax = plt.subplots(figsize=(max(6.0, 0.45 * len(rows) + 2), 4.5))
    labels = [" ".join(r.pattern) for r in rows]
    heights = [float(r.best_ev * 100) for r in rows]
    ax.bar(range(len(rows)), heights, color=["#2e6b30" if r.best_ev > 0 else "#b22222" for r in rows])
    ax.set_xticks(range(len(rows)))
    ax.set_xticklabels(
        [f"{lab}\n{float(r.probability * 100):.2f}%" for lab, r in zip(labels, rows, strict=True)],
        rotation=90 if len(rows) > 8 else 0, fontsize=7,
    )
    ax.axhline(0, color="black", linewidth=0.6)
    ax.axhline(float(result.edge * 100), color="grey", linestyle="--", linewidth=0.8,
               label=f"edge, best bet always: {float(result.edge * 100):.3f}%")
    ax.set_ylabel("best bet's EV given the pattern (%)")
    ax.set_xlabel(f"pattern seen ({' '.join(result.seen.slots)}) and its probability")
    ax.set_title(f"Edge by pattern: {result.seen.text} seen, classes {result.classes.text}, "
                 f"{result.shoe.describe()}", fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    return _saved(plt, fig, fmt)
