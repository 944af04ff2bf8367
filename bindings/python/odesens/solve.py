"""Solves: odesens.solve, prepared solvers, ensembles, and the method
registry (odesens.methods, odesens.options)."""

import warnings

import numpy

from . import _odesens
from ._errors import Error, OdesensWarning, invalid_argument
from .model import Model
from .result import Result

#: The default method: "auto", the library's choice from what is asked, the
#: model and a cheap stiffness probe (``Result.method`` says what ran,
#: ``Result.method_choice`` why; docs/methods/auto.md).
DEFAULT_METHOD = "auto"

#: Output times when none are given: this many, evenly over the model's span.
DEFAULT_OUTPUT_COUNT = 101


def resolve_method(method):
    """The method id for ``method`` (None: DEFAULT_METHOD)."""
    return DEFAULT_METHOD if method is None else str(method)


def methods():
    """The methods, as a list of dicts: ``id``, ``summary``,
    ``capabilities`` (what it computes and needs), ``default_rtol``,
    ``default_atol`` and ``options``."""
    return _odesens.method_infos()


def options(method):
    """The options of a method, as a list of dicts: ``key``, ``type``
    ("real", "integer", "flag", "text"), ``default``, ``doc``, ``choices``,
    ``range`` (as text), ``min``, ``max``. Pass them to :func:`solve` as
    keyword arguments. Raises Error(unknown_method)."""
    return _odesens.method_info(resolve_method(method))["options"]


def _as_model(model):
    return model if isinstance(model, Model) else Model(model)


def _number(value, what):
    """A real number from an int, a float or a NumPy scalar: float() would
    also read the text "1e-6" and take True as 1, which hide a caller's
    mistake."""
    if isinstance(value, (str, bytes, bool, numpy.bool_)):
        raise invalid_argument(f"{what} must be a number, got {value!r}")
    try:
        return float(value)
    except (TypeError, ValueError):
        raise invalid_argument(f"{what} must be a number, got {value!r}") from None


def _atol(value):
    """atol as the extension takes it: one number (a NumPy scalar too) or
    one per state; True and an empty list are no tolerances."""
    if value is None:
        return None
    if isinstance(value, (bool, numpy.bool_)):
        raise invalid_argument(f"atol must be a number or one per state, got {value!r}")
    if numpy.ndim(value) == 0:
        return _number(value, "atol")
    value = _real_array(value, "atol")
    if value.size == 0:
        raise invalid_argument("atol is empty: give one number or one per state (None: the "
                               "method's default)")
    return value


def _count(value, what, least=0, most=2**62):
    """A whole number from ``least`` to ``most`` (what the library's counts
    hold), or Error(invalid_argument) naming ``what``."""
    # (float() reads "2" too, which ran two starts)
    if isinstance(value, (bool, numpy.bool_, str, bytes)):
        raise invalid_argument(f"{what} must be a whole number, got {value!r}")
    if isinstance(value, (int, numpy.integer)):  # exact beyond 2**53, unlike a float
        whole = int(value)
        if whole < least or whole > most:
            raise invalid_argument(f"{what} must be a whole number from {least} to {most}, "
                                   f"got {value!r}")
        return whole
    try:
        number = float(value)
        whole = int(value) if not isinstance(value, float) or number.is_integer() else None
    except (TypeError, ValueError, OverflowError):
        whole = None
    if whole is None or whole != number:
        raise invalid_argument(f"{what} must be a whole number, got {value!r}")
    if whole < least or whole > most:
        raise invalid_argument(f"{what} must be a whole number from {least} to {most}, "
                               f"got {value!r}")
    return whole


def _flag(value, what):
    """True or False from a bool (NumPy's too) or the integers 0 and 1: a
    string such as "no" is truthy, and was taken as yes."""
    if isinstance(value, (bool, numpy.bool_)):
        return bool(value)
    if isinstance(value, (int, numpy.integer)) and int(value) in (0, 1):
        return bool(value)
    raise invalid_argument(f"{what} must be True or False, got {value!r}")


