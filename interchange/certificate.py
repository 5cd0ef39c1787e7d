"""What an exported model is certified and verified for: its lengths, the temperature, eps (docs/interchange.md, Export).

``certify_export(original, frozen, eps, up_to)``, for every served input length up to ``up_to``:

- **verified**: every input of that length run in hard mode through the original and the frozen
  model: the largest difference of the final activations at the original's positions and
  coordinates, and the decisions (the read-out's acceptance, the per-position output) compared;
- **certified**: the frozen model's gap and x_max measured over every input (Proposition 24,
  Lemma 29), Lemma 25's constants from its weights (penalty and BOS included) and the tightest
  tau for eps (statement C/T), then the bound certified at the exported attn_scale;
- **soft**: the frozen model run in soft mode at the attn_scale, its largest error against its
  own hard run, and its decisions against the original's hard ones.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from hardsoft.interchange.freeze import Frozen
from hardsoft.spec import bounds as bd
from hardsoft.spec import transformer as tf

#: At most this many inputs are enumerated to verify and certify an export (the lengths beyond are not claimed).
EXPORT_ENUMERATION_LIMIT = 2**18


@dataclass
class ExportCertificate:
    """The verified and certified lengths of an export and what was found on them."""

    eps: float
    lengths: list[int] = field(default_factory=list)  # verified and certified input lengths
    inputs: int = 0
    tightest_tau: float = math.inf  # the smallest over the lengths of the tightest certified tau
    gap: float = math.inf
    hard_max_diff: float = 0.0  # original vs frozen, hard mode, final activations
    decisions: int = 0
    hard_decisions_agree: int = 0  # frozen hard = original hard
    soft_decisions_agree: int = 0  # frozen soft at attn_scale = original hard
    soft_max_err: float = 0.0  # frozen soft vs frozen hard
    attn_scale: float | None = None
    bound_at_attn_scale: float = 0.0  # the certified B_L at the attn_scale, largest over the lengths
    tie_spread: bool = False  # some length had ties only within the tolerance (spread term)

    @property
    def certified(self) -> bool:
        """Return whether the attn_scale is certified for eps at every verified length (and some length was)."""
        return bool(self.lengths) and self.attn_scale is not None and self.bound_at_attn_scale <= min(self.eps, 1.0)

    def as_hints(self) -> dict[str, object]:
        """Return the certificate as the config's "certified" hint."""
        return {
            "lengths": self.lengths,
            "eps": self.eps,
            "attn_scale": self.attn_scale,
            "tightest_tau": None if math.isinf(self.tightest_tau) else self.tightest_tau,
            "bound_at_attn_scale": None if math.isinf(self.bound_at_attn_scale) else self.bound_at_attn_scale,
            "certified": self.certified,
            "gap": None if math.isinf(self.gap) else self.gap,
            "inputs": self.inputs,
            "hard_decisions": [self.hard_decisions_agree, self.decisions],
            "soft_decisions": [self.soft_decisions_agree, self.decisions],
        }


def verify_lengths(model: tf.Model, lengths: tuple[int, ...], up_to: int | None) -> list[int]:
    """Return the served lengths to verify: those up to ``up_to`` whose inputs, counted together, stay within the enumeration limit."""
    out, total = [], 0
    for n in lengths:
        if up_to is not None and n > up_to:
            break
        total += len(model.alphabet) ** n
        if total > EXPORT_ENUMERATION_LIMIT:
            break
        out.append(n)
    return out


def _decisions(model: tf.Model, final: np.ndarray) -> np.ndarray:
    """Return per input the decisions a run makes: the read-out's acceptance and/or the output at every input position."""
    cols = []
    if model.readout is not None:
        cols.append(model.readout.accept(final)[:, None].astype(np.float64))
    if model.output is not None:
        cols.append(model.output.decode(final)[:, model.offset :].astype(np.float64))
    return np.concatenate(cols, axis=1) if cols else np.zeros((final.shape[0], 0))


def certify_export(original: tf.Model, fz: Frozen, eps: float, tau: float | None = None, up_to: int | None = None) -> ExportCertificate:
    """Return the export's certificate: verified against the original and certified for eps at the attn_scale tau (default: the tightest)."""
    frozen = fz.model
    cert = ExportCertificate(eps)
    lengths = verify_lengths(original, fz.lengths, up_to)
    if not lengths:  # nothing verified nor certified: the export needs a temperature given to it
        t0 = tau if tau is not None else original.own_tau
        if t0 is None:
            raise ValueError(
                f"no served length can be verified and certified within {EXPORT_ENUMERATION_LIMIT:,} inputs "
                f"(or --verify-up-to is below {fz.lengths[0]}): give --tau to export without a certificate"
            )
        cert.attn_scale = float(t0)
        cert.bound_at_attn_scale = math.inf
        return cert
    norms = tf.compute_model_norms(frozen)
    shift = frozen.offset - original.offset
    d = original.d
    runs = []
    for n in lengths:
        w = np.concatenate(list(tf.enumerate_inputs(len(original.alphabet), n)))
        meas = tf.measure(frozen, n)
        consts = tf.compute_recursion_constants(frozen, meas, norms)
        cert.gap = min(cert.gap, meas.gap)
        if consts is not None and consts.has_spread:
            cert.tie_spread = True
        elif consts is not None:
            cert.tightest_tau = min(cert.tightest_tau, bd.compute_tightest_inverse_temperature(consts, eps).tau)
        runs.append((n, w, consts))
    t = tau if tau is not None else original.own_tau if original.own_tau is not None else cert.tightest_tau
    if not math.isfinite(t):
        t = 1.0  # every tie exact at every length: soft = hard at any temperature
    cert.attn_scale = float(t)
    for n, w, consts in runs:
        hard_o = tf.run(original, w, "hard").activations[-1]
        hard_f = tf.run(frozen, w, "hard").activations[-1]
        soft_f = tf.run(frozen, w, "soft", tau=cert.attn_scale).activations[-1]
        cert.hard_max_diff = max(cert.hard_max_diff, float(np.abs(hard_f[:, shift:, :d] - hard_o).max()))
        cert.soft_max_err = max(cert.soft_max_err, float(np.abs(soft_f - hard_f).max()))
        want = _decisions(original, hard_o)
        cert.decisions += want.size
        cert.hard_decisions_agree += int((_decisions(frozen, hard_f) == want).sum())
        cert.soft_decisions_agree += int((_decisions(frozen, soft_f) == want).sum())
        if consts is not None:
            cert.bound_at_attn_scale = max(cert.bound_at_attn_scale, bd.certify_bound_at(consts, cert.attn_scale))
        cert.lengths.append(n)
        cert.inputs += w.shape[0]
    return cert
