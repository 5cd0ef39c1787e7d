"""Simple in-process exhaustive check of a compiled formula (the verification engine, ``checks.engine.verify``, replaces the loop).

Every word of every length 1..max_len is run through the compiled model in hard
mode and in soft mode at the regime's temperature tau(n); every subformula's
coordinate at every position is decoded (> threshold) and compared with the
reference evaluator.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from hardsoft.constructive.logic.semantics import evaluate_batch
from hardsoft.spec import transformer as tf

#: Largest work estimate (sum over n of |Sigma|^n * n * (n * heads + k)) one in-process run accepts.
MAX_WORK = 2e9


def estimate_work(compiled: Any, max_len: int) -> tuple[int, float]:
    """Return (number of words, work estimate in score/coordinate operations) of checking lengths 1..max_len."""
    s = len(compiled.alphabet)
    heads = max(1, sum(len(l.heads) for l in compiled.model.layers))
    k = len(compiled.coords)
    words = sum(s**n for n in range(1, max_len + 1))
    work = float(sum(s**n * n * (n * heads * 2 + k * n) for n in range(1, max_len + 1)))
    return words, work


def check_compiled(compiled: Any, max_len: int) -> dict[str, Any]:
    """Return a report: for n = 1..max_len, every word, hard and soft (tau(n)) decoded vs the reference evaluator.

    Keys: ok, max_len, words, seconds, per_length (n, words, hard_mismatches, soft_mismatches,
    accepted, max_soft_error), first_counterexample (or None).  ValueError if max_len < 1
    or the work estimate exceeds MAX_WORK (the message names the estimate).
    """
    if isinstance(max_len, bool) or not isinstance(max_len, (int, np.integer)) or max_len < 1:
        raise ValueError(f"the length bound must be an integer >= 1, got {max_len!r}")
    words, work = estimate_work(compiled, int(max_len))
    if work > MAX_WORK:
        raise ValueError(
            f"verifying every word up to length {max_len} means {words:,} words and about {work:.2g} "
            f"operations (limit {MAX_WORK:.0e}); choose a smaller length"
        )
    t0 = time.perf_counter()
    per_length = []
    first = None
    ok = True
    for n in range(1, int(max_len) + 1):
        hard_bad = soft_bad = accepted = 0
        max_err = 0.0
        count = 0
        for w in tf.enumerate_inputs(len(compiled.alphabet), n):
            ref = evaluate_batch(compiled.formula, w, compiled.alphabet)
            th = tf.run(compiled.model, w, "hard")
            ts = tf.run(compiled.model, w, "soft", tau=compiled.tau(n))
            h, s = compiled.decode(th), compiled.decode(ts)
            hb = (h != ref).any(axis=(1, 2))
            sb = (s != ref).any(axis=(1, 2))
            hard_bad += int(hb.sum())
            soft_bad += int(sb.sum())
            accepted += int(ref[:, -1, -1].sum())
            max_err = max(max_err, float(np.abs(compiled.values(th) - compiled.values(ts)).max()))
            count += w.shape[0]
            if first is None and (hb.any() or sb.any()):
                b = int(np.flatnonzero(hb | sb)[0])
                first = {
                    "word": "".join(compiled.alphabet[c] for c in w[b])
                    if all(len(a) == 1 for a in compiled.alphabet)
                    else [compiled.alphabet[c] for c in w[b]],
                    "mode": "hard" if hb[b] else "soft",
                }
        ok = ok and hard_bad == 0 and soft_bad == 0
        per_length.append(
            {
                "n": n,
                "words": count,
                "hard_mismatches": hard_bad,
                "soft_mismatches": soft_bad,
                "accepted": accepted,
                "tau": compiled.tau(n),
                "max_soft_error": max_err,
            }
        )
    return {
        "ok": ok,
        "max_len": int(max_len),
        "words": words,
        "seconds": time.perf_counter() - t0,
        "per_length": per_length,
        "first_counterexample": first,
    }


def head_masses(compiled: Any, inputs: np.ndarray) -> list[tuple[Any, float]]:
    """Return, for every compiled head, the largest softmax mass (at tau(n)) off its hard max set over the inputs.

    The heads read only exact coordinates, so the scores are taken from the hard run's
    activations; the hard max set uses the transformer's tie tolerance.  Each value is
    to be compared with the construction's bound (``compiled.mass_bound()``; 0 for
    counting heads, whose keys all tie).
    """
    from hardsoft.spec.attention import make_mask
    from hardsoft.spec.constants import TIE_RTOL

    w = np.asarray(inputs)
    n = w.shape[1]
    tau = compiled.tau(n)
    acts = tf.run(compiled.model, w, "hard").activations
    out = []
    for info in compiled.heads:
        hd = compiled.model.layers[info.layer - 1].heads[info.index]
        x = acts[info.layer - 1]
        s = (x @ hd.W_Q) @ (x @ hd.W_K).transpose(0, 2, 1)
        mask = make_mask(hd.mask, n)
        rows = mask.any(axis=1)
        sm = np.where(mask, s, -np.inf)
        rowmax = sm.max(axis=-1, keepdims=True)
        rowmax = np.where(np.isfinite(rowmax), rowmax, 0.0)
        top = mask & (s >= rowmax - TIE_RTOL * np.maximum(1.0, np.abs(rowmax)))
        e = np.where(mask, np.exp((sm - rowmax) / tau), 0.0)
        tot = e.sum(axis=-1)
        tot[:, ~rows] = 1.0
        off = (e * ~top).sum(axis=-1) / tot
        out.append((info, float(off[:, rows].max()) if rows.any() else 0.0))
    return out
