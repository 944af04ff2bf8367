"""Multi-start fits with SciPy's trust-region reflective method.

``Problem.fit(optimizer="scipy_trf")`` runs each start as
``scipy.optimize.least_squares(method="trf")`` on the residuals of the
problem's least-squares form and their Jacobian (forward sensitivities),
from the same starts as the library's optimizers (``_odesens.draw_starts``),
and returns the same :class:`odesens.fit.FitResult`. Trust-region reflective
is the algorithm of MATLAB's ``lsqnonlin`` (Data2Dynamics) and of Fides
(pyPESTO): Coleman and Li's scaling by the distance to the bounds and steps
reflected at them. docs/fit.md, "Which optimizer, by measurement", says
where it does better than ``ceres_lm_lbfgs`` and where worse.

``optimizer="scipy_trf_lm_lbfgs"`` runs each start as TRF and then the
library's ``ceres_lm_lbfgs`` from TRF's end, within the start's time: TRF
finds basins and can stop short in them (SciPy's relative change of the
cost, 1e-8), where LM and L-BFGS go on to the optimum.

Each start runs on a thread of a pool; the simulations release the GIL, so
``threads`` starts run at once as the library's do.
"""

import math
import os
import threading
import time
import warnings

import numpy

from . import _odesens
from ._errors import Error, invalid_argument

# A simulation that fails inside a start is a rejected step: the trial
# point gets residuals whose cost no accepted point has, and the trust
# region shrinks. Finite, as SciPy requires: 0.5 m FAILED^2 stays below
# the largest double for any m up to 1e100.
_FAILED_RESIDUAL = 1e100
DEFAULT_MAX_EVALUATIONS = 1000


class _Ended(Exception):
    """A start ended by its time limit, a stop request or a Jacobian that
    could not be solved, at the best point it had evaluated."""

    def __init__(self, reason):
        super().__init__(reason)
        self.reason = reason


class _NoObjective(Error):
    """A point that was simulated but whose residuals or cost have no finite
    value (a simulation of 0 under a log transform)."""

    def __init__(self, message):
        super().__init__("not_finite", message, -8)


class _Start:
    """One start: the residuals and Jacobian SciPy asks for, the last point
    kept (SciPy asks for r and then J at the same point), the best point
    whose Jacobian was solved, and the counts. SciPy varies the free
    parameters (lower < upper); a parameter whose bounds are equal stays
    at them."""

    def __init__(self, core, settings, x0, free, deadline, stop):
        self.core, self.x0, self.free = core, x0, free
        self.all_free = bool(numpy.all(free))
        self.residuals_only = dict(settings, gradient=False, fim=False, least_squares=True)
        self.with_jacobian = dict(settings, gradient=False, fim=False, residual_jacobian=True)
        self.deadline, self.stop = deadline, stop
        self.m = 0  # residuals, known after the start point's evaluation
        self.evaluations = self.jacobian_calls = 0
        self.kept = None  # (free x bytes, residuals, Jacobian's free columns or None)
        self.best = (math.inf, None)  # (cost, x) of points whose Jacobian was solved
        self.best_values, self.solved = None, []  # values_at

    def full(self, z):
        """The whole point of the free parameters z."""
        x = self.x0.copy()
        x[self.free] = z
        return x

    def _check_time(self):
        if self.stop.is_set():
            raise _Ended("stopped by request")
        if self.deadline is not None and time.monotonic() > self.deadline[0]:
            raise _Ended(f"Maximum solver time reached: the start's {self.deadline[1]:g} s "
                         "are used up")

    def _evaluate(self, z, jacobian, timed=True):
        if timed:  # the start point is evaluated whatever the time (docs/fit.md)
            self._check_time()
        self.evaluations += 1
        z = numpy.array(z, dtype=float)
        x = self.full(z)
        e = self.core.evaluate(x, self.with_jacobian if jacobian else self.residuals_only)
        r = numpy.asarray(e["least_squares_residuals"])
        J = e["residual_jacobian"] if jacobian else None
        if not numpy.all(numpy.isfinite(r)):
            # the evaluation's first warning says where (a simulation of 0
            # under a log transform, a non-finite observable)
            why = f": {e['warnings'][0]}" if e["warnings"] else ""
            raise _NoObjective(f"residuals that are not finite (nlpost {e['nlpost']:g}){why}")
        if jacobian and not numpy.all(numpy.isfinite(J)):
            raise Error("not_finite", "a residual Jacobian that is not finite", -8)
        if J is not None and not self.all_free:
            J = numpy.ascontiguousarray(J[:, self.free])  # the free columns, in J's order
        self.kept = (z.tobytes(), r, J)
        if jacobian:
            # nlpost's gradient is J^T r (1/2 sum r^2 = nlpost + a constant)
            gradient = e["residual_jacobian"].T @ r
            values = {"x": x, "nllh": e["nllh"], "nlpost": e["nlpost"], "gradient": gradient}
            self.solved = [values] + self.solved[:1]
            cost = 0.5 * float(r @ r)
            if cost < self.best[0]:
                self.best = (cost, x)
                self.best_values = values
        return r

    def values_at(self, x):
        """nllh, nlpost and the gradient at x where its Jacobian was solved
        (the last two such points, and the best), else None."""
        for v in self.solved + [self.best_values]:
            if v is not None and numpy.array_equal(v["x"], x):
                return v
        return None

    def residuals(self, z):
        if self.kept and self.kept[0] == numpy.asarray(z, dtype=float).tobytes():
            return self.kept[1]
        try:
            return self._evaluate(z, False)
        except Error:
            return numpy.full(self.m, _FAILED_RESIDUAL)

    def jacobian(self, z):
        self.jacobian_calls += 1
        kept = self.kept
        if kept and kept[0] == numpy.asarray(z, dtype=float).tobytes() and kept[2] is not None:
            return kept[2]
        try:
            self._evaluate(z, True)
        except Error as e:
            raise _Ended(f"the residuals' Jacobian could not be solved at a point SciPy "
                         f"accepted ({e})") from None
        return self.kept[2]


