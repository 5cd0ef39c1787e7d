"""``hardsoft table``: print the traceability table generated from the claim registry (spec.claims.REGISTRY)."""

from __future__ import annotations

import argparse
from typing import Any

from hardsoft.checks import report as rp


def register(sub: Any) -> None:
    """Add the table subcommand."""
    sub.add_parser("table", help="print the traceability table generated from the claim registry").set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print the table."""
    print(rp.traceability_table())
    return 0
