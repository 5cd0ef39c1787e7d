"""``hardsoft simulate``: run a model in hard and soft mode; per-layer errors against the bounds B_l (Lemma 25), gap and x_max."""

from __future__ import annotations

import argparse
import json
import math
from typing import Any

import numpy as np

from hardsoft.checks.args import eps, positive_float, positive_int
from hardsoft.spec import bounds as bd
from hardsoft.spec import transformer as tf
from hardsoft.spec.examples import EXAMPLES
from hardsoft.spec.modelio import load_model, save_model


def register(sub: Any) -> None:
    """Add the simulate subcommand."""
    s = sub.add_parser("simulate", help="run a model in hard and soft mode; per-layer errors, gap and x_max")
    m = s.add_mutually_exclusive_group(required=True)
    m.add_argument("--model", help="model file (docs/model-format.md)")
    m.add_argument("--example", choices=sorted(EXAMPLES), help="a built-in example model")
    w = s.add_mutually_exclusive_group(required=True)
    w.add_argument("--inputs", nargs="+", help="words of one length over the alphabet, e.g. abba baab")
    w.add_argument("--enumerate", type=positive_int("--enumerate"), metavar="N", help="every input of length N")
    tt = s.add_mutually_exclusive_group(required=True)
    tt.add_argument("--tau", type=positive_float("--tau"), help="softmax temperature")
    tt.add_argument("--eps", type=eps, help="take the tightest certified tau for this target error")
    s.add_argument("--mode", choices=["average", "leftmost", "rightmost"], help="hard mode (default: the model's)")
    s.add_argument("--save-model", metavar="FILE", help="also write the model in the file format")
    s.add_argument("--json", action="store_true", help="print JSON")
    s.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
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
    consts = tf.compute_recursion_constants(model, meas)
    if args.tau is not None:
        tau = args.tau
    elif consts is None:
        tau = 1.0  # every gap infinite and every tie exact: soft equals hard at any tau
    elif math.isfinite(meas.gap):
        tau = bd.compute_tightest_inverse_temperature(consts.without_spread(), args.eps).tau
    else:
        tau = 1.0  # only near ties: no temperature makes soft approach hard; show the bound at tau = 1
    hard = tf.run(model, inputs, mode)
    soft = tf.run(model, inputs, "soft", tau=tau)
    errs = tf.compute_layer_errors(hard, soft)
    if consts is None:
        bounds = [0.0] * len(errs)
    else:
        with np.errstate(over="ignore"):
            bounds = bd.compute_bound_at(consts, tau)
    norms = tf.compute_model_norms(model)
    allowances = [tf.compute_rounding_allowance(model, n, tau, meas.x_max, l, norms) if l else 0.0 for l in range(len(errs))]
    verdicts = [tf.describe_error_vs_bound(e, b, r) for e, b, r in zip(errs, bounds, allowances)]
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
        "rounding_allowances": allowances,
        "layer_verdicts": verdicts,
        "tie_spread": meas.tie_spread,
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
    if meas.tie_spread > 0:
        print(f"near ties: scores tied within tie_rtol {model.tie_rtol:.3g} (spread up to {meas.tie_spread:.3g}); B_l includes the spread term")
    print(f"{'layer':>5}  {'max |soft - hard|':>18}  {'bound B_l':>12}")
    for l, (e, b, v) in enumerate(zip(errs, bounds, verdicts)):
        note = "" if e <= b else f"  {v}"
        print(f"{l:>5}  {e:>18.6e}  {b:>12.4e}{note}")
    return 0
