"""The ``hardsoft`` command: one module per subcommand in checks/commands/, listed once in ``COMMANDS``.

Each command module's ``register(subparsers)`` adds its parser and sets ``func=run``; ``main``
parses and calls ``args.func(args)``.  Exit status: 0 ok, 1 a check or verification failed,
2 bad input (one line ``hardsoft: error: ...``, no traceback, nothing half-written),
3 undecided, 4 internal error (one line ``hardsoft: internal error: ...``; ``--debug``
shows the traceback instead), 130 interrupted, 141 stdout closed by its reader.
"""

from __future__ import annotations

import argparse
import os
import sys

from hardsoft.checks import runner
from hardsoft.checks.args import Parser
from hardsoft.checks.commands import (
    audit,
    certify,
    check,
    constructions,
    examples,
    export,
    import_model,
    install_lean,
    simulate,
    table,
    temperature,
    verify,
)
from hardsoft.checks.commands import compile as compile_command

#: The subcommands, in the order ``hardsoft --help`` lists them.
COMMANDS = (check, temperature, simulate, compile_command, certify, verify, examples, import_model, export, table, constructions, audit, install_lean)

EXIT_HELP = f"""exit status:
  {runner.EXIT_OK}  ok
  {runner.EXIT_FAILED}  a check or verification failed (a mismatch, a refuted claim)
  {runner.EXIT_BAD_INPUT}  bad input (one line 'hardsoft: error: ...'; nothing written)
  {runner.EXIT_UNDECIDED}  something could not be decided (unknown, timeout, toolchain missing)
  {runner.EXIT_INTERNAL}  internal error: a bug in hardsoft (one line; rerun with --debug for the traceback)
  130 interrupted
  {runner.EXIT_BROKEN_PIPE}  stdout closed by its reader (piped into head, say); nothing more printed"""


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser of ``hardsoft``, one subparser per module of COMMANDS."""
    from hardsoft import __version__

    p = Parser(
        prog="hardsoft",
        description="Machine-checked companion to 'Simulating Hard Attention Using Soft Attention'.",
        epilog=EXIT_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--version", action="version", version=f"hardsoft {__version__}")
    p.add_argument("--debug", action="store_true", help="on an internal error, show the traceback (exit status 4 otherwise)")
    sub = p.add_subparsers(dest="command", required=True, parser_class=Parser)
    for command in COMMANDS:
        command.register(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``hardsoft``: parse, run the command; bad input exits 2, an internal error 4 (see EXIT_HELP)."""
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except ValueError as e:
        sys.stderr.write(f"hardsoft: error: {e}\n")
        return runner.EXIT_BAD_INPUT
    except KeyboardInterrupt:
        sys.stderr.write("hardsoft: interrupted; no report written\n")
        return 130
    except BrokenPipeError:
        # the reader of stdout went away (`hardsoft ... | head`): not a bug; quiet, as for SIGPIPE
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return runner.EXIT_BROKEN_PIPE
    except Exception as e:
        if args.debug:
            raise
        message = " ".join(str(e).split())
        sys.stderr.write(f"hardsoft: internal error: {type(e).__name__}: {message} (please report this; rerun with --debug for the traceback)\n")
        return runner.EXIT_INTERNAL


if __name__ == "__main__":
    raise SystemExit(main())