def _threads(value):
    """A thread count: 0 (one per core) to 1024, as the command line's
    --threads (more threads than that on one machine are a mistake)."""
    return _count(value, "threads", 0, 1024)


def _option_value(key, value):
    """An option's value as the library takes it: bool, int (within the
    64-bit integers the library holds), float or str; NumPy scalars as
    their Python values."""
    if isinstance(value, (bool, numpy.bool_)):
        return bool(value)
    if isinstance(value, (int, numpy.integer)):
        whole = int(value)
        if not -2**63 <= whole < 2**63:
            raise Error("option_type", f"option {key}: {whole} is beyond the 64-bit integers "
                        "an option holds", -4)
        return whole
    if isinstance(value, (float, numpy.floating)):
        return float(value)
    if isinstance(value, str):
        return value
    raise Error("option_type", f"option {key}: a number or text is needed, got "
                f"{type(value).__name__} {value!r}", -4)


def _method_options(method, given):
    """The options (_option_value), an integral float given to an integer
    option as int (as the tool reads "--option order=5"); the library
    checks the rest."""
    given = {key: _option_value(key, value) for key, value in given.items()}
    try:
        specs = {o["key"]: o for o in _odesens.method_info(method)["options"]}
    except Error:
        return given  # the solve names the unknown method
    out = {}
    for key, value in given.items():
        spec = specs.get(key)
        if (spec and spec["type"] in ("integer", "flag") and isinstance(value, float)
                and value.is_integer()):
            value = _option_value(key, int(value))  # 1e19: beyond the 64-bit integers
        out[key] = value
    return out


def _short(value):
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _real_array(value, what):
    """value as a float array; complex values are refused, not cast (numpy
    would drop their imaginary part), and so is what is not numbers."""
    if isinstance(value, numpy.ma.MaskedArray) and numpy.ma.is_masked(value):
        raise invalid_argument(f"{what} has masked entries: give the values to use "
                               "(numpy.ma.filled) or leave them out")
    kind = getattr(value, "dtype", None)
    kind = kind.kind if kind is not None else None
    if isinstance(value, (str, bytes)) or kind in ("U", "S", "b") or (
            isinstance(value, (list, tuple)) and any(isinstance(v, (str, bytes, bool))
                                                     for v in value)):
        # numpy reads "12" and True as numbers, which hides a caller's mistake
        raise invalid_argument(f"{what} must be numbers, got {type(value).__name__} "
                               f"{_short(value)}")
    try:
        complex_values = numpy.iscomplexobj(value)  # converts: a ragged list fails here
        if not complex_values:
            return numpy.asarray(value, dtype=float)
    except (TypeError, ValueError) as e:
        raise invalid_argument(f"{what} must be numbers: {e}") from None
    raise invalid_argument(f"{what} must be real numbers, not complex (pass .real if only "
                           f"the real part is meant)")


def _real_times(t):
    """t as a 1-D float array (_real_array)."""
    return numpy.atleast_1d(_real_array(t, "t"))


def _box_bounds(box):
    """(lower, upper) arrays of a box; None where it is malformed (the
    library says how)."""
    try:
        lower, upper = (_real_array(b, "box") for b in box)
    except (TypeError, ValueError, Error):
        return None
    return (lower, upper) if lower.shape == upper.shape else None


def _check_p_in_box(p, box):
    """A box replaces p: a p outside it was not solved for (and was echoed
    as Result.p as if it were)."""
    bounds = _box_bounds(box)
    if p is None or bounds is None:
        return
    p = _real_array(p, "p")
    lower, upper = bounds
    if p.shape == lower.shape and not numpy.all((lower <= p) & (p <= upper)):
        raise invalid_argument("p lies outside the box: a box is solved over as a whole (x and "
                               "S at its centre); leave p out or give it inside the box")


