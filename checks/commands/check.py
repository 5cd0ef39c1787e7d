"""``hardsoft check``: run the check families (spec, fuzz, verify, apps, smt, lean, certify) and write report.json / report.md.

Exit status (``checks.runner.exit_code``): 0 every check passed, 1 something failed, 3 nothing
failed but something could not be decided; 2 for bad options, found before anything is written.
"""

from __future__ import annotations

import argparse
import datetime
import secrets
import time
from pathlib import Path
from typing import Any

from hardsoft.checks import report as rp
from hardsoft.checks import runner


def register(sub: Any) -> None:
    """Add the check subcommand."""
    from hardsoft import locations

    c = sub.add_parser(
        "check",
        help="run the checks (spec, fuzz, verify, apps, smt, lean, certify) and write report.json / report.md",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=f"Where things go:\n"
        f"  report            --out DIR, default ./report in the current directory\n"
        f"  Lean toolchain    {locations.toolchain_home()} (embedded wasm Lean, installed on first use\n"
        f"                    or by 'hardsoft install-lean'; a source tree uses <repository>/.toolchain,\n"
        f"                    ${locations.TOOLCHAIN_ENV} overrides; a native lake on PATH is used instead)\n"
        f"  Lean verdicts     <toolchain>/lean-cache (the build's verdict, keyed by a hash\n"
        f"                    of sources, pins, toolchain, flags and checker; HARDSOFT_LEAN_CACHE=off disables)\n"
        f"Exit: 0 all passed, 1 something failed, 3 something undecided (unknown, timeout, toolchain missing), 2 bad input, 4 internal error.",
    )
    c.add_argument("--only", help=f"comma-separated families ({','.join(runner.FAMILIES)}) and/or claim ids (listed by `hardsoft table`)")
    c.add_argument("--preset", choices=runner.PRESETS, default="tiny", help="size of the bounded checks (default tiny)")
    c.add_argument("--out", default="report", help="output folder (default: ./report in the current directory)")
    c.add_argument(
        "--smt-bound",
        type=int,
        metavar="N",
        help="size bound (length n, depth L or dimension d) for every selected SMT check, instead of the preset's",
    )
    c.add_argument("--smt-timeout", type=float, metavar="SECONDS", help="per-query SMT timeout, instead of the preset's")
    c.add_argument("--seed", type=int, metavar="N", help="seed of the fuzz family's property searches (default: a fresh one, printed in the report)")
    c.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the selected families and write the report."""
    from rich.console import Console

    families, claims = runner.parse_only(args.only)  # ValueError -> exit 2 before anything is written
    options: dict[str, dict] = {}
    if args.smt_bound is not None or args.smt_timeout is not None:
        if "smt" not in families:
            raise ValueError("--smt-bound / --smt-timeout need the smt family (add smt to --only)")
        from hardsoft.checks.families import smt as smt_family

        smt_family.resolve_settings(args.preset, claims, args.smt_bound, args.smt_timeout)  # validate now
        options["smt"] = {"bound": args.smt_bound, "timeout": args.smt_timeout}
    if "fuzz" in families:
        from hardsoft.checks.families import fuzz as fuzz_family

        seed = fuzz_family.check_seed(args.seed)
        options["fuzz"] = {"seed": secrets.randbits(32) if seed is None else seed}
    elif args.seed is not None:
        raise ValueError("--seed needs the fuzz family (add fuzz to --only)")
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise ValueError(f"--out {out} exists and is not a folder")
    out.mkdir(parents=True, exist_ok=True)
    rp.clear_stale(out)
    console = Console(stderr=True, highlight=False)
    started = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
    t0 = time.perf_counter()
    results, sections = [], []
    with console.status("starting") as status:

        def progress(msg: str) -> None:
            status.update(msg)
            console.log(msg)

        for rs, mod in runner.run_families(families, args.preset, out, progress, claims, options):
            results += rs
            if mod is not None and hasattr(mod, "markdown_section"):
                sections.append(mod.markdown_section(rs))
    code = runner.exit_code(results)
    meta = {
        "preset": args.preset,
        "families": families,
        "selected_claims": sorted(claims) if claims else None,
        "smt_overrides": options.get("smt"),
        "fuzz_seed": options.get("fuzz", {}).get("seed"),
        "started": started,
        "seconds": time.perf_counter() - t0,
    }
    rp.write_report(out, meta, results, code, sections)
    _print_summary(results, code, out)
    return code


def _print_summary(results: list, code: int, out: Path) -> None:
    """Print the one-screen summary."""
    from rich.console import Console
    from rich.table import Table

    by_family: dict[str, dict[str, float]] = {}
    for r in results:
        d = by_family.setdefault(r.family, {"ok": 0, "failed": 0, "undecided": 0, "seconds": 0.0})
        d[r.outcome.value] += 1
        d["seconds"] += r.seconds
    tab = Table(title="hardsoft check")
    for col in ("family", "ok", "failed", "undecided", "seconds"):
        tab.add_column(col, justify="right" if col != "family" else "left")
    for f, d in by_family.items():
        tab.add_row(f, str(d["ok"]), str(d["failed"]), str(d["undecided"]), f"{d['seconds']:.1f}")
    con = Console()
    con.print(tab)
    for r in results:
        if r.outcome.value != "ok":
            con.print(f"  {r.outcome.value.upper():9} {r.name}: {r.detail}")
    verdict = {0: "everything passed", 1: "something FAILED", 3: "something could not be decided"}[code]
    con.print(f"{verdict}; report: {out / 'report.md'} and {out / 'report.json'}")