def _projected_gradient_norm(g, x, lower, upper):
    """|x - P(x - g)|_inf, as the library's fits report (start_objective.cpp)."""
    if not numpy.all(numpy.isfinite(g)):
        return math.nan
    return float(numpy.max(numpy.abs(x - numpy.clip(x - g, lower, upper)), initial=0.0))


def _start_point_failure(core, settings, x0, error):
    """Why a start point has no least-squares value, in words: no finite
    objective, no least-squares form where nlpost itself is finite (a sigma
    below 5.5e-12, where ceres_lm_lbfgs starts by L-BFGS), or a simulation
    that failed."""
    if isinstance(error, _NoObjective):
        return f"the start point has no finite objective: {error.message}"
    if error.status == "not_finite":
        try:
            nlpost = core.evaluate(x0, dict(settings, gradient=False, fim=False))["nlpost"]
        except Error:
            nlpost = math.nan
        if math.isfinite(nlpost):
            return (f"the start point has no value in the least-squares form, where nlpost "
                    f"is {nlpost:g}: {error.message} (ceres_lm_lbfgs starts there by L-BFGS)")
    failed = "evaluated" if error.status == "unsupported" else "simulated"
    return f"the start point could not be {failed}: {error}"


def _run_start(core, settings, index, x0, lower, upper, options, stop):
    """One start's row of the fit: its end point, values and counts."""
    import scipy.optimize
    began = time.monotonic()
    deadline = None
    if options["max_seconds"] is not None:
        deadline = (began + options["max_seconds"], options["max_seconds"])
    free = lower < upper
    s = _Start(core, settings, x0, free, deadline, stop)
    row = {"index": index, "start": x0, "end": x0, "nllh": math.nan, "nlpost": math.nan,
           "gradient_norm": math.nan, "iterations": 0, "evaluations": 0, "status": "ok",
           "exit_reason": ""}
    try:
        with numpy.errstate(over="ignore", invalid="ignore"):
            s.m = s._evaluate(x0[free], True, timed=False).size
        if s.best[1] is None:  # finite residuals whose squares sum past the doubles
            raise _NoObjective("its cost (half the sum of the squared residuals) is not finite")
    except Error as e:
        row.update(status=e.status, evaluations=s.evaluations,
                   exit_reason=_start_point_failure(core, settings, x0, e),
                   seconds=time.monotonic() - began)
        return row
    failure = None
    try:
        if numpy.any(free):
            fit = scipy.optimize.least_squares(
                s.residuals, x0[free], jac=s.jacobian, bounds=(lower[free], upper[free]),
                method="trf", x_scale="jac", max_nfev=options["max_evaluations"])
            end, reason = s.full(fit.x), fit.message
        else:
            end, reason = x0, "every parameter is held by equal bounds"
    except _Ended as e:
        # the best point whose Jacobian was solved; the start point where
        # none had a finite cost
        end, reason = (x0 if s.best[1] is None else s.best[1]), e.reason
    except (ValueError, ArithmeticError, numpy.linalg.LinAlgError) as e:
        # a failed start, as the library's: at its start point, NaN values
        end, reason, failure = x0, f"SciPy's least_squares failed: {e}", "internal_error"
    # iterations: the steps SciPy accepted, one Jacobian each after the start point's
    row.update(end=numpy.array(end, dtype=float), exit_reason=reason,
               iterations=max(s.jacobian_calls - 1, 0))
    # The end point's values and gradient: known where its Jacobian was
    # solved (SciPy's end is a point it accepted, whose J it asked for),
    # else one more solve, not bounded by the start's time.
    values = s.values_at(row["end"])
    try:
        if failure:
            raise Error(failure, reason, -99)
        if values is None:
            s.evaluations += 1
            values = core.evaluate(row["end"], dict(settings, gradient=True, fim=False))
        if not math.isfinite(values["nlpost"]):
            raise Error("not_finite", f"nlpost is {values['nlpost']} at the end point", -8)
        row.update(nllh=values["nllh"], nlpost=values["nlpost"],
                   gradient_norm=_projected_gradient_norm(numpy.asarray(values["gradient"]),
                                                          row["end"], lower, upper),
                   flat=_odesens.flat_entries(core, settings, row["end"], values["gradient"]))
    except Error as e:
        row.update(status=e.status,
                   exit_reason=reason if failure else f"{reason}; the end point: {e}")
    row["evaluations"] = s.evaluations
    if options["polish"] and row["status"] == "ok" and not failure and s.best[1] is not None \
            and not stop.is_set():
        _polish(core, settings, row, options, stop, began)
    row["seconds"] = time.monotonic() - began
    return row