def settings(model, method, t=None, p=None, x0=None, rtol=None, atol=None, t0=None,
             max_steps=None, weights=None, box=None, options=None):
    """The dict the extension builds a problem from (problem_settings.hpp)."""
    if box is not None:
        # Only the set-valued methods (and auto, which then encloses) read a
        # box; another solved at p and reported the box's centre as its p.
        if method != "auto" and not _odesens.method_info(method)["capabilities"]["parameter_box"]:
            raise invalid_argument(f"box: method {method!r} takes no parameter box; "
                                   "bounds_fsa, bounds_asa and auto do")
        _check_p_in_box(p, box)
    t0 = None if t0 is None else _number(t0, "t0")
    if t is None:
        start = model.t0 if t0 is None else t0
        if not start < model.t_end:  # the default grid would run backwards
            raise invalid_argument(f"t0 = {start:g} is at or past the model's end time "
                                   f"{model.t_end:g}: give the output times t")
        t = numpy.linspace(start, model.t_end, DEFAULT_OUTPUT_COUNT)
    return {
        "t": _real_times(t),
        "t0": t0,
        "p": None if p is None else _given_array(p, "p", model.np),
        "x0": None if x0 is None else _given_array(x0, "x0", model.nx),
        "rtol": None if rtol is None else _number(rtol, "rtol"),
        "atol": _atol(atol),
        "max_steps": None if max_steps is None else _count(max_steps, "max_steps", 1),
        "weights": weights, "box": box,
        "options": _method_options(method, options or {}),
    }


def _result(data, model, p, stacklevel=3):
    for w in data["warnings"]:
        warnings.warn(f"{data['method']}: {w}", OdesensWarning, stacklevel=stacklevel)
    return Result(data, model, p)


def _given_array(value, what, size):
    """value as _real_array; an empty one is refused where the model has
    entries to give: the extension reads it as "not given" (the model's
    own values), which a caller passing [] did not ask for."""
    a = _real_array(value, what)
    if a.size == 0 and size > 0:
        raise invalid_argument(f"{what} has 0 entries, expected {size} (leave it out, "
                               "or pass None, for the model's own values)")
    return a


def _params(model, p):
    return model.nominal if p is None else numpy.asarray(p, dtype=float).copy()


def solve(model, method="auto", t=None, p=None, x0=None, rtol=None, atol=None, *,
          t0=None, max_steps=None, weights=None, box=None, **options):
    """Solves a model and its sensitivities with one method.

    Parameters
    ----------
    model : Model or str
        A loaded model, or what :func:`odesens.load` takes.
    method : str
        A method id (:func:`methods`), or "auto" (the default): the library
        chooses, and the result says what ran and why.
    t : array_like, optional
        Output times, increasing (default: 101 times over the model's span).
    p : array_like (n_p,), optional
        Parameter values (default: the nominal ones).
    x0 : array_like (n_x,), optional
        Initial state (default: x0(p) from the model; then dx0/dp = 0).
    rtol, atol : float, optional
        Tolerances with their CVODES meaning; atol may have one value per
        state. Default: the method's (``default_rtol``, ``default_atol``).
    t0 : float, optional
        Start time (default: the model's).
    max_steps : int, optional
        Internal steps allowed between two output times (default 100000).
    weights : array_like (n_t, n_x), optional
        Gradient methods: G = sum_k weights[k] . x(t_k) (default: the sum
        of the states at the final time).
    box : (lower, upper), optional
        Set-valued methods (bounds_fsa, bounds_asa): the parameter box;
        ``p``, if given, must lie inside it, and ``Result.p`` is its centre,
        where ``x`` and ``S`` are.
    **options
        The method's options (:func:`options`), e.g. ``order=5``.

    Returns
    -------
    Result

    Raises
    ------
    odesens.Error
        With the status and the library's message, for bad input (wrong
        sizes, NaN, unknown method or option, bad tolerances) or a failed
        solve. The computation releases the GIL.
    """
    model = _as_model(model)
    method = resolve_method(method)
    s = settings(model, method, t, p, x0, rtol, atol, t0, max_steps, weights, box, options)
    bounds = None if box is None else _box_bounds(box)
    return _result(_odesens.solve(model._core, method, s), model,
                   _params(model, p) if bounds is None else (bounds[0] + bounds[1]) / 2)


