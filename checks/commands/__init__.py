"""The subcommands of ``hardsoft``, one module each.

How to add a subcommand: create ``checks/commands/<name>.py`` (a hyphenated command such as
``install-lean`` lives in ``install_lean.py``; a command named by a Python keyword sets ``NAME``,
as ``import_model.py`` does for ``import``) with a module docstring saying what the command
does and its exit status, and exactly two public entry points:

- ``register(subparsers)``: ``p = subparsers.add_parser("<name>", help=...)``, its options
  (argument types and shared options from ``checks.args``: ``positive_int``, ``positive_float``,
  ``eps``, ``add_regime_option``, ``add_alphabet_option``; define no new ones there), then
  ``p.set_defaults(func=run)``;
- ``run(args) -> int``: do the work and return the exit status (``checks.runner.EXIT_*``: 0 ok,
  1 failed, 3 undecided).  Raise ``ValueError`` for bad input (``checks.cli`` prints it as one
  line and exits 2) before writing anything; any other exception is an internal error (exit 4).

Then add the module to ``COMMANDS`` in ``checks/cli.py`` (the one list; its order is the order of
``hardsoft --help``).  tests/checks/test_cli.py checks every module in that list has ``register``
and ``run`` and that ``hardsoft <name> --help`` exits 0.
"""
