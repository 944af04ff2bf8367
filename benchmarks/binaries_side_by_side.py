#!/usr/bin/python3
"""One method's solve time with two builds of the odesens tool, side by
side on the same models: the median of the solver's own wall_seconds
(the result's stats, without reading the model) over interleaved runs,
and the ratio new / old. For a change whose cost is to be measured
against the build before it.

    /usr/bin/python3 benchmarks/binaries_side_by_side.py OLD NEW MODEL...
        [--method erk_adjoint] [--repeats 11] [--option k=v ...]

MODEL may be a file or `switched-chain:N`: a chain of N states whose
first rate has a switch of t (sin(t) > 0.5) and one of a state (x1 >
0.3), over [0, 60].
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile


def switched_chain(n):
    lines = ["param k0 = 0.5"] + [f"param k{i} = {0.3 + 0.01 * i:.2f}" for i in range(1, n)]
    lines += ["state x0 = 1"] + [f"state x{i} = 0" for i in range(1, n)]
    lines.append("dx0/dt = -k0*x0 + piecewise(1, sin(t) > 0.5, 0) + piecewise(0.5, x1 > 0.3, 0)")
    lines += [f"dx{i}/dt = k{i - 1}*x{i - 1} - k{i}*x{i}" for i in range(1, n)]
    lines.append("time t_end = 60")
    return "\n".join(lines) + "\n"


def model_path(spec, folder):
    if not spec.startswith("switched-chain:"):
        return spec
    n = int(spec.split(":", 1)[1])
    path = os.path.join(folder, f"switched_chain_{n}.ode")
    with open(path, "w") as f:
        f.write(switched_chain(n))
    return path


def solve_seconds(binary, model, method, options):
    command = [binary, "run", model, "--method", method]
    for o in options:
        command += ["--option", o]
    out = subprocess.run(command, capture_output=True, text=True, timeout=600)
    if out.returncode != 0:
        raise RuntimeError(f"{binary} on {model}: {out.stderr.strip()[:300]}")
    return json.loads(out.stdout)["stats"]["wall_seconds"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("models", nargs="+")
    parser.add_argument("--method", default="erk_adjoint")
    parser.add_argument("--repeats", type=int, default=11)
    parser.add_argument("--option", action="append", default=[])
    args = parser.parse_args()
    print(f"| model | {args.method}: old median s | new median s | new / old |")
    print("|---|---|---|---|")
    with tempfile.TemporaryDirectory() as folder:
        for spec in args.models:
            model = model_path(spec, folder)
            times = {"old": [], "new": []}
            for _ in range(args.repeats):  # interleaved: both see the same load
                for which in ("old", "new"):
                    binary = getattr(args, which)
                    times[which].append(solve_seconds(binary, model, args.method, args.option))
            old, new = statistics.median(times["old"]), statistics.median(times["new"])
            name = os.path.basename(spec)
            print(f"| {name} | {old:.4g} | {new:.4g} | {new / old:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