class Solver:
    """A method prepared on a model once, then run for many parameter
    values (``Model.solver(method, t=...)``): validation, option parsing,
    workspaces and the integrator's memory are set up here, and each
    :meth:`solve` gives bit for bit what :func:`odesens.solve` gives, except
    with method "auto", whose solver learns from its solves (it bounds odesd
    by its first and leaves a method that failed on two in a row;
    docs/methods/auto.md).

    Takes the arguments of :func:`odesens.solve`. A solver is used by one
    thread at a time (concurrent calls take turns); make one per thread to
    solve in parallel. It pickles as its model and arguments.
    """

    def __init__(self, model, method="auto", t=None, **kwargs):
        self.model = _as_model(model)
        self.method = resolve_method(method)
        self._args = dict(kwargs, t=t)
        known = ("p", "x0", "rtol", "atol", "t0", "max_steps", "weights", "box")
        named = {k: kwargs[k] for k in known if k in kwargs}
        options = {k: v for k, v in kwargs.items() if k not in known}
        s = settings(self.model, self.method, t, options=options, **named)
        self._p = _params(self.model, named.get("p"))
        self._session = _odesens.Session(self.model._core, self.method, s)

    def solve(self, p=None, x0=None, t=None):
        """Solves with parameters p (default: those the solver was made
        with), initial state x0 and output times t (default: as prepared).
        Returns a :class:`Result`."""
        p = None if p is None else _given_array(p, "p", self.model.np)
        x0 = None if x0 is None else _given_array(x0, "x0", self.model.nx)
        data = self._session.run(p, x0, t)
        return _result(data, self.model, self._p if p is None else _params(self.model, p))

    def __reduce__(self):
        return (_make_solver, (self.model, self.method, self._args))

    def __repr__(self):
        return f"<odesens.Solver {self.method} on {self.model.name!r}>"


def _make_solver(model, method, args):
    return Solver(model, method, **args)


def solve_ensemble(model, P, method="auto", threads=0, t=None, *, raise_on_failure=True,
                   **kwargs):
    """Solves one problem for every row of ``P`` (K x n_p) on ``threads``
    worker threads (0: one per core), with the GIL released. The results
    are bit for bit those of K calls of :func:`solve`.

    Takes the other arguments of :func:`solve`. Returns a list of K
    :class:`Result`; a member that failed raises its :class:`Error`, or,
    with ``raise_on_failure=False``, is that Error in the list.

    Ctrl-C stops it within 0.1 s of the members being solved ending (no
    new member begins): it raises KeyboardInterrupt, or, with
    ``raise_on_failure=False``, returns the list, the members not begun
    as Errors with status ``interrupted`` (with a RuntimeWarning).
    """
    model = _as_model(model)
    method = resolve_method(method)
    known = ("x0", "rtol", "atol", "t0", "max_steps", "weights", "box")
    named = {k: kwargs[k] for k in known if k in kwargs}
    options = {k: v for k, v in kwargs.items() if k not in known}
    if "p" in options:
        raise invalid_argument("solve_ensemble takes the parameters as the rows of P, not p=")
    s = settings(model, method, t, options=options, **named)
    P = _real_array(P, "P")
    if P.ndim != 2:
        raise invalid_argument(f"P must be K x n_p (one row per member), got shape {P.shape}")
    if P.shape[1] != model.np:
        raise invalid_argument(f"P has {P.shape[1]} columns; model {model.name} has {model.np} "
                               "parameters (one column each, in model.param_names' order)")
    members, stopped = _odesens.solve_ensemble(model._core, method, s, P, _threads(threads))
    if stopped:
        if raise_on_failure:
            raise KeyboardInterrupt
        warnings.warn("odesens: solve_ensemble stopped by KeyboardInterrupt; the members not "
                      "begun are Errors with status interrupted", RuntimeWarning, stacklevel=2)
    out = []
    for k, (status, message, code, data) in enumerate(members):
        if data is None:
            error = Error(status, f"member {k}: {message}", code)
            if raise_on_failure:
                raise error
            out.append(error)
        else:
            out.append(_result(data, model, P[k].copy()))
    return out
