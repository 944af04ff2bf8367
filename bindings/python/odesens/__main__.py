"""python3 -m odesens compare MODEL --methods ID1,ID2 [--plot FILE.png] ...

Runs each method over a tolerance sweep, prints its error against a
tight-tolerance cvodes_fsa reference and its time, and draws the
work–precision diagram (odesens.plot.work_precision). Exit status 0, 2 for
a wrong command line or model, 1 when a solve fails for every tolerance.
"""

import argparse
import sys

import numpy

from ._errors import Error
from .compare import DEFAULT_RTOLS, work_precision
from .model import Model
from .solve import options


def _time_grid(text):
    """a:b:n (n evenly spaced times) or t1,t2,... as the tool reads --tout."""
    if text.count(":") == 2:
        a, b, n = text.split(":")
        return numpy.linspace(float(a), float(b), int(n))
    return numpy.array([float(v) for v in text.split(",")])


def _parser():
    parser = argparse.ArgumentParser(prog="python3 -m odesens", description=__doc__.split("\n\n")[1])
    commands = parser.add_subparsers(dest="command", required=True)
    c = commands.add_parser("compare", help="work–precision of several methods on one model")
    c.add_argument("model", metavar="MODEL", help="SBML or .ode file, or a built-in (chua, glv:3)")
    c.add_argument("--methods", required=True, help="method ids, comma-separated")
    c.add_argument("--plot", metavar="FILE", help="writes the diagram (PNG, PDF, SVG...)")
    c.add_argument("--tout", help="output times: a:b:n or t1,t2,... (default: 101 over the span)")
    c.add_argument("--rtols", help="the tolerance sweep, comma-separated (atol = rtol/100; "
                   "default " + ",".join(f"{r:g}" for r in DEFAULT_RTOLS) + ")")
    c.add_argument("--repeats", type=int, default=3, help="solves per point, best time kept")
    c.add_argument("--sens-params", help="SBML: the parameters to differentiate by")
    return parser


def compare(args):
    sens = args.sens_params.split(",") if args.sens_params else None
    model = Model(args.model, sens)
    t = _time_grid(args.tout) if args.tout else None
    rtols = [float(v) for v in args.rtols.split(",")] if args.rtols else DEFAULT_RTOLS
    methods = [m for m in args.methods.split(",") if m]
    for method in methods:
        options(method)  # an unknown id is a wrong command line, before any solve
    data = work_precision(model, methods, t=t, rtols=rtols, repeats=args.repeats)
    print(f"model {model.name}: nx = {model.nx}, np = {model.np}, {len(data['reference'].t)} "
          f"output times; error of S against cvodes_fsa at rtol 1e-12")
    print(f"{'method':<14} {'rtol':>8} {'wall [s]':>12} {'error':>12}")
    for method in methods:
        for rtol, seconds, error in data["points"][method]:
            print(f"{method:<14} {rtol:>8.0e} {seconds:>12.6f} {error:>12.3e}")
        for rtol, message in data["failures"][method]:
            print(f"{method:<14} {rtol:>8.0e} failed: {message}")
    if args.plot:
        from .plot import work_precision as draw
        draw(model, data=data, file=args.plot)
        print(f"wrote {args.plot}")
    return 1 if any(not data["points"][m] for m in methods) else 0


def main(argv=None):
    args = _parser().parse_args(argv)
    try:
        return compare(args)
    except Error as e:
        print(f"odesens: error: {e}", file=sys.stderr)
        invalid = ("unknown_model", "parse_error", "unknown_method", "unknown_option",
                   "option_type", "invalid_argument")
        return 2 if e.status in invalid else 1


if __name__ == "__main__":
    sys.exit(main())
