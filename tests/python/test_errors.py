"""Bad input raises odesens.Error with the library's status and message;
a method's warnings go through the warnings module."""

import math

import numpy
import pytest

import odesens
from conftest import MODELS


@pytest.fixture(scope="module")
def lv():
    return odesens.load(MODELS["lotka_volterra"])


@pytest.mark.parametrize("kwargs, status, message", [
    (dict(p=[1.0, 2.0]), "invalid_argument", "parameter vector has 2 entries, expected 5"),
    (dict(x0=[1.0, 2.0, 3.0]), "invalid_argument", "3"),
    (dict(p=[1.1, 0.4, math.nan, 0.4, 10]), "not_finite", "parameter[2] is NaN"),
    (dict(x0=[math.inf, 1.0]), "not_finite", ""),
    (dict(t=[2.0, 1.0]), "invalid_argument", "strictly increasing"),
    (dict(t=[[1.0, 2.0]]), "invalid_argument", "t must be 1-D"),
    (dict(p=numpy.array([1.1, 0.4, 0.1 + 1e-3j, 0.4, 10])), "invalid_argument",
     "must be real numbers, not complex"),
    (dict(t=[0.0, 1.0 + 0j]), "invalid_argument", "must be real numbers, not complex"),
    (dict(rtol=-1e-6), "invalid_argument", "rtol"),
    (dict(rtol=2.0), "invalid_argument", "rtol"),
    (dict(rtol="tight"), "invalid_argument", "rtol must be a number"),
    # float() reads such text and takes True as 1: a caller's mistake passed.
    (dict(rtol="1e-6"), "invalid_argument", "rtol must be a number, got '1e-6'"),
    (dict(rtol=True), "invalid_argument", "rtol must be a number, got True"),
    (dict(t0="0"), "invalid_argument", "t0 must be a number"),
    (dict(t=None, t0=1e6), "invalid_argument", "past the model's end time"),
    (dict(t="12"), "invalid_argument", "t must be numbers"),
    (dict(t=["1", "2"]), "invalid_argument", "t must be numbers"),
    (dict(p=numpy.array([True, False, True, False, True])), "invalid_argument",
     "p must be numbers"),
    (dict(t=numpy.ma.masked_array([1.0, 2.0], mask=[False, True])), "invalid_argument",
     "t has masked entries"),
    (dict(atol=-1.0), "invalid_argument", "atol"),
    (dict(atol=[1e-8, 1e-8, 1e-8]), "invalid_argument", "atol"),
    (dict(method="newton"), "unknown_method", "unknown method 'newton'"),
    (dict(order=3), "unknown_option", "has no option 'order'"),
    (dict(method="cvodes_fsa", lmm="euler"), "option_type", "lmm"),
    (dict(method="cvodes_fsa", lmm=[1]), "option_type", "lmm"),
    (dict(goal="everything"), "option_type", "goal"),
    (dict(max_steps=3, t=[50.0]), "too_much_work", ""),
    (dict(max_steps=2**70), "invalid_argument", "max_steps must be a whole number"),
    (dict(max_steps=2.5), "invalid_argument", "max_steps must be a whole number"),
    # Values pybind11 could not cast reached the caller as its RuntimeError.
    (dict(method="cvodes_fsa", sparse_threshold=2**64), "option_type", "beyond the 64-bit"),
    (dict(method="cvodes_fsa", sparse_threshold=-2**63 - 1), "option_type", "beyond the 64-bit"),
    # A whole-number float beyond them reached pybind11's cast as RuntimeError.
    (dict(method="cvodes_fsa", sparse_threshold=1e19), "option_type", "beyond the 64-bit"),
    (dict(method="cvodes_fsa", sparse_threshold=-1e300), "option_type", "beyond the 64-bit"),
    (dict(method="bounds_fsa", box=5), "invalid_argument", "box must be a pair (lower, upper)"),
    (dict(atol=True), "invalid_argument", "atol must be a number"),
    (dict(atol=[]), "invalid_argument", "atol is empty"),
    # weights of the right count in the wrong shape (the transpose) gave a
    # wrong gradient; a row of no column raised pybind11's IndexError.
    (dict(method="cvodes_asa", t=[1.0, 2.0, 3.0], weights=numpy.ones((2, 3))),
     "invalid_argument", "one column per state (2), got 2 x 3"),
    (dict(method="cvodes_asa", t=[1.0], weights=numpy.ones((2, 1))), "invalid_argument",
     "got 2 x 1"),
    (dict(method="cvodes_asa", weights=numpy.ones((1, 0))), "invalid_argument", "got 1 x 0"),
    (dict(method="cvodes_asa", weights=numpy.ones((0, 2))), "invalid_argument", "got 0 x 0"),
    # A box where the method takes none: it solved at p and reported the
    # box's centre as its p.
    (dict(method="cvodes_fsa", box=([1, 0.4, 0.1, 0.4, 9], [1.2, 0.5, 0.2, 0.5, 11])),
     "invalid_argument", "method 'cvodes_fsa' takes no parameter box"),
])
def test_bad_input_raises_the_librarys_status(lv, kwargs, status, message):
    kwargs = dict(dict(t=[1.0]), **kwargs)
    with pytest.raises(odesens.Error) as caught:
        odesens.solve(lv, **kwargs)
    assert caught.value.status == status
    assert message in caught.value.message
    assert caught.value.code < 0 and str(caught.value).startswith(status)


