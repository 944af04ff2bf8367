"""Work–precision data: each method over a sweep of tolerances, its error
against a tight-tolerance reference and the time it took."""

import numpy

from ._errors import Error
from .model import Model
from .solve import solve

#: The tolerance sweep when none is given (rtol; atol is rtol / 100).
DEFAULT_RTOLS = (1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9)
#: The reference: cvodes_fsa at this rtol (atol 1e-2 times it).
REFERENCE_RTOL = 1e-12


def s_error(result, reference):
    """Largest |S - S_ref| over the times both give S, relative to the
    largest |S_ref| there (as ``odesens compare`` reports it); for methods
    without S, the same of the gradient. NaN when there is nothing to compare."""
    common, k_ref, k_res = numpy.intersect1d(reference.s_times, result.s_times,
                                             return_indices=True)
    if len(common):
        a, b = result.S[k_res], reference.S[k_ref]
    elif result.gradient.size and reference.gradient.size:
        a, b = result.gradient, reference.gradient
    else:
        return float("nan")
    scale = numpy.max(numpy.abs(b))
    diff = numpy.max(numpy.abs(a - b))
    return float(diff / scale if scale > 0 else diff)


def reference_solution(model, t=None, rtol=REFERENCE_RTOL, **kwargs):
    """cvodes_fsa at a tight tolerance: what the errors are measured against."""
    return solve(model, "cvodes_fsa", t=t, rtol=rtol, atol=rtol * 1e-2, **kwargs)


def work_precision(model, methods, t=None, rtols=DEFAULT_RTOLS, repeats=3, reference=None,
                   **kwargs):
    """For each method and rtol (atol = rtol / 100): the error of S against
    :func:`reference_solution` (:func:`s_error`) and the method's own wall
    time (``stats["wall_seconds"]``, the best of ``repeats`` solves).

    Returns ``{"reference": Result, "points": {method: [(rtol, seconds,
    error), ...]}, "failures": {method: [(rtol, message), ...]}}``. A
    tolerance at which a method fails (an Error) is a failure, not a point.
    Other keyword arguments go to every solve (p, t0, options...).
    """
    model = model if isinstance(model, Model) else Model(model)
    if reference is None:
        reference = reference_solution(model, t, **kwargs)
    t = reference.t
    points, failures = {}, {}
    for method in methods:
        points[method], failures[method] = [], []
        for rtol in rtols:
            try:
                runs = [solve(model, method, t=t, rtol=rtol, atol=rtol * 1e-2, **kwargs)
                        for _ in range(max(1, repeats))]
            except Error as e:
                failures[method].append((rtol, str(e)))
                continue
            seconds = min(r.stats["wall_seconds"] for r in runs)
            points[method].append((rtol, seconds, s_error(runs[0], reference)))
    return {"reference": reference, "points": points, "failures": failures}
