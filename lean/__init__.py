"""Lean sources of hardsoft, shipped as package data (hardsoft.lean); see lean/README.md. Nothing to import."""