@pytest.mark.parametrize("source, status", [
    ("no/such/model.xml", "unknown_model"),
    ("builtin:nonesuch", "unknown_model"),
    ("glv:0", "unknown_model"),
])
def test_unknown_models_raise_unknown_model(source, status):
    with pytest.raises(odesens.Error) as caught:
        odesens.load(source)
    assert caught.value.status == status


def test_malformed_model_text_raises_parse_error(tmp_path):
    bad = tmp_path / "bad.ode"
    bad.write_text("state x = 1\ndx/dt = (x\n")
    with pytest.raises(odesens.Error) as caught:
        odesens.load(bad)
    assert caught.value.status == "parse_error"


def test_a_method_that_cannot_take_the_model_raises_unsupported():
    with pytest.raises(odesens.Error) as caught:
        odesens.solve("chua", "bounds_fsa", t=[1.0], box=([6.9, 15], [7.1, 15]))
    assert caught.value.status == "unsupported"
    assert "needs the model's expressions" in caught.value.message


def test_a_prepared_solver_checks_its_inputs_and_stays_usable(lv):
    solver = lv.solver("cvodes_fsa", t=[1.0])
    with pytest.raises(odesens.Error) as caught:
        solver.solve(p=[1.0])
    assert caught.value.status == "invalid_argument"
    assert solver.solve().x.shape == (1, 2)


def test_errors_pickle_with_their_status():
    import pickle
    e = pickle.loads(pickle.dumps(odesens.Error("not_finite", "x is NaN", -8)))
    assert (e.status, e.message, e.code) == ("not_finite", "x is NaN", -8)


def test_a_methods_warnings_go_through_the_warnings_module():
    model = odesens.load(MODELS["digester"])
    lower, upper = model.nominal, model.nominal
    lower[0], upper[0] = 0.46, 0.54
    with pytest.warns(odesens.OdesensWarning, match="bounds_fsa: the bounds enclose") as seen:
        r = odesens.solve(model, "bounds_fsa", t=[0.5], box=(lower, upper))
    assert len(seen) == len(r.warnings) == 1


def test_numpy_scalars_are_option_values_and_tolerances(lv):
    # option_type "a number or text is needed, got numpy.int64", and
    # "atol must be 1-D, got 0 dimensions" for a NumPy float.
    atol = numpy.float32(1e-8)
    plain = odesens.solve(lv, "cvodes_fsa", t=[1.0], atol=float(atol), sparse_threshold=5,
                          sens_error_control=1)
    numpy_valued = odesens.solve(lv, "cvodes_fsa", t=[1.0], atol=atol,
                                 sparse_threshold=numpy.int64(5),
                                 sens_error_control=numpy.bool_(True))
    assert numpy.array_equal(numpy_valued.x, plain.x)


def test_paths_are_str_bytes_or_pathlike():
    assert odesens.load(str(MODELS["lotka_volterra"]).encode()).nx == 2
    with pytest.raises(odesens.Error) as caught:
        odesens.load(None)
    assert caught.value.status == "invalid_argument"
    assert "must be a path" in caught.value.message


def test_a_box_replaces_p():
    # p outside the box was ignored, and echoed as Result.p.
    model = odesens.load(MODELS["lotka_volterra"])
    n = model.nominal
    box = (n * 0.99, n * 1.01)
    with pytest.raises(odesens.Error) as caught:
        odesens.solve(model, "bounds_fsa", t=[1.0], box=box, p=n * 5)
    assert "p lies outside the box" in caught.value.message
    r = odesens.solve(model, "bounds_fsa", t=[1.0], box=box)
    assert numpy.allclose(r.p, n)


def test_an_ensemble_refuses_a_box_and_rows_of_another_width(lv):
    # Every member got the box's one enclosure, whatever its row, and rows of
    # no column were solved at the nominal parameters, each reported with p = [].
    n = lv.nominal
    box = (n * 0.99, n * 1.01)
    for method in ("bounds_fsa", "auto"):
        with pytest.raises(odesens.Error) as caught:
            odesens.solve_ensemble(lv, [n, n * 1.005], method, t=[1.0], box=box)
        assert caught.value.status == "unsupported" and "one box" in caught.value.message
    for width in (0, lv.np + 1):
        with pytest.raises(odesens.Error) as caught:
            odesens.solve_ensemble(lv, numpy.ones((2, width)), "cvodes_fsa", t=[1.0])
        assert caught.value.status == "invalid_argument" and "columns" in caught.value.message
