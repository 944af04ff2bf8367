"""Shapes, names and the conventions of the API."""

import numpy
import pytest

import odesens
from conftest import MODELS


@pytest.fixture(scope="module")
def lv():
    return odesens.load(MODELS["lotka_volterra"])


def test_a_model_knows_its_names_sizes_and_nominal_values(lv):
    assert lv.state_names == ("prey", "predator")
    assert lv.param_names == ("alpha", "beta", "delta", "gamma", "prey_0")
    assert (lv.nx, lv.np) == (2, 5)
    assert numpy.array_equal(lv.nominal, [1.1, 0.4, 0.1, 0.4, 10])
    info = lv.info()
    assert info["exact_jacobians"] and info["parameters"]["prey_0"] == 10


def test_builtins_load_with_or_without_their_prefix():
    assert odesens.load("glv:3").nx == odesens.load("builtin:glv:3").nx == 3


def test_a_result_has_the_documented_shapes(lv):
    t = numpy.linspace(0, 5, 7)
    r = odesens.solve(lv, t=t)
    assert r.method in {m["id"] for m in odesens.methods()} and r.method_choice
    assert r.x.shape == (7, 2) and r.S.shape == (7, 2, 5) and r.t.shape == (7,)
    assert numpy.array_equal(r.s_times, t) and numpy.array_equal(r.p, lv.nominal)
    assert r.x[0, 0] == 10 and r.S[0, 0, 4] == 1  # x0 = prey_0, dx0/dprey_0 = 1
    assert set(r.stats) >= {"steps", "rhs_evals", "wall_seconds"}
    assert isinstance(r.stats["steps"], int) and r.warnings == []


TABLE = ("times", "x", "S_times", "S", "gradient", "gradient_x0", "objectives", "SR",
         "x_coef", "x_rem", "x_hull", "x_shape", "s_coef", "s_rem", "s_hull", "gradient_coef",
         "gradient_rem", "gradient_hull", "box_mid", "box_rad", "box_lower", "box_upper")


def test_every_array_of_the_table_is_there_shaped_as_the_documents_nest_it(lv):
    t = numpy.linspace(0, 5, 7)
    r = odesens.solve(lv, "dopri8s", t=t, directions="all")
    assert tuple(r.arrays) == TABLE
    assert r.arrays["x"] is r.x and r.arrays["S"] is r.S and r.arrays["SR"] is r.sr
    assert r.arrays["SR"].shape == (7, 2, 7)  # directions x0 (2) then p (5)
    assert numpy.array_equal(r.arrays["SR"][:, :, 2:], r.S)
    assert r.arrays["gradient"].shape == (5,) and r.arrays["objectives"].shape == (1,)
    assert r.arrays["x_hull"].size == 0 and r.bounds is None
    r2 = odesens.solve(lv, "cvodes_asa", t=t, final_sensitivity=0)
    assert r2.arrays["S"].shape == (0, 2, 5) and r2.arrays["gradient"] is not None
    assert numpy.array_equal(r2.arrays["gradient"], r2.gradient)


def test_default_times_span_the_model_101_times(lv):
    r = odesens.solve(lv)
    assert len(r.t) == 101 and r.t[0] == lv.t0 and r.t[-1] == lv.t_end


def test_adjoint_gradient_is_dG_dp_of_the_weights(lv):
    t = [1.0, 2.0]
    w = numpy.array([[0.0, 0.0], [1.0, 2.0]])  # G = prey(2) + 2 predator(2)
    g = odesens.solve(lv, "cvodes_asa", t=t, weights=w, rtol=1e-10, atol=1e-12).gradient
    S = odesens.solve(lv, "cvodes_fsa", t=t, rtol=1e-10, atol=1e-12).S[-1]
    assert g.shape == (5,)
    assert numpy.allclose(g, w[-1] @ S, rtol=1e-6)


def test_a_solver_gives_what_solve_gives(lv):
    t = [0.5, 1.0, 3.0]
    solver = lv.solver("odesd", t=t, rtol=1e-7)
    for scale in (1.0, 1.1):
        p = lv.nominal * scale
        a, b = solver.solve(p), odesens.solve(lv, "odesd", t=t, p=p, rtol=1e-7)
        assert numpy.array_equal(a.S, b.S) and numpy.array_equal(a.x, b.x)
        assert numpy.array_equal(a.p, p)


