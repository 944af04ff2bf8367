"""The module gives the C++ API's numbers bit for bit: every method on two
.ode models (and the eight that take it on the built-in chua), against the
odesens tool's JSON (shortest round-trip decimals, so exact)."""

import json
import subprocess

import numpy
import pytest

import odesens
from conftest import MODELS

TIMES = [0.25, 0.5, 1.0, 2.0]
POINTWISE = ["cvodes_fsa", "cvodes_asa", "pbsr", "exp", "erk_adjoint", "dopri8s", "grk4as",
             "odesd"]
BOXES = {"lotka_volterra": ("alpha", 1.05, 1.15), "digester": ("X1_0", 0.46, 0.54)}


def tool_result(cli, model, method, extra=()):
    args = [cli, "run", str(model), "--method", method, "--tout", ",".join(map(repr, TIMES)),
            "--format", "json", *extra]
    done = subprocess.run(args, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def assert_identical(result, doc):
    """Exact equality (array_equal, not allclose) of everything both give."""
    assert result.method == doc["method"]
    assert numpy.array_equal(result.t, numpy.array(doc["times"], dtype=float))
    assert numpy.array_equal(result.x, numpy.array(doc["x"], dtype=float))
    if doc.get("S"):
        assert numpy.array_equal(result.s_times, numpy.array(doc["S_times"], dtype=float))
        assert numpy.array_equal(result.S, numpy.array(doc["S"], dtype=float))
    else:
        assert result.S.size == 0
    if "gradient" in doc:
        assert numpy.array_equal(result.gradient, numpy.array(doc["gradient"], dtype=float))


@pytest.mark.parametrize("name", sorted(MODELS))
@pytest.mark.parametrize("method", POINTWISE)
def test_ode_models_equal_the_tool_bit_for_bit(cli, name, method):
    doc = tool_result(cli, MODELS[name], method)
    assert_identical(odesens.solve(str(MODELS[name]), method, t=TIMES), doc)


@pytest.mark.parametrize("name", sorted(MODELS))
@pytest.mark.parametrize("method", ["bounds_fsa", "bounds_asa"])
def test_set_valued_methods_equal_the_tool_bit_for_bit(cli, name, method):
    param, lo, hi = BOXES[name]
    doc = tool_result(cli, MODELS[name], method, ["--box", f"{param}={lo!r}:{hi!r}"])
    model = odesens.load(MODELS[name])
    lower, upper = model.nominal, model.nominal
    j = model.param_names.index(param)
    lower[j], upper[j] = lo, hi
    with pytest.warns(odesens.OdesensWarning, match="not enclosed"):
        result = odesens.solve(model, method, t=TIMES, box=(lower, upper))
    assert_identical(result, doc)
    assert result.bounds["box_lower"][j] == lo and result.bounds["x_hull"].size > 0


@pytest.mark.parametrize("method", POINTWISE)
def test_builtin_model_equals_the_tool_bit_for_bit(cli, method):
    doc = tool_result(cli, "builtin:chua", method)
    assert_identical(odesens.solve("chua", method, t=TIMES), doc)


def test_options_and_tolerances_reach_the_method_as_the_tools_do(cli):
    doc = tool_result(cli, MODELS["lotka_volterra"], "cvodes_fsa",
                      ["--rtol", "1e-6", "--atol", "1e-9", "--option", "lmm=adams",
                       "--param", "beta=0.45"])
    model = odesens.load(MODELS["lotka_volterra"])
    p = model.nominal
    p[model.param_names.index("beta")] = 0.45
    assert_identical(odesens.solve(model, "cvodes_fsa", t=TIMES, p=p, rtol=1e-6, atol=1e-9,
                                   lmm="adams"), doc)
