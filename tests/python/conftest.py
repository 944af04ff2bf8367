"""Fixtures of the Python tests: the tool to compare against, the models,
and the shared data (tests that need it skip without it)."""

import os
import pathlib
import subprocess
import sys

import pytest

HERE = pathlib.Path(__file__).resolve().parent
SOURCE = HERE.parent.parent
MODELS = {"lotka_volterra": HERE / "models" / "lotka_volterra.ode",
          "digester": SOURCE / "tests" / "models" / "digester.ode"}


def shared_dir():
    return pathlib.Path(os.environ.get("ODESENS_SHARED_DIR", SOURCE.parent / "shared"))


@pytest.fixture
def cli():
    """The odesens tool of the same build (ODESENS_CLI, set by CTest)."""
    path = os.environ.get("ODESENS_CLI")
    if not path or not os.path.exists(path):
        pytest.skip("ODESENS_CLI does not name the odesens tool")
    return path


def shared_file(*parts):
    path = shared_dir().joinpath(*parts)
    if not path.exists():
        pytest.skip(f"shared data absent: {path}")
    return path


def run_python(code, cwd=None):
    """Runs code in a fresh interpreter with this one's module path; its
    standard output."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, cwd=cwd, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout
