"""Downey's speedup model S(n, A, sigma) (Cirne thesis §3.4.3; Downey 1997).

``A`` is the average parallelism, ``sigma`` approximates the coefficient of variance of the
parallelism. The five cases of the thesis' equation are implemented verbatim; ``S(1) = 1`` and
``S(n) = A`` from ``c_max(A, sigma)`` on (the partition size beyond which more processors do not
help, the ``c_max`` of Table 12).
"""

from __future__ import annotations

from typing import Any

import numpy as np


def speedup(n: Any, A: Any, sigma: Any) -> np.ndarray:
    """Downey's S(n, A, sigma), vectorised over broadcastable arrays (n >= 1, A >= 1, sigma >= 0)."""
    n, A, s = np.broadcast_arrays(np.asarray(n, float), np.asarray(A, float),
                                  np.asarray(sigma, float))
    out = np.empty(n.shape, dtype=np.float64)
    low = s <= 1
    with np.errstate(divide="ignore", invalid="ignore"):
        # sigma <= 1 (low variance)
        c1 = low & (n <= A)
        c2 = low & (n > A) & (n <= 2 * A - 1)
        c3 = low & (n > 2 * A - 1)
        out[c1] = (A * n / (A + s * (n - 1) / 2))[c1]
        out[c2] = (A * n / (s * (A - 0.5) + n * (1 - s / 2)))[c2]
        out[c3] = A[c3]
        # sigma > 1 (high variance)
        knee = A + A * s - s
        c4 = ~low & (n <= knee)
        c5 = ~low & (n > knee)
        out[c4] = (n * A * (s + 1) / (s * (n + A - 1) + A))[c4]
        out[c5] = A[c5]
    return out


def c_max(A: Any, sigma: Any) -> np.ndarray:
    """Largest useful partition size (Table 12): 2A - 1 if sigma <= 1 else A + A*sigma - sigma."""
    A, s = np.asarray(A, float), np.asarray(sigma, float)
    return np.where(s <= 1, 2 * A - 1, A + A * s - s)
