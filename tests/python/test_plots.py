"""The figures are written and non-empty, and `python3 -m odesens compare`
draws the work–precision diagram. Set ODESENS_PLOT_DIR to keep the PNGs
(to look at them)."""

import os
import pathlib
import stat
import subprocess
import sys

import pytest
from matplotlib.artist import Artist
from matplotlib.figure import Figure

import odesens
import odesens.petab
import odesens.plot
from conftest import MODELS, shared_file


@pytest.fixture
def out(tmp_path):
    kept = os.environ.get("ODESENS_PLOT_DIR")
    path = pathlib.Path(kept) if kept else tmp_path
    path.mkdir(parents=True, exist_ok=True)
    return path


def assert_png(path):
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000, path


def test_work_precision_diagram(out):
    fig = odesens.plot.work_precision(MODELS["lotka_volterra"], ["cvodes_fsa", "odesd", "pbsr"],
                                      rtols=(1e-4, 1e-6, 1e-8), repeats=1,
                                      file=out / "work_precision.png")
    assert len(fig.axes[0].get_lines()) == 3
    assert_png(out / "work_precision.png")


def test_sensitivity_lines_and_heat_map(out):
    r = odesens.solve(MODELS["lotka_volterra"], "cvodes_fsa")
    fig = odesens.plot.sensitivities(r, states=["prey"], params=["alpha", 4],
                                     file=out / "sensitivities.png")
    assert [l.get_label() for l in fig.axes[0].get_lines()] == ["dprey/dalpha",
                                                                 "dprey/dprey_0"]
    assert_png(out / "sensitivities.png")
    odesens.plot.sensitivity_heatmap(odesens.solve("glv:6"), time=5.0, file=out / "heatmap.png")
    assert_png(out / "heatmap.png")


class _FailingArtist(Artist):
    def draw(self, renderer):
        raise RuntimeError("drawing failed")


def test_a_figure_file_is_replaced_whole_or_not_at_all(tmp_path):
    r = odesens.solve(MODELS["lotka_volterra"], "cvodes_fsa")
    target = tmp_path / "figure.png"
    target.write_bytes(b"the previous figure")
    os.chmod(target, 0o640)
    # An unknown format fails before anything replaces the previous file,
    # and leaves no partial file behind.
    with pytest.raises(ValueError):
        odesens.plot.sensitivities(r, file=tmp_path / "figure.notaformat")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["figure.png"]
    # An empty name (it wrote into the working directory's parent) and a
    # folder are refused before anything is written.
    for bad in ("", tmp_path):
        with pytest.raises(odesens.Error, match="file"):
            odesens.plot.sensitivities(r, file=bad)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["figure.png"]
    # A drawing that fails half-way (SVG is written while it is drawn) leaves
    # the previous file as it was.
    svg = tmp_path / "figure.svg"
    svg.write_bytes(b"the previous svg")
    fig = Figure()
    ax = fig.add_subplot()
    ax.add_artist(_FailingArtist())
    with pytest.raises(RuntimeError, match="drawing failed"):
        odesens.plot.sensitivities(r, ax=ax, file=svg)
    assert svg.read_bytes() == b"the previous svg"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["figure.png", "figure.svg"]
    svg.unlink()
    odesens.plot.sensitivities(r, file=str(target))
    assert_png(target)
    assert (target.stat().st_mode & 0o777) == 0o640  # the replaced file's mode kept
    assert sorted(p.name for p in tmp_path.iterdir()) == ["figure.png"]
    # A new file gets the usual mode (0666 less the umask), not a temporary
    # file's 0600; an SVG by its extension; a file object as given.
    mask = os.umask(0o022)
    try:
        odesens.plot.sensitivities(r, file=tmp_path / "new.svg")
    finally:
        os.umask(mask)
    assert ((tmp_path / "new.svg").stat().st_mode & 0o777) == 0o644
    assert b"<svg" in (tmp_path / "new.svg").read_bytes()[:500]
    with open(tmp_path / "object.png", "wb") as f:
        odesens.plot.sensitivities(r, file=f)
    assert_png(tmp_path / "object.png")


