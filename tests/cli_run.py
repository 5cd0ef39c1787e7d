"""Run ``hardsoft`` in this process (``checks.cli.main``) and capture what it printed: the CLI tests' one runner."""

from __future__ import annotations

from hardsoft.checks.cli import main


def run_cli(capsys, *args: str) -> tuple[int, str, str]:  # noqa: ANN001 - pytest's capsys fixture
    """Return (exit status, stdout, stderr) of ``hardsoft ARGS`` (argparse's SystemExit read as its status)."""
    try:
        code = main(list(args))
    except SystemExit as e:
        code = int(e.code)
    out = capsys.readouterr()
    return code, out.out, out.err
