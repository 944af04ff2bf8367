"""Models: odesens.load() and the Model class."""

import os

from . import _odesens
from ._errors import invalid_argument


def _path(value, what):
    """A path (str, bytes or os.PathLike) as str, or Error(invalid_argument)."""
    try:
        return os.fsdecode(os.fspath(value))
    except TypeError:
        raise invalid_argument(f"{what} must be a path (str or os.PathLike), got "
                               f"{value!r}") from None


def _resolve_source(source):
    """The spec the library loads: an existing file by its absolute path (so
    that a pickled model re-loads from another working directory), a
    built-in named with or without its ``builtin:`` prefix, or the text as
    given (the library then names what it could not find)."""
    source = _path(source, "the model's source")
    if "\0" in source:  # the library would read it up to the NUL
        raise invalid_argument(f"the model's source has a NUL character: {source!r}")
    if source.startswith("builtin:"):
        return source
    if os.path.exists(source):
        return os.path.abspath(source)
    builtins = {name.split(":")[0] for name in _odesens.builtin_model_names()}
    if source.split(":")[0] in builtins:
        return "builtin:" + source
    return source


class Model:
    """An ODE system dx/dt = f(t, x, p), x(t0) = x0(p), loaded from a file
    or a built-in.

    Parameters
    ----------
    source : str or path
        An SBML file (``.xml``), an ``.ode`` file, or a built-in model:
        ``"builtin:chua"``, ``"chua"``, ``"glv:3"``, ``"linear:4"``...
    sens_params : list of str (or one str), optional
        SBML only: the ids of the parameters to differentiate by (default:
        the model's default set).

    Attributes
    ----------
    name, nx, np : the model's name, number of states and of parameters.
    state_names, param_names : tuples of str.
    nominal : ndarray, the nominal parameter values (a copy).
    t0, t_end : the time span the model is meant for.

    A Model is immutable, may be shared by threads, and pickles as its
    source: unpickling loads it again.
    """

    def __init__(self, source, sens_params=None):
        self.source = _resolve_source(source)
        if isinstance(sens_params, str):  # one id, not its letters
            sens_params = [sens_params]
        self.sens_params = None if sens_params is None else [str(s) for s in sens_params]
        self._core = _odesens.load_model(self.source, self.sens_params)

    name = property(lambda self: self._core.name)
    nx = property(lambda self: self._core.nx)
    np = property(lambda self: self._core.np)
    state_names = property(lambda self: tuple(self._core.state_names))
    param_names = property(lambda self: tuple(self._core.param_names))
    nominal = property(lambda self: self._core.nominal)
    t0 = property(lambda self: self._core.t0)
    t_end = property(lambda self: self._core.t_end)

    def info(self):
        """A dict of facts: name, sizes, names, nominal values, time span,
        whether the Jacobians are exact, second derivatives, the non-zeros
        of J_x, events, and the source's own facts (SBML level, counts...),
        what ``odesens info`` prints."""
        facts = self._core.facts()
        facts["states"] = list(self.state_names)
        facts["parameters"] = dict(zip(self.param_names, self.nominal.tolist()))
        facts["source_spec"] = self.source
        return facts

    def solver(self, method="auto", t=None, **kwargs):
        """A :class:`odesens.Solver`: the method prepared on this model once,
        for many solves with other parameters. Takes the arguments of
        :func:`odesens.solve`."""
        from .solve import Solver
        return Solver(self, method, t=t, **kwargs)

    def solve(self, method="auto", t=None, **kwargs):
        """:func:`odesens.solve` on this model."""
        from .solve import solve
        return solve(self, method, t=t, **kwargs)

    def __reduce__(self):
        return (Model, (self.source, self.sens_params))

    def __repr__(self):
        return f"<odesens.Model {self.name!r}: {self.nx} states, {self.np} parameters>"


def load(source, sens_params=None):
    """Loads a model: an SBML or ``.ode`` file, or a built-in (``"chua"``,
    ``"glv:3"``, ``"builtin:vanderpol"``). See :class:`Model`.

    Raises :class:`odesens.Error` with status ``unknown_model``,
    ``parse_error``, ``unsupported`` or ``io_error``."""
    return Model(source, sens_params)
