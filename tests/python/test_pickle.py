"""Models, solvers and PEtab problems pickle as their sources: a fresh
interpreter (another working directory) un-pickles them and gets the same
numbers bit for bit; so do process pools."""

import concurrent.futures
import pickle

import numpy

import odesens
import odesens.petab
from conftest import MODELS, run_python, shared_file

UNPICKLE_AND_SOLVE = """
import pickle, sys
thing = pickle.loads(bytes.fromhex(sys.argv[1] if len(sys.argv) > 1 else {hex!r}))
result = {call}
print(pickle.dumps(result).hex())
"""


def in_subprocess(thing, call, tmp_path):
    code = UNPICKLE_AND_SOLVE.format(hex=pickle.dumps(thing).hex(), call=call)
    return pickle.loads(bytes.fromhex(run_python(code, cwd=tmp_path).strip()))


def test_a_model_round_trips(tmp_path):
    model = odesens.load(MODELS["lotka_volterra"])
    here = odesens.solve(model, "odesd", t=[1.0, 2.0]).S
    there = in_subprocess(model, "__import__('odesens').solve(thing, 'odesd', t=[1.0, 2.0]).S",
                          tmp_path)
    assert numpy.array_equal(here, there)


def test_a_solver_round_trips_with_its_settings(tmp_path):
    solver = odesens.load("glv:4").solver("dopri8s", t=[0.5, 1.0], rtol=1e-7)
    p = solver.model.nominal * 1.01
    here = solver.solve(p).S
    there = in_subprocess(solver, f"thing.solve({p.tolist()!r}).S", tmp_path)
    assert numpy.array_equal(here, there)


def test_an_sbml_model_keeps_its_sensitivity_parameters(tmp_path):
    xml = shared_file("models", "sbml", "Boehm_JProteomeRes2014.xml")
    model = odesens.load(xml, sens_params=["k_phos", "k_exp_hetero"])
    copy = pickle.loads(pickle.dumps(model))
    assert copy.param_names == model.param_names == ("k_phos", "k_exp_hetero")
    there = in_subprocess(model, "thing.solve(t=[10.0, 100.0]).S", tmp_path)
    assert numpy.array_equal(model.solve(t=[10.0, 100.0]).S, there)


def test_a_petab_problem_round_trips(tmp_path):
    yaml = shared_file("petab", "benchmark", "Boehm_JProteomeRes2014",
                       "Boehm_JProteomeRes2014.yaml")
    problem = odesens.petab.Problem(yaml, rtol=1e-9)
    x = problem.nominal + 0.01
    nllh, grad = problem.objective_and_gradient(x)
    there = in_subprocess(problem, f"thing.objective_and_gradient({x.tolist()!r})", tmp_path)
    assert nllh == there[0] and numpy.array_equal(grad, there[1])


def test_a_process_pool_solves_with_a_pickled_solver():
    solver = odesens.load("chua").solver("cvodes_fsa", t=[1.0, 5.0])
    P = [solver.model.nominal * s for s in (1.0, 1.01)]
    with concurrent.futures.ProcessPoolExecutor(2) as pool:
        results = list(pool.map(solver.solve, P))
    for p, r in zip(P, results):
        assert numpy.array_equal(r.S, solver.solve(p).S)
