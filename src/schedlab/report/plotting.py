"""One figure style for every paper: seaborn theme, PNG + PDF written atomically.

Usage::

    from schedlab.report.plotting import new_figure, save_figure
    fig, ax = new_figure()
    ...
    save_figure(fig, "results/paper/figures/fig2")   # writes fig2.png and fig2.pdf
"""

from __future__ import annotations

import os
from pathlib import Path
from types import ModuleType

from ..io import atomic_path

THEME = {"style": "whitegrid", "context": "paper", "palette": "colorblind", "font_scale": 1.1}
# Fixed metadata so that PDF/PNG bytes do not depend on the date.
_META = {"png": {"Software": None}, "pdf": {"CreationDate": None, "Producer": None, "Creator": None}}


def _pyplot() -> ModuleType:
    """``matplotlib.pyplot`` on the Agg backend (no display). Imported here, when a figure is
    made, not with this module: importing matplotlib and seaborn costs ~1.8 s, and every paper's
    package (loaded by every point job) imports this module."""
    import matplotlib

    matplotlib.use("Agg")  # must precede pyplot
    import matplotlib.pyplot as plt

    return plt


def apply_theme() -> None:
    """Apply the project's seaborn theme (idempotent)."""
    import seaborn as sns

    _pyplot()
    sns.set_theme(**THEME)


def new_figure(nrows: int = 1, ncols: int = 1, width: float = 6.0, height: float = 4.0, **kw):
    """A themed figure and axes (``plt.subplots`` arguments pass through)."""
    apply_theme()
    return _pyplot().subplots(nrows, ncols, figsize=(width * ncols, height * nrows), **kw)


def save_figure(fig, stem: str | os.PathLike[str], formats: tuple[str, ...] = ("png", "pdf")) -> list[Path]:
    """Write ``stem.png`` and ``stem.pdf`` atomically; close the figure. Returns the paths."""
    stem = Path(stem)
    if stem.suffix in {".png", ".pdf"}:
        stem = stem.with_suffix("")
    out = []
    fig.tight_layout()
    for fmt in formats:
        dest = stem.with_suffix(f".{fmt}")
        with atomic_path(dest, suffix=f".{fmt}") as tmp:
            fig.savefig(tmp, format=fmt, dpi=150, metadata=_META.get(fmt))
        out.append(dest)
    _pyplot().close(fig)
    return out