def _polish(core, settings, row, options, stop, began):
    """The library's ceres_lm_lbfgs from the TRF end of `row`, in the time
    the start has left; `row` takes its end where that is no worse."""
    remaining = None
    if options["max_seconds"] is not None:
        remaining = options["max_seconds"] - (time.monotonic() - began)
        if remaining <= 0:
            row["exit_reason"] += "; no time left for ceres_lm_lbfgs"
            return
    args = {"starts": 1, "optimizer": "ceres_lm_lbfgs", "threads": 1, "resample_failed": 0,
            "max_iterations": options["max_iterations"], "max_seconds": remaining,
            "start_points": row["end"].reshape(1, -1), "hierarchical": False,
            "stop_event": stop}
    try:
        r = _odesens.fit(core, settings, args)
    except Exception as e:  # the second part failed: the start keeps TRF's end
        row["exit_reason"] += f"; then ceres_lm_lbfgs failed: {e}"
        return
    if not len(r["nlpost"]):
        row["exit_reason"] += "; then ceres_lm_lbfgs: stopped before it began"
        return
    row["iterations"] += int(r["iterations"][0])
    row["evaluations"] += int(r["evaluations"][0])
    reason = r["exit_reason"][0]
    # Only a lower nlpost replaces TRF's end: at an equal one (a second part
    # stopped or out of time where it began) TRF's values and gradient stay.
    if r["status"][0] != "ok" or not r["nlpost"][0] < row["nlpost"]:
        value = f", nlpost {r['nlpost'][0]:g}" if math.isfinite(r["nlpost"][0]) else ""
        row["exit_reason"] += (f"; then ceres_lm_lbfgs ended at no better point "
                               f"({r['status'][0]}{value}): {reason}")
        return
    # the library's start knows its flat parameters where it evaluated the
    # gradient at its end (a finite gradient norm)
    known = math.isfinite(float(r["gradient_norm"][0]))
    row.update(end=numpy.array(r["end"][0], dtype=float), nllh=float(r["nllh"][0]),
               nlpost=float(r["nlpost"][0]), gradient_norm=float(r["gradient_norm"][0]),
               flat=list(r["flat_at_best"]) if known else None,
               exit_reason=f"{row['exit_reason']}; then ceres_lm_lbfgs: {reason}")


