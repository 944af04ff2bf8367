#!/usr/bin/env python3
"""Runs the benchmark programs once and writes benchmarks/RESULTS.md.

Every ratio in the file comes from one run of one program, so the machine's
load affects both sides of a ratio alike.

    python3 benchmarks/make_results.py [build-dir] [--reuse-large] [--erk-only]
                                       [--compare OTHER_BUILD_DIR]

--erk-only regenerates only the discrete ERK adjoint section and keeps the
rest of the current file.

With --compare, a last section times the same benchmarks with the programs
of another build (an earlier commit) and this one, alternating, and gives
new/old per benchmark: how a change that should not alter speed is checked.
"""
import json
import math
import os
import re
import platform
import subprocess
import sys
from datetime import date

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
args = sys.argv[1:]
other_build = None
# --reuse-large keeps the "Large models" section of the current RESULTS.md
# (bench_large takes about half an hour) and regenerates everything else.
reuse_large = "--reuse-large" in args
if reuse_large:
    args.remove("--reuse-large")
# --only erk|internal_diff|odesd|ensemble|bounds|events|concurrency|large|sessions|petab|fit|methods|choice|pbs|many|compare
# regenerates
# one section and keeps the rest of the current file (--erk-only is --only erk; --only
# compare needs --compare OLD_BUILD).
only = None
if "--erk-only" in args:
    args.remove("--erk-only")
    only = "erk"
if "--only" in args:
    i = args.index("--only")
    only = args[i + 1]
    del args[i:i + 2]
if "--compare" in args:
    i = args.index("--compare")
    other_build = args[i + 1]
    del args[i:i + 2]
build = args[0] if args else os.path.join(root, "build")