def test_a_solver_takes_other_times_and_initial_states(lv):
    solver = lv.solver("cvodes_fsa", t=[1.0, 2.0])
    r = solver.solve(x0=[5.0, 5.0], t=[0.5, 1.5, 2.5])
    assert r.x.shape == (3, 2)
    assert numpy.array_equal(
        r.x, odesens.solve(lv, "cvodes_fsa", t=[0.5, 1.5, 2.5], x0=[5.0, 5.0]).x)


def test_an_ensemble_gives_what_separate_solves_give(lv):
    P = lv.nominal * numpy.array([[1.0], [1.05], [0.95]])
    members = odesens.solve_ensemble(lv, P, "exp", threads=2, t=[1.0, 2.0])
    for p, r in zip(P, members):
        assert numpy.array_equal(r.S, odesens.solve(lv, "exp", t=[1.0, 2.0], p=p).S)


def test_a_failed_member_is_returned_or_raised(lv):
    P = numpy.array([lv.nominal, lv.nominal * numpy.nan])
    members = odesens.solve_ensemble(lv, P, threads=1, t=[1.0], raise_on_failure=False)
    assert isinstance(members[0], odesens.Result)
    assert isinstance(members[1], odesens.Error) and members[1].status == "not_finite"
    with pytest.raises(odesens.Error, match="member 1"):
        odesens.solve_ensemble(lv, P, threads=1, t=[1.0])


def test_a_bad_thread_count_raises_invalid_argument(lv):
    # It raised the binding's TypeError with its signature.
    with pytest.raises(odesens.Error) as caught:
        odesens.solve_ensemble(lv, [lv.nominal], threads=-1, t=[1.0])
    assert caught.value.status == "invalid_argument" and "threads" in caught.value.message


def test_methods_and_options_come_from_the_registry():
    ids = [m["id"] for m in odesens.methods()]
    assert ids[0] == "cvodes_fsa" and "odesd" in ids and len(ids) == 10
    lmm = {o["key"]: o for o in odesens.options("cvodes_fsa")}["lmm"]
    assert lmm["default"] == "bdf" and lmm["choices"] == ["bdf", "adams"]
    auto = [o["key"] for o in odesens.options("auto")]
    assert auto == ["goal", "probe_steps", "fallback", "state_check"] and "auto" not in ids


def test_an_integral_float_reaches_an_integer_option(lv):
    specs = {o["key"]: o for o in odesens.options("erk_adjoint")}
    key = next(k for k, o in specs.items() if o["type"] == "integer")
    value = specs[key]["default"]
    a = odesens.solve(lv, "erk_adjoint", t=[1.0], **{key: float(value)})
    b = odesens.solve(lv, "erk_adjoint", t=[1.0])
    assert numpy.array_equal(a.gradient, b.gradient)


def test_help_shows_the_docstrings():
    for thing in (odesens, odesens.solve, odesens.Model, odesens.Solver, odesens.Result,
                  odesens.petab.Problem, odesens.Error, odesens.solve_ensemble):
        assert thing.__doc__ and len(thing.__doc__) > 80, thing


def test_an_empty_p_or_x0_is_a_wrong_size_not_the_nominal_values(lv):
    # The extension reads an empty vector as "not given"; from Python, []
    # is a caller's mistake like any other wrong size.
    for kwargs in ({"p": []}, {"x0": []}, {"p": numpy.empty(0)}):
        with pytest.raises(odesens.Error, match="0 entries, expected"):
            odesens.solve(lv, "cvodes_fsa", t=[0, 1], **kwargs)
        with pytest.raises(odesens.Error, match="0 entries, expected"):
            odesens.Solver(lv, "cvodes_fsa", t=[0, 1]).solve(**kwargs)
    r = odesens.solve(lv, "cvodes_fsa", t=[0, 1], p=None)
    assert list(r.p) == list(lv.nominal)
