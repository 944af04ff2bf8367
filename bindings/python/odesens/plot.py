"""Figures of results (matplotlib).

Every function draws on ``ax`` when given one, or on a new
:class:`matplotlib.figure.Figure` (no pyplot, no GUI backend: safe in
scripts, threads and headless machines); it writes ``file`` (PNG, PDF,
SVG..., by its extension) when given, replaced whole or not at all, and
returns the figure.
"""

import os
import stat
import tempfile

import numpy
from matplotlib.colors import LogNorm
from matplotlib.figure import Figure

from ._errors import invalid_argument
from .compare import DEFAULT_RTOLS, work_precision as work_precision_data


def _axes(ax, size=(6.4, 4.8)):
    if ax is not None:
        return ax.figure, ax
    fig = Figure(figsize=size, layout="constrained")
    return fig, fig.add_subplot()


def _file_mode(path):
    """The mode a replaced file keeps, or a new file's (0666 less the umask)."""
    try:
        return os.stat(path).st_mode & 0o7777
    except FileNotFoundError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


def _save_replacing(fig, path):
    """Writes the figure beside ``path`` and renames it over ``path``: the
    file is replaced whole or not at all (a failed or interrupted save
    leaves the previous one). The format follows the file's extension, as
    matplotlib's own savefig does."""
    if not path:
        raise invalid_argument("file is empty: give a file name (None returns the figure)")
    if os.path.isdir(path):
        raise invalid_argument(f"file {path!r} is a directory, not a picture's file")
    if os.path.islink(path):
        path = os.path.realpath(path)  # the file the link names is replaced, not the link
    if os.path.exists(path) and not stat.S_ISREG(os.stat(path).st_mode):
        # A device, a pipe or a socket: a rename over it would put the
        # picture in its place (/dev/null replaced by a PNG).
        raise invalid_argument(f"file {path!r} exists and is not a regular file (a device or a "
                               "pipe): a picture is written to a regular file")
    folder, name = os.path.split(os.path.abspath(path))
    suffix = os.path.splitext(name)[1]
    fd, partial = tempfile.mkstemp(prefix="." + name + ".", suffix=".partial", dir=folder)
    try:
        with os.fdopen(fd, "wb") as out:
            fig.savefig(out, dpi=120, format=suffix[1:].lower() or None)
        os.chmod(partial, _file_mode(path))
        os.replace(partial, path)
    except BaseException:
        try:
            os.unlink(partial)
        except OSError:
            pass
        raise


def _finish(fig, file):
    if file is None:
        return fig
    if isinstance(file, (str, bytes, os.PathLike)):
        _save_replacing(fig, os.fsdecode(file))
    else:  # a file object of the caller's
        fig.savefig(file, dpi=120)
    return fig


def work_precision(model, methods=None, t=None, rtols=DEFAULT_RTOLS, ax=None, file=None,
                   data=None, **kwargs):
    """Work–precision diagram: for each method, the error of S against a
    tight-tolerance cvodes_fsa reference (x, log) against its wall time
    (y, log), one line per method over the tolerance sweep ``rtols``.
    ``data``: what :func:`odesens.compare.work_precision` returned (then
    nothing is solved). Other keyword arguments go to that function."""
    if data is None:
        data = work_precision_data(model, methods, t=t, rtols=rtols, **kwargs)
    fig, ax = _axes(ax)
    for method, points in data["points"].items():
        if not points:
            continue
        rtol, seconds, error = (numpy.array(v) for v in zip(*points))
        line, = ax.loglog(error, seconds, "o-", label=method)
        # The loosest and the tightest tolerance, to read the sweep's direction.
        for k in (0, len(rtol) - 1):
            ax.annotate(f"{rtol[k]:.0e}", (error[k], seconds[k]), fontsize=7,
                        color=line.get_color(), xytext=(3, 3), textcoords="offset points")
    ax.set_xlabel("max |S - S_ref| / max |S_ref|")
    ax.set_ylabel("wall time [s]")
    name = data["reference"].method
    ax.set_title(f"work–precision (reference: {name}, rtol 1e-12)")
    ax.grid(True, which="major", alpha=0.3)
    ax.legend()
    return _finish(fig, file)