def _result(rows, n, starts_planned, seed, stopped, optimizer, hops):
    """The rows as FitResult's columns, sorted by nlpost, failed starts last."""
    # as the library's waterfall: ties (failed starts among them) by index
    rows = sorted(rows, key=lambda r: (not math.isfinite(r["nlpost"]),
                                       r["nlpost"] if math.isfinite(r["nlpost"]) else 0.0,
                                       r["index"]))
    best = rows[0]["nlpost"] if rows and math.isfinite(rows[0]["nlpost"]) else math.nan
    k = len(rows)
    return {
        "optimizer": optimizer, "seed": seed, "starts_planned": starts_planned,
        "starts_at_best": sum(1 for r in rows if r["nlpost"] <= best + 0.1),
        "stopped": stopped,
        "hops": hops[0], "hop_starts": hops[1] if hops[0] else 0,
        "hop_sigma": hops[2] if hops[0] else 0.0, "hop_flat": hops[3] if hops[0] else "",
        "hop_blocks": bool(hops[0] and hops[4]),
        "hop_block_count": 0,  # fit() sets it
        "index": numpy.array([r["index"] for r in rows], dtype=numpy.int64),
        "round": numpy.array([r.get("round", 0) for r in rows], dtype=numpy.int64),
        "redrawn": numpy.array([r.get("redrawn", numpy.zeros(n, dtype=bool)) for r in rows],
                               dtype=bool).reshape(k, n),
        "start": numpy.array([r["start"] for r in rows], dtype=float).reshape(k, n),
        "end": numpy.array([r["end"] for r in rows], dtype=float).reshape(k, n),
        "nllh": numpy.array([r["nllh"] for r in rows], dtype=float),
        "nlpost": numpy.array([r["nlpost"] for r in rows], dtype=float),
        "gradient_norm": numpy.array([r["gradient_norm"] for r in rows], dtype=float),
        "iterations": numpy.array([r["iterations"] for r in rows], dtype=numpy.int64),
        "evaluations": numpy.array([r["evaluations"] for r in rows], dtype=numpy.int64),
        "status": [r["status"] for r in rows],
        "exit_reason": [r["exit_reason"] for r in rows],
        "seconds": numpy.array([r["seconds"] for r in rows], dtype=float),
    }


def _wait_for_workers(ended):
    """Waits until every worker has set its event, through further Ctrl-Cs.
    Not Thread.join: interrupted by KeyboardInterrupt, a later join can
    return while its thread still runs (CPython 3.11), and the fit would
    return without that start, or the interpreter end inside the library."""
    pending = list(ended)
    while pending:
        try:
            while pending:
                if pending[-1].wait(0.1):
                    pending.pop()
        except KeyboardInterrupt:
            pass  # the workers were told to stop: wait for them all the same


def _run_batch(core, settings, points, first, lower, upper, options, threads):
    """Runs points[k] as start first + k on up to ``threads`` worker threads
    (0: one per core): (the rows of the starts that ended, stopped)."""
    workers = min(threads if threads > 0 else (os.cpu_count() or 1), len(points))
    rows, errors = [], []
    stop = threading.Event()
    next_start = iter(range(len(points)))
    lock = threading.Lock()

    # Each worker takes the next start until none is left or the fit is
    # stopped (the library's task pool does the same: no start is queued
    # ahead of the workers, so a stop skips every start not begun).
    def work(done):
        try:
            while not stop.is_set():
                with lock:
                    k = next(next_start, None)
                if k is None:
                    return
                try:
                    row = _run_start(core, settings, first + k, points[k].copy(), lower, upper,
                                     options, stop)
                except BaseException as e:  # a defect here: ends the fit, raised below
                    errors.append(e)
                    stop.set()
                    return
                with lock:
                    rows.append(row)
        finally:
            done.set()

    ended = [threading.Event() for _ in range(workers)]
    pool = [threading.Thread(target=work, args=(e,), daemon=True) for e in ended]
    stopped = False
    try:
        for t in pool:
            t.start()
        for done in ended:
            while not done.wait(0.1):  # a timeout, so that Ctrl-C reaches this thread
                pass
    except BaseException as e:
        stop.set()  # the workers that started end at their next evaluation
        _wait_for_workers([ev for t, ev in zip(pool, ended) if t.ident is not None])
        if not isinstance(e, KeyboardInterrupt):
            raise
        stopped = True  # also while the workers were being started
        warnings.warn("odesens: fit stopped by KeyboardInterrupt; the starts that ended are "
                      "returned (stopped is True)", RuntimeWarning, stacklevel=4)
    if errors:
        raise errors[0]
    return rows, stopped


