"""Regenerate the traceability table in docs/claims.md from the claim registry (between the traceability markers)."""

from __future__ import annotations

from pathlib import Path

from hardsoft.checks.report import traceability_table

README = Path(__file__).resolve().parent.parent / "docs" / "claims.md"  # the claims table (linked from README.md)
START, END = "<!-- traceability:start -->", "<!-- traceability:end -->"


def main() -> None:
    """Rewrite the table in place."""
    text = README.read_text()
    head, rest = text.split(START)
    _, tail = rest.split(END)
    README.write_text(f"{head}{START}\n{traceability_table()}\n{END}{tail}")


if __name__ == "__main__":
    main()