def _indices(names, chosen):
    if chosen is None:
        return list(range(len(names)))
    return [names.index(c) if isinstance(c, str) else int(c) for c in chosen]


def sensitivities(result, states=None, params=None, ax=None, file=None):
    """S(t): one line dx_i/dp_j per chosen state i and parameter j (names
    or indices; default all) at the result's S times."""
    fig, ax = _axes(ax)
    for i in _indices(list(result.state_names), states):
        for j in _indices(list(result.param_names), params):
            ax.plot(result.s_times, result.S[:, i, j], ".-", markersize=3,
                    label=f"d{result.state_names[i]}/d{result.param_names[j]}")
    ax.set_xlabel("t")
    ax.set_ylabel("S = dx/dp")
    ax.set_title(f"sensitivities ({result.method})")
    ax.grid(True, alpha=0.3)
    if len(ax.get_lines()) <= 12:
        ax.legend(fontsize=8)
    return _finish(fig, file)


def sensitivity_heatmap(result, time=None, ax=None, file=None):
    """|S_ij| p_j / |x_i| (the relative sensitivity: the % change of x_i
    for 1 % of p_j) at the S time nearest ``time`` (default: the last), on
    a logarithmic colour scale; states down, parameters across. Zero
    entries (a parameter whose value is 0, or no effect) are left blank."""
    k = -1 if time is None else int(numpy.argmin(numpy.abs(result.s_times - time)))
    tk = result.s_times[k]
    x = result.x[int(numpy.argmin(numpy.abs(result.t - tk)))]
    with numpy.errstate(divide="ignore", invalid="ignore"):
        rel = numpy.abs(result.S[k]) * numpy.abs(result.p)[None, :] / numpy.abs(x)[:, None]
    rel = numpy.where(numpy.isfinite(rel) & (rel > 0), rel, numpy.nan)
    fig, ax = _axes(ax, (1.5 + 0.45 * rel.shape[1], 1.5 + 0.35 * rel.shape[0]))
    finite = rel[numpy.isfinite(rel)]
    norm = LogNorm(vmin=max(finite.min(), finite.max() * 1e-8), vmax=finite.max()) \
        if finite.size else None
    image = ax.imshow(rel, norm=norm, cmap="viridis", aspect="auto")
    ax.set_xticks(range(rel.shape[1]), result.param_names, rotation=90, fontsize=7)
    ax.set_yticks(range(rel.shape[0]), result.state_names, fontsize=7)
    ax.set_title(f"|S| p / |x| at t = {tk:g} (blank: 0)")
    fig.colorbar(image, ax=ax)
    return _finish(fig, file)


def petab_data(problem, x=None, evaluation=None, file=None):
    """A PEtab problem's data (markers) with the simulated observables
    (lines through the simulated values at the measurement times) at x
    (default: nominal), one panel per experiment (simulation condition,
    after its pre-equilibration), one colour per observable."""
    if evaluation is None:
        evaluation = problem.evaluate(x, gradient=False)
    table = problem.measurements()
    experiments = list(dict.fromkeys(zip(table["preequilibration"], table["condition"])))
    observables = list(dict.fromkeys(table["observable"]))
    n = len(experiments)
    cols = min(n, 3)
    rows = (n + cols - 1) // cols
    fig = Figure(figsize=(4.5 * cols, 3.5 * rows), layout="constrained")
    axes = fig.subplots(rows, cols, squeeze=False).ravel()
    colours = {o: f"C{k % 10}" for k, o in enumerate(observables)}
    for ax, (pre, cond) in zip(axes, experiments):
        rows_here = [m for m in range(len(table["time"]))
                     if table["condition"][m] == cond and table["preequilibration"][m] == pre]
        for obs in observables:
            m = [r for r in rows_here if table["observable"][r] == obs]
            if not m:
                continue
            order = numpy.argsort(table["time"][m])
            t = table["time"][m][order]
            ax.plot(t, table["measurement"][m][order], "o", color=colours[obs], markersize=4,
                    alpha=0.7)
            ax.plot(t, evaluation.simulations[m][order], "-", color=colours[obs], label=obs)
        ax.set_title(cond if not pre else f"{pre} → {cond}", fontsize=9)
        ax.set_xlabel("t")
        ax.legend(fontsize=7)
    for ax in axes[n:]:
        ax.set_visible(False)
    fig.suptitle(f"data (o) and simulations (—), nllh = {evaluation.nllh:.6g}")
    return _finish(fig, file)


