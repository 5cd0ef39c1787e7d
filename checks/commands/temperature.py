"""``hardsoft temperature``: the sufficient and the tightest certified temperature for a target error (statement T, Lemma 25).

The recursion constants come from a model's weight norms (``--model``; gap and x_max measured
over every input of length n unless given), from a program compiled as ``hardsoft compile``
compiles it (``--lang L PROGRAM`` or ``--file F``: the same code path as ``--model`` on the
compiled model, plus the construction's own temperature rule, the one ``compile`` prints), or
from uniform constants ``--K`` / ``--R``.  Exactly one of the three.
"""

from __future__ import annotations

import argparse
import json
import math
from typing import Any

from hardsoft.checks.args import (
    add_alphabet_option,
    add_lang_option,
    add_regime_option,
    eps,
    positive_float,
    positive_int,
    program_text,
    refuse_unused,
)
from hardsoft.spec import bounds as bd
from hardsoft.spec import transformer as tf
from hardsoft.spec.modelio import load_model


def register(sub: Any) -> None:
    """Add the temperature subcommand."""
    t = sub.add_parser("temperature", help="the sufficient and the tightest certified temperature for a target error")
    t.add_argument(
        "--gap",
        type=positive_float("--gap"),
        help="gap gamma_T(n) of the hard transformer (default: measured over every input of length n; needs --model)",
    )
    t.add_argument("--n", type=positive_int("--n"), required=True, help="input length n (keys per query)")
    t.add_argument(
        "--xmax", type=positive_float("--xmax"), help="activation bound x_max(n) (default: measured over every input of length n; needs --model)"
    )
    t.add_argument("--depth", type=positive_int("--depth"), help="number of layers L (must match --model)")
    src = t.add_mutually_exclusive_group(required=True)
    src.add_argument("--model", help="model file: per-layer constants from its weights (Lemma 25)")
    src.add_argument("program", nargs="?", help="a formula or, with --lang, a program: compiled as 'hardsoft compile' does, then as --model")
    src.add_argument("--file", metavar="F", help="read the formula or program from a file")
    src.add_argument("--K", type=positive_float("--K"), help="a = K x_max n e^{-gamma/tau} (statement T); needs --R")
    t.add_argument("--R", type=positive_float("--R"), help="r <= R/tau for tau <= 1 (statement T)")
    t.add_argument("--eps", type=eps, required=True, help="target error in (0, 1]")
    add_lang_option(t)
    add_regime_option(t)
    add_alphabet_option(t)
    t.add_argument("--json", action="store_true", help="print JSON")
    t.set_defaults(func=run)


def _program_model(args: argparse.Namespace) -> tf.Model:
    """Return the model of the program (--lang, PROGRAM or --file) compiled as ``hardsoft compile`` does; record its own rule in args.rule."""
    from hardsoft.checks.commands.compile import compile_program_args
    from hardsoft.constructive.lang.construction import construction_of_program

    compiled = compile_program_args(args, program_text(args, "program"))
    con = construction_of_program(compiled, f"{args.lang} program")
    args.rule = {"rule": con.tau_formula, "tau": con.tau(args.n), "gap_rule": con.gap_formula, "gap": con.gap(args.n)}
    return con.model