def run(program, *args):
    out = subprocess.run([os.path.join(build, "bin", program), "--benchmark_format=json", *args],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def baselines_section():
    data = run("bench_baselines")
    rows = {}
    for b in data["benchmarks"]:
        method, model = b["name"].split("/")[:2]
        rows.setdefault(model, {})[method] = b
    lines = [
        "## CVODES baselines (`bench_baselines`)",
        "",
        "Command: `build/bin/bench_baselines` (via `python3 benchmarks/make_results.py`).",
        "rtol 1e-6, atol 1e-8, output at the model's final time (glv: t = 10, heat2d: t = 0.01).",
        "`cvodes_fsa`: all of S(T); `cvodes_asa`: S(T) by one backward problem per state plus the",
        "gradient of sum_i x_i(T); `asa (gradient)`: the gradient alone (`final_sensitivity=0`).",
        "",
        "| model | nx | np | fsa [ms] | asa [ms] | asa (gradient) [ms] | asa / fsa | gradient / fsa | fsa steps | asa steps |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for model, m in rows.items():
        f, a, g = m["cvodes_fsa"], m["cvodes_asa"], m["cvodes_asa_gradient"]
        lines.append("| {} | {:.0f} | {:.0f} | {:.1f} | {:.1f} | {:.1f} | {:.2f} | {:.3f} | {:.0f} | {:.0f} |".format(
            model, f["nx"], f["np"], f["real_time"], a["real_time"], g["real_time"],
            a["real_time"] / f["real_time"], g["real_time"] / f["real_time"], f["steps"], a["steps"]))
    return lines


def fit_power(ns, ts):
    """Least-squares fit of t = a * n^b on log-log axes; returns (a, b)."""
    xs = [math.log(n) for n in ns]
    ys = [math.log(t) for t in ts]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
    return math.exp(my - b * mx), b


def pbs_section():
    data = run("bench_pbs")
    table1, table1_601, figure4 = {}, {}, {}
    for b in data["benchmarks"]:
        parts = b["name"].split("/")
        if parts[0] == "table1":
            table1.setdefault(parts[1], {})[parts[2]] = b
        elif parts[0] == "table1_601":
            table1_601.setdefault(parts[1], {})[parts[2]] = b
        elif parts[0] == "figure4":
            figure4.setdefault(int(parts[1]), {})[parts[2]] = b
    lines = [
        "## PBS paper: PBSR and Exp against forward sensitivities (`bench_pbs`)",
        "",
        "Command: `build/bin/bench_pbs` and `build/bin/bench_pbs --accuracy` (via",
        "`python3 benchmarks/make_results.py`). All three methods at the paper's state tolerances",
        "(rtol 1e-5, atol 1e-6); cvodes_fsa includes the sensitivities in its error test.",
        "Steps: cvodes_fsa's and the state solve's of pbsr and exp.",
        "",
        "### Table 1: PKA and CaMKII over [0, 600], 61 output times",
        "",
    ]
    if table1:
        lines += ["| model | nx | np | cvodes_fsa [ms] | pbsr [ms] | exp [ms] | fsa / pbsr | fsa / exp | paper fsa / pbsr | paper fsa / exp | steps fsa / pbs |",
                  "|---|---|---|---|---|---|---|---|---|---|---|"]
        paper = {"pka": (0.056 / 0.047, 0.056 / 0.008), "camkii": (1.518 / 0.110, 1.518 / 0.030)}
        for model, m in table1.items():
            f, p, e = (m[k]["real_time"] for k in ("cvodes_fsa", "pbsr", "exp"))
            lines.append("| {} | {:.0f} | {:.0f} | {:.2f} | {:.2f} | {:.2f} | {:.1f} | {:.1f} | {:.1f} | {:.1f} | {:.0f} / {:.0f} |".format(
                model, m["pbsr"]["nx"], m["pbsr"]["np"], f, p, e, f / p, f / e, *paper.get(model, (0, 0)),
                m["cvodes_fsa"]["steps"], m["exp"]["steps"]))
    else:
        lines.append("(skipped: the .ode models could not be loaded)")
    if table1_601:
        lines += ["", "### The same with 601 output times", "",
                  "Output times are not stop times: pbsr and exp take the same steps as with 61",
                  "outputs and reach the other outputs by the step's update restricted to them",
                  "(J from the step's ends and midpoint, no model evaluation): a step with three",
                  "or more outputs inside by one eigen-decomposition of its midpoint J_x for all",
                  "of them (`outputs=spectral`, the default), others by an exponential each",
                  "(docs/methods/pbsr.md).", "",
                  "| model | cvodes_fsa [ms] | pbsr [ms] | exp [ms] | fsa / pbsr | fsa / exp | steps fsa / pbs |",
                  "|---|---|---|---|---|---|---|"]
        for model, m in table1_601.items():
            f, p, e = (m[k]["real_time"] for k in ("cvodes_fsa", "pbsr", "exp"))
            lines.append("| {} | {:.2f} | {:.2f} | {:.2f} | {:.1f} | {:.1f} | {:.0f} / {:.0f} |".format(
                model, f, p, e, f / p, f / e, m["cvodes_fsa"]["steps"], m["exp"]["steps"]))
    variants = [(group, model, m) for group, t in (("61", table1), ("601", table1_601))
                for model, m in t.items()]
    if variants:
        lines += ["", "### exp with and without error control, and three ways to the outputs", "",
                  "`exp` is the default (error_control=refine, outputs from the step's",
                  "Jacobians, spectral); `error_control=off` is the paper's algorithm (no estimate, no",
                  "split steps; outputs by partial updates); `outputs=interpolate` takes an",
                  "exponential per output instead of a decomposition per step; `outputs=partial`",
                  "keeps the control and evaluates J at each output (docs/methods/pbsr.md#error-control).", "",
                  "| outputs | model | exp [ms] | exp:error_control=off [ms] | exp:outputs=interpolate [ms] | exp:outputs=partial [ms] | jac_evals (exp / off / interpolate / partial) |",
                  "|---|---|---|---|---|---|---|"]
        for group, model, m in variants:
            names = ("exp", "exp:error_control=off", "exp:outputs=interpolate", "exp:outputs=partial")
            if not all(n in m for n in names):
                continue
            lines.append("| {} | {} | {:.2f} | {:.2f} | {:.2f} | {:.2f} | {:.0f} / {:.0f} / {:.0f} / {:.0f} |".format(
                group, model, *(m[n]["real_time"] for n in names), *(m[n]["jac_evals"] for n in names)))
    lines += ["", "### Figure 4: random linear systems linear:n over [0, 10], 11 output times",
              "", "pbsr runs with `force_pbs=1` (no switching), as in the paper.", "",
              "| n | cvodes_fsa [ms] | pbsr [ms] | exp [ms] | fsa / pbsr | fsa / exp |",
              "|---|---|---|---|---|---|"]
    ns = sorted(figure4)
    for n in ns:
        f, p, e = (figure4[n][k]["real_time"] for k in ("cvodes_fsa", "pbsr", "exp"))
        lines.append("| {} | {:.3f} | {:.3f} | {:.3f} | {:.2f} | {:.2f} |".format(n, f, p, e, f / p, f / e))
    lines += ["", "Runtime fitted to a * n^b over n = {}..{}:".format(ns[0], ns[-1]), "",
              "| method | b (measured) | b (paper) |", "|---|---|---|"]
    exponents = {}
    for method, paper_b in (("cvodes_fsa", 4.2), ("pbsr", 3.7), ("exp", 2.1)):
        _, b = fit_power(ns, [figure4[n][method]["real_time"] for n in ns])
        exponents[method] = (b, paper_b)
        lines.append("| {} | {:.2f} | {} |".format(method, b, paper_b))
    lines += ["", "### Goals", ""]
    if "camkii" in table1:
        m = table1["camkii"]
        f, p, e = (m[k]["real_time"] for k in ("cvodes_fsa", "pbsr", "exp"))
        lines.append("- CaMKII, 61 outputs, keep or beat the earlier 7.8 (fsa/pbsr) and 8.3 (fsa/exp): "
                     "{} ({:.1f}, {:.1f}). The paper's 10x / 40x: {}.".format(
                         "met" if f / p >= 7.8 and f / e >= 8.3 else "not met", f / p, f / e,
                         "met" if f / p >= 10 and f / e >= 40 else "not met"))
    if "camkii" in table1_601:
        m = table1_601["camkii"]
        f, p, e = (m[k]["real_time"] for k in ("cvodes_fsa", "pbsr", "exp"))
        lines.append("- CaMKII, 601 outputs: fsa/pbsr >= 10 {} ({:.1f}); fsa/exp >= 20 {} ({:.1f}).".format(
            "met" if f / p >= 10 else "not met", f / p, "met" if f / e >= 20 else "not met", f / e))
        if "camkii" in table1:
            m61 = table1["camkii"]
            f61, p61, e61 = (m61[k]["real_time"] for k in ("cvodes_fsa", "pbsr", "exp"))
            lines.append("- CaMKII, fsa/pbsr and fsa/exp with 601 outputs within 20 % of their values with "
                         "61: {} (pbsr {:.2f} against {:.2f}: {:.0f} %; exp {:.2f} against {:.2f}: {:.0f} %).".format(
                             "met" if f / p >= 0.8 * f61 / p61 and f / e >= 0.8 * f61 / e61 else "not met",
                             f / p, f61 / p61, 100 * (f / p) / (f61 / p61),
                             f / e, f61 / e61, 100 * (f / e) / (f61 / e61)))
            lines.append("- Steps independent of the number of outputs (within 5%): {} ({:.0f} and {:.0f}).".format(
                "met" if abs(m["exp"]["steps"] - table1["camkii"]["exp"]["steps"]) <= 0.05 * table1["camkii"]["exp"]["steps"] else "not met",
                table1["camkii"]["exp"]["steps"], m["exp"]["steps"]))
    for method, (b, paper_b) in exponents.items():
        lines.append("- {} exponent at or below the paper's {}: {} ({:.2f}).".format(
            method, paper_b, "met" if b <= paper_b else "not met", b))
    lines += [
        "",
        "Error control (docs/methods/pbsr.md#error-control) costs exp what the table above",
        "shows against `exp:error_control=off` (the estimate's J at both ends of every step,",
        "and the steps it splits) and buys S within the tolerances.",
        "",
        "601 outputs: each output inside a step used to need its own exponential of J over",
        "[t_k, t_out], and on stiff CaMKII that exponential, not J's evaluation, was the cost",
        "(`exp:outputs=interpolate` above): 601 outputs cost about three times 61 and the 20 %",
        "goal was missed. Three cheaper designs were measured. Cubic Hermite in S and dS/dt",
        "(the issue's suggestion) is wrong on stiff steps (h |J| >> 1: S' = -1000 (S - 1) from",
        "S = 0 over h = 1 gives 148 at a third of the step, for 1), and CaMKII's steps are",
        "stiff. The L-stable (0,2) Pade form of the exponential (one LU instead of an",
        "exponential) met the goal but is off by z^3/6 at z = tau J: 18-50 % at |z| ~ 1-2.",
        "What is used now: J_x frozen at the step's midpoint J_m over [t_k, t_out], J_p",
        "quadratic and J_x's change as a linear forcing (as the step's own update takes them),",
        "so that one eigen-decomposition J_m = V Lambda V^-1 (dgeev: 46 us on CaMKII's 21 x 21 J,",
        "about one exponential) serves every output of the step, each then a few 21 x 21 by",
        "21 x 59 products (~5 us). It is exact for constant J and its error falls like h^3 over",
        "a step (tests/methods/test_pbs_spectral_outputs.cpp). On CaMKII with 601 outputs, 571",
        "outputs came from 73 decompositions. Steps with fewer than three outputs, and steps",
        "whose V is too ill-conditioned for rtol, keep the exponential. S against cvodes_fsa at",
        "rtol 1e-10, 601 outputs, exp at its defaults, spectral against interpolate (error",
        "relative to S's largest in its row and column): the same to two digits on all 21",
        "shared SBML models, PKA and CaMKII (CaMKII 4.5e-5 both, Zheng 1.3e-4 / 1.4e-4, Brannmark",
        "4.9e-4 both); time 1.0-3.1 times less (Lucarelli 124 -> 40 ms, Zheng 21 -> 12 ms,",
        "Brannmark 21 -> 14 ms), none slower beyond the noise; three models (Bachmann,",
        "Perelson, Raia) have nearly defective J_m throughout: after three refusals in a row",
        "steps are skipped, twice as many after each further refusal. The state check (state_error_in_s) took an LU per output, as much as the",
        "outputs themselves with 601: it now samples at most about 100 outputs, the first",
        "always.",
        "",
        "### The error estimate of the update pbsr and exp take",
        "",
        "The estimate (src/methods/pbs/update_error.hpp) described the exponential update with",
        "J_x frozen and J_p a trapezoid ramp: h^3 terms of J's variation. The update taken by",
        "default integrates its forcing F = (J_x - J_m) S + J_p as a line with Simpson's",
        "integral (J_x's change, the ramp of J_p), which leaves no h^3 term: its local error is",
        "h^3 c(h J_m) F'', c(Z) = Z/72 + ..., fourth order (test",
        "`PbsUpdateError.EstimateMatchesTheTrueLocalErrorOfTheExponentialUpdate`: 1.67e-6",
        "true against 1.69e-6 estimated, 16 times less per halving of h). The old estimate",
        "split most steps for nothing. exp at its defaults, 101 outputs, state_check=0, one",
        "run (`python3` with the module; error as the matrix's, against cvodes_fsa at 1e-10):",
        "",
        "| model | old: steps split | old [ms] | old error | new: steps split | new [ms] | new error |",
        "|---|---|---|---|---|---|---|",
        "| Armistead_CellDeathDis2024 | 72/114 | 1.4 | 1.6e-5 | 8/114 | 0.9 | 1.6e-5 |",
        "| Bachmann_MSB2011 | 91/155 | 51.9 | 1.8e-5 | 5/155 | 26.9 | 2.0e-5 |",
        "| Beer_MolBioSystems2014 | 100/176 | 2.3 | 1.6e-4 | 26/176 | 1.5 | 1.5e-4 |",
        "| Bertozzi_PNAS2020 | 15/53 | 0.6 | 2.3e-5 | 0/53 | 0.6 | 2.2e-5 |",
        "| Boehm_JProteomeRes2014 | 101/146 | 4.5 | 1.2e-5 | 0/146 | 2.1 | 2.2e-5 |",
        "| Brannmark_JBC2010 | 78/248 | 8.0 | 2.1e-4 | 22/248 | 6.7 | 2.1e-4 |",
        "| Bruno_JExpBot2016 | 5/25 | 0.8 | 8.1e-6 | 0/25 | 0.6 | 1.3e-5 |",
        "| Elowitz_Nature2000 | 68/222 | 3.8 | 5.1e-5 | 0/222 | 2.9 | 5.5e-5 |",
        "| Okuonghae_ChaosSolitonsFractals2020 | 67/85 | 2.7 | 3.0e-5 | 4/85 | 1.8 | 2.3e-5 |",
        "| Oliveira_NatCommun2021 | 64/134 | 4.8 | 1.2e-5 | 17/134 | 3.3 | 1.9e-5 |",
        "| Perelson_Science1996 | 194/292 | 2.2 | 4.0e-5 | 79/292 | 1.5 | 3.7e-5 |",
        "| Rahman_MBS2016 | 140/163 | 3.7 | 2.3e-6 | 22/163 | 2.2 | 2.6e-6 |",
        "| Weber_BMC2015 | 38/82 | 3.5 | 4.0e-5 | 32/82 | 2.8 | 4.0e-5 |",
        "| Zheng_PNAS2012 | 0/82 | 5.1 | 1.0e-4 | 0/82 | 5.2 | 1.0e-4 |",
        "| camkii | 80/129 | 19.5 | 3.3e-5 | 22/129 | 14.2 | 5.1e-5 |",
        "| pka | 5/65 | 3.0 | 6.0e-5 | 0/65 | 2.5 | 5.4e-5 |",
        "| chua | 17/35 | 0.9 | 7.1e-6 | 0/35 | 0.7 | 2.8e-5 |",
        "",
        "The errors stay where they were (their source is mostly the states' error); chua,",
        "Boehm and Oliveira read 1.5 to 4 times more, still within 3 rtol. pka at the paper's",
        "settings (61 outputs, atol 1e-6) now splits 10 steps (estimate up to 1500 on its stiff",
        "rows), hence its slower time above.",
        "",
        "pbsr's Peano-Baker sub-steps truncate the series of the transition matrix after J^2",
        "(Eq. 21-23); with the paper's c h |J| sub-steps (c = 10) that leaves about 2e-4 of S a",
        "sub-step whatever the tolerance, which the estimate did not hold, and splitting a step",
        "does not shorten its sub-steps. The estimate now holds it, a step whose Peano-Baker",
        "estimate is over and the exponential's lower takes the exponential, and so do the",
        "pieces of a split exponential step. pbsr at rtol 1e-8, atol 1e-10 (same measure):",
        "",
        "| model | before | after |",
        "|---|---|---|",
        "| Armistead_CellDeathDis2024 | 2.5e-4 | 4.2e-8 |",
        "| pka | 2.2e-4 | 5.6e-7 |",
        "| Beer_MolBioSystems2014 | 3.6e-5 | 2.8e-8 |",
        "| Okuonghae_ChaosSolitonsFractals2020 | 2.5e-5 | 1.1e-7 |",
        "| Oliveira_NatCommun2021 | 2.4e-5 | 1.2e-8 |",
        "| camkii | 1.7e-5 | 8.4e-8 |",
        "| Rahman_MBS2016 | 9.9e-6 | 2.8e-9 |",
        "| chua | 6.5e-6 | 5.1e-8 |",
        "| Bertozzi_PNAS2020 | 2.5e-6 | 9.6e-8 |",
        "| Bruno_JExpBot2016 | 1.9e-6 | 1.1e-7 |",
        "",
        "Why the 61-output ratios on CaMKII fell below the earlier 7.8 / 8.3: cvodes_fsa itself",
        "got faster (batched Newton solves and fused vector operations: 92.8 ms in the previous",
        "RESULTS.md, ~51 ms now), and about 50 of the 61 outputs now fall inside a solver step,",
        "each an exponential of its own (most of those steps hold one output). With 2 output",
        "times exp takes about 8.6 ms: fsa/exp about 6-7 at most with 61 outputs.",
        "Why 601 outputs miss 10x / 20x: exp's own steps (172 exponentials, the estimate's",
        "Jacobians, the state check) take ~20 ms against cvodes_fsa's 50-70 ms; even free",
        "outputs would leave fsa/exp ~3. The step count does not grow with the outputs (with",
        "outputs as stop times CaMKII took 765 steps, not 172).",
        "Why an exponential costs that much on CaMKII: it is stiff, |J dt| up to 3e5 on the long",
        "steps after the transient, so the degree-13 Pade approximant needs on average 7 and up",
        "to 19 squarings (measured over one solve); the norms of powers of J (Al-Mohy and",
        "Higham 2009) would save about one squaring of 14, but in a trial their estimates",
        "cost more than that saved, here and on network:300. pbsr takes the same exponential on most",
        "CaMKII steps (refinement would need more than n_max = 10 sub-intervals), hence the",
        "same time.",
        "On linear:n, pbsr (always Peano-Baker, with refinement) evaluates J_x once because",
        "the model declares constant Jacobians, and applies each run of identical",
        "sub-steps by powering the affine update; without that reuse its exponent was about",
        "4.3 (refinement counts grow like |A| ~ n^2).",
        "",
        "Accuracy (below): the exponential update takes J at the step's midpoint by default",
        "(`exp_jacobian=midpoint`, second order); the last column is the paper's left-end rule",
        "(first order), 2 to 30 times less accurate on the three models. Output times are not",
        "stop times, so the steps are long (CaMKII: 172 for 101 outputs); outputs inside a step",
        "come from the step's update restricted to them (above).",
    ]
    accuracy = subprocess.run([os.path.join(build, "bin", "bench_pbs"), "--accuracy"],
                              check=True, capture_output=True, text=True).stdout
    lines += ["", "### Accuracy: the paper's relative error re_k = |S_k - S_k^FS|_F / |S_k^FS|_F"]
    lines += accuracy.rstrip().splitlines()
    return lines


def expr_section():
    data = run("bench_expr", "--benchmark_min_time=0.5")
    ns = {}
    for b in data["benchmarks"]:
        if b.get("error_occurred"):
            continue
        scale = {"ns": 1.0, "us": 1e3, "ms": 1e6}[b.get("time_unit", "ns")]
        ns[b["name"]] = b["real_time"] * scale

    def cell(name, fmt="{:.0f}"):
        return fmt.format(ns[name]) if name in ns else "n/a"

    def ratio(a, b):
        return "{:.2f}".format(ns[a] / ns[b]) if a in ns and b in ns else "n/a"

    lines = [
        "## Expression engine (`bench_expr`)",
        "",
        "Command: `build/bin/bench_expr --benchmark_min_time=0.5` (via `python3 benchmarks/make_results.py`).",
        "Times per call in ns at a state with every term active. `expr`: ExprModel loaded from the",
        "`.ode` file (native code for scalar tapes, SIMD lanes for products); `hand`: a C++ function",
        "written for the benchmark (camkii: the .ode statements transcribed one by one).",
        "Targets: f within 2x of the hand-written function; v^T J for 4 vectors at once (4 lanes)",
        "at most 1.5x one vector.",
        "",
        "| model | f hand [ns] | f expr [ns] | expr / hand |",
        "|---|---|---|---|",
    ]
    for m in ["chua", "camkii"]:
        lines.append("| {} | {} | {} | {} |".format(
            m, cell("f/%s/hand" % m, "{:.1f}"), cell("f/%s/expr" % m, "{:.1f}"),
            ratio("f/%s/expr" % m, "f/%s/hand" % m)))
    lines += [
        "",
        "v^T J: `vjp` (both J_x^T W and J_p^T W in one reverse sweep) with W of L columns at lane",
        "width L; `L1 x4`: 4 columns at width 1 (one sweep each).",
        "",
        "| model | f | sparse J_x | dense J_p | v^T J, 1 vector (L1) | 4 vectors (L4) | 8 vectors (L8) | 4 vectors (L1 x4) | L4 / L1 | L8 / L1 |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for m in ["camkii", "gen500", "chua"]:
        v = "vjp/%s/" % m
        lines.append("| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |".format(
            m, cell("f/%s/expr" % m), cell("jac_x/%s/expr" % m), cell("jac_p/%s/expr" % m),
            cell(v + "L1"), cell(v + "L4"), cell(v + "L8"), cell(v + "L1x4"),
            ratio(v + "L4", v + "L1"), ratio(v + "L8", v + "L1")))
    lines += ["", "gen500: generated model, 500 states, 20 parameters, 4-5 states per equation "
              "(`generated_model()` in bench_expr.cpp)."]
    return lines


def sbml_section():
    data = run("bench_sbml")
    rows = {}
    for b in data["benchmarks"]:
        if b.get("error_occurred"):
            continue
        kind, model = b["name"].split("/")[:2]
        scale = {"ns": 1.0, "us": 1e3, "ms": 1e6}[b.get("time_unit", "ns")]
        rows.setdefault(model, {})[kind] = (b["real_time"] * scale, b)
    lines = [
        "## SBML import on the real models (`bench_sbml`)",
        "",
        "Command: `build/bin/bench_sbml` (via `python3 benchmarks/make_results.py`). The 20 models of",
        "`../shared/models/sbml`. import: libsbml reading of the text, the expression graph, symbolic",
        "J_x, J_p and dx0/dp, tape compilation. f and sparse J_x: one evaluation at the state of",
        "t = 50. cvodes_fsa: [0, 100] with 101 output times (SBML gives no time span; 100 is the",
        "importer's default end time and covers these models' transients), rtol 1e-6, atol 1e-8,",
        "the default sensitivity parameters of the run (constant global parameters no rule or",
        "initial assignment sets; since 2026-12-02 also those declared constant=\"false\" that",
        "nothing sets, which gives Weber_BMC2015 33 and Raia_CancerResearch2011 19 where the",
        "tables of this file, run before, have 27 and 18).",
        "",
        "| model | nx | np | nnz(J_x) | import [ms] | f [ns] | J_x [ns] | cvodes_fsa [ms] | steps |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for model in sorted(rows):
        m = rows[model]
        if not all(k in m for k in ("import", "f", "jac_x", "cvodes_fsa")):
            lines.append("| {} | (skipped) |||||||".format(model))
            continue
        b = m["cvodes_fsa"][1]
        lines.append("| {} | {:.0f} | {:.0f} | {:.0f} | {:.2f} | {:.0f} | {:.0f} | {:.2f} | {:.0f} |".format(
            model, b["nx"], b["np"], b["nnz"], m["import"][0] / 1e6, m["f"][0], m["jac_x"][0],
            m["cvodes_fsa"][0] / 1e6, b["steps"]))
    if not rows:
        lines.append("(skipped: the SBML models could not be read)")
    return lines


def concurrency_section():
    data = run("bench_concurrency")
    per = {}
    for b in data["benchmarks"]:
        name = b["name"]
        method = name.split("/")[0]
        threads = 2 if "threads:2" in name else 1
        # With 2 threads Google Benchmark divides the wall time by the
        # iterations of both threads: one solve's time is twice that.
        per.setdefault(method, {})[threads] = b["real_time"] * threads
    lines = [
        "## Concurrency: one solve alone and two at once (`bench_concurrency`)",
        "",
        "Command: `build/bin/bench_concurrency`. CaMKII over [0, 600] with 601 output times at",
        "rtol 1e-5, atol 1e-6; the same solve on one thread, then on two threads at once (one",
        "shared model, a workspace per solve). BLAS runs on the calling thread (a private",
        "OpenBLAS held to one thread; docs/cpp-api.md, Threads and BLAS), so two solves on this 2-core",
        "machine should each take about as long as one alone. Goal: ratio <= 1.3. The three",
        "baselines, in the same run, measure the machine: dependent arithmetic on registers",
        "(latency-bound), a sum streaming through 64 MB a thread (memory bandwidth) and 32 x 32",
        "matrix products in cache with the library's dgemm (vector-unit throughput).",
        "",
        "| method | one alone [ms] | each of two at once [ms] | ratio | goal <= 1.3 |",
        "|---|---|---|---|---|",
    ]
    baselines = {"baseline_registers": "machine: dependent arithmetic on registers",
                 "baseline_memory": "machine: a sum streaming through 64 MB",
                 "baseline_products": "machine: 32 x 32 dgemm in cache"}
    for method, t in per.items():
        if 1 in t and 2 in t:
            r = t[2] / t[1]
            goal = "(baseline)" if method in baselines else ("met" if r <= 1.3 else "not met")
            lines.append("| {} | {:.1f} | {:.1f} | {:.2f} | {} |".format(
                baselines.get(method, method), t[1], t[2], r, goal))
    return lines


def large_section():
    out = subprocess.run([os.path.join(build, "bin", "bench_large"), "--sizes", "100,300,1000",
                          "--budget", "1500"], check=True, capture_output=True, text=True).stdout
    rows = [l for l in out.splitlines() if l.startswith("|")]
    table = {}
    for l in rows[2:]:
        cells = [c.strip() for c in l.strip("|").split("|")]
        if not cells[0]:
            continue
        table[cells[0]] = cells

    def num(cell):
        try:
            return float(cell)
        except ValueError:
            return None

    cols = {"fsa": 3, "fsa_unbatched": 4, "states": 5, "asa": 6, "pbsr": 7, "exp": 8}
    lines = [
        "## Large models (`bench_large`)",
        "",
        "Command: `build/bin/bench_large --sizes 100,300,1000 --budget 1500`. One solve per",
        "method over [0, 100] (CaMKII [0, 600]) with 11 output times at rtol 1e-6, atol 1e-8",
        "(CaMKII: 1e-5, 1e-6). fsa: cvodes_fsa; `batched_solves=0`: the same with CVODES' own",
        "Newton solver (one linear solve per sensitivity vector); states only: cvodes_fsa with",
        "`sensitivities=0`; adjoint gradient: cvodes_asa with `final_sensitivity=0`. re_k of",
        "pbsr and exp against the fsa run. — : not run (a smaller size predicted more than the",
        "budget) or failed. A solve under 0.2 s: the fastest of repeats adding up to 0.5 s.",
        "",
    ] + rows + [""]
    nets = sorted((int(k.split(":")[1]), v) for k, v in table.items() if k.startswith("network:"))
    if len(nets) >= 2:
        lines += ["Cost exponent b of t ~ N^b on network:N (least squares over the sizes run):", "",
                  "| method | b | sizes |", "|---|---|---|"]
        for label, c in cols.items():
            pts = [(n, num(v[c])) for n, v in nets if num(v[c])]
            if len(pts) >= 2:
                _, b = fit_power([p[0] for p in pts], [p[1] for p in pts])
                lines.append("| {} | {:.2f} | {} |".format(label, b, ", ".join(str(p[0]) for p in pts)))
        lines.append("")
    lines += ["### Goals", ""]

    def ratio(model, a, b):
        v = table.get(model)
        if not v:
            return None
        x, y = num(v[cols[a]]), num(v[cols[b]])
        return x / y if x and y else None

    for model in ("network:1000", "Lang", "CaMKII"):
        r = ratio(model, "asa", "states")
        if r:
            lines.append("- Adjoint gradient <= 5x a state-only solve on {}: {} ({:.1f}x).".format(
                model, "met" if r <= 5 else "not met", r))
    r = ratio("Lang", "fsa", "asa")
    if r:
        lines.append("- Adjoint gradient on Lang <= 1/5 of cvodes_fsa's time: {} (1/{:.0f}).".format(
            "met" if r >= 5 else "not met", r))
    for model in ("network:100", "network:300", "network:1000", "Lang"):
        for m in ("pbsr", "exp"):
            r = ratio(model, "fsa", m)
            if r:
                goal = 10 if model == "network:1000" else 1
                lines.append("- {} faster than cvodes_fsa on {}{}: {} ({:.2f}x).".format(
                    m, model, " by >= 10x" if goal == 10 else "", "met" if r >= goal else "not met", r))
    r = ratio("network:1000", "fsa_unbatched", "fsa")
    if r:
        lines.append("- cvodes_fsa on network:1000 cut at least 3x (the issue measured 399 s): "
                     "batched solves give {:.2f}x over CVODES' own Newton solver in this run; "
                     "fsa takes {} s.".format(r, table["network:1000"][cols["fsa"]]))
    lines += """
Why pbsr and exp do not beat cvodes_fsa on network:300 and network:1000: the network is
stiff (rate constants over four decades; |J_x|_1 is 400 to 1600 along the network:1000
solution) and the state solver's steps grow to |J dt| of 1e2 to 1e3. The dense
exponential costs O(nx^3) per step: with the phi_1 and phi_2 blocks of the J_p ramp every
squaring is 3 nx^3 multiply-adds (6e9 flops at nx = 1000), on average 4 squarings a step
on network:300, plus two products of the degree-13 Pade approximant and its LU solve. Its
powers of the sparse J are sparse products and F comes from the sparse J_p (linalg/expm.hpp):
exp took 23.7 / 26.0 s before that and 19.9 / 21.6 s after on network:300 (alternating
runs), 811 s before and 612 s after on network:1000 (the two at once). The sparse action
(`updates=sparse`, Al-Mohy and Higham) needs about |J dt|_1 sparse products with the
nx x np block per step, more still; `updates=auto` takes the cheaper per step, which here
is mostly the dense one. cvodes_fsa's implicit solve needs a few sparse LU solves per
step instead. Beating it by 10x would take an implicit (rational) update of S sharing the
Newton matrix, which is not the paper's method. On network:100 they are ahead; on Lang
about even in this run.
Why cvodes_fsa on network:1000 is not 3x faster: its time is the 2000 sparse triangular
solves per Newton iteration (LU of this random network fills to ~20x nnz(J): 110k entries)
and CVODES' operations on 2000 sensitivity vectors. Solving all columns in one call (KLU
works through four at a time) gave 1.4-1.6x over CVODES' own solver across runs; fused vector operations and a
sparse J_p in the sensitivity right-hand side are in both columns. The run before these
changes took 663 s on this machine (the issue measured 399 s elsewhere). CVODES' own
Newton solver varies most between runs (536-633 s on this machine).
Absolute times of this run are 40-90 % above the previous RESULTS.md's in most columns,
fsa included: a slower day of this shared machine (the binaries before and after the
sparse products took the same time on Lang today). Compare ratios within the table.""".split("\n")
    return lines


def erk_goals():
    with open(os.path.join(root, "benchmarks", "erk_adjoint_goals.md")) as f:
        return f.read().rstrip("\n").split("\n")


def erk_adjoint_section():
    def run(args):
        return subprocess.run([os.path.join(build, "bin", args[0])] + args[1:], check=True,
                              capture_output=True, text=True).stdout.strip().split("\n")
    lines = [
        "## Discrete ERK adjoint on glv:N (`bench_erk_adjoint`, `bench_erk_adjoint_paper`)",
        "",
        "Command: `build/bin/bench_erk_adjoint` (sizes 2, 10, 30, 40, 100, 200; tolerances",
        "1e-4 ... 1e-10, atol = rtol / 100; median of 5 runs). S(T) error: max |S - S_ref| /",
        "max |S_ref| at T, S_ref from cvodes_fsa at rtol 1e-12 (N > 40: erk_adjoint dop853 at",
        "1e-13; the CVODES methods are not run there); the gradient row compares dG/dp with the",
        "column sums of S_ref. Steps: accepted steps (CVODES: forward and backward). This is",
        "the paper's Fig. 3 setting.",
        "",
    ]
    lines += run(["bench_erk_adjoint", "--sizes", "2,10,30,40,100,200"])
    lines += ["", "The paper's other experiments: `build/bin/bench_erk_adjoint_paper --long`", ""]
    lines += run(["bench_erk_adjoint_paper", "--long"])
    lines += ["", "### Memory: `build/bin/bench_erk_adjoint_paper --only memory` (a process of its own)", "",
              "| problem | trajectory | workspace | peak RSS |", "|---|---|---|---|"]
    lines += run(["bench_erk_adjoint_paper", "--only", "memory"])
    peer = os.path.join(build, "bin", "petsc_glv_adjoint")
    if os.path.exists(peer):
        lines += ["", "### PETSc TSAdjoint (`benchmarks/peers/compare_petsc.py --reference`)", ""]
        lines += subprocess.run(
            [sys.executable, os.path.join(root, "benchmarks", "peers", "compare_petsc.py"),
             "--reference", "--build", build], check=True, capture_output=True,
            text=True).stdout.strip().split("\n")
    else:
        lines += ["", "(PETSc peer not built: `petsc-dev` absent when configuring.)"]
    return lines + [""] + erk_goals()


def kept_section(title):
    with open(os.path.join(root, "benchmarks", "RESULTS.md")) as f:
        text = f.read()
    start = text.index(title)
    end = text.find("\n## ", start + 1)
    return text[start:end if end >= 0 else len(text)].rstrip("\n").split("\n")


def kept_large_section():
    with open(os.path.join(root, "benchmarks", "RESULTS.md")) as f:
        text = f.read()
    start = text.index("## Large models")
    end = text.find("\n## ", start + 1)
    return text[start:end if end >= 0 else len(text)].rstrip("\n").split("\n")


def comparison_section(old_build):
    """new/old per benchmark: the minimum of two alternating runs of each."""
    programs = [("bench_baselines", []), ("bench_pbs", []),
                ("bench_expr", ["--benchmark_filter=^(f|jac_x|vjp)/(chua|camkii)",
                                "--benchmark_min_time=0.2"]),
                ("bench_sbml", ["--benchmark_filter=Boehm|Bachmann|Laske|Brannmark"])]

    def times(directory, program, extra):
        out = subprocess.run([os.path.join(directory, "bin", program), "--benchmark_format=json",
                              *extra], check=True, capture_output=True, text=True).stdout
        return {b["name"]: b["real_time"] for b in json.loads(out)["benchmarks"]}

    lines = [
        "## Against an earlier build (`--compare`)",
        "",
        "Command: `python3 benchmarks/make_results.py build --compare OLD_BUILD`. Each program of",
        "OLD_BUILD and of this build run twice, alternating; the minimum of each is kept.",
        "",
        "| benchmark | old | new | new / old |",
        "|---|---|---|---|",
    ]
    for program, extra in programs:
        best = {"old": {}, "new": {}}
        for _ in range(2):
            for tag, directory in (("old", old_build), ("new", build)):
                for name, t in times(directory, program, extra).items():
                    best[tag][name] = min(t, best[tag].get(name, math.inf))
        for name, t_old in best["old"].items():
            if name in best["new"]:
                t_new = best["new"][name]
                lines.append("| {} `{}` | {:.4g} | {:.4g} | {:.2f} |".format(
                    program, name.split("/iterations")[0], t_old, t_new, t_new / t_old))
    return lines


SECTIONS = {"erk": "## Discrete ERK adjoint", "internal_diff": "## Internal differences",
            "odesd": "## odeSD", "ensemble": "## Ensembles", "bounds": "## Set-valued bounds",
            "events": "## Events", "concurrency": "## Concurrency",
            "large": "## Large models", "compare": "## Against an earlier build",
            "sessions": "## Prepared sessions", "petab": "## PEtab problems",
            "fit": "## Multi-start fits", "methods": "## Every method on every model",
            "choice": "## The automatic method", "pbs": "## PBS paper",
            "many": "## cvodes_fsa with many parameters"}


BOUNDS_GOALS = """\
### Goals of the set-valued bounds issue (part 1, bounds_fsa)

- **Widths <= 2x the paper's at equal q (aim: equal): met.** The cubic oscillator's dF/dp
  enclosures at q = 4, 5, 8 are within 0.98-1.02 of the paper's FSA widths (the aim, equal,
  is met to the third digit at q = 8). On the digester the enclosures approach the sampled
  range from q = 3 on (the paper reports them as remainder radii in its Fig. 4 only: no
  number to compare). The remaining gap to the true range is the paper's too: the lsb
  bounder is not exact on the polynomial part (section 5.1).
- **CPU <= the paper's: met in every FSA cell of Tables 3 and 4 in this run** (1.3-6.8x
  faster). The N = 2 reactor cells (0.5-1 s against the paper's 0.84-1.9 s) are at the edge
  and vary by up to 2x between runs on this shared 2-core machine: q = 3, N = 2 with
  ellipsoids measured 1.98 s (0.8x, missed) in an earlier full run and 0.78 s (2.0x) here.
  Their steps are 1.1-1.5x the paper's (the restart at the stage boundary and the
  ellipsoid's Q, which CVODES' error test watches with atol 1e-20).
  Most time goes into products of polynomial models and the Chebyshev compositions
  (MPFR-rounded function values at the q + 1 nodes of every univariate operation); the
  ellipsoids' disturbance Jacobians come from one set of second-derivative models of f per
  point, shared by all sensitivity systems.
- Steps are of the paper's order (CVODES BDF with CVDiag, error control on everything); the
  integration restarts at every output time (they are the stages, as in the paper), which
  the step counts include.
- The ASA columns of Tables 3-4 are part 2 (bounds_asa), below.

### Goals of the set-valued bounds issue (part 2, bounds_asa)

- **Widths <= 2x the paper's ASA widths (aim: equal): met.** Cubic oscillator, Chebyshev
  models with ellipsoidal remainders: 1.12 and 1.13 of the paper's ASA widths at q = 4, 1.04
  and 1.05 at q = 5, 1.000 at q = 8 (equal to the third digit). As in the paper, the adjoint
  enclosures are a little wider than the forward ones at low order and meet them at q = 8.
  On the digester (no ASA widths in the paper) they are within 11 % of bounds_fsa's from
  q = 3 on; at q = 2 they are much wider (interval remainders 1.9x, ellipsoidal 35x): the
  adjoint carries the least-squares residuals 2 (x - d) through the nonlinear dynamics and
  the order-2 truncation of those products dominates (docs/set-valued-bounds.md, known
  limits).
- **bounds_asa >= 5x cheaper than bounds_fsa on the reactor at q = 3, N = 8: met** (7.9x with
  interval remainders, 7.8x with ellipsoids in this run). With fewer parameters (N = 2, 3 of
  them) the gain is 2.5-4.4x; on the digester (3 parameters, 12 jumps of the adjoint)
  bounds_fsa / bounds_asa is 0.6-1.8 against 1.4-2.3 in the paper's Table 3: there our
  bounds_fsa gains more on the paper (3.9-6.8x faster) than our adjoint pass does (1.6-7.7x).
- **CPU <= the paper's: met for the state pass in all 14 cells (1.2-10.2x faster) and for the
  adjoint pass in 12 of 14; missed by the ellipsoidal adjoint pass on two reactor cells**
  (q = 2, N = 2: 0.14 s against 0.09 s; q = 3, N = 8: 5.64 s against 4.85 s; in an earlier
  run q = 2, N = 8 and q = 3, N = 2 missed too, at 0.7-0.8x). Three quarters of the time goes
  into products of polynomial models (`PolyArithmetic::mul`, measured with perf on q = 3,
  N = 8), and the ellipsoidal adjoint pass takes 2-3x the steps of the interval one (CVODES'
  error test also watches the shape matrix, atol 1e-20). Cells under 0.3 s vary by up to 2x
  between runs on this shared machine, and the whole machine by 20-40 % between runs (the
  same q = 3, N = 8 bounds_fsa solve took 43 s and 59 s an hour apart).
- The backward pass reads the state bounds through cubic Hermite interpolation (the
  paper's choice); each stage between two output times is its own forward integration with
  its own checkpoints, so neither pass steps across an output time (the reactor's jacket
  switches there)."""


ENSEMBLE_GOALS = """\
### Goals of the ensemble issue, as measured in these runs

- **2 threads >= 1.8x one thread, cvodes_fsa, K = 200: met** on CaMKII (1.99) and glv:40 (1.80,
  at the edge: glv:40's members are 0.34 s of dense 40 x 1640 sensitivity work each, and
  two of them at once share the memory bandwidth).
- **Overhead per member <= 10 % above a bare solve() loop: met** (chua, -1.4 %: within noise;
  the ensemble copies the problem per member, as the loop does).
- **MPI np = 2 (one thread each) within 10 % of 2 threads: met, at the limit** (1.10): rank
  0 serves the other rank from its calling thread, polling every 0.2 ms, and each of rank
  1's members costs a request and a result message (600 kB of S for CaMKII)."""


def sessions_section():
    def bench(*args):
        return subprocess.run([os.path.join(build, "bin", "bench_sessions"), *args], check=True,
                              capture_output=True, text=True).stdout.strip().split("\n")
    out = bench("--solves", "200")
    goal = bench("--solves", "10000", "--cases", "chua/cvodes_fsa")
    rows = [l.split() for l in goal if l and not l.startswith("model") and "failed" not in l]
    chua = [r for r in rows if r[0] == "chua" and r[1] == "cvodes_fsa"]
    lines = [
        "## Prepared sessions (`bench_sessions`)",
        "",
        "Commands: `build/bin/bench_sessions --solves 200` (every case; the stiff models take",
        "seconds per case) and `build/bin/bench_sessions --solves 10000 --cases chua/cvodes_fsa`",
        "(the goal's case): N solves per model and method with",
        "the parameters scaled by 1 + 0.05 sin(k + j), by `solve()` and by a prepared session's",
        "`run()`, alternately in blocks of 100; set-up % = (solve - run) / solve, what `run()`",
        "saves; `prepare()` timed once. Only cvodes_fsa keeps integrator memory between runs",
        "(docs/cpp-api.md); for the other methods the difference is the problem's validation and",
        "option parsing alone, within the noise.",
        "",
        "```",
    ] + out + ["```", "", "```"] + goal + ["```", ""]
    if chua:
        ratio = float(chua[0][5])
        share = float(chua[0][6])
        met = "met" if ratio >= 1.3 else "missed"
        lines += [
            "Goal: run() >= 1.3x faster than solve() on chua over [0, 1] with cvodes_fsa: **{}** "
            "({:.2f}x).".format(met, ratio),
        ]
        if ratio < 1.3:
            lines += [
                "The set-up that does not depend on p is {:.1f} % of a solve there; CVODES' own".format(share),
                "stepping with S at rtol 1e-8 is the rest (98 % of run()'s instructions under",
                "`valgrind --tool=callgrind --toggle-collect='*PreparedSession::run*'",
                "build/bin/bench_sessions --solves 200 --cases chua/cvodes_fsa`), so no preparation",
                "reaches 1.3x on this problem. Short runs vary with the machine's load (compare the",
                "chua row of the 200-solve table); the 10 000-solve run is the one the goal reads.",
            ]
    return lines


def petab_section():
    # BENCH_PETAB_OUTPUT=FILE: the output of a run already made (bench_petab takes minutes).
    saved = os.environ.get("BENCH_PETAB_OUTPUT")
    out = (open(saved).read() if saved else subprocess.run(
        [os.path.join(build, "bin", "bench_petab"), "--repeats", "5"], check=True,
        capture_output=True, text=True).stdout).strip().split("\n")
    out = [l for l in out if not l.startswith("rc ")]
    rows = [[c.strip() for c in l.strip().strip("|").split("|")] for l in out
            if l.startswith("| ") and not l.startswith("| problem")]
    ratio = lambda c: float(c.rstrip("×")) if c.endswith("×") else None
    forward = sorted(r for r in (ratio(row[4]) for row in rows) if r is not None)
    odesd = sorted(r for r in (ratio(row[5]) for row in rows) if r is not None)
    adjoint = sorted(r for r in (ratio(row[6]) for row in rows) if r is not None)
    auto = [float(row[11]) for row in rows if len(row) > 12 and row[11]]
    auto_fim = [float(row[12]) for row in rows if len(row) > 12 and row[12]]
    median = lambda v: v[len(v) // 2] if len(v) % 2 else 0.5 * (v[len(v) // 2 - 1] + v[len(v) // 2])
    mf, mo, ma = median(forward), median(odesd), median(adjoint)
    worst = max(auto) if auto else float("nan")
    worst_name = next((row[0] for row in rows if len(row) > 12 and row[11] and float(row[11]) == worst), "")
    worst_fim = max(auto_fim) if auto_fim else float("nan")
    worst_fim_name = next((row[0] for row in rows if len(row) > 12 and row[12] and float(row[12]) == worst_fim), "")
    lines = [
        "## PEtab problems (`bench_petab`)",
        "",
        "Command: `build/bin/bench_petab --repeats 5` (via `python3 benchmarks/make_results.py",
        "--only petab`). Every problem of `../shared/petab/benchmark` but Lang_PLOSComputBiol2024",
        "(a gradient takes 12-28 s there by the adjoint, 598 s forward, docs/petab.md: 600 measurement",
        "times over [0, 136472] with 294 estimated parameters) at its nominal parameters,",
        "the default tolerances (rtol 1e-8, atol 1e-12), one thread: the median of 5 evaluations after a",
        "warm-up. `simulation`: llh alone (cvodes_fsa without S); the other columns are ratios",
        "to it: the gradient by forward sensitivities (cvodes_fsa, odesd), by the adjoint",
        "(cvodes_asa seeded with d nllh/dx at each measurement time), and llh with the FIM",
        "(forward S: cvodes_fsa, odesd). `auto`: what `--method auto` (the default) ran for the",
        "gradient, and its time over the fastest of the three; the last column the same for the",
        "FIM (over the faster of the two). Parameters: estimated / the full model's (the ODE is solved on the",
        "SBML parameters alone: S has no columns for the observable table's parameters, and",
        "none for those that no estimated parameter sets: docs/petab.md).",
        "",
    ] + out + [
        "",
        "Anchor: AMICI 0.15's medians over 20 collection models at tolerances 1e-8, forward",
        "gradient about 25x a simulation and adjoint about 36x.",
        "",
        "- **Median forward gradient / simulation below AMICI's 25x: {}** (cvodes_fsa {:.1f}x, odesd {:.1f}x over {} problems).".format(
            "met" if min(mf, mo) < 25 else "missed", mf, mo, len(forward)),
        "- **Median adjoint gradient / simulation below AMICI's 36x: {}** ({:.1f}x over {} problems{}).".format(
            "met" if ma < 36 else "missed", ma, len(adjoint),
            "; the adjoint failed on {} (its backward problems ran out of steps: the row says "
            "so)".format(len(rows) - len(adjoint)) if len(rows) > len(adjoint) else ""),
        "  Counting each failure as slower than any success, the median over all {} problems is "
        "{:.1f}x: at the goal, not below it.".format(len(rows), median(adjoint + [float("inf")] * (len(rows) - len(adjoint))))
        if len(rows) > len(adjoint) else "",
        "- **The default choice within 1.2x of the fastest gradient on every problem: {}** (worst "
        "{:.2f}x, {}); for the FIM: {} (worst {:.2f}x, {}).".format(
            "met" if worst <= 1.2 else "missed", worst, worst_name,
            "met" if worst_fim <= 1.2 else "missed", worst_fim, worst_fim_name),
        "",
        "Since 2026-12-02 `auto` runs odesd for S, the FIM and the gradient where the library's",
        "auto takes it for S (second derivatives, S of at most 10 000 entries: every problem",
        "here; docs/petab.md, \"The automatic method\"), on the columns of the estimated",
        "parameters as cvodes_fsa does. odesd's implicit 4th-order steps with f's time",
        "derivative take fewer steps than BDF's, and each costs less with many parameters:",
        "in the run of 2026-12-02 its gradient was the fastest of the three on 19 of the 20",
        "problems, also on Bachmann and Lucarelli, where the adjoint beats cvodes_fsa (113",
        "and 84 parameters over 3.6 and 3.9 measurement times an experiment); on Brannmark the",
        "three were even. Where auto runs odesd, its ratios to the fastest are two timings of",
        "the same evaluations: their spread around 1 is this machine's noise. Before, `auto`",
        "ran cvodes_fsa, or cvodes_asa for a gradient where at least 8 estimated parameters",
        "act on the dynamics and outnumber the measurement times per experiment; that rule",
        "remains where odesd does not suit. The same run's cvodes_fsa and cvodes_asa columns",
        "are those of the table before.",
        "Until 2026-11-30 the adjoint also integrated one backward problem per state for S(T),",
        "which the likelihood does not need (the adjoint methods' default final_sensitivity=1):",
        "Bachmann's adjoint gradient took 8.7 s, now 0.65 s; the adjoint ran out of steps on Beer",
        "and Oliveira in those backward problems of S(T); and `auto` took the adjoint only above",
        "150 parameters. Ratios of runs a few minutes apart, on a machine shared with a test",
        "run, differed by up to 2x on the smallest problems (Elowitz's adjoint: 19x and 50x).",
        "Since 2026-12-01 the default absolute tolerance is 1e-10 (it was 1e-8, the collection's",
        "test setting: states of 1e-4 to 1e-6 were resolved to a few digits) and the adjoint's",
        "forward states are solved at rtol / 10 (its gradient was up to 80 times further from",
        "the truth than the forward one): docs/petab.md, \"Tolerances\". Forward gradients",
        "took 1.1 to 1.8 times as long at 1e-10 as at 1e-8; the adjoint 1.0 to 1.3 times.",
        "Since 2026-12-04 it is 1e-12 (docs/petab.md, \"Tolerances\": the gradients of",
        "Fiedler_BMCSystBiol2016 and Zheng were 5.6e-2 and 1.1e-3 off at 1e-10, 1.6e-3 and",
        "7.5e-5 at 1e-12). This table is the first run at 1e-12. Against the run before:",
        "simulations 0.87-1.24 times the time (median 0.99; a simulation's steps +17 % on",
        "Bachmann, +6-10 % on Lucarelli and Laske, -7 % on Perelson), odesd's gradient 0.70-1.89",
        "times (median 1.00), the most on SalazarCavazos (1.89), Bachmann (1.58) and Zheng",
        "(1.43). A run 3 minutes earlier, while other work loaded the machine, had every",
        "simulation 1.3-1.6 times slower, Perelson's too: only ratios within one run compare.",
        "Also since 2026-12-01, S and the adjoint's dG/dp have columns only for the model",
        "parameters estimated ones set (fixed rows and condition-table numbers are held): the",
        "forward gradient / simulation went from 73.0x to 24.4x on Bachmann, from 145.8x to",
        "53.8x on Lucarelli, from 12.0x to 7.3x on Bruno (the run before is in git).",
        "Since 2026-12-02 a steady state that Newton cannot reach is integrated for x alone",
        "over the spans 10, 100, ..., and x and S together only over the span x needed",
        "(docs/petab.md): Brannmark's 8 pre-equilibrations (conservation laws) integrated x",
        "and S over every span; its forward gradient took 314 ms in the run before, 121 ms in",
        "the run of 2026-12-02 (17.3x to 9.0x its simulation). The machine was quieter in that",
        "run than in the one before: most rows, simulations included, were 10 to 25 % faster.",
        "Since the later run of 2026-12-02 (this table) the experiments that share a",
        "pre-equilibration condition share its steady state, solved once an evaluation, and",
        "Newton takes a steady state whose J_x is singular by conservation laws, with the laws",
        "(docs/petab.md): Brannmark's 8 experiments all start from the steady state of Dose_0,",
        "which has 3 laws. Its simulation went from 16.35 to 5.62 ms and its forward gradient",
        "(odesd) from 128 to 67 ms; the ratios above grew because the simulation shrank more.",
        "After this run, Newton takes no laws where f reads t (Brannmark's does): an input on",
        "the way may move a conserved total. x is then integrated alone, once, and S taken by",
        "the formula with the laws: `bench_petab --repeats 5 --problems Brannmark_JBC2010`",
        "gives a simulation of 6.74 ms and gradients of 10.0x it (67 ms).",
        "Outside `../shared` (one `odesens petab --gradient --threads 2` each, old and new",
        "builds): Isensee_JCB2018 (123 experiments after one condition) 2.16 -> 0.49 s,",
        "Raimundez_PCB2020 (170 after four) 10.7 -> 1.29 s, nllh and gradient the same within",
        "1e-6. SalazarCavazos' 1.22 and 1.25 come with atol 1e-12: its odesd gradient takes",
        "2070 steps there against 1124 at 1e-10 (0.38 s against 0.22 s), cvodes_fsa's 3464",
        "against 2567 (0.32 s against 0.27 s; `odesens petab SalazarCavazos_MBoC2020.yaml",
        "--gradient --method M --atol A`, one run each), so odesd, which auto runs, is no",
        "longer the fastest there.",
    ]
    return lines + petab_sessions_lines()


def petab_sessions_lines():
    # BENCH_PETAB_SESSIONS_OUTPUT=FILE: the output of a run already made.
    saved = os.environ.get("BENCH_PETAB_SESSIONS_OUTPUT")
    out = (open(saved).read() if saved else subprocess.run(
        [os.path.join(build, "bin", "bench_petab"), "--sessions", "--repeats", "5"], check=True,
        capture_output=True, text=True).stdout).strip().split("\n")
    rows = [[c.strip() for c in l.strip().strip("|").split("|")] for l in out
            if l.startswith("| ") and not l.startswith("| problem")]
    ratios = sorted(float(r[7]) for r in rows if len(r) > 7 and r[7])
    sims = sorted(float(r[4]) for r in rows if len(r) > 4 and r[4])
    return [
        "",
        "### Evaluations in a prepared session (`bench_petab --sessions`)",
        "",
        "Command: `build/bin/bench_petab --sessions --repeats 5`, one run. A `PetabSession` keeps",
        "the method's set-up (CVODES memory, linear solver, sparse analysis) across experiments",
        "and evaluations, as every start of `odesens fit` now does; `fresh` is",
        "`PetabProblem::evaluate`, which sets the method up for each experiment anew. Medians of",
        "5 evaluations after a warm-up, one thread, cvodes_fsa at the default tolerances.",
        "",
    ] + out + [
        "",
        "Session / fresh: {:.2f}-{:.2f} (median {:.2f}) for a simulation, {:.2f}-{:.2f} (median".format(
            min(sims), max(sims), sims[len(sims) // 2], min(ratios), max(ratios)) +
        " {:.2f}) for a forward gradient; ratios above 1 are the machine's noise.".format(
            ratios[len(ratios) // 2]),
        "The goal of sessions, set-up done once, holds, but the set-up is a small share of an",
        "evaluation on these models (at most a few hundred states, so CVODES' memory, the dense",
        "or KLU set-up and the model's workspace are cheap next to the solve): what a fit",
        "evaluation costs is the solve itself. The most is saved on the smallest problems,",
        "where the set-up is the largest share of a simulation.",
    ]


# What the per-start ends (bench_fit --details) of the run of 2026-12-01
# showed: text, like the other sections' goal notes.
FIT_NOTES = """\
This run is the first since `ceres_lm` simulates each point once (docs/fit.md,
"Evaluations"): converged starts per CPU minute 6.6 -> 8.1 with ceres_lm on Boehm and
9.1 -> 17.1 on Bruno against the run before, where each point Ceres asked for was
simulated; Boehm's ceres_lm starts at the reference 1 -> 2, its CPU time 9.1 -> 14.8 s
(other paths: more starts run to the end). The starts' ends described next are of the
run before.

What the starts' ends show (the same run with `--details`): on Boehm 5 of the 10 ceres_lm
starts and 8 of the 10 nlopt_lbfgs starts end in the local optimum at nllh 249.746 (the one
L-BFGS-B also finds from far starts, docs/python.md); ceres_lm's other five end at 138.222
(the reference), 145.759, 147.544, 149.588 and 152.527 (the last at the limit of 1000
iterations), nlopt_lbfgs's two at 145.759 and 166.421. The run before (2026-12-01, earlier)
had one more ceres_lm start at the reference and nlopt_lbfgs's 156.342 for 145.759; the
build before this run's changes (interrupts, docs/fit.md) gives this run's ends start for
start, so the change came with earlier ones. On Bruno every nlopt_lbfgs
start stops between nllh 721 and 2537, far from any optimum ceres_lm finds from the same
points, all by its relative-change rule (a step that changes nlpost by less than 1e-8 of
it; docs/fit.md), met before the gradient rule. On Crauste 4 of the 10 start points cannot
be simulated (a quarter of its box, docs/fit.md), and none of the other 6 reaches the
reference with any optimizer; the 40-start runs below do.

ceres_lm_lbfgs (what `auto` runs) ends where ceres_lm does on all three problems here, at
1.00-1.03 times its CPU time: its L-BFGS stops at once or after a few evaluations where LM
ended near a stationary point. Where LM stops far from one it goes on: on Elowitz (below,
and docs/fit.md) every LM end had a projected gradient of 0.002 to 8, and L-BFGS took 33
of 35 ends below 0.045, at 1.17 times the CPU time. With these stopping rules a method on
the residuals is the one to use on these problems; nlopt_lbfgs alone finds no reference.

Since the run before (2026-11-29), PEtab solves compute S only for the parameters that
estimated ones set (docs/petab.md), which is most of the change in the times: one
measurement (`odesens fit Bruno_JExpBot2016.yaml --starts 6 --seed 3 --threads 1`, one run
each) took 30.2 s before, 13.4 s after (Bruno's S has 13 columns instead of 30)."""


# The other shared problems: bench_fit runs of 2026-12-01, one per command
# (an hour of CPU together), kept as recorded rather than run again here.
FIT_ALL_RUNS = [
    ("nice build/bin/bench_fit --starts 20 --problems Perelson_Science1996,Rahman_MBS2016,Okuonghae_ChaosSolitonsFractals2020,Oliveira_NatCommun2021,Armistead_CellDeathDis2024,Weber_BMC2015 --optimizers ceres_lm_lbfgs,nlopt_lbfgs --max-seconds 60",
     """\
| Perelson_Science1996 | ceres_lm_lbfgs | 20 | 2 | 10 | 0.50 | 213.97 | 222.281 | 432.039 | yes | 0.1 | 2.8 |
| Perelson_Science1996 | nlopt_lbfgs | 20 | 2 | 2 | 0.10 | 105.36 | 222.281 | 432.039 | yes | 0.1 | 1.1 |
| Rahman_MBS2016 | ceres_lm_lbfgs | 20 | 0 | 11 | 0.55 | 4.35 | 21.153 | 21.153 | yes | 8.0 | 151.6 |
| Rahman_MBS2016 | nlopt_lbfgs | 20 | 0 | 13 | 0.65 | 36.48 | 21.154 | 21.153 | yes | 0.9 | 21.4 |
| Okuonghae_ChaosSolitonsFractals2020 | ceres_lm_lbfgs | 20 | 0 | 1 | 0.05 | 0.14 | 376.442 | 470490.428 | yes | 24.6 | 443.4 |
| Okuonghae_ChaosSolitonsFractals2020 | nlopt_lbfgs | 20 | 0 | 0 | 0.00 | 0.00 | 438.861 | 470490.428 | yes | 0.7 | 65.4 |
| Oliveira_NatCommun2021 | ceres_lm_lbfgs | 20 | 0 | 1 | 0.05 | 0.29 | 7904.946 | 9623401.053 | yes | 15.4 | 209.8 |
| Oliveira_NatCommun2021 | nlopt_lbfgs | 20 | 0 | 0 | 0.00 | 0.00 | 7944.795 | 9623401.053 | yes | 0.8 | 24.7 |
| Armistead_CellDeathDis2024 | ceres_lm_lbfgs | 20 | 0 | 13 | 0.65 | 9.53 | -301.916 | -301.916 | yes | 3.0 | 81.9 |
| Armistead_CellDeathDis2024 | nlopt_lbfgs | 20 | 0 | 9 | 0.45 | 44.11 | -301.916 | -301.916 | yes | 0.6 | 12.2 |
| Weber_BMC2015 | ceres_lm_lbfgs | 20 | 2 | 1 | 0.05 | 0.07 | 373.435 | 296.202 | no | 60.1 | 829.9 |
| Weber_BMC2015 | nlopt_lbfgs | 20 | 2 | 0 | 0.00 | 0.00 | 375.345 | 296.202 | no | 8.5 | 410.6 |
"""),
    ("nice build/bin/bench_fit --starts 10 --problems Bertozzi_PNAS2020,Zheng_PNAS2012,Raia_CancerResearch2011,Schwen_PONE2014,SalazarCavazos_MBoC2020,Laske_PLOSComputBiol2019,Brannmark_JBC2010,Beer_MolBioSystems2014 --optimizers ceres_lm_lbfgs,nlopt_lbfgs --max-seconds 60",
     """\
| Bertozzi_PNAS2020 | ceres_lm_lbfgs | 10 | 0 | 10 | 1.00 | 500.98 | 158.864 | 158.864 | yes | 0.1 | 1.2 |
| Bertozzi_PNAS2020 | nlopt_lbfgs | 10 | 0 | 10 | 1.00 | 1902.48 | 158.866 | 158.864 | yes | 0.0 | 0.3 |
| Zheng_PNAS2012 | ceres_lm_lbfgs | 10 | 0 | 0 | 0.00 | 0.00 | -256.883 | -278.334 | no | 36.6 | 208.5 |
| Zheng_PNAS2012 | nlopt_lbfgs | 10 | 0 | 1 | 0.10 | 0.74 | -272.461 | -278.334 | no | 7.0 | 80.9 |
| Raia_CancerResearch2011 | ceres_lm_lbfgs | 10 | 0 | 1 | 0.10 | 0.10 | 350.269 | 346.090 | no | 60.2 | 586.0 |
| Raia_CancerResearch2011 | nlopt_lbfgs | 10 | 0 | 0 | 0.00 | 0.00 | 391.847 | 346.090 | no | 27.3 | 295.5 |
| Schwen_PONE2014 | ceres_lm_lbfgs | 10 | 0 | 0 | 0.00 | 0.00 | 941.966 | 943.999 | yes | 60.3 | 547.3 |
| Schwen_PONE2014 | nlopt_lbfgs | 10 | 0 | 1 | 0.10 | 0.13 | 940.693 | 943.999 | yes | 48.1 | 449.9 |
| SalazarCavazos_MBoC2020 | ceres_lm_lbfgs | 10 | 0 | 4 | 0.40 | 0.42 | 366.862 | 367.188 | yes | 60.4 | 574.7 |
| SalazarCavazos_MBoC2020 | nlopt_lbfgs | 10 | 0 | 1 | 0.10 | 0.26 | 366.862 | 367.188 | yes | 23.5 | 228.0 |
| Laske_PLOSComputBiol2019 | ceres_lm_lbfgs | 10 | 1 | 1 | 0.10 | 0.12 | 290.184 | 315.906 | yes | 57.6 | 514.1 |
| Laske_PLOSComputBiol2019 | nlopt_lbfgs | 10 | 1 | 0 | 0.00 | 0.00 | 344.421 | 315.906 | no | 30.7 | 344.1 |
| Brannmark_JBC2010 | ceres_lm_lbfgs | 10 | 0 | 0 | 0.00 | 0.00 | 207.123 | 141.889 | no | 62.7 | 632.3 |
| Brannmark_JBC2010 | nlopt_lbfgs | 10 | 0 | 1 | 0.10 | 0.12 | 172.591 | 141.889 | no | 61.3 | 511.5 |
| Beer_MolBioSystems2014 | ceres_lm_lbfgs | 10 | 0 | 1 | 0.10 | 0.10 | -10703.527 | -58622.912 | no | 60.2 | 585.5 |
| Beer_MolBioSystems2014 | nlopt_lbfgs | 10 | 0 | 0 | 0.00 | 0.00 | -1047.264 | -58622.912 | no | 42.6 | 392.2 |
"""),
    ("nice build/bin/bench_fit --starts 4 --problems Raia_CancerResearch2011,Brannmark_JBC2010 --optimizers ceres_lm_lbfgs --max-seconds 300",
     """\
| Raia_CancerResearch2011 | ceres_lm_lbfgs | 4 | 0 | 2 | 0.50 | 0.27 | 351.892 | 346.090 | no | 112.8 | 445.9 |
| Brannmark_JBC2010 | ceres_lm_lbfgs | 4 | 0 | 1 | 0.25 | 0.05 | 191.956 | 141.889 | no | 301.4 | 1139.9 |
"""),
    ("nice build/bin/bench_fit --starts 2 --problems Bachmann_MSB2011,Lucarelli_CellSystems2018 --optimizers ceres_lm_lbfgs --max-seconds 300",
     """\
| Bachmann_MSB2011 | ceres_lm_lbfgs | 2 | 0 | 1 | 0.50 | 0.10 | -247.527 | -418.406 | no | 313.0 | 624.0 |
| Lucarelli_CellSystems2018 | ceres_lm_lbfgs | 2 | 0 | 1 | 0.50 | 0.10 | 6116.982 | 1681.606 | no | 309.1 | 616.3 |
"""),
    # The three problems with pre-equilibration, again after the steady-state
    # changes of 2026-12-02 (rows labelled "steady states 12-02").
    ("nice build/bin/bench_fit --starts 20 --problems Weber_BMC2015 --optimizers ceres_lm_lbfgs,nlopt_lbfgs --max-seconds 60",
     """\
| Weber_BMC2015 | ceres_lm_lbfgs | 20 | 1 | 1 | 0.05 | 0.11 | 343.357 | 296.202 | no | 20.7 | 522.6 |
| Weber_BMC2015 | nlopt_lbfgs | 20 | 1 | 0 | 0.00 | 0.00 | 373.808 | 296.202 | no | 17.5 | 118.0 |
"""),
    ("nice build/bin/bench_fit --starts 10 --problems Brannmark_JBC2010,Zheng_PNAS2012 --optimizers ceres_lm_lbfgs,nlopt_lbfgs --max-seconds 60",
     """\
| Brannmark_JBC2010 | ceres_lm_lbfgs | 10 | 0 | 1 | 0.10 | 0.12 | 160.227 | 141.889 | no | 60.2 | 511.4 |
| Brannmark_JBC2010 | nlopt_lbfgs | 10 | 0 | 0 | 0.00 | 0.00 | 172.544 | 141.889 | no | 20.8 | 222.4 |
| Zheng_PNAS2012 | ceres_lm_lbfgs | 10 | 0 | 1 | 0.10 | 0.29 | -284.172 | -278.334 | yes | 21.5 | 210.5 |
| Zheng_PNAS2012 | nlopt_lbfgs | 10 | 0 | 0 | 0.00 | 0.00 | -227.962 | -278.334 | no | 6.5 | 60.7 |
"""),
    # The problems still missed, again after PEtab's auto took odesd for S
    # (rows labelled "odesd 12-02"): the same starts.
    # Its Beer row is left out: builds took CPU beside it (304 s of CPU for
    # ten starts of 60 s); the run after the next two is Beer alone.
    ("nice build/bin/bench_fit --starts 10 --problems Raia_CancerResearch2011,Brannmark_JBC2010,Beer_MolBioSystems2014 --optimizers ceres_lm_lbfgs --max-seconds 60",
     """\
| Raia_CancerResearch2011 | ceres_lm_lbfgs | 10 | 0 | 1 | 0.10 | 0.14 | 375.918 | 346.090 | no | 49.3 | 437.0 |
| Brannmark_JBC2010 | ceres_lm_lbfgs | 10 | 0 | 1 | 0.10 | 0.11 | 160.078 | 141.889 | no | 60.2 | 536.6 |
"""),
    ("nice build/bin/bench_fit --starts 20 --problems Weber_BMC2015 --optimizers ceres_lm_lbfgs --max-seconds 60",
     """\
| Weber_BMC2015 | ceres_lm_lbfgs | 20 | 2 | 1 | 0.05 | 0.11 | 368.355 | 296.202 | no | 16.2 | 546.4 |
"""),
    ("nice build/bin/bench_fit --starts 2 --problems Bachmann_MSB2011,Lucarelli_CellSystems2018 --optimizers ceres_lm_lbfgs --max-seconds 300",
     """\
| Bachmann_MSB2011 | ceres_lm_lbfgs | 2 | 0 | 1 | 0.50 | 0.10 | -268.554 | -418.406 | no | 300.6 | 597.4 |
| Lucarelli_CellSystems2018 | ceres_lm_lbfgs | 2 | 0 | 1 | 0.50 | 0.10 | 14179.179 | 1681.606 | no | 305.1 | 606.4 |
"""),
    ("nice build/bin/bench_fit --starts 10 --problems Beer_MolBioSystems2014 --optimizers ceres_lm_lbfgs --max-seconds 60",
     """\
| Beer_MolBioSystems2014 | ceres_lm_lbfgs | 10 | 0 | 1 | 0.10 | 0.10 | -4100.694 | -58622.914 | no | 60.2 | 583.5 |
"""),
]

FIT_ALL_RUNS += [
    # The problems still missed, again since ceres_lm simulates each point
    # once (rows labelled "cache 12-02"): the same commands and starts.
    ("nice build/bin/bench_fit --starts 10 --problems Raia_CancerResearch2011,Brannmark_JBC2010,Beer_MolBioSystems2014 --optimizers ceres_lm_lbfgs --max-seconds 60",
     """\
| Raia_CancerResearch2011 | ceres_lm_lbfgs | 10 | 0 | 1 | 0.10 | 0.19 | 350.270 | 346.090 | no | 30.9 | 310.8 |
| Brannmark_JBC2010 | ceres_lm_lbfgs | 10 | 0 | 1 | 0.10 | 0.12 | 159.094 | 141.889 | no | 57.5 | 500.8 |
| Beer_MolBioSystems2014 | ceres_lm_lbfgs | 10 | 0 | 1 | 0.10 | 0.12 | -7280.530 | -58622.914 | no | 59.8 | 481.0 |
"""),
    ("nice build/bin/bench_fit --starts 20 --problems Weber_BMC2015 --optimizers ceres_lm_lbfgs --max-seconds 60",
     """\
| Weber_BMC2015 | ceres_lm_lbfgs | 20 | 2 | 1 | 0.05 | 0.10 | 357.582 | 296.202 | no | 21.7 | 579.3 |
"""),
    ("nice build/bin/bench_fit --starts 2 --problems Bachmann_MSB2011,Lucarelli_CellSystems2018 --optimizers ceres_lm_lbfgs --max-seconds 300",
     """\
| Bachmann_MSB2011 | ceres_lm_lbfgs | 2 | 0 | 1 | 0.50 | 0.11 | -268.796 | -418.406 | no | 286.9 | 569.9 |
| Lucarelli_CellSystems2018 | ceres_lm_lbfgs | 2 | 0 | 1 | 0.50 | 0.10 | 2041.426 | 1681.606 | no | 304.5 | 606.3 |
"""),
]

FIT_ALL_RUNS += [
    # Since pre-equilibrations are shared by the experiments after them and
    # Newton takes conservation laws (rows labelled "laws 12-02"): Brannmark
    # with the same starts and with more, Weber (two experiments after one
    # condition, no laws) with the same.
    ("nice build/bin/bench_fit --starts 10 --problems Brannmark_JBC2010 --optimizers ceres_lm_lbfgs --max-seconds 60",
     """\
| Brannmark_JBC2010 | ceres_lm_lbfgs | 10 | 0 | 2 | 0.20 | 0.46 | 142.148 | 141.889 | no | 18.3 | 260.6 |
"""),
    ("nice build/bin/bench_fit --starts 20 --seed 2 --problems Brannmark_JBC2010 --optimizers ceres_lm_lbfgs --max-seconds 60",
     """\
| Brannmark_JBC2010 | ceres_lm_lbfgs | 20 | 1 | 1 | 0.05 | 0.13 | 142.225 | 141.889 | no | 9.9 | 468.1 |
"""),
    ("nice build/bin/bench_fit --starts 60 --seed 3 --problems Brannmark_JBC2010 --optimizers ceres_lm_lbfgs --max-seconds 60",
     """\
| Brannmark_JBC2010 | ceres_lm_lbfgs | 60 | 0 | 1 | 0.02 | 0.03 | 146.310 | 141.889 | no | 19.2 | 1718.2 |
"""),
    ("nice build/bin/bench_fit --starts 20 --problems Weber_BMC2015 --optimizers ceres_lm_lbfgs --max-seconds 60",
     """\
| Weber_BMC2015 | ceres_lm_lbfgs | 20 | 2 | 1 | 0.05 | 0.10 | 357.582 | 296.202 | no | 21.8 | 580.2 |
"""),
    # The build of the session's end: Newton takes no laws where f reads t.
    ("nice build/bin/bench_fit --starts 10 --problems Brannmark_JBC2010 --optimizers ceres_lm_lbfgs --max-seconds 60",
     """\
| Brannmark_JBC2010 | ceres_lm_lbfgs | 10 | 0 | 1 | 0.10 | 0.20 | 159.093 | 141.889 | no | 27.6 | 293.0 |
""", "laws, no Newton where f reads t, 12-02"),
    # Since f's reading of t is judged at the condition's parameters: an
    # input whose dose is 0 (Brannmark's Dose_0) leaves Newton its laws.
    ("nice build/bin/bench_fit --starts 10 --problems Brannmark_JBC2010 --optimizers ceres_lm_lbfgs --max-seconds 60",
     """\
| Brannmark_JBC2010 | ceres_lm_lbfgs | 10 | 0 | 1 | 0.10 | 0.21 | 144.123 | 141.889 | no | 26.8 | 283.4 |
""", "dose 0 read, 12-02"),
    ("nice build/bin/bench_fit --starts 30 --seed 4 --problems Brannmark_JBC2010 --optimizers ceres_lm_lbfgs --max-seconds 60",
     """\
| Brannmark_JBC2010 | ceres_lm_lbfgs | 30 | 1 | 1 | 0.03 | 0.08 | 142.964 | 141.889 | no | 14.6 | 708.3 |
""", "dose 0 read, 12-02"),
    # Since ceres_lm_lbfgs runs LM and L-BFGS again while a cycle lowers
    # nlpost (docs/fit.md): the same 10 starts.
    ("nice build/bin/bench_fit --starts 10 --problems Raia_CancerResearch2011,Brannmark_JBC2010 --optimizers ceres_lm_lbfgs --max-seconds 60",
     """\
| Raia_CancerResearch2011 | ceres_lm_lbfgs | 10 | 0 | 1 | 0.10 | 0.17 | 350.270 | 346.090 | no | 31.7 | 350.2 |
| Brannmark_JBC2010 | ceres_lm_lbfgs | 10 | 0 | 1 | 0.10 | 0.20 | 142.225 | 141.889 | no | 27.2 | 302.8 |
""", "cycles, 12-02"),
    # PEtab's auto gives odesd 10 000 steps an experiment (docs/petab.md): each
    # command with the limit, and with the same build and the limit set out of
    # reach (kAutoOdesdSteps = 1e11).
    ("build/bin/bench_fit --starts 6 --problems Weber_BMC2015 --optimizers ceres_lm_lbfgs --max-seconds 60 --threads 2 --details",
     """\
| Weber_BMC2015 | ceres_lm_lbfgs | 6 | 0 | 1 | 0.17 | 0.41 | 335.034 | 296.202 | no | 10.2 | 148.1 |
""", "odesd without a step limit, 12-03"),
    ("build/bin/bench_fit --starts 6 --problems Weber_BMC2015 --optimizers ceres_lm_lbfgs --max-seconds 60 --threads 2 --details",
     """\
| Weber_BMC2015 | ceres_lm_lbfgs | 6 | 0 | 1 | 0.17 | 0.40 | 335.034 | 296.202 | no | 11.1 | 148.9 |
""", "odesd step limit, 12-03"),
    ("build/bin/bench_fit --starts 10 --problems Raia_CancerResearch2011 --optimizers ceres_lm_lbfgs --max-seconds 60 --threads 2 --details",
     """\
| Raia_CancerResearch2011 | ceres_lm_lbfgs | 10 | 0 | 1 | 0.10 | 0.25 | 374.664 | 346.090 | no | 24.7 | 236.5 |
""", "odesd without a step limit, 12-03"),
    ("build/bin/bench_fit --starts 10 --problems Raia_CancerResearch2011,Brannmark_JBC2010 --optimizers ceres_lm_lbfgs --max-seconds 60 --threads 2",
     """\
| Raia_CancerResearch2011 | ceres_lm_lbfgs | 10 | 0 | 1 | 0.10 | 0.25 | 374.664 | 346.090 | no | 24.2 | 242.3 |
| Brannmark_JBC2010 | ceres_lm_lbfgs | 10 | 0 | 1 | 0.10 | 0.34 | 147.416 | 141.889 | no | 12.4 | 176.6 |
""", "odesd step limit, 12-03"),
    ("build/bin/bench_fit --starts 10 --problems Brannmark_JBC2010 --optimizers ceres_lm_lbfgs --max-seconds 60 --threads 2",
     """\
| Brannmark_JBC2010 | ceres_lm_lbfgs | 10 | 0 | 1 | 0.10 | 0.31 | 147.416 | 141.889 | no | 11.3 | 192.9 |
""", "odesd without a step limit, 12-03"),
    # More starts (another seed) on the problems still missed, with the
    # build of 2026-12-03 (rows "40 starts, 12-03").
    ("nice build/bin/bench_fit --starts 40 --seed 5 --problems Raia_CancerResearch2011 --optimizers ceres_lm_lbfgs --max-seconds 60 --threads 2 --details",
     """\
| Raia_CancerResearch2011 | ceres_lm_lbfgs | 40 | 0 | 3 | 0.07 | 0.20 | 345.310 | 346.090 | yes | 21.3 | 885.2 |
""", "40 starts, 12-03"),
    ("nice build/bin/bench_fit --starts 40 --seed 5 --problems Brannmark_JBC2010 --optimizers ceres_lm_lbfgs --max-seconds 60 --threads 2 --details",
     """\
| Brannmark_JBC2010 | ceres_lm_lbfgs | 40 | 1 | 1 | 0.03 | 0.07 | 144.608 | 141.889 | no | 9.6 | 896.8 |
""", "40 starts, 12-03"),
    ("nice build/bin/bench_fit --starts 40 --seed 5 --problems Weber_BMC2015 --optimizers ceres_lm_lbfgs --max-seconds 60 --threads 2 --details",
     """\
| Weber_BMC2015 | ceres_lm_lbfgs | 40 | 0 | 1 | 0.03 | 0.06 | 297.981 | 296.202 | no | 17.7 | 1025.4 |
""", "40 starts, 12-03"),
    # Brannmark with 100 starts of another seed (row "100 starts, 12-04").
    ("nice build/bin/bench_fit --starts 100 --seed 6 --problems Brannmark_JBC2010 --optimizers ceres_lm_lbfgs --max-seconds 60 --threads 2 --details",
     """\
| Brannmark_JBC2010 | ceres_lm_lbfgs | 100 | 1 | 1 | 0.01 | 0.03 | 143.789 | 141.889 | no | 14.7 | 2198.4 |
""", "100 starts, 12-04"),
    # Weber with 60 starts of another seed (row "60 starts, 12-04").
    ("nice build/bin/bench_fit --starts 60 --seed 6 --problems Weber_BMC2015 --optimizers ceres_lm_lbfgs --max-seconds 60 --threads 2 --details",
     """\
| Weber_BMC2015 | ceres_lm_lbfgs | 60 | 0 | 1 | 0.02 | 0.03 | 305.163 | 296.202 | no | 26.1 | 1816.6 |
""", "60 starts, 12-04"),
    # Beer with ten times the time a start (rows "600 s, 12-04").
    ("nice build/bin/bench_fit --starts 2 --problems Beer_MolBioSystems2014 --optimizers ceres_lm_lbfgs --max-seconds 600 --threads 2 --details",
     """\
| Beer_MolBioSystems2014 | ceres_lm_lbfgs | 2 | 0 | 1 | 0.50 | 0.29 | -11595.980 | -58622.914 | no | 105.8 | 207.7 |
""", "600 s, 12-04"),
    # Hierarchical fits (docs/fit.md) beside plain ones on the same starts
    # (rows "same starts, 12-04").
    ("build/bin/bench_fit --starts 30 --seed 6 --problems Brannmark_JBC2010,Weber_BMC2015 --optimizers ceres_lm_lbfgs,ceres_lm_lbfgs+hierarchical --max-seconds 60 --threads 2",
     """\
| Brannmark_JBC2010 | ceres_lm_lbfgs | 30 | 0 | 1 | 0.03 | 0.09 | 143.740 | 141.889 | no | 22.1 | 691.3 |
| Brannmark_JBC2010 | ceres_lm_lbfgs+hierarchical | 30 | 0 | 0 | 0.00 | 0.00 | 146.682 | 141.889 | no | 7.4 | 388.3 |
| Weber_BMC2015 | ceres_lm_lbfgs | 30 | 0 | 0 | 0.00 | 0.00 | 300.845 | 296.202 | no | 29.5 | 977.2 |
| Weber_BMC2015 | ceres_lm_lbfgs+hierarchical | 30 | 0 | 1 | 0.03 | 0.04 | 297.755 | 296.202 | no | 60.1 | 1503.4 |
""", "same starts, 12-04"),
    ("build/bin/bench_fit --starts 2 --seed 1 --problems Bachmann_MSB2011,Lucarelli_CellSystems2018 --optimizers ceres_lm_lbfgs,ceres_lm_lbfgs+hierarchical --max-seconds 300 --threads 2 --details",
     """\
| Bachmann_MSB2011 | ceres_lm_lbfgs | 2 | 0 | 0 | 0.00 | 0.00 | -293.887 | -418.406 | no | 293.4 | 581.6 |
| Bachmann_MSB2011 | ceres_lm_lbfgs+hierarchical | 2 | 0 | 1 | 0.50 | 0.11 | -402.738 | -418.406 | no | 278.3 | 554.6 |
| Lucarelli_CellSystems2018 | ceres_lm_lbfgs | 2 | 0 | 1 | 0.50 | 0.10 | 1945.132 | 1681.606 | no | 300.8 | 599.2 |
| Lucarelli_CellSystems2018 | ceres_lm_lbfgs+hierarchical | 2 | 0 | 0 | 0.00 | 0.00 | 4839.354 | 1681.606 | no | 305.9 | 609.7 |
""", "same starts, 12-04"),
    ("build/bin/bench_fit --starts 2 --seed 1 --problems Beer_MolBioSystems2014 --optimizers ceres_lm_lbfgs+hierarchical --max-seconds 600 --threads 2 --details",
     """\
| Beer_MolBioSystems2014 | ceres_lm_lbfgs+hierarchical | 2 | 0 | 1 | 0.50 | 0.27 | -11569.119 | -58622.914 | no | 131.2 | 219.9 |
""", "600 s, same starts as 600 s, 12-04"),
    ("nice build/bin/bench_fit --starts 80 --seed 7 --problems Weber_BMC2015 --optimizers ceres_lm_lbfgs+hierarchical --max-seconds 60 --threads 2 --details",
     """\
| Weber_BMC2015 | ceres_lm_lbfgs+hierarchical | 80 | 0 | 1 | 0.01 | 0.02 | 298.301 | 296.202 | no | 60.0 | 2627.2 |
""", "80 starts, seed 7, 12-04"),
    # Lang: the adjoint's gradient alone (the residuals' Jacobian, forward,
    # takes 10 minutes an evaluation), so NLopt's L-BFGS; odesens fit, whose
    # summary has the columns bench_fit prints.
    ("nice build/bin/odesens fit Lang_PLOSComputBiol2024.yaml --starts 2 --seed 1 --threads 2 --optimizer nlopt_lbfgs --max-seconds-per-start 4200",
     """\
| Lang_PLOSComputBiol2024 | nlopt_lbfgs | 2 | 0 | 1 | 0.50 | 0.09 | 144336.678 | -2741.696 | no | 339.7 | 679.5 |
""", "4200 s, 12-04"),
    # L-BFGS-B beside NLopt's L-BFGS (one start a core while a Lang fit ran
    # on the other). Boehm and Bruno, of the first table, are in the note:
    # the goal lines below count this table's problems.
    ("nice build/bin/bench_fit --starts 10 --problems Boehm_JProteomeRes2014,Bruno_JExpBot2016,Rahman_MBS2016,Armistead_CellDeathDis2024,Perelson_Science1996,Bertozzi_PNAS2020 --optimizers nlopt_lbfgs,lbfgsb --threads 1 --max-seconds 60",
     """\
| Rahman_MBS2016 | nlopt_lbfgs | 10 | 0 | 7 | 0.70 | 228.73 | 21.153 | 21.153 | yes | 0.2 | 1.8 |
| Rahman_MBS2016 | lbfgsb | 10 | 0 | 5 | 0.50 | 211.31 | 21.153 | 21.153 | yes | 0.1 | 1.4 |
| Armistead_CellDeathDis2024 | nlopt_lbfgs | 10 | 0 | 3 | 0.30 | 84.28 | -301.916 | -301.916 | yes | 0.2 | 2.1 |
| Armistead_CellDeathDis2024 | lbfgsb | 10 | 0 | 1 | 0.10 | 32.49 | -301.916 | -301.916 | yes | 0.2 | 1.8 |
| Perelson_Science1996 | nlopt_lbfgs | 10 | 0 | 3 | 0.30 | 967.48 | 222.281 | 432.039 | yes | 0.0 | 0.2 |
| Perelson_Science1996 | lbfgsb | 10 | 0 | 3 | 0.30 | 252.02 | 222.281 | 432.039 | yes | 0.0 | 0.7 |
| Bertozzi_PNAS2020 | nlopt_lbfgs | 10 | 0 | 10 | 1.00 | 8622.92 | 158.866 | 158.864 | yes | 0.0 | 0.1 |
| Bertozzi_PNAS2020 | lbfgsb | 10 | 0 | 10 | 1.00 | 8778.48 | 158.867 | 158.864 | yes | 0.0 | 0.1 |
""", "side by side, 12-05"),
    # SciPy's trust-region reflective (Python's Problem.fit(optimizer=
    # "scipy_trf")) beside ceres_lm_lbfgs, from the same starts, in one run
    # (benchmarks/bench_fit_scipy.py; docs/fit.md, "Which optimizer, by
    # measurement").
    ("PYTHONPATH=build/python nice /usr/bin/python3 benchmarks/bench_fit_scipy.py --starts 20 --seed 1 --threads 2 --max-seconds 30 --problems Bruno_JExpBot2016,Boehm_JProteomeRes2014,Crauste_CellSystems2017,Elowitz_Nature2000,Zheng_PNAS2012,Rahman_MBS2016,Armistead_CellDeathDis2024,Perelson_Science1996,Bertozzi_PNAS2020,Okuonghae_ChaosSolitonsFractals2020,Oliveira_NatCommun2021,Raia_CancerResearch2011,Weber_BMC2015,Brannmark_JBC2010",
     """\
| Bruno_JExpBot2016 | scipy_trf | 20 | 0 | 14 | 0.70 | 412.23 | -46.688 | -46.688 | yes | 0.3 | 2.0 |
| Bruno_JExpBot2016 | ceres_lm_lbfgs | 20 | 0 | 8 | 0.40 | 46.76 | -46.688 | -46.688 | yes | 1.5 | 10.3 |
| Boehm_JProteomeRes2014 | scipy_trf | 20 | 0 | 0 | 0.00 | 0.00 | 145.760 | 138.222 | no | 5.2 | 29.0 |
| Boehm_JProteomeRes2014 | ceres_lm_lbfgs | 20 | 0 | 3 | 0.15 | 21.95 | 138.222 | 138.222 | yes | 3.1 | 8.2 |
| Crauste_CellSystems2017 | scipy_trf | 20 | 6 | 1 | 0.05 | 7.55 | 275.176 | 190.965 | no | 1.4 | 8.0 |
| Crauste_CellSystems2017 | ceres_lm_lbfgs | 20 | 6 | 0 | 0.00 | 0.00 | 291.729 | 190.965 | no | 9.4 | 42.6 |
| Elowitz_Nature2000 | scipy_trf | 20 | 2 | 1 | 0.05 | 1.98 | -55.863 | -63.203 | no | 2.8 | 30.3 |
| Elowitz_Nature2000 | ceres_lm_lbfgs | 20 | 2 | 0 | 0.00 | 0.00 | -19.539 | -63.203 | no | 5.2 | 29.2 |
| Zheng_PNAS2012 | scipy_trf | 20 | 0 | 1 | 0.05 | 2.04 | -289.275 | -278.334 | yes | 3.7 | 29.4 |
| Zheng_PNAS2012 | ceres_lm_lbfgs | 20 | 0 | 0 | 0.00 | 0.00 | -278.540 | -278.334 | yes | 6.1 | 70.4 |
| Rahman_MBS2016 | scipy_trf | 20 | 0 | 20 | 1.00 | 31.22 | 21.153 | 21.153 | yes | 2.2 | 38.4 |
| Rahman_MBS2016 | ceres_lm_lbfgs | 20 | 0 | 19 | 0.95 | 12.93 | 21.155 | 21.153 | yes | 4.3 | 88.2 |
| Armistead_CellDeathDis2024 | scipy_trf | 20 | 0 | 18 | 0.90 | 34.37 | -301.916 | -301.916 | yes | 0.9 | 31.4 |
| Armistead_CellDeathDis2024 | ceres_lm_lbfgs | 20 | 0 | 15 | 0.75 | 19.22 | -301.916 | -301.916 | yes | 1.5 | 46.8 |
| Perelson_Science1996 | scipy_trf | 20 | 2 | 7 | 0.35 | 262.18 | 222.281 | 432.039 | yes | 0.1 | 1.6 |
| Perelson_Science1996 | ceres_lm_lbfgs | 20 | 2 | 10 | 0.50 | 150.80 | 222.281 | 432.039 | yes | 0.2 | 4.0 |
| Bertozzi_PNAS2020 | scipy_trf | 20 | 0 | 20 | 1.00 | 1883.71 | 158.864 | 158.864 | yes | 0.0 | 0.6 |
| Bertozzi_PNAS2020 | ceres_lm_lbfgs | 20 | 0 | 20 | 1.00 | 660.89 | 158.864 | 158.864 | yes | 0.1 | 1.8 |
| Okuonghae_ChaosSolitonsFractals2020 | scipy_trf | 20 | 0 | 1 | 0.05 | 0.70 | 373.938 | 470490.760 | yes | 2.6 | 85.7 |
| Okuonghae_ChaosSolitonsFractals2020 | ceres_lm_lbfgs | 20 | 0 | 0 | 0.00 | 0.00 | 386.829 | 470490.760 | yes | 3.2 | 115.3 |
| Oliveira_NatCommun2021 | scipy_trf | 20 | 0 | 2 | 0.10 | 2.45 | 7904.964 | 9623390.555 | yes | 2.3 | 49.0 |
| Oliveira_NatCommun2021 | ceres_lm_lbfgs | 20 | 0 | 1 | 0.05 | 0.60 | 7904.946 | 9623390.555 | yes | 5.2 | 99.7 |
| Raia_CancerResearch2011 | scipy_trf | 20 | 0 | 1 | 0.05 | 0.18 | 345.322 | 346.090 | yes | 15.1 | 326.3 |
| Raia_CancerResearch2011 | ceres_lm_lbfgs | 20 | 0 | 0 | 0.00 | 0.00 | 351.892 | 346.090 | no | 30.0 | 350.2 |
| Weber_BMC2015 | scipy_trf | 20 | 1 | 1 | 0.05 | 0.32 | 297.096 | 296.202 | no | 7.1 | 189.2 |
| Weber_BMC2015 | ceres_lm_lbfgs | 20 | 1 | 0 | 0.00 | 0.00 | 364.661 | 296.202 | no | 23.9 | 321.3 |
| Brannmark_JBC2010 | scipy_trf | 20 | 0 | 2 | 0.10 | 0.55 | 142.567 | 141.889 | no | 10.2 | 216.9 |
| Brannmark_JBC2010 | ceres_lm_lbfgs | 20 | 0 | 0 | 0.00 | 0.00 | 148.866 | 141.889 | no | 30.0 | 470.2 |
""", "scipy side by side, 12-06"),
    # scipy_trf alone on the problems ceres_lm_lbfgs missed (same program).
    ("PYTHONPATH=build/python nice /usr/bin/python3 benchmarks/bench_fit_scipy.py --threads 2 --optimizers scipy_trf --starts 100 --seed 2 --max-seconds 30 --problems Brannmark_JBC2010",
     """\
| Brannmark_JBC2010 | scipy_trf | 100 | 0 | 2 | 0.02 | 0.11 | 141.947 | 141.889 | yes | 6.4 | 1076.4 |
""", "100 starts, 12-06"),
    ("PYTHONPATH=build/python nice /usr/bin/python3 benchmarks/bench_fit_scipy.py --threads 2 --optimizers scipy_trf --starts 100 --seed 2 --max-seconds 30 --problems Weber_BMC2015",
     """\
| Weber_BMC2015 | scipy_trf | 100 | 1 | 1 | 0.01 | 0.05 | 297.097 | 296.202 | no | 9.8 | 1303.7 |
""", "100 starts, 12-06"),
    ("PYTHONPATH=build/python nice /usr/bin/python3 benchmarks/bench_fit_scipy.py --threads 2 --optimizers scipy_trf --starts 20 --seed 2 --max-seconds 60 --problems Beer_MolBioSystems2014",
     """\
| Beer_MolBioSystems2014 | scipy_trf | 20 | 0 | 1 | 0.05 | 0.08 | -22321.210 | -58622.914 | no | 60.0 | 708.7 |
""", "60 s, 12-06"),
    ("PYTHONPATH=build/python nice /usr/bin/python3 benchmarks/bench_fit_scipy.py --threads 2 --optimizers scipy_trf --starts 4 --seed 2 --max-seconds 300 --problems Bachmann_MSB2011,Lucarelli_CellSystems2018",
     """\
| Bachmann_MSB2011 | scipy_trf | 4 | 0 | 1 | 0.25 | 0.14 | -417.850 | -418.406 | no | 101.0 | 429.1 |
| Lucarelli_CellSystems2018 | scipy_trf | 4 | 0 | 1 | 0.25 | 0.12 | 1681.756 | 1681.606 | yes | 78.4 | 486.3 |
""", "12-06"),
    ("PYTHONPATH=build/python nice /usr/bin/python3 benchmarks/bench_fit_scipy.py --threads 2 --optimizers scipy_trf --starts 4 --seed 3 --max-seconds 300 --problems Bachmann_MSB2011",
     """\
| Bachmann_MSB2011 | scipy_trf | 4 | 0 | 1 | 0.25 | 0.25 | -417.854 | -418.406 | no | 63.3 | 236.0 |
""", "seed 3, 12-06"),
    ("PYTHONPATH=build/python nice /usr/bin/python3 benchmarks/bench_fit_scipy.py --threads 2 --optimizers scipy_trf --starts 8 --seed 4 --max-seconds 300 --problems Bachmann_MSB2011",
     """\
| Bachmann_MSB2011 | scipy_trf | 8 | 0 | 1 | 0.12 | 0.05 | -419.129 | -419.129 | yes | 165.4 | 1159.1 |
""", "seed 4, nlpost, 12-06"),
    ("PYTHONPATH=build/python nice /usr/bin/python3 benchmarks/bench_fit_scipy.py --threads 2 --optimizers scipy_trf --starts 300 --seed 3 --max-seconds 30 --problems Weber_BMC2015",
     """\
| Weber_BMC2015 | scipy_trf | 300 | 1 | 3 | 0.01 | 0.07 | 296.911 | 296.202 | no | 6.9 | 2719.5 |
""", "300 starts, seed 3, 12-06, beside other runs"),
    ("nice build/bin/bench_fit --starts 10 --problems Schwen_PONE2014 --optimizers ceres_lm_lbfgs,nlopt_lbfgs --max-seconds 60",
     """\
| Schwen_PONE2014 | ceres_lm_lbfgs | 10 | 0 | 1 | 0.10 | 0.33 | 952.422 | 956.518 | yes | 28.4 | 184.4 |
| Schwen_PONE2014 | nlopt_lbfgs | 10 | 0 | 0 | 0.00 | 0.00 | 953.849 | 956.518 | yes | 19.2 | 117.3 |
""", "nlpost, 12-06, beside other runs"),
    ("PYTHONPATH=build/python nice /usr/bin/python3 benchmarks/bench_fit_scipy.py --threads 2 --optimizers scipy_trf_lm_lbfgs --starts 100 --seed 2 --max-seconds 30 --problems Weber_BMC2015",
     """\
| Weber_BMC2015 | scipy_trf_lm_lbfgs | 100 | 1 | 1 | 0.01 | 0.03 | 297.097 | 296.202 | no | 29.1 | 1919.9 |
""", "100 starts, 12-06"),
    # Hops (docs/fit.md, "Hops"): 40 starts of seed 5, then 12 rounds of 16.
    ("PYTHONPATH=build/python nice /usr/bin/python3 benchmarks/bench_fit_scipy.py --threads 2 --optimizers scipy_trf+hops --starts 232 --hops 12 --hop-starts 16 --seed 5 --max-seconds 30 --problems Weber_BMC2015",
     """\
| Weber_BMC2015 | scipy_trf+hops | 232 | 1 | 23 | 0.10 | 0.86 | 296.224 | 296.202 | yes | 4.3 | 1604.4 |
""", "40 starts and 12 x 16 hops, 12-06"),
    # ID+hops: 8 starts and 4 rounds of 8 hops against 40 starts (bench_fit).
    ("nice build/bin/bench_fit --starts 40 --seed 1 --threads 2 --problems Boehm_JProteomeRes2014,Bruno_JExpBot2016,Crauste_CellSystems2017 --optimizers ceres_lm_lbfgs,ceres_lm_lbfgs+hops --hops 4 --hop-starts 8 --max-seconds 30",
     """\
| Boehm_JProteomeRes2014 | ceres_lm_lbfgs | 40 | 0 | 5 | 0.12 | 5.90 | 138.222 | 138.222 | yes | 0.8 | 50.8 |
| Boehm_JProteomeRes2014 | ceres_lm_lbfgs+hops | 40 | 0 | 7 | 0.17 | 12.61 | 138.222 | 138.222 | yes | 0.8 | 33.3 |
| Bruno_JExpBot2016 | ceres_lm_lbfgs | 40 | 0 | 16 | 0.40 | 10.78 | -46.688 | -46.688 | yes | 1.5 | 89.1 |
| Bruno_JExpBot2016 | ceres_lm_lbfgs+hops | 40 | 0 | 19 | 0.47 | 34.23 | -46.688 | -46.688 | yes | 0.5 | 33.3 |
| Crauste_CellSystems2017 | ceres_lm_lbfgs | 40 | 10 | 1 | 0.03 | 0.17 | 190.995 | 190.965 | yes | 5.1 | 344.5 |
| Crauste_CellSystems2017 | ceres_lm_lbfgs+hops | 40 | 27 | 0 | 0.00 | 0.00 | 259.516 | 190.965 | no | 0.1 | 266.9 |
""", "hops side by side, 12-06"),
    ("nice build/bin/bench_fit --starts 40 --seed 1 --threads 2 --problems Crauste_CellSystems2017 --optimizers ceres_lm_lbfgs,ceres_lm_lbfgs+hops --hops 4 --hop-starts 8 --max-seconds 30 --resample-failed 5",
     """\
| Crauste_CellSystems2017 | ceres_lm_lbfgs | 40 | 1 | 1 | 0.03 | 0.13 | 190.995 | 190.965 | yes | 7.0 | 458.8 |
| Crauste_CellSystems2017 | ceres_lm_lbfgs+hops | 40 | 3 | 0 | 0.00 | 0.00 | 227.004 | 190.965 | no | 14.5 | 626.3 |
""", "hops side by side, drawn again, 12-06"),
    # Hops whose parameters without effect at the center are drawn from
    # their range (the default since) and, "+local", around the center: the
    # same 8 starts, 2 rounds of 8 hops each (docs/fit.md, "Hops").
    ("PYTHONPATH=build/python nice /usr/bin/python3 benchmarks/bench_fit_scipy.py --threads 2 --optimizers scipy_trf+hops,scipy_trf+hops+local --starts 24 --hops 2 --hop-starts 8 --seed 3 --max-seconds 60 --problems Beer_MolBioSystems2014",
     """\
| Beer_MolBioSystems2014 | scipy_trf+hops | 24 | 0 | 1 | 0.04 | 0.09 | -50279.447 | -58622.914 | no | 60.1 | 659.2 |
| Beer_MolBioSystems2014 | scipy_trf+hops+local | 24 | 0 | 0 | 0.00 | 0.00 | -28390.844 | -58622.914 | no | 53.5 | 622.3 |
""", "flat parameters from their range or not, 12-06, beside tests"),
    ("PYTHONPATH=build/python nice /usr/bin/python3 benchmarks/bench_fit_scipy.py --threads 2 --optimizers scipy_trf+hops --starts 56 --hops 6 --hop-starts 8 --seed 3 --max-seconds 60 --problems Beer_MolBioSystems2014",
     """\
| Beer_MolBioSystems2014 | scipy_trf+hops | 56 | 0 | 2 | 0.04 | 0.13 | -52244.354 | -58622.914 | no | 60.2 | 952.1 |
""", "8 starts and 6 x 8 hops, flat parameters from their range, 12-06, beside tests"),
    # The same command after hops redraw blocks (every second point one
    # block of parameters that only some experiments read, the default
    # since; docs/fit.md, "Hops").
    ("PYTHONPATH=build/python /usr/bin/python3 benchmarks/bench_fit_scipy.py --threads 2 --optimizers scipy_trf+hops --starts 56 --hops 6 --hop-starts 8 --seed 3 --max-seconds 60 --problems Beer_MolBioSystems2014",
     """\
| Beer_MolBioSystems2014 | scipy_trf+hops | 56 | 0 | 8 | 0.14 | 0.28 | -59558.510 | -58622.914 | yes | 41.0 | 1694.4 |
""", "8 starts and 6 x 8 hops, blocks, worst first each round, 12-07"),
    # Again after rounds without a new optimum went on down the blocks'
    # ranking (and the experiments reading a parameter were traced through
    # the model's expressions; Beer's blocks stayed the same).
    ("PYTHONPATH=build/python /usr/bin/python3 benchmarks/bench_fit_scipy.py --threads 2 --optimizers scipy_trf+hops --starts 56 --hops 6 --hop-starts 8 --seed 3 --max-seconds 60 --problems Beer_MolBioSystems2014",
     """\
| Beer_MolBioSystems2014 | scipy_trf+hops | 56 | 0 | 10 | 0.18 | 0.41 | -61867.218 | -58622.914 | yes | 25.3 | 1475.1 |
""", "8 starts and 6 x 8 hops, blocks, 12-07"),
    ("build/bin/bench_fit --starts 40 --seed 1 --threads 2 --problems Bruno_JExpBot2016,Bertozzi_PNAS2020 --optimizers ceres_lm_lbfgs+hops,ceres_lm_lbfgs+hops+noblocks --hops 4 --hop-starts 8 --max-seconds 30",
     """\
| Bruno_JExpBot2016 | ceres_lm_lbfgs+hops | 40 | 0 | 30 | 0.75 | 54.33 | -46.688 | -46.688 | yes | 0.2 | 33.1 |
| Bruno_JExpBot2016 | ceres_lm_lbfgs+hops+noblocks | 40 | 0 | 19 | 0.47 | 30.81 | -46.688 | -46.688 | yes | 0.5 | 37.0 |
| Bertozzi_PNAS2020 | ceres_lm_lbfgs+hops | 40 | 0 | 40 | 1.00 | 691.48 | 158.864 | 158.864 | yes | 0.1 | 3.5 |
| Bertozzi_PNAS2020 | ceres_lm_lbfgs+hops+noblocks | 40 | 0 | 40 | 1.00 | 719.55 | 158.864 | 158.864 | yes | 0.1 | 3.3 |
""", "blocks side by side, 12-07"),
]

# Runs from this index of FIT_ALL_RUNS on came after the steady-state changes.
FIT_STEADY_STATE_RUNS = 4
# Runs from this index on came after PEtab's auto took odesd (2026-12-02).
FIT_ODESD_RUNS = 6
# Runs from this index on came after ceres_lm simulated each point once.
FIT_CACHE_RUNS = 10
# Runs from this index on came after shared pre-equilibrations and Newton with
# conservation laws.
FIT_LAWS_RUNS = 13


def fit_all_problems_lines():
    lines = [
        "### Every shared problem (recorded runs, not regenerated)",
        "",
        "The shared problems beyond the three above, each with `ceres_lm_lbfgs` (what `auto`",
        "runs) and `nlopt_lbfgs` on the same Latin-hypercube starts (seed 1), each start on one",
        "thread, two at once, a wall-time limit of 60 s a start (`--max-seconds 60`, so that a",
        "few starts at points where one evaluation takes seconds do not take the run; `, 300 s`:",
        "a run with 300 s a start): one run of each command below on the 2 shared cores, nothing",
        "else running. Columns as above; `converged` counts within 0.1 of the best of its own run.",
        "The values are nlpost in the rows marked `nlpost` and nllh in the others; the two are",
        "the same on every problem without priors, all but Bachmann_MSB2011, Schwen_PONE2014 and",
        "Lang_PLOSComputBiol2024.",
        "",
    ]
    for run in FIT_ALL_RUNS:
        lines.append("- `{}`".format(run[0]))
    table = ["| problem | optimizer | starts | failed | converged | fraction | converged / CPU min | "
             "best value | reference | reached | median s / start | CPU s |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for index, run in enumerate(FIT_ALL_RUNS):
        command, rows = run[0], run[1]
        # A run that repeats problems (a longer limit, a later build): its rows say so.
        longer = "--max-seconds 300" in command
        for l in rows.strip().split("\n"):
            if l.startswith("|"):
                cells = l.split(" | ")
                if longer:
                    cells[1] += ", 300 s"
                if len(run) > 2:
                    cells[1] += ", " + run[2]
                elif index >= FIT_LAWS_RUNS:
                    cells[1] += ", laws 12-02"
                elif index >= FIT_CACHE_RUNS:
                    cells[1] += ", cache 12-02"
                elif index >= FIT_ODESD_RUNS:
                    cells[1] += ", odesd 12-02"
                elif index >= FIT_STEADY_STATE_RUNS:
                    cells[1] += ", steady states 12-02"
                table.append(" | ".join(cells))
    goal, _ = fit_goal_lines(table, FIT_REACHED_ELSEWHERE)
    return lines + [""] + table + ["", FIT_ALL_NOTES.rstrip("\n"), ""] + goal


FIT_ALL_NOTES = """\
**Goal (the reference reached on every shared problem whose simulation succeeds): missed.**
Over the 21 shared problems it is reached on 20: Boehm, Bruno and Crauste (the table
above; Crauste with 40 starts), Elowitz (400 starts, below), Zheng (20 starts, below, and
here with 10 since the steady-state changes), and here Perelson, Rahman, Okuonghae,
Oliveira, Armistead, Bertozzi, Schwen, SalazarCavazos, Laske and Raia (40 starts; 20 with
`scipy_trf`), and since SciPy's trust-region reflective method runs from Python
(`scipy_trf`, the rows "12-06"), Brannmark (141.947 with 100 starts, 0.058 above the
reference 141.889, and 141.889198 when `ceres_lm_lbfgs` went on from a TRF end point:
below), Lucarelli (1681.756 with 4 starts, 0.150 above 1681.606), both
within the table's 1e-3 relative, and Bachmann (nlpost -419.1294 with 8 starts of 300 s,
seed 4, against -419.1295 at the nominal point, where nllh is the published -418.406; its
one prior, on init_EpoRJAK2, adds -0.724 at both points), and since hops
(`--hops`, docs/fit.md), Weber (296.224 with 40 `scipy_trf` starts and 12 rounds of 16
hops, 1604 CPU s, where 300 starts alone reached 296.911 in 2720 CPU s: below), and
since hops redraw blocks, Beer (-61867.2 with 8 `scipy_trf` starts and 6 rounds of 8
hops, 1475 CPU s, against the reference -58622.9: the item "Hops that redraw one
experiment's parameters"; -52244.4 the day before without blocks). It is missed on 1:
Lang, where two starts of NLopt's L-BFGS gave up after 12 and 13 evaluations and two of
L-BFGS-B reached 4902 in 25 minutes each (below). Where the references of Weber, Beer
and Lang lie is the next item.

- **Weber, Beer and Lang: fits from the nominal point and near it (2026-12-06).**
  `PYTHONPATH=build/python nice /usr/bin/python3 benchmarks/fit_near_nominal.py PROBLEM
  --sigma σ --starts 10 --max-seconds 60`: fits from the nominal point and from points
  drawn from a normal distribution around it on the parameters' scales (standard
  deviation σ, clipped to the box), `scipy_trf` (Lang: `--optimizer nlopt_lbfgs`, what
  `auto` runs there), one run each, beside other runs:
  - Weber: the nominal point is a local optimum (its gradient there is below 0.022 but for
    m11 and pu3, at their upper bounds with the descent pointing out of the box). At
    σ = 0.3 all 9 starts near it ended within 0.15 of the reference (296.21 to 296.35), in
    at most 5.1 s each; at σ = 1, 2 of 9 came within 0.3 (296.44, 296.50) and the others
    ended at local optima from 297.12 to 306.78. The problem has many optima within a few
    units of the best, and the box (8 to 13 decades a parameter) holds them far from the
    reference: more starts moved the best down (297.097 of 100, 296.911 of 300) without
    reaching it.
  - Beer: the nominal point is not a local optimum of the problem's objective. Its
    gradient there reaches -1115 in tau_typeIDwt_ExpID4 (its switch time; central
    differences at rtol 1e-11 agree to 2e-3: `--gradient-check`), and from it `scipy_trf` went on to
    -59439.87 in 45 s, 817 below the reference; 4 of 5 starts at σ = 0.3 (`--starts 6`) ended at
    -59439.87 or -59451.72, the fifth at its 60 s limit at -59437.43. From the box, two
    starts of 900 s (`Problem.fit(starts=2, seed=2, threads=2, optimizer="scipy_trf",
    max_seconds=900)`) ended on SciPy's relative-change rule at 4558.65 and 986914,
    not on the time: in each some switch times `tau_*` (bounds 1e-5 to 1e5) lay past the
    last measurement (t = 3565; 3571.6, 40179 and 53235 in the first), where nothing
    measured depends on them, their gradient is 0 and no step brings them back. Such
    starts need switch times bounded by the data's span, a change to the problem; the
    published box is kept here.
  - Lang (`--optimizer nlopt_lbfgs --starts 2 --sigma 0.1 --max-seconds 300`): its nominal
    point lies outside the box (kDpApc_1 is 0, on a log scale), and clipped to the box
    nlpost is -2823.36 there against -2826.17. From it NLopt's L-BFGS ended no iteration in
    300 s, and from the point at σ = 0.1 one, to nlpost 91042. One evaluation of nllh at
    the nominal point takes 0.17 s (`odesens petab`); the points these searches try cost
    far more, and Lang's reference is out of reach of a fit of the test budget, near the
    nominal point as from the box.
  Bachmann's 4-start runs of seeds 2 and 3 had ended at nllh -417.850 and -417.854, 0.55
  above its reference, and `ceres_lm_lbfgs` from seed 3's best end point stayed there
  (-417.8538 after 61 s): a local optimum, which 8 starts of seed 4 passed.

- **Hops (2026-12-06): rounds of starts around the best so far** (`--hops R`,
  docs/fit.md, "Hops"). Weber_BMC2015 (the row "40 starts and 12 x 16 hops"): the 40
  Latin-hypercube starts of seed 5 ended at best 298.98, and the hops took the best to
  296.224, within 0.022 of the reference (23 of the 232 starts within 0.1 of that best), in
  1604 CPU s; 300 starts of the box alone (seed 3) had reached 296.911 in 2720 CPU s, 100 starts
  297.097. A first run of the same settings, before the draws took the seed's upper 32
  bits, reached 296.268 at round 4 (best of each round 296.86, 296.82, 296.30, 296.27).
  With the library's `ceres_lm_lbfgs` (`bench_fit ... --optimizers
  ceres_lm_lbfgs,ceres_lm_lbfgs+hops --hops 4 --hop-starts 8`, rows "hops side by side":
  40 starts of the box against 8 and 4 rounds of 8 hops): on Boehm and Bruno both reach
  the reference, the hops with 2.1 and 3.2 times the converged starts per CPU minute (hop
  starts near an optimum end there fast, and many at the best: the count is not the
  share of the box that leads there). On Crauste they do worse: the 40 starts reach the
  reference once (about 1 start of the box in 40: 2 of 80 of seed 2 in the tests), the 8
  starts and their hops end at 259.5, and 27 of the 40 starts failed (10 of the 40 of
  the box in the other row): hop points that could not be simulated. Those hops
  failed where they landed; since that run a hop point that cannot be simulated is drawn
  again from its round's distribution under `--resample-failed` (the row "drawn again":
  3 failed, best 227.0, still not the reference). Hops search near the best of the
  starts; where the reference's basin is far from every start's end, more starts of the
  box are the better use of the time.
  The rule they follow was chosen by two runs from the same 40 starts before it (a
  script on `Problem.fit(start_points=...)`, 16 starts a round, σ from 0.5, a gain being
  any lower value): σ doubled after each round without gain and never reset reached
  296.587 at round 7 and nothing lower in 3 more rounds at σ = 2 (bests 296.66, 297.08,
  297.01); σ back to 0.5 after a gain reached 296.256 at round 6 and 296.224 at round
  10: a round at σ = 2 went from 297.66 to 297.03, and the next, at σ = 0.5, into the
  reference's basin.

- **Hops with parameters without effect (2026-12-06).** Beer_MolBioSystems2014 has 19
  experiments, each with its own switch time `tau_*` (box 1e-5 to 1e5, data up to t =
  3565). A start leaves about one in seven past the data, and its fit ends with those
  experiments' growth never starting: their `tau`, `Bacmax` and `beta` have gradient
  exactly 0, so no optimizer step moves them, and a hop drawn around that end keeps them
  there. Found with a script on `Problem.fit`: of 6 `scipy_trf` starts of seed 3 the best
  ended at nllh -25590.6 with 2 experiments so (6 parameters of gradient 0); two points
  with those 6 drawn uniformly from the box and the other 66 kept ended at -43481.6 and
  -43354.5, and one more such round from the better (then no parameter at 0) at
  -45972.0; 3 rounds of 8 ordinary hops from there reached -47823.1. Since, hops draw a
  parameter whose gradient is exactly 0 at the round's center (inside its bounds) from
  its range (docs/fit.md, "Hops"; `--hop-flat local`: the former draws), and every fit
  lists such parameters at its best point (a warning in the text output). The rows "flat
  parameters from their range or not": from the same 8 starts (seed 3), 2 rounds of 8
  hops reached -50279.4 drawing them from their range and -28390.8 around the center, at
  about the same CPU (659 and 622 s; most starts at their 60 s, with tests running on
  the same cores during the first). With 6 rounds (the row "8 starts and 6 x 8
  hops"): -52244.4 in 952 CPU s, still 6379 above the reference. The fit's best
  points fit every experiment's growth, but some at other switch times and rates
  than the reference's (at the script's -47823.1, the weighted residuals' squares of
  T5's experiments 2, 4 and 5 were 3 to 5 times those at the nominal point, with a
  noise parameter 3.4 times as large): local optima of single experiments, which
  neither ordinary hops (σ 0.5 to 2 on all 72 parameters at once) nor more rounds have
  yet left. Beer stayed missed (until the next item).

- **Hops that redraw one experiment's parameters (2026-12-07).** With the parameters
  every experiment reads held, nlpost is a sum of one term per block of parameters that
  only some experiments read (Beer: 22 blocks, each experiment's `tau`, `beta` and
  `Bacmax`, and each bacterial type's rates), and the item above ended in local optima of
  single experiments' terms. At a -49378.4 point (a script on `Problem.fit`, from the
  -47823.1 above and one draw of every block alone), T5's experiments 4 and 5 had
  weighted residual squares 5742 and 4638 (927 and 825 at the nominal point), their
  growth rate `beta` at the top of its box and switch time at the bottom; 4 draws of
  each of those two blocks alone from the box, the other 69 parameters held, reached
  -61865.2 and -61864.7. Since, every second point of a hop round redraws one block from
  its range and holds every other parameter (docs/fit.md, "Hops"; `--hop-blocks off`:
  none), the worst fitted block first (mean squared residual of its experiments at the
  round's center), and a round after one that found no new optimum goes on down that
  ranking. The command of the row "8 starts and 6 x 8 hops, flat parameters from their
  range" the day before (-52244.4, 952 CPU s) reaches, nothing else running, -59558.5
  with 8 of the 56 starts within 0.1 of it in 1694 CPU s where every round took the
  worst fitted blocks first (the row "blocks, worst first each round"), and -61867.2,
  3244 below the reference, with 10 in 1475 CPU s going on down the ranking (the row
  "blocks"; median 25 s a start; most of the day before's hit their 60 s). Of the other shared problems, 9 have
  blocks (Bachmann 18, Bertozzi 2, Brannmark 3, Bruno 7, Laske 3, Lucarelli 3, Raia 4,
  Schwen 6, Weber 2; `Problem.parameter_blocks`). The rows "blocks side by side": from
  the same 8 starts and 4 rounds of 8 hops (`ceres_lm_lbfgs`; `+noblocks`: every hop
  around the center), Bruno_JExpBot2016 (7 blocks of one initial value each) had 30
  starts at the reference with blocks against 19 without, 54.3 against 30.8 converged
  starts per CPU minute; on Bertozzi_PNAS2020 (2 blocks, one per state) every start
  reached it either way (691 and 720 a CPU minute, this machine's noise). The other
  problems' rows above ran before blocks and were not run again.

- **`scipy_trf_lm_lbfgs` (2026-12-06): TRF, then `ceres_lm_lbfgs` from its end in each
  start** (docs/fit.md). On Weber's neighbours of the nominal point at σ = 1 (the run
  above, `fit_near_nominal.py Weber_BMC2015 --sigma 1 --starts 10 --max-seconds 60
  --optimizer scipy_trf_lm_lbfgs`), the TRF ends at 297.12 and 296.50 went on to 296.202
  and 296.218, in the reference's basin, where TRF alone had stopped; the other ends moved
  by at most 0.10. From the box it did not help: 100 starts of seed 2, 30 s each (the row
  "100 starts, 12-06"), ended at the best value TRF alone had found from the same starts,
  297.097, now at 1.5 times the CPU time (1920 s against 1304 s; many second parts used
  the start's remaining time). 297.097 is a local optimum, not a start cut short.

- **`scipy_trf` finds basins and can stop short in them.** SciPy ends a start where the
  cost changed by less than 1e-8 of itself, and the cost of the least-squares form is
  nlpost plus a constant (docs/fit.md, "The least-squares form"). On Brannmark the best
  of those 100 starts ended at 141.947; started again one at a time (the same points,
  one thread), start 54 ended at 141.965 after 2.5 s, and `ceres_lm_lbfgs` from that end
  point (`Problem.fit(start_points=[end], optimizer="ceres_lm_lbfgs")`) reached 141.889198
  in 7.8 s, the reference (141.889205 at the nominal point), with k1e at its lower bound
  and k1d, k1f and k_IRP_1Step at their upper ones, as the nominal point has them;
  `scipy_trf` from the same end point stopped at 141.937. To finish a TRF fit, start
  `ceres_lm_lbfgs` from its best end points.

- **SciPy's trust-region reflective beside `ceres_lm_lbfgs` (the rows "scipy side by
  side, 12-06"; docs/fit.md, "Which optimizer, by measurement").** From Python,
  `Problem.fit(optimizer="scipy_trf")` runs SciPy's `least_squares(method="trf")`, the
  algorithm of `lsqnonlin` (Data2Dynamics) and of Fides, on the same residuals and
  starts. On 20 starts of 14 problems, 30 s a start, in one run: a better best value on
  7 (Crauste 275.18 against 291.73, Elowitz -55.86 against -19.54, Zheng -289.28 against
  -278.54, Okuonghae 373.94 against 386.83, Raia 345.32 against 351.89, which reaches
  Raia's reference with 20 starts where `ceres_lm_lbfgs` needed 40, Weber 297.10 against
  364.66, Brannmark 142.57 against 148.87), the same within 0.1 on 6 (Bruno, Rahman,
  Armistead, Perelson, Bertozzi, Oliveira), a worse one on Boehm (145.76 against the
  reference 138.22, which 3 `ceres_lm_lbfgs` starts reached). More converged starts per
  CPU minute on 13 of the 14 (Bruno 412 against 47, Rahman 31 against 13, Bertozzi 1884
  against 661), fewer on Boehm (0 against 22); less CPU on 12 (a median start of 0.0 to
  15 s against 0.1 to 30 s: SciPy ends on its relative cost change, 1e-8, where LM goes
  on along a valley), about the same on Elowitz, more on Boehm (29 against 8 s). The
  Ceres trust region's first radius (1, 100 against its 1e4, a trial build on Bruno)
  did not bring LM's paths nearer TRF's: 3 and 2 starts at the reference of 20,
  against 8.

- **L-BFGS-B beside NLopt's L-BFGS (the rows "side by side, 12-05"; docs/fit.md, "Which
  optimizer, by measurement").** The same best values on Rahman, Armistead, Perelson
  and Bertozzi, at 0.4 to 1 times NLopt's converged starts per CPU minute. The same run
  on Boehm and Bruno: NLopt 138.222 (the reference; 1 of 10) and 280.543, L-BFGS-B
  145.759 and 646.682 (neither reaches Bruno's -46.688). Where L-BFGS-B goes on and
  NLopt does not is Lang: from the better end point of NLopt's two starts (nllh
  144 337), `odesens fit Lang_PLOSComputBiol2024.yaml --starts-from BEST.tsv
  --optimizer nlopt_lbfgs` gave up again after 12 evaluations, and `--optimizer lbfgsb
  --max-seconds-per-start 1200` went on to 14 917 in 35 evaluations, still going when
  its 1200 s were used up.

- **auto's optimizer where the gradient goes by the adjoint (2026-12-05).**
  Chen_MSB2009 (500 states, 155 estimated parameters, outside `../shared`): at the
  nominal point the residuals' Jacobian (forward S, what LM needs) took 149 s, the
  gradient (cvodes_asa) 15 s, nllh alone 2.8 s (`odesens petab Chen_MSB2009.yaml
  [--fim | --gradient] --threads 2`). `odesens fit Chen_MSB2009.yaml --starts 2 --seed 3
  --threads 2 --max-seconds-per-start 200 --optimizer ID`, one run each: ceres_lm_lbfgs
  made no iteration on either start (nlpost 4.1e10 and 31 168 at the starts);
  nlopt_lbfgs 14, from 4.1e10 to 31 221 (its other start failed where the adjoint's
  forward pass, at tighter tolerances, failed its error test: such an experiment now
  falls back to forward sensitivities, docs/petab.md); lbfgsb 12, to 3.2e6. Seed 4:
  nlopt_lbfgs 30 185 and 581 491, lbfgsb 4.7e7 and 8.3e15. `auto` now runs nlopt_lbfgs
  where the gradient goes by the adjoint (docs/fit.md; Lang among the shared problems).

- **Weber and Bachmann started again from their end points (2026-12-05).** Are their
  misses starts cut short? Weber: `odesens fit Weber_BMC2015.yaml --starts 30 --seed 6
  --threads 2 --hierarchical --max-seconds-per-start 60` ended at best 297.714 by itself
  (L-BFGS's relative change, 23 s); the four best end points, fitted again with 600 s
  each (`--starts-from`), ended by themselves within 21 s at 297.708 (projected
  gradient 0.03), 298.408, 301.183 and 305.917: local optima, not time. Bachmann: seed
  1's two hierarchical starts with 300 s each ended at -253.03 (at the limit) and
  468.20; the first, given 1200 s more, ended by itself after 404 s at -398.13
  (gradient 0.018), short of the reference -418.41. For both problems more starts, not
  longer ones, are what is missing.

- **Beer with 600 s a start (the row "600 s, 12-04").** Beer's starts all used their 60 s
  in the runs above (125 LM iterations in 60 s: its 19 experiments take 60-80 ms an
  evaluation with the Jacobian). With ten times the time, seed 1's two starts end by
  themselves, after 66 s and 145 s, on LM's and L-BFGS's relative-change rules, at
  nllh -11596 and 7727 (the same first start ended at -11596 in 60 s before): local
  optima far above the reference (-58623). Beer's reference needs other starts, not
  longer ones.

- **100 Brannmark starts (the row "100 starts, 12-04").** Seed 6, 60 s a start: best
  143.789, then 144.398 and 149.464 (four starts). LM ends on its relative cost change
  in 73 starts (L-BFGS goes on from there; 2 of them reach the 60 s), on its step
  tolerance in 4, the 60 s in 13, the 1000 iterations in 9; one start cannot be
  simulated (CVODES' step size collapses in Dose_001). 37 CPU minutes. A fit started at
  the nominal parameters stays at the reference (141.889 after 19 iterations: `odesens
  fit Brannmark_JBC2010 --starts-from NOMINAL.tsv`): a local minimum whose basin none
  of the Brannmark starts above reached (264 distinct hypercube points, seeds 1 to 6).

- **Hierarchical fits beside plain ones (the rows "same starts, 12-04").** `ID+hierarchical`
  runs the same optimizer with the inner parameters (scalings, offsets, noise parameters)
  set by closed form in each evaluation (docs/fit.md, docs/petab.md), on the same starts
  as the plain row above it. Bachmann (17 of 113 parameters inner): -402.738 against
  -293.887, 15.7 from its reference -418.406 and the best any Bachmann fit here has found
  (the plain runs before: -247.5 to -268.8), one start of 2 at 611 iterations within its
  300 s, the other at its limit; the same CPU time. Weber (10 of 36): 297.755 against
  300.845, at 1.5 times the CPU (its starts ran to their 60 s: median 60.1 s against 29.5).
  Brannmark (7 of 22): 146.682 against 143.740, at 0.56 times the CPU; a 40-start run of
  the same seed through `odesens fit --hierarchical` reached 142.700 (1 start; 4.3 min
  wall; plain runs reached 142.148 before). Lucarelli (12 of 84, its noise
  parameters): 4839 against 1945, both starts at their 300 s with 14 and 8 iterations
  (4 s an evaluation at the points they went to), against 43 and 385 plain. None reaches
  its reference; hierarchical wins on Bachmann and Weber, loses on Brannmark (this seed)
  and Lucarelli: the default stays plain, `--hierarchical` is an option to try. Beer (2
  of 72 inner, its noise parameters), the starts of the row "600 s, 12-04": -11569.1 and
  -7430.4 against -11596.0 and 7727, both ending on their tolerances within 132 s, far
  from -58622.9 as before: its two noise parameters were not what held Beer's fits.

- **60 Weber starts (the row "60 starts, 12-04").** Seed 6, 60 s a start: best 305.163,
  then 306.079 and 307.315, against the reference 296.202 (seed 5's 40 starts reached
  297.981). LM ends on its relative cost change in 35 starts (L-BFGS then goes on; 2
  reach the 60 s there), at the 60 s in 16, the 1000 iterations in 7, its step tolerance
  in 2. 30 CPU minutes.

- **Four more hierarchical Bachmann starts (12-04).** `odesens fit Bachmann_MSB2011
  --starts 4 --seed 2 --threads 2 --hierarchical --max-seconds-per-start 300`: all four
  starts use their 300 s (51 to 379 iterations), ending at nllh -348.06, -340.34, -311.09
  and -89.25 with projected gradients of 4 to 7 (the third's is NaN: its last evaluation
  was cut by the limit, docs/fit.md). Seed 1's -402.74 stays the best; the reference
  -418.41 needs starts that run longer than 5 minutes each on this machine.

- **80 hierarchical Weber starts (the row "80 starts, seed 7, 12-04").** Best 298.301 (one
  start), then 301.14, 302.04 and 302.89, against the reference 296.202; 70 of the 80
  starts used their 60 s (the best at 855 iterations), 44 CPU minutes. Four of those start
  points again with 300 s each (`odesens fit Weber_BMC2015 --starts-from FILE --hierarchical
  --threads 2 --max-seconds-per-start 300`, the points of hypercube indices 50, 41, 19 and
  9 read back from the HDF5 file of `odesens fit --starts 80 --seed 7`): 300.70 (after
  14 s), 306.54, 320.44 and 350.45. These paths are not the 60 s runs' continued: read
  back to the printed digits, the points are a last bit off, and the start that reached
  300.70 in 14 s was at 306.72 after 60 s in the bench run (ill-conditioned problems
  amplify such changes, Elowitz below). One of the four ended on 10 failed simulations in
  a row: a pre-equilibration whose J_x is singular (pivots down to 7e-13), whose S* could
  not be taken, and whose integration CVODES could not finish. Weber stays 2.1 above its
  reference after over 200 starts from four seeds (1, 5, 6, 7).

- **Levenberg-Marquardt cut to 150 iterations a cycle (tried 12-04, not adopted).** In
  `odesens fit Weber_BMC2015 --starts 40 --seed 5 --threads 2 --max-seconds-per-start 60`
  (best 304.199, 1 start; one run) four starts end on the 1000 iterations inside LM, with
  projected gradients of 3 to 7.6: LM crawling along a valley, and L-BFGS never gets a turn.
  The same four starts (`--starts-from`, their points from the run's HDF5 file) with LM
  cut to 150 iterations a cycle, L-BFGS after each cut: 320.56 -> 313.72, 368.31 ->
  324.16, 350.16 -> 351.08, and 319.79 -> 326.62 (that start now spent its 60 s). Two
  better, two worse, none near the reference 296.202: the cycles stay as they are.

- **40 starts on Raia, Brannmark and Weber (the rows "40 starts, 12-03").** Another seed
  (5) and four times the starts, with the build of 2026-12-03 (odesd for S in PEtab's
  auto, its step limit, shared pre-equilibrations). Raia reaches its reference: 3 of the
  40 starts end at 345.31, below 346.09; none of its starts used its 60 s (median 21 s;
  at their end points an evaluation with the residuals' Jacobian takes 12-36 ms with
  auto's odesd, 49-217 ms with cvodes_fsa). Brannmark's best is 144.61 (one start; the
  next 149.46), 6 starts at the limit; one start point cannot be simulated (the states
  grow past 1e12 near t = 11.46 of condition Dose_100, with odesd and with cvodes_fsa
  down to rtol 1e-12): the fit counts it as failed. Weber's best is 297.98, 1.78 above
  its reference, 8 starts at the limit. Each command is one run, 15-17 CPU minutes.

- **Pre-equilibration at the points fits reach (the rows "steady states 12-02").** Weber,
  Brannmark and Zheng start every experiment at a steady state. At far points a fit
  visits, Weber's Newton step was refused as singular: J_x's pivots ran from 1e-4 to
  3e8 (a slow rate beside fast ones), below the 1e-12 ratio. Every evaluation then
  integrated x and S over spans 10, 100, ... up to 1e7, each span a solve from t0. That
  took 1.1 s for one gradient where the nominal point takes 0.07 s. Since then:
  - J_x is judged on its rows scaled to their largest entry, as KLU already did. That
    point takes Newton, 0.17 s, nllh, gradient and FIM within 2e-11.
  - Where Newton is refused, x is integrated alone. S is S* = -J_x^{-1} J_p at the x*
    reached where that is valid (docs/petab.md), else integrated from the span x needed.
    On Raimundez_PCB2020, outside `../shared`, whose 170 pre-equilibrations all need
    the integrated S, one gradient and FIM went from 71 s to 25 s, bit for bit the same.
  Two Weber starts that made 8 and 16 evaluations in their 60 s make 603 in 60 s and
  finish after 434 (7 s). The same commands again: Weber's best 373.44 -> 343.36 with
  `ceres_lm_lbfgs`, median 60.1 -> 20.7 s a start, CPU 830 -> 523 s. Brannmark's best
  207.12 -> 160.23, CPU 632 -> 511 s with `ceres_lm_lbfgs`; with `nlopt_lbfgs`, 511 ->
  222 s. Zheng reaches its reference with 10 starts: -284.17, where it ended at -256.88.
  Weber (296.20) and Brannmark (141.89) are still missed. Some of their `ceres_lm_lbfgs`
  starts still run into the 60 s: 5 of Weber's 20 (11 before), 6 of Brannmark's 10 (10).
- **odesd's evaluations (the rows "odesd 12-02").** Since 2026-12-02 PEtab's `auto` runs
  odesd for S (PEtab problems, above): the residuals' Jacobian at the nominal point is 1.0
  to 8 times cheaper than cvodes_fsa's. The same commands again, from the same starts:
  Raia's best 350.27 -> 375.92 (median 60.2 -> 49.3 s a start, CPU 586 -> 437 s),
  Brannmark's 160.23 -> 160.08, Weber's 343.36 -> 368.36 (20.7 -> 16.2 s a start),
  Beer's -10703.5 -> -4100.7, Bachmann's -247.53 -> -268.55 and Lucarelli's 6116.98 ->
  14179.18 (2 starts each, all at their 300 s). The starts take other paths with other
  evaluations (ill-conditioned problems, where a last-bit change of a start changes its
  end, Elowitz below), and these runs of 2 to 20 starts cannot tell whether a best value
  moved by the method or by which start happened to get where; most starts still end at
  their time limit on Raia, Brannmark and Beer. Cheaper evaluations did not reach these
  references with these starts; more starts are what they need. The tests' fits (Boehm,
  Bruno, Crauste, Zheng; "Earlier, larger runs") reach their references with odesd.
- **Each point simulated once (the rows "cache 12-02").** With bounds, Ceres asks for
  a step's point up to three times (its projected line search with the gradient, the
  candidate's cost, the accepted point's Jacobian); `ceres_lm` now simulates it once
  (docs/fit.md, "Evaluations": Boehm's 20 starts 15.1 -> 5.8 s, Zheng's 10 17.7 ->
  9.2 s). The same commands again: Raia's best 375.92 -> 350.27 (median 49.3 -> 30.9 s
  a start, CPU 437 -> 311 s), Brannmark's 160.08 -> 159.09, Beer's -4100.7 -> -7280.5,
  Weber's 368.36 -> 357.58 (16.2 -> 21.7 s a start: other paths, more of them to the
  end), Bachmann's -268.55 -> -268.80 and Lucarelli's 14179.18 -> 2041.43 (2 starts
  each, at their 300 s). No reference reached; the paths moved again. On Beer the
  reference is not the optimum: from starts near the nominal point (each scaled
  parameter moved by N(0, 0.05) in log10) one of two reached nllh -59254.48, 631.6
  below it (the same within 1e-6 at rtol 1e-8 to 1e-12, odesd and cvodes_fsa), with
  16 of the 19 lag times 1 to 5 decades from their nominal values. From the hypercube,
  an experiment whose lag time passes its last measurement (t = 3565, the box reaching
  1e5) is switched off: its Bacmax, beta and tau have a gradient of exactly 0 (checked
  against central differences), and Levenberg-Marquardt also moves lag times there by
  itself (from 6 starts with every lag time below 3000, most ended at the upper bound;
  best -9771.9). Beer needs many starts, as Elowitz does.
- **Shared pre-equilibrations and conservation laws (the rows "laws 12-02").**
  Brannmark's 8 experiments start from one steady state (condition Dose_0), which was
  solved 8 times an evaluation, each by integration: its J_x is singular by 3
  conservation laws, so Newton was refused, x integrated alone over spans 10, 100, ...,
  then x and S together (f reads t: the formula was not taken). Now it is solved once
  an evaluation, by Newton with the laws in place of 3 rows of J_x (docs/petab.md). At
  the end of one start (`--seed 1`) an evaluation took 0.36 s before, 0.016 s after;
  that start's 60 s made 33 evaluations and 1503 after (1000 iterations). The same
  command: best 159.09 -> 142.15, 2 starts at it, median 57.5 -> 18.3 s a start, CPU
  501 -> 261 s. The reference (141.89) is still missed, with 20 more starts (seed 2:
  142.23) and 60 more (seed 3: 146.31): 8 of seed 2's 20 end at a local optimum at
  207.12, and most end by their function tolerance, not their time. Weber (two
  experiments after one condition, Newton without laws) ends where it did, at the same
  CPU time: its evaluations are elsewhere.
  These "laws 12-02" runs had Newton take the laws also where f reads t (Brannmark's
  does: its insulin input). A review found that unsound: an input that acts on the way
  to the steady state can move a conserved total, which Newton from x0 cannot see. Since,
  where f reads t, Newton takes no laws, and the formula at an integrated x* takes them
  only where x* kept x0's totals (docs/petab.md). Brannmark then integrates x alone once
  an evaluation (shared) and takes S by the formula with its laws: at the end of that
  `--seed 1` start an evaluation takes 0.25 s (0.36 s before both changes, 0.016 s with
  Newton). The 10-start command again (the last row): best 159.09, as before the
  changes, CPU 293 s (501 s before them, 261 s with Newton): the 142.15 came from the
  paths of the Newton build, not from the problem.
- **An input whose dose is 0 (the rows "dose 0 read, 12-02").** Brannmark's f reads t
  only through `insulin_dose_1 * step(t - insulin_time_1) + insulin_dose_2 * step(...)`,
  whose doses are 0 in Dose_0. Whether f, J_x and J_p read t is now judged at the
  condition's parameters (`Model::time_reading_at`, docs/petab.md): there they do not,
  and Newton takes the laws again, soundly (where the estimated parameters' columns of
  J_p read t, S's totals could move though x's do not: no laws then). The 10-start
  command: best 144.12 (159.09 with the formula, 142.15 with the unsound Newton build),
  CPU 283 s. 30 more starts (seed 4): best 142.96, median 14.6 s a start. From the
  nominal point, one start ends at once at 141.889, the reference (gradient norm 0.05,
  k1d, k1e and k1f at their bounds): the reference's basin is one the hypercube's
  starts rarely reach (none of the 130 starts of the rows "laws" and "dose 0 read").
- **LM and L-BFGS again while a cycle helps (the rows "cycles, 12-02").** The best of
  those 10 starts had ended at 144.12, LM and L-BFGS both on their function tolerance;
  LM from that point went on to 142.23, a local optimum. `ceres_lm_lbfgs` now runs the
  pair again where L-BFGS ends on its function or step tolerance, while a cycle lowers
  nlpost (docs/fit.md). The same command with Raia added: Brannmark's best 144.12 ->
  142.23 (CPU 283 -> 303 s), Raia's 350.27 as before (CPU 311 -> 350 s). Neither
  reference is reached: the starts end at other local optima.
- **odesd's step limit in PEtab's auto (the rows "12-03", docs/petab.md).** At points a
  Weber fit visits, odesd took 20 to 50 times cvodes_fsa's steps (92 841 to 166 220
  against 2 319 to 7 073): evaluations of 1.8-3.1 s. auto's odesd now gives way to
  cvodes_fsa after 10 000 steps an experiment (plus 10 a measurement time); those
  evaluations take 0.16-0.47 s, and the Weber start that made 110 evaluations in its 60 s
  makes 881 (nllh 436.2 -> 379.5). The totals of these short runs do not move beyond the
  noise: the starts that used their 60 s still do, and on Raia the limit never binds (its
  starts end with the same iterations and evaluations with and without it). The best
  values differ from the rows "cycles, 12-02" on Raia (374.66 against 350.27) and
  Brannmark (147.42 against 142.23), with and without the limit alike: the build between
  them changed where the solves stop at switches of t (docs/events.md), and the starts'
  paths with it. The nllh and gradient at the nominal points are unchanged (Brannmark's
  gradient within 1.3e-5 of cvodes_fsa's at rtol 1e-11, its largest entry 0.22).

Per problem, below: the reference reached or not, and the optimizer with the most
converged starts per CPU minute. Read with the limits of these runs:

- **Most misses are starts cut short by the 60 s.** The `ceres_lm_lbfgs` starts ran into
  it on Raia, Brannmark and Beer (9, 10 and 6 of their 10) and on Weber (11 of 20), as on
  Schwen, SalazarCavazos and Laske (7, 6 and 5 of 10), which reached their references
  all the same. At the points such starts reach, an
  evaluation takes up to a second or more where it takes 7 to 300 ms at the nominal
  point (RESULTS.md, PEtab problems). With 300 s a start (the last two commands, fewer
  starts) Raia's best went from 350.27 to 351.89 (4 other starts, two ended before the
  limit), Brannmark's from 172.59 (`nlopt_lbfgs`) to 191.96 with all four at the limit;
  Bachmann and Lucarelli, with 2 starts each, both at the limit, end far from theirs.
  These problems need more starts and hours a fit, which these runs do not have.
  In these runs the limit was checked between iterations, so a start could pass it by
  an evaluation: one Beer start ran 155 s. Since, it is checked inside the evaluations
  (docs/fit.md, "Stopping rules"): on Beer with `--starts 6 --threads 2 --seed 3
  --max-seconds-per-start 30`, the four starts at the limit ran 31 to 96 s before and
  30.1 s after, the fit 128 s before and 64 s after. The runs were not repeated.
- **Where both optimizers reach the best value, L-BFGS does it with less CPU** (Rahman,
  Armistead, Bertozzi: 36 against 4.4, 44 against 9.5 converged starts per CPU minute).
  On Rahman 10 of the 20 `ceres_lm_lbfgs` starts used all 1000 iterations in
  Levenberg-Marquardt steps (about 3100 evaluations, 11 to 15 s), ending 0.07 to 0.29
  above the best; L-BFGS from the same points ended within 0.01 of it on 5 of them (130
  to 230 iterations) and 1.0 to 1.4 above it on the other 5, in 2 s or less each.
  Where LM finds what L-BFGS does not (Boehm, Bruno, Crauste, Elowitz above; Laske,
  Okuonghae, Oliveira, Raia, SalazarCavazos here), it is the one that reaches the
  reference; `auto` keeps `ceres_lm_lbfgs` for that, at the CPU cost the table shows.
- **References at poor nominal points.** On Okuonghae and Oliveira the nominal point's
  nllh (470 490 and 9.6e6) is far above any start's end, and on Perelson the nominal
  noise parameter (10^5 on a log10 observable) makes it 432 where the fits reach 222;
  "reached" says little there. Only 1 of 20 starts came within 0.1 of the best value on
  Okuonghae and on Oliveira.
- **Zheng** reached its reference (-287.14 against -278.33) with 20 `ceres_lm` starts in
  the tests' run (below); with these 10 starts and 60 s it did not before the
  steady-state changes, and did after (-284.17).
- **Lang_PLOSComputBiol2024 (the row "4200 s, 12-04").** 294 estimated parameters, 600
  measurement times over [0, 136472]: the adjoint's gradient takes 12-28 s at the nominal
  point (598 backward restarts at the measurement times, about 340 BDF steps between two),
  the residuals' Jacobian (forward S), which LM needs, 598 s. So L-BFGS alone
  (`--optimizer nlopt_lbfgs`), with 70 minutes a start. Both starts ended by themselves
  within 7 minutes: NLopt's L-BFGS gave up (its FAILURE: no lower nlpost even along
  steepest descent) after 12 and 13 evaluations, at nllh 144 337 and 5.1e7 against the
  reference -2742. At the better end point the gradient agrees with central differences
  to 1e-6 along two random directions (slopes 210 433 and 52 473), and nlpost falls along
  -g as its slope says (a difference quotient of -2.47565e6 at a step of 1e-6 against
  -2.47572e6). The gradient is right there; its entries reach 4e14 on parameters at
  their bounds, and NLopt's line search stops there (lbfgsb.cpp says why). L-BFGS-B
  goes on: `odesens fit Lang_PLOSComputBiol2024.yaml --starts 2 --seed 1 --threads 2
  --optimizer lbfgsb --max-seconds-per-start 1500` (2026-12-05, the starts of the row
  above) used up both starts' 1500 s, at nllh 4902.0 (83 evaluations, 48 iterations) and
  13 319.1 (43 evaluations), still falling: the reference -2742 needs hours a start.
"""


# Measured before bench_fit existed, with more starts than its run takes
# (FIT_STARTS=N build/bin/test_fit --gtest_filter=*Benchmark*, two threads):
# kept as text, they are not regenerated.
FIT_EARLIER_RUNS = """\
### Earlier, larger runs (not regenerated)

Measured with `FIT_STARTS=N build/bin/test_fit --gtest_filter=*Benchmark*` (seed 1, two
threads, the same 2 shared cores): the tests' own fits, not this program. Time per start is
the mean wall time of a start.

| problem | starts | within 0.1 of the best | best nllh | reference | reached | s / start |
|---|---|---|---|---|---|---|
| Boehm_JProteomeRes2014 | 24 | 3/24 | 138.222 | 138.222 | yes | 1.9 |
| Zheng_PNAS2012 | 20 | 1/20 | -287.14 | -278.33 | yes (better) | 48 |
| Bruno_JExpBot2016 | 20 | 7/20 | -46.688 | -46.688 | yes | 16 |
| Crauste_CellSystems2017 | 20 | | 291.7 | 191.0 | no (6 starts could not be simulated) | 47 |
| Elowitz_Nature2000 | 20 | | -23.1 | -63.2 | no | 35 |

Over the five problems measured so far the goal is **met**: Boehm, Zheng and Bruno in the
table above, Crauste since the fits restart a trust region cut short, Elowitz with
ceres_lm_lbfgs and 400 starts (both below; both were missed in this table). In the
runs of this table, Crauste and Elowitz simulate at their nominal points, but 20 starts did
not reach the reference. On
Crauste 6 of the 20 starts could not be simulated at all (their points lie where the
model's solution fails), which leaves 14 local searches; on Elowitz (an oscillator, where
local optima are common) no start landed in the reference's basin, and why is not
established beyond that. Elowitz is kept as a disabled test
(tests/fit/test_fit_benchmark.cpp) to be run with 100 starts, how many starts it needs not
known yet; Crauste now runs with 40 starts among the `slow` tests.

Elowitz, measured further (one run each, ceres_lm, 2 threads, the machine otherwise
idle):

- `build/bin/odesens fit Elowitz_Nature2000.yaml --starts 100 --seed 1 --threads 2`:
  best nllh −24.72 of 100 starts (356 s, 7 s a start); the reference −63.20 is not
  reached.
- From the reference point itself and from points near it (`--starts-from`, each
  estimated parameter moved by a uniform factor within 10^±s of its nominal value):
  the reference point stays at −63.2028 (3 iterations); s = 0.1 reaches −63.2036 (a
  little below the reference); s = 0.3 ends in local optima at −24.99 and 6.87; s = 1
  at 6.87.

So the optimizer converges where a start lies near the reference, and the reference's
basin is narrow in a box of 8 decades per parameter: fewer than 1 start in 100 lands in
it. That is the problem's landscape, not a failure of the fits; how many starts reach it
is still not measured (the published analyses of this problem ran thousands).

- 2026-12-01, `build/bin/odesens fit Elowitz_Nature2000.yaml --starts 400 --seed 7
  --threads 2` (stopped with Ctrl-C after 329 starts, 49 min wall, 91 CPU min): best
  nllh −48.05, the second −45.84, then 20 starts between −25 and −23; the reference
  −63.20 is not reached by 329 starts either. 38 start points could not be simulated.
  The cost per start is uneven: the median start took 1.4 s, but at some points one
  evaluation takes 5–16 s (the oscillator's period shrinks by orders of magnitude), and one
  start ran 43 minutes (22 iterations) until the Ctrl-C stopped it at its next iteration.
  `--max-seconds-per-start` bounds such starts (docs/fit.md).
- 2026-12-01, the three optimizers on the same 40 starts (`odesens fit
  Elowitz_Nature2000.yaml --starts 40 --seed 11 --threads 2 --max-seconds-per-start 60
  --optimizer ID`, one run each, the machine otherwise idle): best nllh ceres_lm -24.81
  (72 s wall, 140 CPU s), ceres_lm_lbfgs -24.81 (83 s, 164 CPU s), nlopt_lbfgs -24.87 (66
  s, 122 CPU s); 5 start points could not be simulated. Of the 35 others, 9, 10 and 14
  end below nllh -12. The reference is not reached by any.
- 2026-12-01, `odesens fit Elowitz_Nature2000.yaml --starts 200 --seed 21 --threads 2
  --max-seconds-per-start 60` (ceres_lm_lbfgs; 1049 s wall, 1779 CPU s, the machine
  shared with a test run for part of it): best nllh -53.65, the next -24.88; 22 start
  points could not be simulated, and 159 of the other 178 ends have a projected gradient
  of 0.05 or less. The best start's LM ran 105 s, past the 60 s, as each of its rounds
  was then allowed the whole 60 s (since fixed: the rounds share the start's time), and
  L-BFGS did not run;
  L-BFGS from its end stops at -53.655 (gradient 0.01), a local optimum. The reference
  -63.20 is not reached; the best value found by any run is -56.49, by L-BFGS from the
  -48.05 end above (docs/fit.md).
- 2026-12-01, `odesens fit Elowitz_Nature2000.yaml --starts 400 --seed 31 --threads 2
  --max-seconds-per-start 60` (ceres_lm_lbfgs; 2472 s wall, 2629 CPU s): **best nllh
  -65.49, below the reference -63.20: reached**, by 1 of the 400 starts (start 97), the
  next -59.70; 45 start points could not be simulated, 317 of the other 355 ends have a
  projected gradient of 0.05 or less, 14 starts ran into the 60 s limit. From start 97
  ceres_lm alone ends at -23.13 (function-change rule, gradient 0.12): the L-BFGS that
  follows it found the reference's basin. The path is sensitive to the last bit of the
  start (the same start written on the linear scale and read back ends at -34.8). A slow
  test kept the start to the bit until 2026-12-02, when it was found ending at -54.97
  (later changes of the solves had moved the path) and, with PEtab's auto on odesd, at
  -17.21 (ceres_lm -17.20): it was removed. With odesd, `--starts 200 --seed 31 --threads
  2 --max-seconds-per-start 30` reached -44.28 at best (26 start points could not be
  simulated): Elowitz's reference is reached by luck of the path, 1 in hundreds of
  starts, by either method.

Crauste, measured the same way (`build/bin/odesens fit Crauste_CellSystems2017.yaml
--threads 2 ...`, one run each, two fits at once on the 2 cores):

| starts | failed (point cannot be simulated) | best nllh | reference | s a start (wall, 2 at once) |
|---|---|---|---|---|
| 40, `--seed 1` | 10 | 191.224 | 190.965 | 5 |
| 40, `--seed 1 --resample-failed 10` | 0 (10 drawn again, once each) | 191.224 | 190.965 | 11 |
| 100, `--seed 2` | 24 | 192.315 | 190.965 | 14 |
| 40, `--seed 1`, a new trust region where the step tolerance ends a start short (docs/fit.md) | 10 | **190.964** (2 starts within 0.1) | 190.965 | 4.8 (192 s for 40 on 2 cores, against 120 s) |
| the same at the default absolute tolerance since 2026-12-01 (1e-10, was 1e-8) | 10 (and 2 end points) | 191.019 (within the 1e-3 rule: reached) | 190.965 | 6.1 (243 s for 40 on 2 cores) |

- From the reference point and from points within 10^±0.1 of it the fit ends at 190.964
  (the reference); from 10^±0.3, at 190.98 and 291.9; from 10^±1, at 191.37.
- Before the last row, the best of 40 hypercube starts was 0.26 above the reference
  (1.4e-3 relative: not reached by the table's 1e-3 rule). That start (19) had ended on
  Ceres' step tolerance with a projected gradient of 0.12: its trust region had shrunk on
  an ill-conditioned valley. `ceres_lm` now starts a new trust region over every free
  parameter where a solve ends that way and still lowered nlpost, and the same start ends
  at 190.964 (5.5 s), below the reference: **the reference is reached on Crauste** (test
  `FitCeresLm.ANewTrustRegionFinishesWhatTheStepToleranceEndedShort`). A quarter of the
  box cannot be simulated (the solution blows up), which `--resample-failed` turns into
  starts that run. Zheng's best is below the reference, which is allowed (the
reference is the value at the published parameters, not the optimum).
"""


# Problems whose reference a run outside the recorded table reached (where
# the table's own runs did not): the goal lines say where.
FIT_REACHED_ELSEWHERE = {
    "Crauste_CellSystems2017": "40 starts, the earlier runs below",
    "Elowitz_Nature2000": "400 starts, below",
}


def fit_goal_lines(table, elsewhere=None):
    """Per problem of a bench_fit table: reference reached (by which
    optimizers) and the optimizer with the most converged starts per CPU
    minute; and whether every problem reached its reference. elsewhere:
    problem -> where a run outside the table reached its reference."""
    elsewhere = elsewhere or {}
    rows = [[c.strip() for c in l.strip().strip("|").split("|")] for l in table
            if l.startswith("|") and not l.startswith("| problem") and not l.startswith("|---")]
    by_problem = {}
    for row in rows:
        by_problem.setdefault(row[0], []).append(row)
    goal = []
    for name, rs in by_problem.items():
        ok = [r for r in rs if len(r) > 11 and r[9] == "yes"]
        ran = [r for r in rs if len(r) > 11 and r[2].isdigit() and int(r[2]) > 0]
        if not ran:
            goal.append("- {}: no fit ran ({}).".format(name, rs[0][1]))
            continue
        fastest = max(ran, key=lambda r: float(r[6]))
        if not ok and name in elsewhere:
            goal.append("- {}: reference reached in {}; here best {}; most converged starts per "
                        "CPU minute: {} ({}).".format(
                            name, elsewhere[name],
                            ", ".join("{} {}".format(r[1], r[7]) for r in ran), fastest[1],
                            fastest[6]))
            continue
        goal.append("- {}: reference {} ({}); most converged starts per CPU minute: {} ({}).".format(
            name, "reached" if ok else "**missed**",
            "by " + ", ".join(r[1] for r in ok) if ok else
            "best " + ", ".join("{} {}".format(r[1], r[7]) for r in ran),
            fastest[1], fastest[6]))
    reached_all = all(name in elsewhere or any(len(r) > 11 and r[9] == "yes" for r in rs)
                      for name, rs in by_problem.items())
    return goal, reached_all


def fit_section():
    # BENCH_FIT_OUTPUT=FILE: the output of a run already made (bench_fit takes
    # several CPU minutes even on two problems).
    saved = os.environ.get("BENCH_FIT_OUTPUT")
    command = [os.path.join(build, "bin", "bench_fit"), "--starts", "10"]
    out = (open(saved).read() if saved else subprocess.run(
        command, check=True, capture_output=True, text=True).stdout).strip().split("\n")
    table = [l for l in out if l.startswith("|")]
    lines = [
        "## Multi-start fits (`bench_fit`)",
        "",
        "Command: `nice build/bin/bench_fit --starts 10` (via `python3 benchmarks/make_results.py",
        "--only fit`): Boehm_JProteomeRes2014, Bruno_JExpBot2016 and Crauste_CellSystems2017,",
        "10 starts of a Latin hypercube (seed 1) in the box of the scaled parameters, the same",
        "starts for each optimizer (docs/fit.md); each start on one thread, two starts at once.",
        "Machine: 2 shared cores, otherwise idle; one run.",
        "",
        "The values are of nlpost, what the optimizers minimize: nllh plus the priors' terms,",
        "nllh itself on the problems without priors (all but Bachmann_MSB2011, Schwen_PONE2014",
        "and Lang_PLOSComputBiol2024; runs before 2026-12-06 compared nllh on those three).",
        "`converged`: starts whose final value is within 0.1 of the best value any optimizer",
        "found on the problem. `converged / CPU min`: converged starts per minute of the",
        "process's CPU time (user + system) during that optimizer's fit. `reference`: the value",
        "at the problem's nominal parameters (there nllh is the published value); `reached`: the",
        "optimizer's best is at or below it (to 1e-3 relative). `median s / start`: wall time of",
        "a start.",
        "",
    ] + table + [""]
    goal, reached_all = fit_goal_lines(table)
    lines += ["**Goal (the reference reached on every problem whose simulation succeeds): {} on the "
              "problems of this run.**".format("met" if reached_all else "missed"), ""] + goal
    return lines + ["", FIT_NOTES, ""] + fit_all_problems_lines() + [
        "", FIT_EARLIER_RUNS.rstrip("\n")]


def ensemble_section():
    threads = subprocess.run([os.path.join(build, "bin", "bench_ensemble"), "--members", "200",
                              "--repeats", "3"], check=True, capture_output=True,
                             text=True).stdout.strip().split("\n")
    lines = [
        "## Ensembles (`bench_ensemble`, `bench_ensemble_mpi`)",
        "",
        "Command: `build/bin/bench_ensemble --members 200 --repeats 3`: solve_ensemble with",
        "cvodes_fsa, K = 200 members (parameters spread by +-20 % around the nominal), 1 and 2",
        "threads alternately, median of 3; the per-member overhead against a bare loop of",
        "solve() calls on chua (K = 2000, 1 thread).",
        "",
    ] + threads
    mpi = os.path.join(build, "bin", "bench_ensemble_mpi")
    if os.path.exists(mpi):
        env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
        out = subprocess.run(["mpirun", "--oversubscribe", "--bind-to", "none", "-np", "2", mpi,
                              "--members", "200",
                              "--repeats", "3"], check=True, capture_output=True, text=True,
                             env=env).stdout.strip().split("\n")
        lines += ["", "Command: `mpirun --oversubscribe --bind-to none -np 2 "
                  "build/bin/bench_ensemble_mpi --members 200 --repeats 3` (the same CaMKII",
                  "ensemble on 2 ranks with one worker each against 1 process with 2 threads,",
                  "alternately; median of 3). `--bind-to none`: OpenMPI binds each of 2 ranks to",
                  "one core by default, and the 2 threads of rank 0's own run then share it (11.8 s,",
                  "the 1-thread time, in a first run).", ""]
        lines += out
    else:
        lines += ["", "bench_ensemble_mpi was not built (no MPI): the MPI row is missing."]
    return lines + [""] + ENSEMBLE_GOALS.split("\n")


def bounds_section():
    out = subprocess.run([os.path.join(build, "bin", "bench_bounds")], check=True,
                         capture_output=True, text=True).stdout.rstrip().split("\n")
    return [
        "## Set-valued bounds: bounds_fsa and bounds_asa on the paper's case studies (`bench_bounds`)",
        "",
        "Command: `build/bin/bench_bounds` (one run of each cell; rtol 1e-8, atol 1e-10, shape",
        "atol 1e-20, Chebyshev models, lsb bounder, q' = 2, as in the paper). Time is the wall",
        "time of one solve here against the paper's CPU time on an i7-3770 (gcc 4.8 -O2); RHS is",
        "ours counted as state plus sensitivity right-hand sides (one per parameter), which is",
        "more than the paper's count for the same steps. The ASA tables give the state pass",
        "(CVodeF) and the adjoint pass (CVodeB with the gradient's quadratures) apart, as the",
        "paper does, and bounds_fsa's time for the same cell in the same run over bounds_asa's.",
        "",
    ] + out + [""] + BOUNDS_GOALS.split("\n")


EVENTS_NOTES = """\
- **A model with 100 events runs** (the events issue): 100 doses, 2 700 steps with S.
- Each dose costs about 25 steps: CVODES restarts at every event (CVodeReInit) from order 1
  with a step it estimates afresh, and BDF needs that many steps to grow back to the step
  sizes and order of the smooth solve (a first step equal to the last one before the event
  was tried: more f evaluations, no fewer steps). The decay without doses takes 67-317
  steps over the same spans.
- Brannmark's rate laws have two switch times (insulin_time_1 = 0 = t0 and
  insulin_time_2 = 1000, after the span): the root functions are watched at every step but
  never cross, so the solve takes the steps of the plain path (712 with S, as before the
  event handling); a model without switches (Boehm) runs the plain path, no root
  functions. Its times here and those of the same solve on the build before the event
  handling, alternated: 23-28 ms and 26-43 ms (noise of this shared machine).
- Every method runs the 100 doses. The one-step methods (odesd, dopri8s, grk4as,
  erk_adjoint) restart after each dose from a fresh starting step and need far fewer
  steps than CVODES' BDF, which restarts from order 1; dopri8s pays for its 1 + 3
  trajectories in f evaluations, not in steps. pbsr and exp take the steps of the
  state-only CVODES solve, as they should."""


def events_section():
    out = subprocess.run([os.path.join(build, "bin", "bench_events")], check=True,
                         capture_output=True, text=True).stdout.rstrip().split("\n")
    return [
        "## Events: cvodes_fsa across doses and switches, and every method on 100 doses (`bench_events`)",
        "",
        "Command: `build/bin/bench_events` (rtol 1e-8, atol 1e-10; median of 5 solves; S: all",
        "parameters' sensitivities; states: `sensitivities=0`). Dosing: x' = -k x, x += D every",
        "0.5 time units (a clock state and an event), against the decay without doses. The",
        "second table: every method that runs events on the 100 doses at the same tolerances,",
        "with the largest error of S(T) relative to max |S(T)| of cvodes_fsa at rtol 1e-12",
        "(the gradient methods' S(T) from their final_sensitivity rows).",
        "",
    ] + out + ["", "### Notes, as measured in this run", ""] + EVENTS_NOTES.split("\n")


def odesd_section():
    command = ["--ode", "--sbml", "--networks", "300,1000", "--network-tols", "1e-6",
               "--repeats", "1"]
    out = subprocess.run([os.path.join(build, "bin", "bench_odesd")] + command, check=True,
                         capture_output=True, text=True).stdout.split("\n")
    start = next(i for i, l in enumerate(out) if l.startswith("## Fig. 1"))
    body = [("###" + l[2:] if l.startswith("## ") else l).rstrip() for l in out[start:]]
    while body and not body[-1]:
        body.pop()
    # Models the program could not run: no reference, or a variant failed.
    notes = [l if len(l) <= 240 else l[:240] + " ..." for l in out[:start]
             if "no reference" in l or " FAILED " in l]
    return [
        "## odeSD: odesd against cvodes_fsa (`bench_odesd`): .ode and SBML models, network:300 and network:1000",
        "",
        "Command: `build/bin/bench_odesd " + " ".join(command) + "` (rtol 1e-3 ... 1e-10,",
        "atol = 1e-2 rtol; one run of each point). Precision: max |e| / max |ref| over x and S at",
        "every output time against cvodes_fsa at rtol 1e-12 (checked by odesd at 1e-12). The",
        "program also prints one row per model, rtol and variant (omitted here). network:1000",
        "(n_p = 2000) runs at rtol 1e-6 only, without the staggered corrector; its precision is",
        "that of x (an S reference at rtol 1e-12 would take hours); it enters only the Fig. 3A/B",
        "table and its own goal, not the means over models.",
        "",
        "Since odesd counts the rounding of its long stiff steps as error (docs/methods/odesd.md,",
        "Tolerances), Laske_PLOSComputBiol2019 has no reference here: its check by odesd at rtol",
        "1e-12 ends with max_steps, where that rounding is above the tolerance at any affordable",
        "step (it passed while the rounding was forgiven, which let S be 1e-4 to 1e2 off on chains",
        "of fast reversible reactions). cvodes_fsa solves it at 1e-12.",
        "",
    ] + (["Not run, or failed:", ""] + ["    " + l for l in notes] + [""] if notes else []) + body


def replace_section(name):
    path = os.path.join(root, "benchmarks", "RESULTS.md")
    with open(path) as f:
        text = f.read()
    title = SECTIONS[name]
    make = {"erk": erk_adjoint_section, "internal_diff": internal_diff_section,
            "odesd": odesd_section, "ensemble": ensemble_section,
            "bounds": bounds_section, "events": events_section,
            "concurrency": concurrency_section, "large": large_section,
            "sessions": sessions_section, "petab": petab_section, "fit": fit_section,
            "methods": methods_section, "choice": choice_section, "pbs": pbs_section,
            "many": many_parameters_section,
            "compare": lambda: comparison_section(other_build)}[name]
    body = "\n".join(make()) + "\n"
    start = text.find(title)
    if start < 0:  # a new section goes at the end
        new = text.rstrip("\n") + "\n\n" + body
    else:
        end = text.find("\n## ", start + 1)
        new = text[:start] + body + (text[end:] if end >= 0 else "")
    with open(path, "w") as f:
        f.write(new)


INTERNAL_DIFF_GOALS = """\
### Goals of the dopri8s/grk4as issue, as measured in this run

Since the previous run dopri8s lands on output times where a step would reach h·rho(J) > 2
instead of reading them from dop853's dense output (docs/methods/dopri8s.md, "Output
times"): on C1 at TOLS 1e-4 `accurate` takes 23 steps instead of 16, and its error fell
from 1.3e-6 to 2.5e-7; the other rows' step counts moved by at most 4.

- **Error <= TOLS on C1 at TOLS <= 1e-6: met** (shared 0.03 and 0.15 TOLS at 1e-6 and
  1e-7; accurate 0.03 and 0.34).
- **external/internal >= 2 on C1: met** (shared 3.1-3.2, accurate 4.2-5.2 at 1e-6 and
  1e-7); **>= 3 on C5: met** (shared 5.2, accurate 7.1-7.7); **aim >= 6 on C5 with 8
  lanes: met by `accurate`, not by `shared` (5.2)**. 8 lanes against 1: 3.5x on C5,
  1.6-1.9x on C1 (this machine's widest lanes; an earlier machine measured 6-8x on C5).
- **dopri8s faster than cvodes_fsa on C5 at equal achieved error**: met at TOLS 1e-6
  (shared 1.31x, accurate 1.78x) and by `accurate` at 1e-7 (1.25x); **missed by `shared` at
  1e-7 (0.84x)**: C5's error sits at the rounding floor of internal differences, about
  sqrt(eps) max|S| = 5e-7 (the paper's Eq. 8), from TOLS 1e-5 on, so tighter TOLS only
  costs steps; the cvodes_fsa run at least as accurate is the same (rtol 1e-8) for every
  TOLS. For the same reason C5 at TOLS 1e-7 misses TOLS itself (4.9 TOLS), as the paper
  does there.
- **grk4as on E3: error <= TOLS at TOLS <= 1e-6: met by `corrected`** (0.04 and 0.37 TOLS
  at 1e-6 and 1e-7). **Missed by `frozen`** (12 and 37 TOLS): the paper's GRK4AS is a
  W-method for the perturbed trajectories, sigma is of order 1 for nonlinear f (the
  fixed-step tests), and the embedded estimate (14) does not see that error, so it grows
  as TOLS shrinks.
- **external/internal >= 1 on E3**: frozen 2.5-2.9; corrected 1.44-1.47, except 0.96 at
  TOLS 1e-6 in this run (three repeats of 0.6 s each on a shared machine).
- **E3x10, external/internal >= 3 with dense LU, >= 1.5 with KLU: met by `frozen`** (dense
  4.8-6.1, KLU 2.1-2.5), **missed by `corrected`** (dense 2.8-3.4, KLU 1.14-1.20):
  `corrected` adds one Jacobian-vector product per perturbed trajectory and stage (34 x 4
  per step, each through the model's tape), which costs about what the external runs' own
  LU factorizations cost; with KLU the shared LU saves little, so the products decide.
  Its error meets TOLS (0.21 TOLS at 1e-6); `frozen` misses it (73 TOLS at 1e-6).
- grk4as stays 20-630x slower than cvodes_fsa bdf on E3, whose BDF needs a few hundred
  steps where GRK4A at TOL = TOLS^2 needs 4 000-280 000."""


def internal_diff_section():
    out = subprocess.run([os.path.join(build, "bin", "bench_internal_diff"), "--repeats", "21"],
                         check=True, capture_output=True, text=True).stdout.strip().split("\n")
    lines = [
        "## Internal differences: dopri8s and grk4as (`bench_internal_diff`)",
        "",
        "Command: `build/bin/bench_internal_diff --repeats 21` (Franz & Kiehl §4: TOLS 1e-4 ...",
        "1e-7, TOL = TOLS^2; median of 21 runs). Error: max over output times and entries of",
        "|S - S_ref| / (|S_ref| + 1), S_ref exact (C1) or cvodes_fsa adams at rtol 1e-13 (C5).",
        "",
    ]
    bench = os.path.join(build, "bin", "bench_internal_diff")
    e3 = subprocess.run([bench, "--cases", "E3", "--repeats", "3"], check=True,
                        capture_output=True, text=True).stdout.strip().split("\n")
    e3x10 = subprocess.run([bench, "--cases", "E3x10", "--tols", "1e-4,1e-5,1e-6", "--repeats",
                            "3"], check=True, capture_output=True,
                           text=True).stdout.strip().split("\n")
    lines += out + ["", "### grk4as on STIFF DETEST E3: "
                    "`build/bin/bench_internal_diff --cases E3 --repeats 3`",
                    "", "Reference: cvodes_fsa bdf at rtol 1e-13; directions=all: n_s = 7.", ""]
    lines += stiff_rows(e3)
    lines += ["", "### grk4as on E3x10: `build/bin/bench_internal_diff --cases E3x10 --tols "
              "1e-4,1e-5,1e-6 --repeats 3`", "",
              "Ten copies of E3 on the same a1..a4 (30 states), directions=all: n_s = 34; "
              "\"KLU\": I - h*gamma*J by KLU (sparse_threshold = 1). TOLS 1e-7 is left out: "
              "about 5 minutes a repeat.", ""]
    return lines + stiff_rows(e3x10) + [""] + INTERNAL_DIFF_GOALS.split("\n")


def stiff_rows(e3):
    """The E3 table and its stiff goals, without the empty non-stiff tables."""
    keep, skip = [], False
    for line in e3:
        if line.startswith("Goals at TOLS") or line.startswith("cvodes_fsa (adams) at equal"):
            skip = True
        elif line.startswith("Stiff goals"):
            skip = False
        if not skip:
            keep.append(line)
    return keep


def saved_or_run(variable, command):
    """The output of a run already made (file named by the environment variable), or a new run."""
    saved = os.environ.get(variable)
    if saved:
        return open(saved).read()
    return subprocess.run(command, check=True, capture_output=True, text=True).stdout


# The two sweeps behind the explanation of the WRONG cells (tolerance_sweep.py
# needs the Python module; BENCH_SWEEP_VDP_OUTPUT / BENCH_SWEEP_CRAUSTE_OUTPUT:
# outputs already made).
SWEEPS = [
    ("vanderpol", "BENCH_SWEEP_VDP_OUTPUT", "ode/vanderpol.ode",
     ["--methods", "cvodes_fsa,pbsr,exp,odesd,grk4as"]),
    ("Crauste_CellSystems2017", "BENCH_SWEEP_CRAUSTE_OUTPUT", "sbml/Crauste_CellSystems2017.xml",
     ["--methods", "cvodes_fsa,pbsr,odesd,grk4as", "--tolerances",
      "1e-5/1e-6,1e-6/1e-8,1e-8/1e-10,1e-10/1e-12"]),
]


def sweep_lines():
    shared = os.environ.get("ODESENS_SHARED_DIR",
                            os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                         "..", "shared"))
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tolerance_sweep.py")
    lines = []
    for name, variable, path, args in SWEEPS:
        command = ["/usr/bin/python3", "-W", "ignore", script,
                   os.path.join(shared, "models", path)] + args
        try:
            out = saved_or_run(variable, command)
        except (OSError, subprocess.CalledProcessError) as e:
            lines += [f"{name}: not run ({e})", ""]
            continue
        # A failed solve's message is long: its first clause is enough here.
        rows = [re.sub(r" \(steps kept.*?\) at t=[^|]*", " ", l)
                for l in out.split("\n") if l.startswith("|")]
        lines += [f"{name} (`{' '.join(args)}`):", ""] + rows + [""]
    return lines


def methods_section():
    # BENCH_MATRIX_OUTPUT / BENCH_STIFFNESS_OUTPUT: outputs of runs already made
    # (the matrix takes several minutes: up to 60 s a cell).
    matrix = saved_or_run("BENCH_MATRIX_OUTPUT", [os.path.join(build, "bin", "bench_method_matrix")])
    stiffness = saved_or_run("BENCH_STIFFNESS_OUTPUT",
                             [os.path.join(build, "bin", "bench_stiffness_check"), "--repeats", "11"])
    control = saved_or_run("BENCH_PBS_CONTROL_OUTPUT", [
        os.path.join(build, "bin", "bench_method_matrix"), "--max-limit", "60", "--methods",
        "pbsr:error_control=off,pbsr,exp:error_control=off,exp"])
    state_check = saved_or_run("BENCH_STATE_CHECK_OUTPUT", [
        os.path.join(build, "bin", "bench_method_matrix"), "--max-limit", "60", "--methods",
        "pbsr:state_check=0,pbsr,exp:state_check=0,exp"])
    tableaux = saved_or_run("BENCH_TABLEAU_OUTPUT", [
        os.path.join(build, "bin", "bench_method_matrix"), "--methods",
        "grk4as:tableau=grk4a,grk4as:tableau=ros4,grk4as:tableau=rodas4"])
    scaling = saved_or_run("BENCH_SCALING_OUTPUT", [
        os.path.join(build, "bin", "bench_method_matrix"), "--methods",
        "grk4as:scaling=normwise,grk4as"])
    rows = [l for l in matrix.split("\n") if l.startswith("|")]
    cells = [c.strip() for l in rows[2:] for c in l.strip("|").split("|")[2:]]
    count = lambda word: sum(1 for c in cells if c.startswith(word))
    lines = [
        "## Every method on every model (`bench_method_matrix`, `bench_stiffness_check`)",
        "",
        "Command: `build/bin/bench_method_matrix` (via `python3 benchmarks/make_results.py --only",
        "methods`). Every shared SBML and .ode model over its own time span, 101 outputs, every",
        "method at its default tolerances against cvodes_fsa at rtol 1e-10, atol 1e-12. Error:",
        "the largest |S_ij - S_ref,ij| (S(T) for cvodes_asa and erk_adjoint), each relative to the",
        "largest |S_ref| over all outputs of its column (parameter) or its row (state), whichever",
        "is larger (the same scales for S(T) as for the forward methods' S at T), and to no less",
        "than 1e-6 of the largest |S_ref| of all. `ok`: error <= 1e-3; `WRONG`: more, with",
        "no warning; `warned`: the result carries a warning; a status: the method refused or",
        "failed; `killed`: still running at max(2 s, 20 x cvodes_fsa), at most 240 s. Each cell",
        "runs in a process of its own. Run on 2026-12-01; the machine was loaded (builds and",
        "tests ran on the other core meanwhile): times are upper bounds.",
        "",
    ] + rows + [
        "",
        "Cells: {} ok, {} WRONG, {} warned, {} killed, {} ended with a status.".format(
            count("ok"), count("WRONG"), count("warned"), count("killed"),
            len(cells) - count("ok") - count("WRONG") - count("warned") - count("killed")),
        "",
        refusal_goal_line(rows),
        "",
    ] + MATRIX_OUTSIDE_TEXT.split("\n") + [
        "The WRONG cells, and why they stay (Perelson_Science1996's cvodes_asa and erk_adjoint",
        "cells were WRONG while S(T) was judged against S_ref(T) alone: at T = 100 every state",
        "has decayed below atol, so S(T) is noise at the tolerances for every method, cvodes_fsa's",
        "S at T included, 6x off; judged on the scales of the whole trajectory, as the forward",
        "methods' S at T is, they are right):",
        "",
        "- Crauste_CellSystems2017 (cvodes_fsa, cvodes_asa, odesd, dopri8s, grk4as; the other",
        "  three warn): the model amplifies local errors by orders of",
        "  magnitude, and the states are as wrong as S. cvodes_fsa's states are 24 % off at rtol",
        "  1e-5, 0.14 % at its default 1e-8, 2.5e-5 at 1e-10 (`benchmarks/tolerance_sweep.py`,",
        "  below); S about 20 times more. pbsr and exp estimate the states' global error and",
        "  warn (below: \"with and without the state check\"), and so does erk_adjoint here; the",
        "  other methods do not. Tighter tolerances are the remedy (rtol 1e-12: the reference).",
        "- vanderpol (pbsr and exp, which now warn; WRONG in the run before): the cell is their looser default tolerances (rtol 1e-5, atol",
        "  1e-6), not their S: at equal tolerances every method's states are as far off as its S,",
        "  and pbsr's and exp's errors match cvodes_fsa's (1e-5: x 1.1e-1, S 1.0e-1 for cvodes_fsa;",
        "  9.5e-2 and 9.2e-2 for pbsr). The relaxation jumps (mu = 1000) move with the errors of",
        "  earlier steps. At rtol 1e-8 pbsr is at 1.9e-4 (cvodes_fsa 9.7e-5). The state check now",
        "  warns there (the states' global error is 8900 times their tolerances).",
        "",
        "The global error against the tolerances, per method (`/usr/bin/python3",
        "benchmarks/tolerance_sweep.py MODEL --methods ... --tolerances ...`; errors: the",
        "largest over states, or parameter columns, of max|value - reference| over max|reference|,",
        "reference cvodes_fsa at rtol 1e-12):",
        "",
    ] + sweep_lines() + [
        "### pbsr and exp with and without error control",
        "",
        "Command: `build/bin/bench_method_matrix --max-limit 60 --methods",
        "\"pbsr:error_control=off,pbsr,exp:error_control=off,exp\"`: the same cells, with the",
        "paper's algorithms (`error_control=off`) beside the default (`refine`: steps whose",
        "estimated error of S exceeds the tolerances are split; docs/methods/pbsr.md#error-control).",
        "",
    ] + [l for l in control.split("\n") if l.startswith("|")] + [
        "",
    ] + state_check_lines(state_check) + [
        "### What the stiffness test costs where it never fires, and saves where it does",
        "",
        "Command: `build/bin/bench_stiffness_check --repeats 11`: dopri8s and erk_adjoint with",
        "`stiffness_check=1` and `0`, interleaved, best of 11. Non-stiff models take fewer than",
        "1000 accepted steps, so the test (every 1000 accepted steps while calm) costs the",
        "comparison of one step in a thousand; dopri8s also measures h rho(J) of its nominal",
        "(two evaluations of f every fourth step, against 12 per trajectory per step). On/off is",
        "near 1. Stiff: the time until the test ends the solve, against cvodes_fsa's whole solve.",
        "",
    ] + stiffness.strip().split("\n") + [""] + dopri8s_measure_lines(rows) + [""] + \
        grk4as_tableau_lines(tableaux) + [""] + grk4as_scaling_lines(scaling)
    return lines


def state_check_lines(output):
    """pbsr and exp with and without the check of the states' global error."""
    rows = [l for l in output.split("\n") if l.startswith("|")]
    return [
        "### pbsr and exp with and without the state check",
        "",
        "Command: `build/bin/bench_method_matrix --max-limit 60 --methods",
        "\"pbsr:state_check=0,pbsr,exp:state_check=0,exp\"`: the same cells without and with",
        "the check of the states' global error (a state solve 10 times tighter; a warning above",
        "300 times the tolerances: docs/methods/pbsr.md#state-check). One solve per cell: times",
        "under a few ms are noise.",
        "",
    ] + rows + [
        "",
        "Its cost, timed best of 3 (`odesens.solve` from Python, `state_check=0` against `1`, each",
        "shared SBML and .ode model but Lang), was 0.95 to 1.32 times the time without it, median",
        "1.12, when it was added.",
        ""]


def refusal_goal_line(rows):
    """The every-method issue's goal for cells that end with a status: within max(2 s, 20 x
    cvodes_fsa's time)."""
    late, statuses = [], 0
    for l in rows[2:]:
        parts = [c.strip() for c in l.strip("|").split("|")]
        limit = max(2.0, 20 * float(parts[1].split()[0]))
        for cell in parts[2:]:
            if cell.split()[0] in ("ok", "warned", "WRONG", "killed"):
                continue
            statuses += 1
            m = re.search(r"\(([0-9.e+-]+) s\)$", cell)
            if not m or float(m.group(1)) > limit:
                late.append(parts[0])
    return ("Goal: a cell that ends with a status does so within max(2 s, 20 x cvodes_fsa's "
            "time): {} ({} cells{}).".format("met" if not late else "missed", statuses,
                                              ", late: " + ", ".join(late) if late else ""))


def table_cells(table):
    """{model: [cell, ...]} and the column names of a bench_method_matrix table."""
    rows = [l for l in table.split("\n") if l.startswith("|")]
    header = [c.strip() for c in rows[0].strip("|").split("|")]
    cells = {}
    for l in rows[2:]:
        parts = [c.strip() for c in l.strip("|").split("|")]
        cells[parts[0]] = parts[1:]
    return header, cells, rows


def steps_of(cell):
    """The steps of a finished cell ("ok 0.1 s, 496 st, err ..."), or None."""
    m = re.search(r"(\d+) st,", cell)
    return int(m.group(1)) if m and (cell.startswith("ok") or cell.startswith("warned")) else None


def dopri8s_measure_lines(rows):
    header = [c.strip() for c in rows[0].strip("|").split("|")]
    column = header.index("dopri8s")
    shown = []
    for l in rows[2:]:
        parts = [c.strip() for c in l.strip("|").split("|")]
        if parts[0] in ("Lang_PLOSComputBiol2024", "Zheng_PNAS2012"):
            shown.append("{} (cvodes_fsa {}): {}".format(parts[0], parts[1], parts[column]))
    return [
        "### dopri8s: stiffness the stages' quotient misses",
        "",
        "Hairer's test estimates h|lambda| from the last two stages, along the direction of the",
        "step's error. On Lang_PLOSComputBiol2024 and Zheng_PNAS2012 dop853's steps sat at the",
        "stability limit for thousands of steps (h constant, h rho(J) 6.4 and 4.0-4.7) while the",
        "quotient stayed at 0.06-0.6 and below 0.8 of the boundary: Lang ran for minutes, Zheng",
        "took 28 207 steps (cvodes_fsa 431) to an error of 1e-1, warned. dopri8s now also gives",
        "the test h rho(J) of the nominal from a power iteration (two evaluations of f every",
        "fourth step, binding no step; src/integrate/erk/stability_limit.hpp), which fires at 0.6",
        "of the boundary (rho may belong to a complex pair, whose edge lies inside the real",
        "boundary). Accuracy keeps h rho(J) below 3.4 on every shared model that is not stiff.",
        "In this run:",
        "",
    ] + ["- " + s for s in shown]


def grk4as_tableau_lines(table):
    header, cells, rows = table_cells(table)
    grk4a, rodas4 = header.index("grk4as:tableau=grk4a") - 1, header.index("grk4as:tableau=rodas4") - 1
    both = fewer = 0
    more = []
    for model, c in cells.items():
        a, b = steps_of(c[grk4a]), steps_of(c[rodas4])
        if a is None or b is None:
            continue
        both += 1
        if b < a:
            fewer += 1
        elif b > a:
            more.append("{} {} against {}".format(model, b, a))
    return [
        "### grk4as: the tableau",
        "",
        "Command: `build/bin/bench_method_matrix --methods",
        "\"grk4as:tableau=grk4a,grk4as:tableau=ros4,grk4as:tableau=rodas4\"` (one run; the matrix's",
        "cells and measure as above). GRK4A is the paper's method; ROS4 Hairer & Wanner's L-stable",
        "set (gamma = 0.57282); RODAS4 their stiffly accurate 6-stage method, grk4as' default",
        "(docs/methods/grk4as.md, \"The tableau\"). GRK4A's steps collapsed on the stiff real",
        "models by order reduction (its R(inf) = 0.995: stiff components are barely damped).",
        "",
    ] + rows + [
        "",
        "- RODAS4 takes fewer steps than GRK4A on {} of the {} models where both finish{}.".format(
            fewer, both, " (more: " + "; ".join(more) + ")" if more else ""),
        "- Time: a RODAS4 step costs 6 evaluations of f against GRK4A's 3, so time falls only where",
        "  the steps fall by more than half.",
    ]


def grk4as_scaling_lines(table):
    header, cells, rows = table_cells(table)
    laske = cells.get("Laske_PLOSComputBiol2019")
    lines = [
        "### grk4as: componentwise perturbation sizes",
        "",
        "Command: `build/bin/bench_method_matrix --methods \"grk4as:scaling=normwise,grk4as\"`",
        "(one run): RODAS4 with the perturbation sizes of the shared default (normwise) against",
        "grk4as' default (componentwise, docs/methods/grk4as.md). Normwise, the trajectories",
        "perturbed in Laske's L1 and L2 move small components by more than their own size (below",
        "0) and the steps collapse.",
        "",
    ] + rows
    if laske:
        lines += ["", "- Laske_PLOSComputBiol2019 (cvodes_fsa {}): normwise {}; componentwise {}.".format(
            laske[0], laske[1], laske[2])]
    return lines


CHOICE_TEXT = """\
Command: `build/bin/bench_method_matrix --choice 1 --max-limit 30` (via `python3
benchmarks/make_results.py --only choice`). Every shared model over its own span, 101
outputs, every method that can serve a goal and `auto` at rtol 1e-8, atol 1e-10 (auto's
tolerances), each the best of three solves (of up to 30 while they take under 30 ms in all)
in a process of its own (30 s at most). Right:
error <= 1e-4 against cvodes_fsa at rtol 1e-11, atol 1e-13, and no warning (S: the
matrix's measure; gradient of G = sum_i (1 + i/nx) x_i(T): the largest |g_j - g_ref,j|
over the largest |sum_i (1 + i/nx) S_ref,ij(t)| over the span, as S(T) is judged; not the
plain sum of the states, which mass-conserving models conserve: its gradient is 0, and
every method was judged WRONG on Brannmark and DETEST C1 for its rounding; cvodes_asa and
erk_adjoint with final_sensitivity=0). Each goal gives the
fastest right method, what auto ran (after its fallback, if any), its verdict and time (the
probe included), and the ratio. The rule: docs/methods/auto.md.

Where the fastest right method takes under 0.1 s, auto and every right method within 1.5
times it are then timed again in turn in one process (round robin, their best over 0.5 s
and at least 5 rounds), and the row gives those times, marked "(in turn)". Timed each in a
process of its own, as until this run, the ratios of sub-millisecond solves moved by up
to 2x between two runs with nothing changed (Boehm_JProteomeRes2014's S 1.53x and 2.25x,
detest_c1's 1.39x and 2.90x), as the other core's load and the clock changed between the
processes; in turn, every method sees the same machine: a second run of chua, detest_c1,
michaelis_menten, Boehm, stiff_e3, Bertozzi and Beer (`--models`) while a fit loaded both
cores (under `nice`) gave every ratio within 0.04 of this run's.

This run (2026-12-05, the latest) followed one change: where the stiffness probe solved the
whole span non-stiff and nothing switches, the chosen method's states are compared with the
probe's (dopri5 at the same tolerances, its dense output at the outputs), and the method's own
check (a second state solve at tolerances 10 times tighter) runs only where the two differ by
more than 300 times the tolerances (docs/methods/auto.md, "State check"). chua 2.09x / 2.12x
-> 1.66x / 1.69x (S / gradient; its probe takes 43 steps, dopri8s' check was a second solve
of two thirds its time), detest_c1 1.93x -> 1.59x, stiff_e3's gradient 2.00x -> 1.58x; on the
shared models the probe's states differed from the method's by 0.07 to 4.4 times the
tolerances (`stats.extra["state_difference_from_probe"]`). The only miss left is
Brannmark_JBC2010's gradient. In this run erk_adjoint's gradients (Okuonghae, Oliveira,
Rahman, Raia, SalazarCavazos, pka) were also checked by the probe's states; after the run
that was undone (erk_adjoint's forward pass is dopri5 with the probe's steps, so the two
share their errors), and erk_adjoint checks itself again as in the run before, where
these rows read 1.09-1.43x with its check.

The run before (2026-12-05) followed three changes. odesd writes each output into the result as
it reaches it (a buffer of all outputs beside the result was a second large allocation
whose pages every solve faulted in again: DETEST C5's odesd took 3.4 ms a solve in a C++
loop, 0.43 ms without the buffer). auto's odesd interpolates its outputs
(`output=hermite`) where the probe solved the whole span non-stiff within as many steps as
there are outputs and nothing switches: detest_c5's S 4.85x -> 0.63x (9 steps instead of
100), Bruno_JExpBot2016's 1.31x -> 0.42x, Raia_CancerResearch2011's 1.26x -> 0.82x, pka's
1.26x -> 0.88x, below 1 because the fastest method is timed as named, ending a step on
each output. And a non-stiff gradient that the probe solved in few steps (steps x
parameters at most 600) goes to odesd so, not to erk_adjoint, which ends a step on every
output: detest_c5's gradient 2.38x (erk_adjoint, in this run before the change) -> 0.66x,
Bruno's 1.06x -> 0.79x. The rows of Bruno_JExpBot2016, detest_c5, detest_c1, chua and
stiff_e3 are of a second run (`--models`) after that change; the first run's last rows
had a build on the other core (detest_c1's S read 2.29x there, 1.93x here). The rule:
docs/methods/auto.md.

auto checks the states' global error of the method it runs (its option `state_check`, on
by default; docs/methods/auto.md): a second state solve at tolerances 10 times tighter
(odesd's own without S, dopri8s' own without directions, CVODES' BDF after cvodes_fsa,
cvodes_asa and grk4as; erk_adjoint checks with its own tableau by default), where the probe
solved the whole span and nothing switches only after its states differ from the probe's by
more than 300 times the tolerances (CVODES' BDF then). On
Crauste_CellSystems2017 every method's S was 1e-3 to 3e-2 off at these tolerances with no
word, and auto's S cell read WRONG; it now reads warned. The fastest method runs without
the check. Without it (`state_check=0`, the run of 2026-12-02 timed apart): S within 2x
on 27 of 29 models, gradient on 28 of 30. Correctness is the default here; a user who
knows the model's errors do not grow can turn the check off.

auto runs exp where the states are at rest (f(t0, x0) = 0 exactly, f reads no t, no
events, at most 50 states: docs/methods/auto.md): on Schwen_PONE2014 and
Lucarelli_CellSystems2018 at their nominal inputs it takes 1.0-1.2 times the fastest.

The miss, and why it stays:

- Brannmark_JBC2010's gradient (4.5x): the probe finds it stiff, it has 19 parameters,
  and odesd, which takes 2411 steps there against BDF's 634, runs where cvodes_asa is
  faster; on Elowitz_Nature2000, of the same size, odesd takes 419 steps against BDF's 768
  and is faster than cvodes_asa: nothing the probe measures tells the two apart. What sets
  odesd's steps there is atol on a state of 1.5e-7 (docs/methods/odesd.md, "Tiny states
  and S"). Without S in its error test (`sens_error_control=0`) odesd takes 367 steps
  there, 7 times faster, but its S is 5e-2 off (its column's largest error over the
  column's largest |S|, against cvodes_fsa at rtol 1e-12; also 4e-2 on Bachmann_MSB2011
  and Schwen_PONE2014): not a way out.

chua's 2.1x of the run before (its probe 12 us, dopri8s' own check 21 us, dopri8s 33 us) is
1.7x with the probe's states as the first check; stiff_e3's gradient, 2.00x there (dopri8s,
through S, against erk_adjoint and odesd interpolating), is 1.58x.

The run of 2026-12-04 before this one followed one change of the rule: a small S (nx·np
at most 64) whose probe found the problem non-stiff goes to dopri8s also where the probe's
300 steps did not reach the end, if its pace projects at most 3000 explicit steps over
the span (builtin:chua over [0, 10] at rtol 1e-8 ran odesd at 11 times dopri8s' time).
On the shared models it changed Beer_MolBioSystems2014's S (odesd, 2.06x before, then
dopri8s) and Crauste_CellSystems2017 (dopri8s for both goals, a result warned about as
every method's there)."""


def many_parameters_section():
    # BENCH_MANY_OUTPUT, BENCH_MANY_SBML_OUTPUT: outputs of runs already made.
    program = os.path.join(build, "bin", "bench_many_parameters")
    scaling = saved_or_run("BENCH_MANY_OUTPUT", [program, "--repeats", "3"])
    sbml = saved_or_run("BENCH_MANY_SBML_OUTPUT", [program, "--sbml", "--repeats", "3"])
    rows = [[c.strip() for c in l.strip("|").split("|")] for l in sbml.split("\n")
            if l.startswith("| ") and not l.startswith("| model")]
    ratios = sorted(float(r[5]) for r in rows if len(r) > 5)
    grid = [[c.strip() for c in l.strip("|").split("|")] for l in scaling.split("\n")
            if l.startswith("| ") and not l.startswith("| parameters")]
    last, before = grid[-1], grid[-2]
    size = float(last[0]) / float(before[0])
    growth = "From {:g} to {:g} parameters ({:g}x) the tangents' time grows {:.1f}x, the products' {:.1f}x".format(
        float(before[0]), float(last[0]), size, float(last[1]) / float(before[1]),
        float(last[2]) / float(before[2]))
    return [
        "## cvodes_fsa with many parameters (`bench_many_parameters`)",
        "",
        "Command: `build/bin/bench_many_parameters --repeats 3` (via `python3",
        "benchmarks/make_results.py --only many`), one run: one state x' = -(p_1 + ... + p_n) x",
        "over [0, 1], whose f sums every parameter, so that f's tape grows with n. J_x S in the",
        "sensitivity right-hand side as n tangent passes over f (`sens_products=tangents`) costs",
        "n^2; as J_x's values times S (`sens_products=jacobian`), n. Best of 3 solves each.",
        "",
    ] + [l for l in scaling.split("\n") if l.startswith("|")] + [
        "",
        growth + ": the",
        "quadratic term is gone, but the products' growth is above 4x, which this run does not",
        "explain (the model's text and tape also grow with n). `auto` takes the products from",
        "500 parameters and 4 per state where J_x's pattern is known.",
        "",
        "Below that threshold: `build/bin/bench_many_parameters --sbml --repeats 3`, the shared",
        "SBML models (but the four slow ones) over their own spans, 100 outputs, rtol 1e-8, in",
        "one process, best of 3:",
        "",
    ] + [l for l in sbml.split("\n") if l.startswith("|")] + [
        "",
        "tangents / jacobian lies in {:.2f}-{:.2f} (median {:.2f}): within 10 % on every model, so"
        .format(ratios[0], ratios[-1], ratios[len(ratios) // 2]) if ratios else "",
        "the default keeps the tangents there (the builtin glv:20 and linear:100 were 5 % slower",
        "with products in a separate run of `odesens run --option sens_products=...`), and the",
        "results of these models do not change with this option's arrival.",
    ]


# Every method on the models of the PEtab benchmark collection outside
# ../shared (recorded: their models are not in the repository).
MATRIX_OUTSIDE_TEXT = """\
### Models outside `../shared` (recorded run)

The same command on a folder holding the SBML models of 13 of the 14 problems of the PEtab
benchmark collection (commit 4d20850) that are not in `../shared` (Froehlich's files are
too large to fetch): `ODESENS_SHARED_DIR=FOLDER build/bin/bench_method_matrix --max-limit
30`, one run on 2026-12-03 (the 30 s cap falls below 20 x cvodes_fsa's time on Chen_MSB2009
and Smith_BMCSystBiol2013, 500 states and 94 states with 386 parameters, whose killed cells are that cap). The
Alkan_SciSignal2018 row is of a second run (`--models Alkan_SciSignal2018`) after perturbed
trajectories follow the nominal's branch of comparisons of parameters alone
(docs/events.md): grk4as' cell read killed (3.8 s; alone it ran over 100 s, its trajectory
perturbed in SN38_level = 0 on the branch of a dose), dopri8s' "the problem is stiff for an
explicit method" (that trajectory carried the dose's rate of 1000).

| model | cvodes_fsa time | cvodes_fsa | cvodes_asa | odesd | pbsr | exp | dopri8s | grk4as | erk_adjoint |
|---|---|---|---|---|---|---|---|---|---|
| Alkan_SciSignal2018 | 0.19 s | ok 0.2 s, 741 st, err 1e-08 | ok 0.45 s, 18791 st, err 5e-07 | ok 0.061 s, 380 st, err 1e-08 | ok 0.098 s, 179 st, err 1e-04 | ok 0.095 s, 179 st, err 1e-04 | warned 0.18 s, 510 st, err 7e-03 | warned 1.2 s, 920 st, err 2e-04 | ok 0.053 s, 537 st, err 1e-09 |
| Blasi_CellSystems2016 | 0.0082 s | ok 0.0095 s, 279 st, err 2e-08 | ok 0.086 s, 6595 st, err 3e-10 | ok 0.013 s, 187 st, err 3e-08 | ok 0.0073 s, 85 st, err 3e-05 | ok 0.0098 s, 85 st, err 9e-06 | ok 0.015 s, 360 st, err 2e-07 | ok 0.033 s, 306 st, err 7e-08 | ok 0.013 s, 323 st, err 3e-13 |
| Borghans_BiophysChem1997 | 1.2 s | ok 1.2 s, 66757 st, err 2e-05 | ok 0.97 s, 173986 st, err 5e-05 | ok 0.2 s, 35532 st, err 1e-05 | warned 0.15 s, 10296 st, err 1e-01 | warned 0.14 s, 10296 st, err 1e-01 | ok 0.13 s, 5917 st, err 2e-05 | ok 3.8 s, 54044 st, err 2e-05 | warned 0.043 s, 6684 st, err 2e-04 |
| Chen_MSB2009 | 7.4 s | ok 7.9 s, 538 st, err 7e-08 | killed (30 s) | ok 11 s, 324 st, err 2e-08 | killed (30 s) | killed (30 s) | the problem is stiff for an explicit method (20 s) | warned 23 s, 266 st, err 1e-03 | the problem is stiff for an explicit method (0.086 s) |
| Fiedler_BMCSystBiol2016 | 0.011 s | ok 0.014 s, 542 st, err 4e-07 | ok 0.023 s, 3127 st, err 8e-12 | ok 0.0054 s, 335 st, err 1e-07 | warned 0.0066 s, 120 st, err 9e-03 | warned 0.0045 s, 120 st, err 9e-03 | warned 0.011 s, 448 st, err 1e-07 | warned 0.033 s, 485 st, err 6e-05 | ok 0.0041 s, 269 st, err 2e-15 |
| Fujita_SciSignal2010 | 0.0027 s | ok 0.0039 s, 42 st, err 2e-08 | ok 0.011 s, 1159 st, err 4e-08 | ok 0.0034 s, 102 st, err 8e-10 | ok 0.0032 s, 10 st, err 3e-05 | ok 0.0036 s, 10 st, err 3e-05 | warned 0.0057 s, 106 st, err 9e-09 | warned 0.011 s, 106 st, err 2e-06 | the problem is stiff for an explicit method (0.004 s) |
| Giordano_Nature2020 | 0.036 s | ok 0.039 s, 333 st, err 8e-05 | ok 0.093 s, 7912 st, err 4e-04 | ok 0.0091 s, 148 st, err 1e-05 | warned 0.0085 s, 62 st, err 7e-01 | warned 0.0083 s, 62 st, err 7e-01 | warned 0.019 s, 86 st, err 4e-05 | warned 0.14 s, 283 st, err 1e-05 | ok 0.0056 s, 121 st, err 2e-07 |
| Isensee_JCB2018 | 0.12 s | ok 0.13 s, 533 st, err 4e-08 | ok 0.1 s, 5876 st, err 2e-07 | ok 0.035 s, 258 st, err 5e-08 | ok 0.013 s, 3 st, err 8e-10 | ok 0.013 s, 3 st, err 8e-10 | the problem is stiff for an explicit method (0.26 s) | warned 0.26 s, 292 st, err 7e-05 | the problem is stiff for an explicit method (0.0063 s) |
| Liu_IFACPapersOnLine2025 | 0.0072 s | ok 0.0079 s, 586 st, err 2e-10 | ok 0.016 s, 2958 st, err 1e-07 | ok 0.0033 s, 316 st, err 2e-10 | ok 0.0044 s, 181 st, err 9e-07 | ok 0.0059 s, 181 st, err 9e-07 | warned 0.003 s, 152 st, err 2e-08 | warned 0.02 s, 668 st, err 1e-08 | the problem is stiff for an explicit method (0.0035 s) |
| Raimundez_PCB2020 | 0.089 s | ok 0.097 s, 318 st, err 4e-08 | ok 0.15 s, 7937 st, err 3e-07 | ok 0.028 s, 188 st, err 3e-08 | ok 0.039 s, 87 st, err 3e-05 | ok 0.038 s, 87 st, err 3e-05 | warned 0.93 s, 2691 st, err 2e-04 | warned 1.1 s, 776 st, err 3e+12 | ok 0.049 s, 750 st, err 8e-08 |
| Smith_BMCSystBiol2013 | 4.8 s | ok 5.1 s, 956 st, err 2e-08 | ok 1.6 s, 13275 st, err 3e-06 | ok 1.4 s, 462 st, err 7e-08 | ok 2.5 s, 254 st, err 5e-05 | ok 2.7 s, 254 st, err 5e-05 | the problem is stiff for an explicit method (14 s) | killed (30 s) | the problem is stiff for an explicit method (0.022 s) |
| Sneyd_PNAS2002 | 0.0041 s | ok 0.0065 s, 240 st, err 4e-06 | ok 0.01 s, 1434 st, err 1e-07 | ok 0.0035 s, 171 st, err 5e-07 | ok 0.0024 s, 14 st, err 7e-05 | ok 0.0018 s, 14 st, err 7e-05 | the problem is stiff for an explicit method (0.022 s) | warned 0.013 s, 167 st, err 1e-07 | the problem is stiff for an explicit method (0.0033 s) |
| Zhao_QuantBiol2020 | 0.019 s | ok 0.022 s, 720 st, err 3e-08 | ok 0.01 s, 1195 st, err 5e-07 | ok 0.0051 s, 405 st, err 2e-08 | ok 0.0048 s, 134 st, err 1e-04 | ok 0.0043 s, 134 st, err 1e-04 | warned 0.0036 s, 50 st, err 9e-08 | warned 0.068 s, 708 st, err 2e-08 | ok 0.0033 s, 176 st, err 3e-09 |

Cells: 66 ok, 0 WRONG, 24 warned, 4 killed (the cap above), 10 ended with a status.
"""


# auto on the problems of the PEtab benchmark collection outside ../shared
# (recorded: their models are not in the repository). Smith and Chen: the
# rerun after the rule for a large S took the probe's pace.
CHOICE_OUTSIDE_TEXT = """\
### Problems outside `../shared` (recorded runs)

The same command on a folder holding the SBML models of 11 of the 14 problems of the PEtab
benchmark collection (commit 4d20850) that are not in `../shared`:
`ODESENS_SHARED_DIR=FOLDER build/bin/bench_method_matrix --choice 1 --max-limit 30
--models ...`, one run on 2026-12-05 (65 s). Chen_MSB2009 and Smith_BMCSystBiol2013 (S of
500 x 188 and 94 x 386) are rows of an earlier run (2026-12-03), taken again with
`--models` after auto took odesd for an S above 10 000 entries where the probe's pace is at
most 1e8 explicit steps (docs/methods/auto.md); Froehlich's files are too large to fetch.
Against the run before (2026-12-03): Alkan's 52 parameters, declared `constant="false"`
and set by nothing, are sensitivity parameters now (docs/models.md; the run before solved
its states alone), so its rows are of another problem (1.18x / 1.13x, were 2.69x /
3.95x); Isensee's S 2.57x is 1.01x (exp), Raimundez' gradient 3.12x is 2.26x, Blasi's
gradient 2.48x is 1.63x. The misses:

- Fiedler_BMCSystBiol2016's gradient (2.11x): the probe finds it stiff (h|lambda| at the
  edge of dopri5's stability region) and auto takes odesd (1.45 ms alone; the probe and
  the state check bring it to 2.0 ms), where erk_adjoint, explicit at the stability
  boundary, takes 366 steps and 0.85-1.1 ms (best of 20 solves each from
  `/usr/bin/python3`).
- Raimundez_PCB2020's gradient (2.26x): the probe finds it non-stiff (the median of
  h|lambda| is 0.24 of the boundary) and auto takes erk_adjoint, 1204 steps forward and
  back for 22 states and 78 parameters, 12.8 ms without its state check; cvodes_asa
  takes 593 steps and 7.4 ms."""

CHOICE_OUTSIDE_ROWS = """\
| model | S: fastest right | S: auto | auto/fastest | gradient: fastest right | gradient: auto | auto/fastest |
|---|---|---|---|---|---|---|
| Alkan_SciSignal2018 | odesd 0.0298 s (in turn) | odesd: ok 0.0352 s, err 1e-08 | 1.18 | cvodes_asa 0.0176 s (in turn) | erk_adjoint: ok 0.0198 s, err 2e-11 | 1.13 |
| Blasi_CellSystems2016 | odesd 0.00146 s (in turn) | odesd: ok 0.00235 s, err 3e-08 | 1.61 | odesd 0.00146 s (in turn) | odesd: ok 0.00237 s, err 4e-15 | 1.63 |
| Borghans_BiophysChem1997 | dopri8s 0.0837 s (in turn) | odesd: ok 0.151 s, err 1e-05 | 1.80 | erk_adjoint 0.0552 s (in turn) | erk_adjoint: ok 0.0583 s, err 1e-06 | 1.06 |
| Chen_MSB2009 (earlier run) | cvodes_fsa 5.07 s | odesd: ok 8.47 s, err 2e-08 | 1.67 | cvodes_asa 0.182 s | cvodes_asa: ok 0.245 s, err 7e-09 | 1.35 |
| Fiedler_BMCSystBiol2016 | odesd 0.00143 s (in turn) | odesd: ok 0.00198 s, err 1e-07 | 1.39 | erk_adjoint 0.00124 s (in turn) | odesd: ok 0.00261 s, err 4e-14 | 2.11 |
| Fujita_SciSignal2010 | odesd 0.000736 s (in turn) | odesd: ok 0.000909 s, err 8e-11 | 1.23 | odesd 0.000572 s (in turn) | odesd: ok 0.000778 s, err 7e-11 | 1.36 |
| Giordano_Nature2020 | odesd 0.00212 s (in turn) | odesd: ok 0.00258 s, err 9e-06 | 1.21 | erk_adjoint 0.0013 s (in turn) | erk_adjoint: ok 0.00148 s, err 6e-08 | 1.13 |
| Isensee_JCB2018 | exp 0.00608 s (in turn) | exp: ok 0.00615 s, err 2e-10 | 1.01 | cvodes_asa 0.00592 s (in turn) | exp: ok 0.0082 s, err 2e-10 | 1.38 |
| Liu_IFACPapersOnLine2025 | odesd 0.00127 s (in turn) | odesd: ok 0.00199 s, err 2e-10 | 1.56 | odesd 0.00187 s (in turn) | odesd: ok 0.00291 s, err 4e-11 | 1.55 |
| Raimundez_PCB2020 | odesd 0.00704 s (in turn) | odesd: ok 0.00846 s, err 3e-08 | 1.20 | cvodes_asa 0.01 s (in turn) | erk_adjoint: ok 0.0227 s, err 1e-08 | 2.26 |
| Smith_BMCSystBiol2013 (earlier run) | odesd 0.623 s | odesd: ok 0.85 s, err 7e-08 | 1.36 | cvodes_asa 0.119 s | cvodes_asa: ok 0.175 s, err 4e-08 | 1.46 |
| Sneyd_PNAS2002 | odesd 0.00126 s (in turn) | odesd: ok 0.00124 s, err 6e-07 | 0.98 | odesd 0.000853 s (in turn) | odesd: ok 0.00106 s, err 2e-08 | 1.25 |
| Zhao_QuantBiol2020 | odesd 0.00218 s (in turn) | odesd: ok 0.00275 s, err 2e-08 | 1.26 | erk_adjoint 0.00139 s (in turn) | erk_adjoint: ok 0.00152 s, err 2e-11 | 1.09 |
"""


def choice_section():
    # BENCH_CHOICE_OUTPUT: the output of a run already made (about 10 minutes).
    table = saved_or_run("BENCH_CHOICE_OUTPUT", [os.path.join(build, "bin", "bench_method_matrix"),
                                                 "--choice", "1", "--max-limit", "30"])
    rows = [l for l in table.split("\n") if l.startswith("|")]
    ratios = {"S": [], "gradient": []}
    for l in rows[2:]:
        cells = [c.strip() for c in l.strip("|").split("|")]
        for goal, column in (("S", 3), ("gradient", 6)):
            if cells[column - 2].startswith("none") or " ok " not in " " + cells[column - 1] + " ":
                continue
            ratios[goal].append((float(cells[column]), cells[0]))
    lines = ["## The automatic method (`bench_method_matrix --choice`)", ""]
    lines += CHOICE_TEXT.split("\n") + [""] + rows + [""]
    for goal, values in ratios.items():
        misses = sorted((r, m) for r, m in values if r > 2.0)
        lines.append("- {}: auto within 2x of the fastest right method on {} of {} models{}".format(
            goal, len(values) - len(misses), len(values),
            "" if not misses else "; missed on " + ", ".join(
                "{} ({:.1f}x)".format(m, r) for r, m in misses)))
    lines += ["", *CHOICE_OUTSIDE_TEXT.split("\n"), "", *CHOICE_OUTSIDE_ROWS.strip().split("\n")]
    return lines


def main():
    if only == "compare" and not other_build:
        sys.exit("--only compare needs --compare OLD_BUILD")
    if only:
        replace_section(only)
        return
    lines = [
        "# Benchmark results",
        "",
        "Generated by `python3 benchmarks/make_results.py` on {} ({}, {} cores); times are wall".format(
            date.today().isoformat(), cpu_name(), os.cpu_count()),
        "clock per solve. The machine is shared: compare ratios within one table, not absolute",
        "times across runs.",
        "",
    ]
    lines += baselines_section()
    lines += [""] + expr_section()
    lines += [""] + pbs_section()
    lines += [""] + sbml_section()
    lines += [""] + concurrency_section()
    lines += [""] + (kept_large_section() if reuse_large else large_section())
    # --reuse-large keeps this section too (about 10 minutes to run).
    lines += [""] + (kept_section("## Discrete ERK adjoint") if reuse_large and
                     "## Discrete ERK adjoint" in open(os.path.join(root, "benchmarks", "RESULTS.md")).read()
                     else erk_adjoint_section())
    lines += [""] + internal_diff_section()
    lines += [""] + odesd_section()
    lines += [""] + ensemble_section()
    lines += [""] + bounds_section()
    lines += [""] + events_section()
    lines += [""] + sessions_section()
    lines += [""] + petab_section()
    lines += [""] + fit_section()
    lines += [""] + methods_section()
    lines += [""] + choice_section()
    lines += [""] + many_parameters_section()
    if other_build:
        lines += [""] + comparison_section(other_build)
    with open(os.path.join(root, "benchmarks", "RESULTS.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
