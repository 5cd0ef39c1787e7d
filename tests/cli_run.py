"""Run ``hardsoft`` in this process (``checks.cli.main``) and capture what it printed: the CLI tests' one runner.

``run_cli`` reads the output through pytest's ``capsys``; ``run_hardsoft`` captures it itself and
returns a ``subprocess.CompletedProcess``, for tests written against ``python -m hardsoft``.  A
real ``python -m hardsoft`` costs a second or more of interpreter start-up per call (many times
that while Lean runs beside the tests); the tests that are about the process itself (a closed
stdout, what start-up imports, the installed entry point) still start one.
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
from pathlib import Path

from hardsoft.checks.cli import main


def _status(args: tuple[str, ...]) -> int:
    """Return the exit status of ``main(args)`` (argparse's SystemExit read as its status)."""
    try:
        return main(list(args))
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else (0 if e.code is None else 2)


def run_cli(capsys, *args: str) -> tuple[int, str, str]:  # noqa: ANN001 - pytest's capsys fixture
    """Return (exit status, stdout, stderr) of ``hardsoft ARGS``."""
    code = _status(args)
    out = capsys.readouterr()
    return code, out.out, out.err


def run_hardsoft(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """Return what ``python -m hardsoft ARGS`` (run in ``cwd``) would: exit status, stdout and stderr, run in this process."""
    out, err = io.StringIO(), io.StringIO()
    here = os.getcwd()
    try:
        if cwd is not None:
            os.chdir(cwd)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = _status(args)
    finally:
        os.chdir(here)
    return subprocess.CompletedProcess(["hardsoft", *args], code, out.getvalue(), err.getvalue())
