#!/usr/bin/python3
"""What a method's state check (option state_check) says against the states'
actual error, and what it costs.

    /usr/bin/python3 benchmarks/state_check_accuracy.py MODEL... [--method dopri8s]
                     [--tolerances 1e-8/1e-10,1e-6/1e-8] [--repeats 5]

For each model and tolerance pair: the ratio the check reports
(stats["state_error_ratio"], the states' largest difference from a solve 10
times tighter in units of rtol |x| + atol); the same measure against a
reference (cvodes_fsa, BDF, at rtol 1e-13, atol 1e-15: the actual error);
against CVODES Adams at tolerances 10 times tighter (what a check by Adams
would say); and the time with the check over the time without it (best of
--repeats). Models the method refuses (stiff ones for dopri8s) are skipped.

Needs the odesens Python module (scripts/install_python.sh).
"""
import argparse
import time
import warnings

import numpy as np

import odesens


def ratio(x, fine, rtol, atol):
    return float(np.max(np.abs(x - fine) / (rtol * np.abs(fine) + atol)))


def best_time(run, repeats):
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def states(model, method, rtol, atol, **options):
    return odesens.solve(model, method, rtol=rtol, atol=atol, sensitivities=0,
                         max_steps=10**7, **options).x


def row(model, method, rtol, atol, repeats):
    checked = odesens.solve(model, method, rtol=rtol, atol=atol, state_check=1)
    said = checked.stats.get("state_error_ratio", float("nan"))
    actual = ratio(checked.x, states(model, "cvodes_fsa", 1e-13, 1e-15), rtol, atol)
    adams = ratio(checked.x, states(model, "cvodes_fsa", rtol / 10, atol / 10, lmm="adams"),
                  rtol, atol)
    off = best_time(lambda: odesens.solve(model, method, rtol=rtol, atol=atol, state_check=0),
                    repeats)
    on = best_time(lambda: odesens.solve(model, method, rtol=rtol, atol=atol, state_check=1),
                   repeats)
    return "{:.3g} | {:.3g} | {:.3g} | {:.2f}".format(said, actual, adams, on / off)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("models", nargs="+")
    parser.add_argument("--method", default="dopri8s")
    parser.add_argument("--tolerances", default="1e-8/1e-10,1e-6/1e-8")
    parser.add_argument("--repeats", type=int, default=5)
    a = parser.parse_args()
    warnings.simplefilter("ignore")
    pairs = [tuple(float(v) for v in t.split("/")) for t in a.tolerances.split(",")]
    header = "| model | " + " | ".join(
        "said {0} | actual {0} | Adams {0} | cost {0}".format(r) for r, _ in pairs) + " |"
    print(header)
    print("|---" * (1 + 4 * len(pairs)) + "|")
    for spec in a.models:
        model = odesens.load(spec)
        name = spec.rsplit("/", 1)[-1].rsplit(".", 1)[0]
        try:
            cells = [row(model, a.method, rtol, atol, a.repeats) for rtol, atol in pairs]
        except odesens.Error as e:
            print("| {} | {} |".format(name, str(e).split(":")[0]), flush=True)
            continue
        print("| {} | {} |".format(name, " | ".join(cells)), flush=True)


if __name__ == "__main__":
    main()
