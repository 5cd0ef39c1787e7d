"""``python -m hardsoft``: the same as the ``hardsoft`` command."""

from hardsoft.checks.cli import main

raise SystemExit(main())
