"""python3 -m odesens compare MODEL --methods ID1,ID2 [--plot FILE.png] ...

Runs each method over a tolerance sweep, prints its error against a
tight-tolerance cvodes_fsa reference and its time, and draws the
work–precision diagram (odesens.plot.work_precision). Exit status 0, 2 for
a wrong command line or model, 1 when a solve fails for every tolerance.
"""

import argparse
import math
import os
import sys

import numpy

from ._errors import Error, invalid_argument
from .compare import DEFAULT_RTOLS, work_precision
from .model import Model
from .solve import options

# As the tool's --tout: more output times than any solve here would write.
_MOST_TIMES = 10_000_000
# Formats matplotlib writes (its savefig picks the one of the extension).
_PICTURES = (".png", ".pdf", ".svg", ".eps", ".ps", ".jpg", ".jpeg", ".tif", ".tiff", ".webp")


def _real(text, what):
    try:
        value = float(text)
    except ValueError:
        raise invalid_argument(f"{what}: {text!r} is not a number") from None
    if not math.isfinite(value):
        raise invalid_argument(f"{what}: {text!r} is not a finite number")
    return value


def _time_grid(text):
    """a:b:n (n evenly spaced times) or t1,t2,... as the tool reads --tout."""
    if text.count(":") == 2:
        a, b, n = text.split(":")
        try:
            count = int(n)
        except ValueError:
            raise invalid_argument(f"--tout: the count {n!r} is not a whole number") from None
        if not 1 <= count <= _MOST_TIMES:
            raise invalid_argument(f"--tout: the count {n!r} is not from 1 to {_MOST_TIMES}")
        return numpy.linspace(_real(a, "--tout"), _real(b, "--tout"), count)
    return numpy.array([_real(v, "--tout") for v in text.split(",")])


def _rtols(text):
    values = [_real(v, "--rtols") for v in text.split(",")]
    if any(not 0 < v < 1 for v in values):
        raise invalid_argument(f"--rtols: each tolerance must be in (0, 1), got {text!r}")
    return values


def _check_plot(path, model):
    """Before any solve: a picture format, and not the model it reads."""
    if os.path.exists(path) and os.path.exists(model) and os.path.samefile(path, model):
        raise invalid_argument(f"--plot {path!r} is the model this command reads")
    if os.path.splitext(path)[1].lower() not in _PICTURES:
        raise invalid_argument(f"--plot {path!r}: the extension names no picture format ("
                               + ", ".join(_PICTURES) + ")")


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
    if args.plot:
        _check_plot(args.plot, args.model)
    if not 1 <= args.repeats <= 1000:
        raise invalid_argument(f"--repeats must be from 1 to 1000, got {args.repeats}")
    t = _time_grid(args.tout) if args.tout else None
    rtols = _rtols(args.rtols) if args.rtols else DEFAULT_RTOLS
    methods = [m for m in args.methods.split(",") if m]
    if not methods:
        raise invalid_argument("--methods names no method")
    sens = args.sens_params.split(",") if args.sens_params else None
    model = Model(args.model, sens)
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
