#!/usr/bin/python3
"""The error of x and of S against the tolerances, for several methods on one
model: whether a method's error follows its tolerances, and whether a large
error belongs to the method or to the problem (when every method's states
are as far off as its S at equal tolerances, the problem amplifies local
errors, and only tighter tolerances help).

    /usr/bin/python3 benchmarks/tolerance_sweep.py MODEL [--methods a,b]
                     [--tolerances 1e-5/1e-6,1e-8/1e-10]

Needs the odesens Python module (scripts/install_python.sh). The reference
is cvodes_fsa at rtol 1e-12, atol 1e-14 over the model's span, 101 outputs.
Errors: the largest |value - reference| of each state (x) or parameter
column (S), over the largest |reference| of that state or column, the
worst of them printed.
"""
import argparse
import sys

import numpy as np

import odesens


def column_error(values, reference):
    """max over columns of max|values - reference| / max|reference| (axis 0: time)."""
    diff = np.abs(values - reference).reshape(len(reference), -1).max(axis=0)
    scale = np.abs(reference).reshape(len(reference), -1).max(axis=0)
    scale[scale == 0] = 1.0
    return float((diff / scale).max())


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("model")
    parser.add_argument("--methods", default="cvodes_fsa,pbsr,exp,odesd,dopri8s,grk4as")
    parser.add_argument("--tolerances", default="1e-5/1e-6,1e-6/1e-8,1e-7/1e-9,1e-8/1e-10")
    a = parser.parse_args()
    model = odesens.load(a.model)
    ref = odesens.solve(model, "cvodes_fsa", rtol=1e-12, atol=1e-14)
    x_ref, s_ref = np.asarray(ref.x), np.asarray(ref.S)
    print("| method | rtol | atol | steps | x error | S error | warnings |")
    print("|---|---|---|---|---|---|---|")
    for method in a.methods.split(","):
        for pair in a.tolerances.split(","):
            rtol, atol = (float(v) for v in pair.split("/"))
            try:
                r = odesens.solve(model, method, rtol=rtol, atol=atol)
            except odesens.Error as e:
                print(f"| {method} | {rtol:g} | {atol:g} | | {e} | | |")
                continue
            print(f"| {method} | {rtol:g} | {atol:g} | {r.stats['steps']} | "
                  f"{column_error(np.asarray(r.x), x_ref):.1e} | "
                  f"{column_error(np.asarray(r.S), s_ref):.1e} | {len(r.warnings)} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
