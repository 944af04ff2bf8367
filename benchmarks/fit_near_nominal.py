"""Fits of a PEtab benchmark problem from its nominal point and from points
near it: is the reference's basin one a local optimizer reaches, and how
far from the nominal point does it reach (RESULTS.md, "Weber, Beer and
Lang: fits from the nominal point and near it").

    PYTHONPATH=build/python /usr/bin/python3 benchmarks/fit_near_nominal.py \\
        Weber_BMC2015 --sigma 0.3 --starts 10 --max-seconds 60

Start 0 is the nominal point (clipped to the box: a parameter whose nominal
value is 0 on a log scale sits at its lower bound); the others are drawn
from a normal distribution around it on the parameters' scales (standard
deviation --sigma, seed --seed), clipped to the box. Prints nllh and nlpost
at the nominal point, then one line per start, sorted by final nlpost:
start, nllh, nlpost, iterations, seconds, exit reason.

--gradient-check: instead of fitting, compares the gradient of nlpost at
the nominal point with central differences (step 1e-5 on the scales) at
--rtol (default 1e-11) and prints the largest differences.

Reads the problems from $ODESENS_SHARED_DIR/petab/benchmark (default
../shared next to the repository).
"""

import argparse
import os
import pathlib
import sys
import warnings


def shared_dir():
    here = pathlib.Path(__file__).resolve().parent.parent
    return pathlib.Path(os.environ.get("ODESENS_SHARED_DIR", here.parent / "shared"))


def gradient_check(problem, x):
    import numpy
    g = numpy.asarray(problem.evaluate(x, gradient=True).gradient)
    fd = numpy.zeros_like(g)
    h = 1e-5
    for i in range(len(x)):
        up, down = x.copy(), x.copy()
        up[i] += h
        down[i] -= h
        fd[i] = (problem.objective(up) - problem.objective(down)) / (2 * h)
    print(f"largest |gradient| {numpy.abs(g).max():.6g}, largest |gradient - differences| "
          f"{numpy.abs(g - fd).max():.3g}")
    for i in numpy.argsort(-numpy.abs(g))[:5]:
        print(f"  {problem.parameter_ids[i]}: gradient {g[i]:.6g}, differences {fd[i]:.6g}")


def main():
    import numpy
    import odesens.petab
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("problem", help="a problem id of the benchmark collection")
    parser.add_argument("--sigma", type=float, default=0.3)
    parser.add_argument("--starts", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--optimizer", default="scipy_trf")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--max-seconds", type=float, default=60.0)
    parser.add_argument("--gradient-check", action="store_true")
    parser.add_argument("--rtol", type=float, default=1e-11)
    args = parser.parse_args()
    folder = shared_dir() / "petab" / "benchmark" / args.problem
    rtol = args.rtol if args.gradient_check else None
    problem = odesens.petab.Problem(folder, threads=args.threads, rtol=rtol)
    warnings.simplefilter("ignore")
    lower, upper = numpy.asarray(problem.lower), numpy.asarray(problem.upper)
    nominal = numpy.clip(numpy.asarray(problem.nominal), lower, upper)
    e = problem.evaluate(nominal, gradient=False)
    print(f"nominal point: nllh {e.nllh:.6f}, nlpost {e.nlpost:.6f}", flush=True)
    if args.gradient_check:
        gradient_check(problem, nominal)
        return 0
    rng = numpy.random.default_rng(args.seed)
    points = [nominal] + [
        numpy.clip(nominal + args.sigma * rng.standard_normal(len(nominal)), lower, upper)
        for _ in range(args.starts - 1)]
    fit = problem.fit(start_points=numpy.array(points), threads=args.threads,
                      optimizer=args.optimizer, max_seconds=args.max_seconds)
    for k in range(len(fit)):
        print(f"start {fit.index[k]}: nllh {fit.nllh[k]:.4f}, nlpost {fit.nlpost[k]:.4f}, "
              f"{fit.iterations[k]} iterations, {fit.seconds[k]:.1f} s, {fit.exit_reason[k]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
