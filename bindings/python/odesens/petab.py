"""PEtab problems as objectives for SciPy.

    import scipy.optimize
    from odesens import petab
    problem = petab.Problem("Boehm_JProteomeRes2014.yaml")
    fit = scipy.optimize.minimize(problem.objective_and_gradient, problem.nominal,
                                  jac=True, method="L-BFGS-B", bounds=problem.bounds)

The estimated parameters are on their PEtab scales (lin, log, log10), in
the order of ``parameter_ids``; the gradient and the FIM are in those
scaled parameters. With priors in the problem, the objective is the
negative log-posterior ``nlpost`` (``nllh`` without priors), which is what
:meth:`Problem.objective` and :meth:`Problem.objective_and_gradient` return.
"""

import warnings

import numpy

from . import _odesens
from ._errors import OdesensWarning
from ._errors import Error as odesens_error
from ._errors import invalid_argument
from .model import _path
from .solve import _count, _flag, _method_options, _number, _real_array, _threads


class Evaluation:
    """One evaluation of a PEtab problem.

    Attributes: ``nllh``, ``llh``, ``chi2``, ``nlpost``, ``log_prior``,
    ``has_priors``, ``gradient`` (of nlpost in the scaled parameters; empty
    unless asked for), ``fim`` (n x n, or None), ``simulations``,
    ``sigmas``, ``residuals`` (per measurement, in the measurement table's
    order), ``least_squares_residuals`` (the least-squares form's: the
    data residuals, then those of sigmas and priors; empty unless asked
    for), ``residual_jacobian`` (their Jacobian, m x n, or None),
    ``parameter_ids``, ``method`` (what "auto" chose; an experiment
    where its odesd failed ran cvodes_fsa, which a warning says), ``stats``,
    ``warnings``, ``n_experiments``. Also readable as a mapping:
    ``evaluation["nllh"]``.
    """

    def __init__(self, data):
        self.__dict__.update(data)

    def __getitem__(self, key):
        return self.__dict__[key]

    def keys(self):
        return self.__dict__.keys()

    def __repr__(self):
        return f"<odesens.petab.Evaluation nllh={self.nllh!r}, method={self.method}>"


