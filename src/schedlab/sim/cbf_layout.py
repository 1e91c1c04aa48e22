"""The array layout of the compiled conservative-backfilling state (:mod:`schedlab.sim.cbf_kernel`,
:mod:`schedlab.sim.cbf_levels`) and two primitives over its rows.

``prof`` rows ``T`` (breakpoint times), ``FREE`` (free processors), ``PM`` (prefix maxima of
``FREE``), then five rows per level of the level runs from ``LEVEL0`` (:mod:`.cbf_levels`);
``queue`` rows ``PROCS``, ``EST``, ``RES``, ``SEQ``, ``JID``, ``CLEAN``; ``meta`` fields ``N``,
``M``, ``STAMP``, ``NEXT``, ``PMV``, ``LOOSE`` (:mod:`.cbf_kernel` describes each), ``NL``
(levels), ``GB``, ``GE``, ``CLEAN_OK`` (:mod:`.cbf_stable`), then two fields per level from
``LV``. The 2-d arrays are C-contiguous int64. numba caches each kernel by its own file only, so
every kernel module imports this one, which first drops the cached kernels compiled from other
sources (:mod:`.kernel_cache`).
"""

from __future__ import annotations

from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from .kernel_cache import drop_stale_kernels

drop_stale_kernels()

T, FREE, PM = 0, 1, 2  # rows of prof
LEVEL0 = 3  # first row of the level runs: 5 per level (cbf_levels)
TE, BEST, OPEN, FLEN, FSTART = 0, 1, 2, 3, 4  # rows of one level, from LEVEL0 + 5q
PROCS, EST, RES, SEQ, JID, CLEAN = 0, 1, 2, 3, 4, 5  # rows of queue
QUEUE_ROWS = 6
N, M, STAMP, NEXT, PMV, LOOSE = 0, 1, 2, 3, 4, 5  # fields of meta
META_SIZE = 6
NL = 6  # field of meta: levels
GB, GE, CLEAN_OK = 7, 8, 9  # fields of meta: room given back since the last compression (cbf_stable)
LV = 10  # per level q, LV + 2q prefix entries, LV + 2q + 1 frontier
BIG = 1 << 62  # a time after every reservation


@intrinsic
def move_row(typingctx, a, row, dst, src, count):
    """``a[row, dst:dst + count] = a[row, src:src + count]`` (the ranges may overlap) as one
    ``llvm.memmove``: about 7x faster than an element loop on long profiles, and no row view
    (each view costs a reference count)."""
    sig = types.void(a, types.intp, types.intp, types.intp, types.intp)

    def codegen(context, builder, signature, args):
        ary = context.make_array(signature.args[0])(context, builder, args[0])
        base = builder.mul(args[1], builder.extract_value(ary.shape, 1))
        d = builder.gep(ary.data, [builder.add(base, args[2])])
        s = builder.gep(ary.data, [builder.add(base, args[3])])
        cgutils.raw_memmove(builder, d, s, args[4], context.get_constant(types.intp, 8))
        return context.get_dummy_value()

    return sig, codegen


@njit(cache=True, nogil=True)
def bisect_row(a, row, lo, hi, x, right):
    """``bisect.bisect_left`` (``bisect_right`` if ``right``) of ``x`` in ``a[row, lo:hi]``."""
    while lo < hi:
        mid = (lo + hi) >> 1
        if a[row, mid] < x or (right and a[row, mid] == x):
            lo = mid + 1
        else:
            hi = mid
    return lo