def test_a_figure_never_takes_the_place_of_a_device_or_pipe(tmp_path):
    """A rename over /dev/null or a FIFO put the PNG in its place; a link is
    followed, as for the tool's --out."""
    r = odesens.solve(MODELS["lotka_volterra"], "cvodes_fsa")
    fifo = tmp_path / "pipe.png"
    os.mkfifo(fifo)
    with pytest.raises(odesens.Error, match="not a regular file"):
        odesens.plot.sensitivities(r, file=fifo)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe.png"]
    target = tmp_path / "real.png"
    target.write_bytes(b"old")
    link = tmp_path / "link.png"
    link.symlink_to(target)
    odesens.plot.sensitivities(r, file=link)
    assert link.is_symlink()
    assert_png(target)


def test_compare_command_checks_its_command_line_before_solving(tmp_path):
    model = tmp_path / "decay.ode"
    model.write_text("param k = 1\nstate x = 1\ndx/dt = -k*x\n")
    before = model.read_bytes()
    (tmp_path / "model.png").symlink_to(model)
    cases = [
        (["--tout", "0:1:1e12"], "not a whole number"),
        (["--tout", "0:1:10000000000"], "not from 1 to"),
        (["--tout", "0:1:-5"], "not from 1 to"),
        (["--tout", "0:nan:5"], "not a finite number"),
        (["--rtols", "1e-3,,"], "not a number"),
        (["--rtols", "2"], "must be in (0, 1)"),
        (["--repeats", "0"], "--repeats must be from 1"),
        (["--plot", str(tmp_path / "x.xyz")], "names no picture format"),
        (["--plot", str(model)], "is the model this command reads"),
        (["--plot", str(tmp_path / "model.png")], "is the model this command reads"),
    ]
    for extra, message in cases:
        done = subprocess.run([sys.executable, "-m", "odesens", "compare", str(model),
                               "--methods", "cvodes_fsa"] + extra,
                              capture_output=True, text=True, check=False, timeout=60)
        assert done.returncode == 2, (extra, done.stderr)
        assert message in done.stderr, (extra, done.stderr)
        assert "Traceback" not in done.stderr, extra
    done = subprocess.run([sys.executable, "-m", "odesens", "compare", str(model),
                           "--methods", ",,,"], capture_output=True, text=True, check=False)
    assert done.returncode == 2 and "names no method" in done.stderr, done.stderr
    assert model.read_bytes() == before


def test_petab_data_and_simulations(out):
    problem = odesens.petab.Problem(shared_file("petab", "benchmark", "Boehm_JProteomeRes2014",
                                                "Boehm_JProteomeRes2014.yaml"))
    fig = odesens.plot.petab_data(problem, file=out / "petab_boehm.png")
    assert len(fig.axes[0].get_lines()) == 6  # three observables: data and simulation
    assert_png(out / "petab_boehm.png")


def test_compare_command_writes_the_diagram(out):
    png = out / "compare_chua.png"
    done = subprocess.run([sys.executable, "-m", "odesens", "compare", "chua",
                           "--methods", "cvodes_fsa,exp,dopri8s", "--rtols", "1e-4,1e-6,1e-8",
                           "--repeats", "1", "--plot", str(png)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert "dopri8s" in done.stdout and f"wrote {png}" in done.stdout
    assert_png(png)


def test_compare_command_reports_an_unknown_method():
    done = subprocess.run([sys.executable, "-m", "odesens", "compare", "chua",
                           "--methods", "cvodes_fsa,newton"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 2 and "unknown method 'newton'" in done.stderr


def test_the_tools_compare_plot_runs_the_python_command(cli, out):
    png = out / "tool_compare_chua.png"
    done = subprocess.run([cli, "compare", "chua", "--methods", "cvodes_fsa,pbsr",
                           "--tout", "0:10:11", "--plot", str(png)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert "pbsr" in done.stdout
    assert_png(png)