class Problem:
    """A PEtab problem (v1 YAML and the tables it names).

    Parameters
    ----------
    yaml : str or path
        The problem file, or a directory holding it (its NAME.yaml where
        NAME is the directory's name, else its only .yaml or .yml file, else
        the one of several with a format_version or problems key).
    method : str
        "auto" (odesd where the model has second derivatives and S at most
        10 000 entries; else cvodes_fsa, or cvodes_asa for a gradient where
        at least 8 parameters act on the dynamics and they outnumber the
        measurement times per experiment), or any method giving S or a
        gradient.
    rtol, atol : float, optional
        Tolerances (default 1e-8 and 1e-12).
    max_steps : int, optional
    threads : int
        Experiments solved at once (0: one per core; default 1).
    **options
        The method's options.

    Attributes
    ----------
    parameter_ids, scales : lists of str, the estimated parameters.
    lower, upper, nominal : ndarray, on the parameters' scales.
    bounds : list of (lower, upper), for ``scipy.optimize.minimize``.
    has_least_squares_form : bool, residuals whose half sum of squares is
        nlpost plus a constant exist (not with Laplace noise).
    n_measurements, n_experiments, file

    A Problem pickles as its file and settings (it loads again).
    """

    def __init__(self, yaml, method="auto", rtol=None, atol=None, max_steps=None, threads=1,
                 **options):
        import os
        self.file = os.path.abspath(_path(yaml, "the problem"))
        if "\0" in self.file:  # the library would read the path up to it
            raise invalid_argument(f"the problem's path has a NUL character: {yaml!r}")
        if not isinstance(method, str):
            raise invalid_argument(f"method must be a method id (str), got {method!r}")
        self._settings = {
            "method": method, "rtol": None if rtol is None else _number(rtol, "rtol"),
            "atol": None if atol is None else _number(atol, "atol"),
            "max_steps": None if max_steps is None else _count(max_steps, "max_steps", 1),
            "threads": _threads(threads),
            "options": _method_options("cvodes_fsa" if method == "auto" else method, options)}
        # Unknown methods and options, bad tolerances: refused now, not at
        # the first evaluation (worded as a condition's failure there).
        _odesens.check_petab_settings(self._settings)
        self._core = _odesens.load_petab(self.file)
        self.file = self._core.file  # the problem file, where yaml named its directory
        self._last = None  # (x bytes, with gradient, Evaluation): see _cached
        self._last_residuals = None  # (x bytes, with Jacobian, Evaluation): _residuals_at

    parameter_ids = property(lambda self: list(self._core.parameter_ids))

    @property
    def parameter_blocks(self):
        """The estimated parameters that some experiments read and others
        do not, grouped by the experiments that read them (lists of ids):
        what a fit's hops redraw one at a time (``Problem.fit``'s
        ``hop_blocks``; docs/fit.md, "Hops"). Parameters with an infinite
        bound are in none (they have no range to be redrawn from); a
        hierarchical fit also leaves out its inner parameters
        (``inner_parameters``)."""
        ids = self.parameter_ids
        return [[ids[i] for i in block] for block in _odesens.parameter_blocks(self._core)]

    scales = property(lambda self: list(self._core.scales))
    lower = property(lambda self: numpy.array(self._core.lower))
    upper = property(lambda self: numpy.array(self._core.upper))
    nominal = property(lambda self: numpy.array(self._core.nominal))
    bounds = property(lambda self: list(zip(self._core.lower, self._core.upper)))
    # The estimated parameters a hierarchical fit sets by closed form
    # (indices into parameter_ids; docs/petab.md, "Hierarchical evaluation").
    inner_parameters = property(lambda self: list(self._core.inner_parameters))
    n_measurements = property(lambda self: self._core.n_measurements)
    n_experiments = property(lambda self: self._core.n_experiments)
    # Residuals whose half sum of squares is nlpost plus a constant exist
    # (not with Laplace noise): least_squares_residuals, ceres_lm, scipy_trf.
    has_least_squares_form = property(lambda self: self._core.has_least_squares_form)

    def evaluate(self, x=None, gradient=True, fim=False, residuals=False,
                 residual_jacobian=False, state_check=False):
        """Evaluates at x (scaled estimated parameters; default: nominal).
        Returns an :class:`Evaluation`. ``residuals``: also the residuals of
        the least-squares form (``least_squares_residuals``, whose half sum
        of squares is nlpost plus a constant); ``residual_jacobian``: those
        and their Jacobian (m x n, from forward sensitivities).
        ``state_check``: each simulation's states are solved again at
        tolerances 10 times tighter, with a warning where they differ by
        more than 300 times the tolerances (as ``odesens petab`` does;
        docs/petab.md, "The states' global error"). Raises
        :class:`odesens.Error` (invalid_argument for a wrong size or NaN;
        unsupported for residuals of a problem without that form; the
        solve's status for a failed simulation, naming the condition).
        Releases the GIL."""
        x = self.nominal if x is None else _real_array(x, "x")
        s = dict(self._settings, gradient=_flag(gradient, "gradient"), fim=_flag(fim, "fim"),
                 least_squares=_flag(residuals, "residuals"),
                 residual_jacobian=_flag(residual_jacobian, "residual_jacobian"),
                 state_check=_flag(state_check, "state_check"))
        e = Evaluation(self._core.evaluate(x, s))
        for w in e.warnings:
            warnings.warn(w, OdesensWarning, stacklevel=2)
        return e

    def _cached(self, x, gradient):
        """The last evaluation when it was at x (and has a gradient if one
        is needed): SciPy may ask for the value and the gradient apart."""
        x = self._point(x)
        key = (x.shape, x.tobytes())  # a 2-D x of the same bytes is refused, not served
        last = self._last  # read once: another thread may replace it
        if last and last[0] == key and (last[1] or not gradient):
            return last[2]
        e = self.evaluate(x, gradient=gradient)
        self._last = (key, gradient, e)
        return e

    @staticmethod
    def _point(x):
        if x is None:
            raise invalid_argument("x is None: give the point (evaluate() takes None for the "
                                   "nominal one)")
        return _real_array(x, "x")

    def objective(self, x):
        """nlpost at x (nllh when the problem has no priors)."""
        return self._cached(x, False).nlpost

    def nllh(self, x):
        """The negative log-likelihood at x."""
        return self._cached(x, False).nllh

    def gradient(self, x):
        """The gradient of :meth:`objective` at x (an ndarray of the caller's
        own: the cached evaluation keeps its own copy)."""
        return self._cached(x, True).gradient.copy()

    def objective_and_gradient(self, x):
        """(objective, gradient) at x from one solve, for ``minimize(..., jac=True)``:
        nlpost and its gradient (nllh's where the problem has no priors)."""
        e = self._cached(x, True)
        return e.nlpost, e.gradient.copy()  # the caller's to change in place

    def nllh_and_gradient(self, x):
        """Deprecated: :meth:`objective_and_gradient`, whose value it returns.
        Its name says nllh, but with priors the value is nlpost."""
        warnings.warn("Problem.nllh_and_gradient returns nlpost (nllh with the priors' terms), "
                      "not nllh; call Problem.objective_and_gradient",
                      DeprecationWarning, stacklevel=2)
        return self.objective_and_gradient(x)

    def least_squares_residuals(self, x):
        """The residuals r of the least-squares form at x: 1/2 sum r^2 is
        nlpost plus a constant (docs/fit.md, "The least-squares form"), for
        ``scipy.optimize.least_squares(problem.least_squares_residuals, x0,
        jac=problem.residual_jacobian, bounds=(problem.lower, problem.upper))``.
        Solves the states alone (an ndarray of the caller's own)."""
        return self._residuals_at(x, False).least_squares_residuals.copy()

    def residual_jacobian(self, x):
        """dr/dx (m x n) at x, from one solve with forward sensitivities;
        the residuals come with it, so least_squares_residuals(x) after it
        at the same x solves nothing."""
        return self._residuals_at(x, True).residual_jacobian.copy()

    def _residuals_at(self, x, jacobian):
        """The last residual evaluation when it was at x (with its Jacobian
        where one is needed): SciPy asks for r and J apart."""
        x = self._point(x)
        key = (x.shape, x.tobytes())
        last = self._last_residuals
        if last and last[0] == key and (last[1] or not jacobian):
            return last[2]
        e = self.evaluate(x, gradient=False, residuals=True, residual_jacobian=jacobian)
        self._last_residuals = (key, jacobian, e)
        return e

    def measurements(self):
        """The measurement table in the evaluation's order: a dict of
        ``observable``, ``condition``, ``preequilibration`` (lists of ids)
        and ``time``, ``measurement`` (ndarrays)."""
        return self._core.measurements()

    def fit(self, starts=10, optimizer="auto", seed=0, threads=1, max_iterations=None,
            max_seconds=None, start_points=None, resample_failed=0, hierarchical=False,
            hops=0, hop_starts=None, hop_sigma=None, hop_flat=None, hop_blocks=None):
        """Multi-start fit: one local optimization of nlpost per start, on
        the library's optimizers (docs/fit.md), with this problem's
        simulation settings. Returns a :class:`odesens.fit.FitResult`
        (``best``, ``starts_at_best``, the starts as arrays).

        Parameters
        ----------
        starts : int
            Starts drawn by a Latin hypercube in the box of the scaled
            parameters with ``seed`` (ignored when ``start_points`` is given).
        optimizer : str
            "auto" (ceres_lm_lbfgs when the problem has the least-squares
            form and its gradient is not the adjoint's, else nlopt_lbfgs;
            docs/fit.md), "ceres_lm", "ceres_lm_lbfgs" (ceres_lm,
            then nlopt_lbfgs where it stopped short of a stationary point,
            again while that lowers nlpost), "nlopt_lbfgs", "lbfgsb"
            (L-BFGS-B), "scipy_trf" (SciPy's trust-region reflective
            least_squares on the residuals, run from Python:
            odesens/scipy_fit.py; not hierarchical, no resample_failed) or
            "scipy_trf_lm_lbfgs" (scipy_trf, then ceres_lm_lbfgs from its
            end in the time the start has left).
        seed : int
        threads : int
            Starts run at once, each on one thread (0: one per core). The
            same seed draws the same starts for any thread count.
        max_iterations : int, optional
            Per start (ceres_lm: steps; nlopt_lbfgs: evaluations;
            ceres_lm_lbfgs: L-BFGS has what LM left; scipy_trf: SciPy's
            max_nfev, its evaluations of the residuals; scipy_trf_lm_lbfgs:
            both, each of its two parts); default 1000.
        max_seconds : float, optional
            Wall time per start (default: no limit).
        start_points : array (K x n), optional
            The starts themselves (scaled, inside the bounds).
        resample_failed : int
            A start whose point cannot be simulated runs from a point
            drawn uniformly in the scaled box instead, up to this many
            times (the draws depend on ``seed`` and the start's index).
        hops, hop_starts, hop_sigma : int, int, float
            After the starts, ``hops`` rounds (at most 10000) of
            ``hop_starts`` starts each, drawn around the best end point so
            far from a normal distribution on the parameters' scales with
            standard deviation ``hop_sigma`` (1e-6 to 100; doubled after a
            round that finds no nlpost lower by more than 0.1, up to 4
            times ``hop_sigma``, and ``hop_sigma`` again after one that
            does), clipped to the box (docs/fit.md, "Hops"). Their rows
            have ``round`` r >= 1, the others 0. ``hop_starts`` defaults
            to 8 and ``hop_sigma`` to 0.5; these and ``hop_flat`` and
            ``hop_blocks`` shape the rounds of ``hops``, and are refused
            without it.
        hop_flat : str
            "box" (default): in a hop round, a parameter whose gradient of
            nlpost is exactly 0 at the round's center (nothing depends on
            it there, as on a switch time past its experiment's data) is
            drawn from its whole range as a start is; "local": around the
            center as the others.
        hop_blocks : bool
            True (default): where some parameters are read by some
            experiments only (a switch time or scaling per condition,
            grouped into blocks by the experiments that read them:
            ``parameter_blocks``), every second point of a round redraws
            one block from its range and holds the others at the center,
            the worst fitted block first (mean squared residual of its
            experiments at the center), then the next; False: every point
            around the center.
        hierarchical : bool
            Optimize the outer parameters only: every evaluation sets the
            inner ones (``inner_parameters``: scalings, offsets and noise
            parameters whose optimum has a closed form, docs/petab.md) to
            their optimum given the others.

        A simulation failing inside a start is a rejected step; a start
        whose own point cannot be simulated (and is not drawn again) is
        kept, failed, with NaN values. Raises :class:`odesens.Error` (invalid_argument, unsupported
        for ceres_lm, ceres_lm_lbfgs, scipy_trf or scipy_trf_lm_lbfgs on a
        problem without least-squares form, and for the last two without
        SciPy). Releases
        the GIL; Ctrl-C stops the fit and returns the starts that ended
        (``stopped`` True, with a RuntimeWarning).
        """
        from .fit import FitResult
        optimizer = _optimizer(optimizer)
        if max_seconds is not None:
            max_seconds = _number(max_seconds, "max_seconds")
            if not max_seconds > 0 or max_seconds == float("inf"):
                raise invalid_argument(f"max_seconds must be a positive finite number, "
                                       f"got {max_seconds!r}")
        if start_points is not None:
            start_points = _real_array(start_points, "start_points")
            if start_points.ndim != 2 or start_points.shape[0] == 0:
                raise invalid_argument(
                    f"start_points must be K x {len(self.parameter_ids)} with K >= 1, "
                    f"got shape {start_points.shape}")
        hop_settings = {"hop_starts": hop_starts, "hop_sigma": hop_sigma,
                        "hop_flat": hop_flat, "hop_blocks": hop_blocks}
        given = [name for name, value in hop_settings.items() if value is not None]
        if given and _count(hops, "hops", 0, 10000) == 0:
            verb = "shapes" if len(given) == 1 else "shape"
            raise invalid_argument(f"fit: {', '.join(given)} {verb} the rounds of hops: "
                                   f"give hops too (it is 0)")
        hop_starts = 8 if hop_starts is None else hop_starts
        hop_sigma = 0.5 if hop_sigma is None else hop_sigma
        hop_flat = "box" if hop_flat is None else hop_flat
        hop_blocks = True if hop_blocks is None else hop_blocks
        args = {"starts": _count(starts, "starts", 1, 10**12), "optimizer": optimizer,
                "seed": _count(seed, "seed", 0, 2**64 - 1), "threads": _threads(threads),
                "max_iterations": None if max_iterations is None else _count(
                    max_iterations, "max_iterations", 1, 2**62),
                "max_seconds": max_seconds,
                "resample_failed": _count(resample_failed, "resample_failed", 0, 1000),
                "start_points": start_points, "hierarchical": _flag(hierarchical, "hierarchical"),
                "hops": _count(hops, "hops", 0, 10000),
                "hop_starts": _count(hop_starts, "hop_starts", 1, 10**9),
                "hop_sigma": _number(hop_sigma, "hop_sigma"), "hop_flat": hop_flat,
                "hop_blocks": _flag(hop_blocks, "hop_blocks")}
        if hop_flat not in ("box", "local"):
            raise invalid_argument(f"hop_flat must be 'box' or 'local', got {hop_flat!r}")
        if not 1e-6 <= args["hop_sigma"] <= 100:
            raise invalid_argument(f"hop_sigma must be from 1e-6 to 100 (a standard deviation "
                                   f"on the parameters' scales), got {hop_sigma!r}")
        if not self.parameter_ids:  # as the library's fit, on the SciPy path too
            raise invalid_argument("fit: the problem estimates no parameter (no row of its "
                                   "parameter table has estimate 1): there is nothing to fit")
        if optimizer in _SCIPY_OPTIMIZERS:
            return FitResult(self._fit_scipy_trf(args), self.parameter_ids)
        return FitResult(_odesens.fit(self._core, self._settings, args), self.parameter_ids)

    def _fit_scipy_trf(self, args):
        """Problem.fit with optimizer="scipy_trf" or "scipy_trf_lm_lbfgs"
        (odesens/scipy_fit.py), its arguments checked: FitResult's dict."""
        from . import scipy_fit
        name = args["optimizer"]
        if args["hierarchical"]:
            raise invalid_argument(f"{name} does not run hierarchical fits: use ceres_lm_lbfgs, "
                                   "ceres_lm, nlopt_lbfgs or lbfgsb")
        if args["resample_failed"] > 0:
            raise invalid_argument(f"{name} does not draw failed start points again "
                                   "(resample_failed must be 0): give the starts "
                                   "(start_points) or use the library's optimizers")
        try:
            import scipy.optimize  # noqa: F401 (checked before any start runs)
        except ImportError as e:
            raise odesens_error("unsupported", f"{name} needs SciPy (Debian's python3-scipy): "
                                f"{e}", -11) from None
        if not self.has_least_squares_form:
            raise odesens_error("unsupported", f"{name} needs the least-squares form, which "
                                "this problem does not have (Laplace noise): use nlopt_lbfgs "
                                "or lbfgsb", -11)
        return scipy_fit.fit(self, args["starts"], args["seed"], args["threads"],
                             args["max_iterations"], args["max_seconds"], args["start_points"],
                             name, (args["hops"], args["hop_starts"], args["hop_sigma"],
                                    args["hop_flat"], args["hop_blocks"]))

    def profile(self, point, parameters=None, confidence=0.95, threads=1, max_points=50,
                optimizer="auto"):
        """Profile likelihoods from ``point`` (scaled; normally a fit's
        ``best``): for each parameter, nlpost with it held at values
        stepping away from the point and the others re-optimized, until
        the likelihood-ratio threshold of ``confidence`` is crossed or the
        bound is reached. Returns a list of :class:`odesens.fit.Profile`
        with their confidence intervals.

        Parameters
        ----------
        point : array (n,)
        parameters : ids or indices, optional
            The parameters to profile (default: every estimated one).
        confidence : float
            In (0, 1); the threshold is its chi^2(1) quantile halved (1.92 at 0.95).
        threads : int
            Sides of profiles traced at once (0: one per core).
        max_points : int
            Per side; reaching it leaves the side open.
        optimizer : str
            Of the re-optimizations (as in :meth:`fit`).

        Raises :class:`odesens.Error` (invalid_argument for a bad point or
        option; unsupported for ceres_lm or ceres_lm_lbfgs on a problem
        without least-squares form; the simulation's status when ``point``
        cannot be simulated). Releases the GIL; Ctrl-C stops the profiles and returns
        the points traced (stopped sides open, with a RuntimeWarning).
        """
        from .fit import Profile, parameter_indices
        if _optimizer(optimizer, _OPTIMIZERS[:-2], "profile") in _SCIPY_OPTIMIZERS:
            raise invalid_argument("profiles re-optimize with the library's optimizers "
                                   "(auto, ceres_lm, ceres_lm_lbfgs, nlopt_lbfgs or lbfgsb); "
                                   f"{optimizer} runs fits only")
        args = {"parameters": parameter_indices(self.parameter_ids, parameters),
                "confidence": _number(confidence, "confidence"), "threads": _threads(threads),
                "max_points": _count(max_points, "max_points", 1, 10**6),
                "optimizer": optimizer}
        if point is None:
            raise invalid_argument("point is None: give the point to profile from (a fit's best "
                                   "is None where no start succeeded)")
        point = _real_array(point, "point")
        return [Profile(d) for d in _odesens.profile(self._core, point, self._settings, args)]

    def __reduce__(self):
        s = self._settings
        return (_make_problem, (self.file, s))

    def __repr__(self):
        return (f"<odesens.petab.Problem {self.file}: {len(self.parameter_ids)} estimated "
                f"parameters, {self.n_measurements} measurements>")


# The library's optimizers (fit.hpp) and the two this module adds.
_SCIPY_OPTIMIZERS = ("scipy_trf", "scipy_trf_lm_lbfgs")  # odesens/scipy_fit.py
_OPTIMIZERS = ("auto", "ceres_lm", "ceres_lm_lbfgs", "nlopt_lbfgs", "lbfgsb") + _SCIPY_OPTIMIZERS


def _optimizer(optimizer, known=_OPTIMIZERS, what="fit"):
    """An optimizer id, checked against those `what` runs."""
    if not isinstance(optimizer, str):
        raise invalid_argument(f"optimizer must be an optimizer id (str), got {optimizer!r}")
    if optimizer not in known and optimizer not in _OPTIMIZERS:
        raise invalid_argument(f"{what}: unknown optimizer {optimizer!r} "
                               f"({', '.join(known[:-1])} or {known[-1]})")
    return optimizer


def _make_problem(file, s):
    return Problem(file, method=s["method"], rtol=s["rtol"], atol=s["atol"],
                   max_steps=s["max_steps"], threads=s["threads"], **s["options"])