def _constants(args: argparse.Namespace) -> tuple[bd.RecursionConstants, str]:
    """Return the recursion constants from --model, a program or --K/--R (measuring gap and x_max when not given)."""
    args.spread = 0.0
    args.own_tau = None
    args.rule = None
    given = args.program is not None or args.file is not None
    if not given and args.lang != "tl":
        raise ValueError("--lang goes with a program (PROGRAM or --file F)")
    if given and (args.R is not None):
        raise ValueError("--R goes with --K, not with a program")
    if not given:
        refuse_unused(args, ("--alphabet", "--regime"), "without a program (they say how a program is compiled)")
    if args.model or given:
        model = load_model(args.model) if args.model else _program_model(args)
        if args.depth is not None and args.depth != model.depth:
            raise ValueError(f"--depth {args.depth} does not match the model's {model.depth} layers")
        model.require_length(args.n)
        args.own_tau = model.own_tau
        spreads = None
        if args.gap is None or args.xmax is None:
            from hardsoft.checks.engine import theorem26

            meas = theorem26.measure_exhaustively(model, args.n)
            spreads = meas.tie_spread_per_head
            args.spread = meas.tie_spread
            if args.gap is None:
                if not math.isfinite(meas.gap) or meas.gap <= 0:
                    if meas.gap == math.inf and meas.tie_spread == 0:
                        why = "every head ties on every input, soft equals hard at any temperature"
                    elif meas.gap == math.inf:
                        why = (
                            f"every head ties within tie_rtol on every input, but the ties spread up to {meas.tie_spread:.3g}: no temperature "
                            "makes soft approach hard; 'hardsoft simulate' shows the bound with the spread term"
                        )
                    else:
                        why = "statement T needs a positive gap"
                    raise ValueError(f"the measured gap at n = {args.n} is {meas.gap}: {why}")
                args.gap = meas.gap
            if args.xmax is None:
                args.xmax = max(meas.x_max, 1e-300)
            args.measured = meas.inputs
        N = model.positions(args.n)
        consts = bd.RecursionConstants.from_norms(tf.compute_model_norms(model), args.xmax, N, args.gap, spreads)
        name = (
            f"model {args.model}" if args.model else f"the {args.lang} program compiled ({'average-hard' if args.lang == 'srasp' else args.regime})"
        )
        return consts, name + (f" ({N} positions with BOS)" if model.bos_token is not None else "")
    if args.gap is None or args.xmax is None:
        raise ValueError("--K/--R need --gap and --xmax (only a --model can be measured)")
    if args.R is None:
        raise ValueError("--K needs --R")
    if args.depth is None:
        raise ValueError("--depth is required with --K/--R")
    return bd.RecursionConstants.from_uniform(args.K, args.R, args.xmax, args.n, args.depth, args.gap), f"K={args.K}, R={args.R}"


def describe_coldness(tau: float, own_tau: float | None) -> str | None:
    """Return how the certified tau compares with the model's own temperature (None if the model has none)."""
    if own_tau is None:
        return None
    if tau < own_tau:
        return f"the certified tau is {own_tau / tau:.4g} times colder than the model's own temperature {own_tau:.6g} (attn_scale)"
    return f"the model's own temperature {own_tau:.6g} (attn_scale) is already within the certified range (tau <= {tau:.6g})"


def run(args: argparse.Namespace) -> int:
    """Print the sufficient and the tightest certified temperatures."""
    consts, source = _constants(args)
    exact = consts.without_spread()
    suff = bd.compute_sufficient_inverse_temperature(exact, args.eps)
    tight = bd.compute_tightest_inverse_temperature(exact, args.eps)
    measured = getattr(args, "measured", None)
    spread_bound = bd.certify_bound_at(consts, tight.tau) if consts.has_spread else None
    colder = describe_coldness(tight.tau, args.own_tau)
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
        "own_tau": args.own_tau,
        "colder": colder,
        "tie_spread": args.spread,
        "construction_rule": args.rule,
    }
    if spread_bound is not None:
        doc["note"] = (
            "scores tied only within the tie tolerance: the certificates are of the exact-tie part; with the spread term the bound at the "
            "tightest tau is 'bound_with_tie_spread', and smaller tau are NOT all certified (the spread term grows as tau shrinks)"
        )
        doc["bound_with_tie_spread"] = spread_bound
    if args.json:
        print(json.dumps(doc, indent=1))
    else:
        print(f"constants: {source}; gap {args.gap}, n {args.n}, x_max {args.xmax}, depth {consts.depth}, eps {args.eps}")
        if measured:
            print(f"gap and x_max measured in hard mode over all {measured} inputs of length {args.n}")
        print(f"sufficient (closed form, statement T): tau = {suff.tau:.6g}  (1/tau = {suff.inverse_tau:.6g})  certifies B_L <= {suff.bound:.4g}")
        print(f"tightest (certified bisection):        tau = {tight.tau:.6g}  (1/tau = {tight.inverse_tau:.6g})  certifies B_L <= {tight.bound:.4g}")
        if spread_bound is None:
            print("every smaller tau certifies eps too.")
        else:
            verdict = "certifies" if spread_bound <= min(args.eps, 1.0) else "does NOT certify"
            print(
                f"near ties (scores tied within tie_rtol, spread up to {args.spread:.3g}): above, the exact-tie part; with the spread term "
                f"B_L <= {spread_bound:.4g} at the tightest tau ({verdict} eps), and colder is not always better (the term grows as tau shrinks)"
            )
        if colder:
            print(colder)
        if args.rule is not None:
            r = args.rule
            print(
                f"the construction's own rule (as 'hardsoft compile' prints it): {r['rule']} = {r['tau']:.6g} at n = {args.n} "
                f"(claimed gap {r['gap_rule']} = {r['gap']:.6g}); the rule's tau is {r['tau'] / tight.tau:.4g} times the certified tightest"
            )
    return 0
