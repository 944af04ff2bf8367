#!/usr/bin/env python3
"""Runs the PETSc peer benchmark next to odesens's erk_adjoint on glv:N.

For each size N and tolerance R: build/bin/petsc_glv_adjoint N R --repeats K
--out FILE (PETSc TSRK Dormand-Prince 5(4) + TSAdjoint, median of K solves in
one process) and K times build/bin/odesens run builtin:glv:N --method
erk_adjoint --rtol R --atol R*1e-2 --tout 10 --format json (median of the K
stats.wall_seconds, one solve per process), both with atol = R * 1e-2 as
benchmarks/bench_erk_adjoint.cpp. Prints a Markdown table: both wall times,
their ratio, max|S_petsc - S_ours| / max|S_ours| at T = 10 and the steps of
each. PETSc's first solve in a process also initialises its packages (about
2 ms here); the median leaves that out, ours has no such cost to speak of.

Both discretise with Dormand-Prince 5(4) but choose their steps differently
(PETSc: TSADAPTBASIC; odesens: a PI controller), so S(T) differs by the
discretisation errors, about the tolerance, not by rounding. --reference adds
the error of each against erk_adjoint with dop853 at rtol 1e-12, atol 1e-14.

BLAS runs single-threaded in both (OPENBLAS_NUM_THREADS=1, OMP_NUM_THREADS=1)
unless --keep-threads. Python 3 standard library only.

Usage: benchmarks/peers/compare_petsc.py [--sizes 10,55,100,200]
           [--tols 1e-4,1e-6,1e-8] [--repeats 5] [--build DIR] [--reference]
           [--keep-threads]
"""
import argparse
import array
import json
import os
import subprocess
import sys
import tempfile

T_END = 10.0


def parse_list(text, kind):
    return [kind(item) for item in text.split(",") if item]


def run(command, env):
    done = subprocess.run(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True)
    if done.returncode != 0:
        sys.exit("failed (%d): %s\n%s" % (done.returncode, " ".join(command), done.stderr))
    return done.stdout


def run_petsc(exe, n, rtol, repeats, s_file, env):
    out = run([exe, str(n), repr(rtol), "--repeats", str(repeats), "--out", s_file], env)
    stats = json.loads(out.strip().splitlines()[-1])
    s = array.array("d")
    with open(s_file, "rb") as f:
        s.frombytes(f.read())
    if len(s) != n * (n + n * n):
        sys.exit("%s holds %d values, expected %d" % (s_file, len(s), n * (n + n * n)))
    return stats, s


def run_ours(exe, n, rtol, atol, json_file, env, options=()):
    command = [exe, "run", "builtin:glv:%d" % n, "--method", "erk_adjoint", "--rtol", repr(rtol),
               "--atol", repr(atol), "--tout", repr(T_END), "--format", "json", "--out",
               json_file]
    for option in options:
        command += ["--option", option]
    run(command, env)
    with open(json_file) as f:
        return json.load(f)


def s_column_major(result):
    """S(T) of an odesens JSON result as one column-major array, S[i + j*nx]."""
    rows = result["S"][-1]  # rows[i][j] = dx_i/dp_j at the last S time
    nx, n_par = result["nx"], result["np"]
    s = array.array("d", bytes(8 * nx * n_par))
    for i, row in enumerate(rows):
        s[i::nx] = array.array("d", row)
    return s


def relative_difference(a, b):
    """max|a - b| / max|b|"""
    scale = max(map(abs, b))
    diff = max(abs(x - y) for x, y in zip(a, b))
    return diff / scale if scale > 0 else diff


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10,55,100,200")
    parser.add_argument("--tols", default="1e-4,1e-6,1e-8")
    parser.add_argument("--repeats", type=int, default=5)
    here = os.path.dirname(os.path.abspath(__file__))
    parser.add_argument("--build", default=os.path.join(here, "..", "..", "build"),
                        help="build directory with bin/odesens and bin/petsc_glv_adjoint")
    parser.add_argument("--reference", action="store_true",
                        help="also the error of each against erk_adjoint dop853 at rtol 1e-12")
    parser.add_argument("--keep-threads", action="store_true",
                        help="leave OPENBLAS_NUM_THREADS and OMP_NUM_THREADS as they are")
    args = parser.parse_args()

    petsc_exe = os.path.join(args.build, "bin", "petsc_glv_adjoint")
    ours_exe = os.path.join(args.build, "bin", "odesens")
    for exe in (petsc_exe, ours_exe):
        if not os.access(exe, os.X_OK):
            sys.exit("%s not found: build the targets petsc_glv_adjoint and odesens_cli" % exe)
    env = dict(os.environ)
    if not args.keep_threads:
        env["OPENBLAS_NUM_THREADS"] = "1"
        env["OMP_NUM_THREADS"] = "1"

    header = ("| N | tol | PETSc [s] | ours [s] | PETSc/ours | max\\|S_petsc - S_ours\\|/max\\|S_ours\\| "
              "| steps PETSc (rejected) | steps ours |")
    rule = "|---|---|---|---|---|---|---|---|"
    if args.reference:
        header += " err PETSc | err ours |"
        rule += "---|---|"
    print(header)
    print(rule)
    sys.stdout.flush()

    with tempfile.TemporaryDirectory(prefix="compare_petsc_") as tmp:
        s_file = os.path.join(tmp, "s_petsc.bin")
        json_file = os.path.join(tmp, "ours.json")
        for n in parse_list(args.sizes, int):
            reference = None
            if args.reference:
                print("N = %d: reference (erk_adjoint dop853, rtol 1e-12)" % n, file=sys.stderr)
                reference = s_column_major(run_ours(ours_exe, n, 1e-12, 1e-14, json_file, env,
                                                    ["tableau=dop853"]))
            for rtol in parse_list(args.tols, float):
                atol = rtol * 1e-2
                print("N = %d, rtol %g: PETSc" % (n, rtol), file=sys.stderr)
                petsc, s_petsc = run_petsc(petsc_exe, n, rtol, args.repeats, s_file, env)
                print("N = %d, rtol %g: ours" % (n, rtol), file=sys.stderr)
                ours_times = []
                for k in range(args.repeats):
                    result = run_ours(ours_exe, n, rtol, atol, json_file, env)
                    ours_times.append(result["stats"]["wall_seconds"])
                    if k == 0:
                        ours_steps = result["stats"]["steps"]
                        s_ours = s_column_major(result)
                    del result
                ours_times.sort()
                ours_time = ours_times[len(ours_times) // 2]  # as the C program's median
                row = "| %d | %g | %.4g | %.4g | %.2f | %.2e | %d (%d) | %d |" % (
                    n, rtol, petsc["wall_seconds"], ours_time, petsc["wall_seconds"] / ours_time,
                    relative_difference(s_petsc, s_ours), petsc["steps"], petsc["rejected"],
                    ours_steps)
                if reference is not None:
                    row += " %.2e | %.2e |" % (relative_difference(s_petsc, reference),
                                               relative_difference(s_ours, reference))
                print(row)
                sys.stdout.flush()
                del s_petsc, s_ours
    print("\n(times: median of %d runs each; atol = tol * 1e-2; S at T = %g)" %
          (args.repeats, T_END))
    return 0


if __name__ == "__main__":
    sys.exit(main())
