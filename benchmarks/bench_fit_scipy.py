"""Multi-start fits with SciPy's trust-region reflective method beside the
library's optimizers, from the same starts (docs/fit.md, "Which optimizer,
by measurement").

    PYTHONPATH=build/python /usr/bin/python3 benchmarks/bench_fit_scipy.py \\
        --starts 20 --seed 1 --threads 2 --max-seconds 30 \\
        --problems Boehm_JProteomeRes2014,Bruno_JExpBot2016

For each problem and optimizer: `Problem.fit` with the same seed (the same
Latin-hypercube starts), and a Markdown row with the columns of
RESULTS.md's multi-start table. `converged`: starts within 0.1 of the best
nlpost any optimizer of the run found on the problem; `converged / CPU
min`: per minute of this process's CPU time (user + system, every thread)
during that fit; `reference`: nlpost at the problem's nominal parameters
(the published nllh there plus the priors' terms; nllh where the problem
has no priors). The values compared are of nlpost, what the optimizers
minimize.
An optimizer written ID+hops runs the fit with --hops rounds of
--hop-starts starts (docs/fit.md, "Hops"; default 4 x 8, sigma 0.5) from
--starts minus those many Latin-hypercube starts: as many starts in all as
ID alone runs (as bench_fit's ID+hops). ID+hops+local draws every
parameter of a hop around the round's center, also those without effect
there (hop_flat="local"), and ID+hops+noblocks draws no block alone
(hop_blocks=False; both: ID+hops+local+noblocks), as bench_fit's.
Reads the problems from $ODESENS_SHARED_DIR/petab/benchmark (default
../shared next to the repository).
"""

import argparse
import math
import os
import pathlib
import statistics
import sys
import time
import warnings


def shared_dir():
    here = pathlib.Path(__file__).resolve().parent.parent
    return pathlib.Path(os.environ.get("ODESENS_SHARED_DIR", here.parent / "shared"))


def run(problem_id, optimizers, args):
    import odesens.petab
    folder = shared_dir() / "petab" / "benchmark" / problem_id
    problem = odesens.petab.Problem(folder)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        reference = problem.evaluate(gradient=False).nlpost
        fits = {}
        for optimizer in optimizers:
            cpu = time.process_time()
            base, _, shape = optimizer.partition("+hops")
            shape = shape.split("+")[1:]
            hops = "+hops" in optimizer
            if not set(shape) <= {"local", "noblocks"} or ("+local" in base or "+noblocks" in base):
                sys.exit("bench_fit_scipy: +local and +noblocks shape the hops: write "
                         "ID+hops+local, ID+hops+noblocks or ID+hops+local+noblocks")
            hopped = args.hops * args.hop_starts if hops else 0
            if hopped >= args.starts:
                sys.exit("bench_fit_scipy: --starts must exceed --hops x --hop-starts for +hops")
            hopping = dict(hops=args.hops, hop_starts=args.hop_starts,
                           hop_sigma=args.hop_sigma,
                           hop_flat="local" if "local" in shape else "box",
                           hop_blocks="noblocks" not in shape) if hops else {}
            fit = problem.fit(starts=args.starts - hopped, seed=args.seed,
                              threads=args.threads, optimizer=base,
                              max_seconds=args.max_seconds, **hopping)
            fits[optimizer] = (fit, time.process_time() - cpu)
    best = min((f.nlpost[0] for f, _ in fits.values() if len(f) and math.isfinite(f.nlpost[0])),
               default=math.nan)
    rows = []
    for optimizer, (fit, cpu) in fits.items():
        if len(fit) == 0:  # stopped before any start ended
            rows.append(f"| {problem_id} | {optimizer} | 0 | | | | | | {reference:.3f} | | | |")
            continue
        ok = [math.isfinite(v) for v in fit.nlpost]
        converged = sum(1 for v in fit.nlpost if v <= best + 0.1)
        best_nlpost = fit.nlpost[0] if ok and ok[0] else math.nan
        # The tests' tolerance (tests/fit/test_fit_benchmark.cpp).
        reached = "yes" if best_nlpost <= reference + 1e-3 * (1 + abs(reference)) else "no"
        rows.append(f"| {problem_id} | {optimizer} | {len(fit)} | {len(fit) - sum(ok)} | "
                    f"{converged} | {converged / len(fit):.2f} | "
                    f"{converged / (cpu / 60) if cpu > 0 else 0:.2f} | {best_nlpost:.3f} | "
                    f"{reference:.3f} | {reached} | "
                    f"{statistics.median(fit.seconds):.1f} | {cpu:.1f} |")
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--problems", required=True, help="comma-separated problem ids")
    parser.add_argument("--optimizers", default="scipy_trf,ceres_lm_lbfgs")
    parser.add_argument("--starts", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--max-seconds", type=float, default=30.0)
    parser.add_argument("--hops", type=int, default=4)
    parser.add_argument("--hop-starts", type=int, default=8)
    parser.add_argument("--hop-sigma", type=float, default=0.5)
    args = parser.parse_args()
    print("| problem | optimizer | starts | failed | converged | fraction | converged / CPU min "
          "| best nlpost | reference | reached | median s / start | CPU s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for problem_id in args.problems.split(","):
        for row in run(problem_id, args.optimizers.split(","), args):
            print(row, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