def waterfall(fit_result, ax=None, file=None, reference=None):
    """The waterfall of a multi-start fit (:meth:`odesens.petab.Problem.fit`):
    the final nlpost of each start against its rank, as the distance to the
    best plus 1 on a log scale, so that the plateaus of local optima stand
    apart however far they are; starts within 0.1 of the best in another
    colour. ``reference``: an nlpost to draw as a line (for example the
    value at the nominal parameters). Failed starts are left out."""
    fig, ax = _axes(ax)
    values = numpy.asarray(fit_result.nlpost, dtype=float)
    values = values[numpy.isfinite(values)]
    if values.size == 0:
        ax.set_title("waterfall: no start succeeded")
        return _finish(fig, file)
    best = values.min()
    rank = numpy.arange(1, values.size + 1)
    y = values - best + 1
    at_best = values <= best + 0.1
    ax.semilogy(rank, y, "-", color="0.6", linewidth=1)
    if not at_best.all():
        ax.semilogy(rank[~at_best], y[~at_best], "o", color="C0", markersize=5,
                    label="other starts")
    ax.semilogy(rank[at_best], y[at_best], "o", color="C3", markersize=6,
                label=f"within 0.1 of the best ({at_best.sum()})")
    if reference is not None and reference - best + 1 > 0:
        ax.axhline(reference - best + 1, color="k", linestyle=":", label="reference")
    ax.set_xlabel("start (sorted by final value)")
    ax.set_ylabel(f"nlpost - best + 1 (best {best:.6g})")
    ax.set_title(f"waterfall ({fit_result.optimizer}, {values.size} of {len(fit_result)} starts)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    return _finish(fig, file)


def profiles(profile_list, file=None, columns=3):
    """Profile likelihoods (:meth:`odesens.petab.Problem.profile`), one
    panel per parameter: the rise of nlpost over its value at the start
    against the parameter (on its scale), the threshold of the confidence
    level, the start (dotted) and the interval's ends (dashed where the
    profile crossed the threshold, grey where the side stayed open)."""
    n = len(profile_list)
    cols = max(1, min(n, columns))
    rows = max(1, (n + cols - 1) // cols)
    fig = Figure(figsize=(3.6 * cols, 3.0 * rows), layout="constrained")
    axes = fig.subplots(rows, cols, squeeze=False).ravel()
    for ax, p in zip(axes, profile_list):
        ax.plot(p.values, numpy.asarray(p.nlpost) - p.best_nlpost, ".-", color="C0")
        ax.axhline(p.threshold, color="C3", linewidth=1)
        ax.axvline(p.start, color="k", linestyle=":", linewidth=1)
        for value, is_open in ((p.lower, p.lower_open), (p.upper, p.upper_open)):
            ax.axvline(value, color="0.6" if is_open else "C3", linestyle="--", linewidth=1)
        ax.set_title(p.id, fontsize=9)
        ax.set_xlabel("value (its scale)")
        ax.set_ylabel("nlpost rise")
        ax.grid(True, alpha=0.3)
    for ax in axes[n:]:
        ax.set_visible(False)
    return _finish(fig, file)