def _best_row(rows):
    finite = [r for r in rows if math.isfinite(r["nlpost"])]
    return min(finite, key=lambda r: (r["nlpost"], r["index"])) if finite else None


def fit(problem, starts, seed, threads, max_iterations, max_seconds, start_points,
        optimizer="scipy_trf", hops=(0, 8, 0.5, "box", True)):
    """The multi-start fit of ``problem`` (an odesens.petab.Problem) with
    SciPy's TRF (``optimizer`` "scipy_trf"), or TRF and then the library's
    ceres_lm_lbfgs from its end ("scipy_trf_lm_lbfgs"), then ``hops``
    (rounds, starts a round, sigma, flat parameters "box" or "local": the
    library's hops, docs/fit.md);
    arguments checked by Problem.fit. Returns FitResult's dict."""
    core = problem._core
    if start_points is None:
        start_points = _odesens.draw_starts(core, starts, seed)
    lower, upper = problem.lower, problem.upper
    n = lower.size
    if start_points.shape[1] != n:
        raise invalid_argument(f"start_points must be K x {n}, got shape {start_points.shape}")
    outside = numpy.nonzero(~numpy.all((start_points >= lower) & (start_points <= upper),
                                       axis=1))[0]
    if outside.size:
        raise invalid_argument(f"start {outside[0]} lies outside the bounds of the scaled "
                               "parameters")
    # Each start on one thread, its experiments one after another, as the
    # library's fits run them.
    settings = dict(problem._settings, threads=1)
    options = {"max_seconds": max_seconds, "max_iterations": max_iterations,
               "max_evaluations": DEFAULT_MAX_EVALUATIONS if max_iterations is None
               else max_iterations,
               "polish": optimizer == "scipy_trf_lm_lbfgs"}
    rounds, hop_starts, hop_sigma, hop_flat, hop_blocks = hops
    planned = len(start_points) + rounds * hop_starts
    _odesens.check_start_count(core, planned)  # as the library's fit, before any start
    blocks_drawn = hop_blocks and hop_starts >= 2 and _odesens.parameter_blocks(core)
    if rounds > 0 and (hop_flat == "box" or blocks_drawn):
        # hops draw from the initialization priors
        _odesens.check_initialization_priors(core)
    rows, stopped = _run_batch(core, settings, start_points, 0, lower, upper, options, threads)
    sigma, best_before, fruitless = hop_sigma, None, 0  # rounds since a new optimum
    try:
        for r in range(1, rounds + 1):
            best = _best_row(rows)
            if stopped or best is None:
                break
            if best_before is not None:
                sigma = _odesens.next_hop_sigma(sigma, hop_sigma, best_before, best["nlpost"])
                new = _odesens.found_new_optimum(best_before, best["nlpost"])
                fruitless = 0 if new else fruitless + 1
            best_before = best["nlpost"]
            points, redrawn = _odesens.hop_points(
                core, best["end"], sigma, hop_starts, seed, r, problem._settings,
                hop_flat == "box", best.get("flat"), hop_blocks, fruitless * (hop_starts // 2))
            first = len(start_points) + (r - 1) * hop_starts
            more, stopped = _run_batch(core, settings, points, first, lower, upper, options,
                                       threads)
            for row in more:
                row["round"] = r
                row["redrawn"] = redrawn[row["index"] - first]
            rows += more
    except KeyboardInterrupt:  # between two rounds' batches: what ended is kept
        stopped = True
        warnings.warn("odesens: fit stopped by KeyboardInterrupt; the starts that ended are "
                      "returned (stopped is True)", RuntimeWarning, stacklevel=3)
    result = _result(rows, n, planned, seed, stopped, optimizer, hops)
    if result["hop_blocks"] and hop_starts >= 2:  # else no second point
        result["hop_block_count"] = len(_odesens.parameter_blocks(core))
    best = _best_row(rows)  # as the library's waterfall: the best start's own
    result["flat_at_best"] = (best.get("flat") or []) if best is not None else []
    return result
