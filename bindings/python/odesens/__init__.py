"""odesens: parameter sensitivities of ODE systems, from Python.

    import odesens
    model = odesens.load("model.xml")                 # SBML, .ode, or "chua", "glv:3"
    r = odesens.solve(model, "cvodes_fsa", t=[1, 5, 10])
    r.S[-1]                                           # dx/dp at t = 10 (n_x x n_p)

Functions: :func:`load`, :func:`solve`, :func:`solve_ensemble`,
:func:`methods`, :func:`options`; classes :class:`Model`, :class:`Solver`,
:class:`Result`; :class:`Error` (with ``.status``) and
:class:`OdesensWarning`. Submodules: :mod:`odesens.petab` (PEtab problems
as SciPy objectives) and :mod:`odesens.plot` (matplotlib figures).
Command line: ``python3 -m odesens compare MODEL --methods a,b --plot F.png``.
"""

from ._errors import Error, OdesensWarning
from . import _odesens
from .model import Model, load
from .result import Result
from .solve import DEFAULT_METHOD, Solver, methods, options, solve, solve_ensemble
from . import petab

__version__ = _odesens.__version__

__all__ = ["Error", "OdesensWarning", "Model", "Result", "Solver", "DEFAULT_METHOD",
           "load", "solve", "solve_ensemble", "methods", "options", "petab", "plot"]


def __getattr__(name):
    # odesens.plot imports matplotlib: only when it is asked for.
    if name == "plot":
        import importlib
        return importlib.import_module(".plot", __name__)
    raise AttributeError(f"module 'odesens' has no attribute {name!r}")
