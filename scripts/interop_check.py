"""``make interop-check``: the round trip with the real TransformerLens, both ways, on real models (docs/interchange.md).

Runs in hardsoft's environment; the TransformerLens side (scripts/interop_tl.py) runs in each
environment given with --tl-python (made by the Makefile from PyPI: torch 2.13.0 and
TransformerLens 3.x, and 4.x).  Jobs:

- **hardsoft -> TransformerLens**: every program of the library (B-RASP and C-RASP in both
  regimes, S-RASP) and every application, compiled, frozen, verified and certified, exported at
  its tightest certified tau; a random format 3 model (BOS, table, categorical output, mixed masks);
  each loaded by TransformerLens and run on every served input (sampled above SAMPLE inputs per
  length): its logits against hardsoft's soft run at the attn_scale, its attention patterns against
  hardsoft's soft weights, and its decisions against hardsoft's hard run of the original model.
- **the tracr fixtures** loaded by TransformerLens as they are: logits against hardsoft's import.
- **TransformerLens -> hardsoft**: random models made by TransformerLens with every supported
  option (causal, bidirectional, attn_only, use_attn_scale false, scale_attn_by_inverse_layer_idx,
  an attn_scale, d_vocab_out = d_vocab) and with each refused one, saved as state dict + config
  JSON and imported: logits and patterns against TransformerLens's; a refused option must be
  refused naming its field.  The installed config's field list must be inside CONFIG_FIELDS.

Prints one line per job and a summary table; exit 0 when every comparison holds, 1 otherwise.
Usage: python scripts/interop_check.py --tl-python ENV/bin/python [--tl-python ...] [--out DIR]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hardsoft.interchange import certificate, freeze  # noqa: E402
from hardsoft.interchange import transformer_lens as tlio  # noqa: E402
from hardsoft.interchange.reference import NUMERIC_OUTPUT_ATOL  # noqa: E402
from hardsoft.interchange.tracr import import_tracr  # noqa: E402
from hardsoft.spec import transformer as tf  # noqa: E402
from hardsoft.spec.attention import make_mask  # noqa: E402

#: Inputs per length run through TransformerLens (every input when there are fewer).
SAMPLE = 256
#: Served input length of the exported programs (n_ctx = this plus BOS where one is added), lowered for large
#: alphabets so that every served input is verified: at most EXPORT_INPUTS inputs of that length.
EXPORT_LENGTH = 6
EXPORT_INPUTS = 4096
#: Agreement of logits and patterns: relative to the largest |logit| (float64 on both sides).
RTOL = 1e-9
FIXTURES = ROOT / "tests" / "fixtures" / "tracr"
#: Options TransformerLens models are made with (name -> config options), and those that must be refused (-> the field named).
SUPPORTED = {
    "causal": {},
    "bidirectional": {"attention_dir": "bidirectional"},
    "attn-only": {"attn_only": True},
    "no-attn-scale": {"use_attn_scale": False},
    "inverse-layer-idx": {"scale_attn_by_inverse_layer_idx": True, "n_layers": 3},
    "attn-scale-0.37": {"attn_scale": 0.37},
    "vocab-out-default": {"d_vocab_out": -1},
}
REFUSED = {
    "attn-scores-soft-cap": ({"attn_scores_soft_cap": 2.0}, "attn_scores_soft_cap"),
    "output-logits-soft-cap": ({"output_logits_soft_cap": 2.0}, "output_logits_soft_cap"),
    "clip-qkv": ({"clip_qkv": 0.5}, "clip_qkv"),
    "attention-sinks": ({"use_attention_sinks": True}, "use_attention_sinks"),
    "layer-norm": ({"normalization_type": "LN"}, "normalization_type"),
    "gelu": ({"act_fn": "gelu"}, "act_fn"),
}


def programs() -> list[tuple[str, Any]]:
    """Return (name, builder) of every library program (both regimes for B-RASP and C-RASP) and every application."""
    from hardsoft.constructive.applications import CONSTRUCTIONS
    from hardsoft.constructive.lang import brasp, crasp
    from hardsoft.constructive.lang.library import library
    from hardsoft.constructive.srasp.compiler import compile_program as srasp_compile
    from hardsoft.constructive.srasp.library import library_names, load_library

    out: list[tuple[str, Any]] = []
    for name, ex in library().items():
        mod = brasp if ex.language == "brasp" else crasp
        for regime in ("bounded", "unbounded"):
            out.append(
                (f"{ex.language}-{name}-{regime}", lambda ex=ex, mod=mod, regime=regime: mod.compile_program(ex.text, ex.alphabet, regime).model)
            )
    for name in library_names():
        out.append((f"srasp-{name}", lambda name=name: srasp_compile(load_library(name)).model))
    for name, build in CONSTRUCTIONS.items():
        out.append((f"app-{name}", lambda build=build: build().model))
    return out


def _inputs(model: tf.Model, n: int, rng: np.random.Generator) -> np.ndarray:
    """Return every input of length n, or SAMPLE of them drawn at random."""
    total = len(model.alphabet) ** n
    if total <= SAMPLE:
        return np.concatenate(list(tf.enumerate_inputs(len(model.alphabet), n)))
    return rng.integers(0, len(model.alphabet), size=(SAMPLE, n))


def _token_ids(model: tf.Model, w: np.ndarray) -> list[list[int]]:
    """Return TransformerLens token ids of inputs (W_E rows: the alphabet, then BOS), BOS first when the model has one."""
    ids = w.tolist()
    if model.bos_token is not None:
        ids = [[len(model.alphabet)] + row for row in ids]
    return ids


def soft_patterns(model: tf.Model, acts: list[np.ndarray], tau: float) -> list[np.ndarray]:
    """Return per layer the soft attention weights (batch, head, query, key) of a run, recomputed from its activations."""
    out = []
    for l, layer in enumerate(model.layers):
        x = acts[l]
        n = x.shape[1]
        pats = []
        if not layer.heads:
            out.append(np.zeros((x.shape[0], 0, x.shape[1], x.shape[1])))
            continue
        for hd in layer.heads:
            s = (x @ hd.W_Q) @ (x @ hd.W_K).transpose(0, 2, 1) / tau
            s = np.where(make_mask(hd.mask, n), s, -np.inf)
            s = np.exp(s - s.max(-1, keepdims=True))
            pats.append(s / s.sum(-1, keepdims=True))
        out.append(np.stack(pats, axis=1))
    return out


def _logits(model: tf.Model, final: np.ndarray) -> np.ndarray:
    """Return the logits TransformerLens computes from final activations: the output's, or the residual itself (W_U = identity)."""
    return final if model.output is None else model.output.logits(final)


def compare(model: tf.Model, tau: float, groups: list[np.ndarray], res: Any, heads_model: tf.Model | None = None) -> dict[str, float]:
    """Return the largest relative logit and pattern differences between TransformerLens (res) and hardsoft's soft run at tau.

    heads_model: the same model with every head TransformerLens has (an import without dropped weights), whose
    patterns are compared head by head; default the model itself.
    """
    worst = {"logits": 0.0, "patterns": 0.0}
    for k, w in enumerate(groups):
        tr = tf.run(model, w, "soft", tau=tau)
        ours = _logits(model, tr.activations[-1])
        theirs = res[f"g{k}.logits"]
        worst["logits"] = max(worst["logits"], float(np.abs(ours - theirs).max()) / max(1.0, float(np.abs(theirs).max())))
        hm = heads_model or model
        acts = tr.activations if heads_model is None else tf.run(hm, w, "soft", tau=tau).activations
        for l, p in enumerate(soft_patterns(hm, acts, tau)):
            worst["patterns"] = max(worst["patterns"], float(np.abs(p - res[f"g{k}.pattern{l}"][:, : p.shape[1]]).max()))
    return worst


def _decisions(model: tf.Model, logits: np.ndarray, offset: int) -> np.ndarray:
    """Return the decisions read from logits: the readout's acceptance (logits are the residual) or the argmax/values per input position."""
    if model.readout is not None:
        r = model.readout
        pos = -1 if r.position == "last" else offset
        return (logits[:, pos, r.coordinate] > r.threshold)[:, None]
    if model.output is not None:
        return _argmax(model, logits, offset)
    return np.zeros((logits.shape[0], 0), dtype=bool)


def _argmax(model: tf.Model, logits: np.ndarray, offset: int) -> np.ndarray:
    """Return the per-position output read from logits: the argmax label index, or the numeric value."""
    assert model.output is not None
    z = logits[:, offset:]
    return np.argmax(z, axis=-1) if model.output.kind == "categorical" else z[..., 0]


def export_jobs(work: Path, rng: np.random.Generator) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Return the export jobs and, per job, what the comparison needs (original, frozen model, tau, inputs, certificate)."""
    from tests.interop_cases import build_v3_model  # noqa: PLC0415  (a test helper: a random format 3 model)

    jobs, meta = [], {}
    builders = programs() + [("random-v3", build_v3_model)]
    for name, build in builders:
        t0 = time.perf_counter()
        model = build()
        if model.own_tau is not None and name == "random-v3":
            model = dataclasses.replace(model, own_tau=None)  # random weights: export at the tightest certified tau, not at 0.5
        length = max(n for n in range(1, EXPORT_LENGTH + 1) if len(model.alphabet) ** n <= EXPORT_INPUTS)
        n_ctx = (length + model.offset + (1 if freeze.needs_bos(model) else 0)) if model.PE.max_positions is None else None
        n_ctx = n_ctx or tlio.default_n_ctx(model)
        fz = freeze.freeze(model, n_ctx)
        cert = certificate.certify_export(model, fz, 0.01, up_to=length)
        d = work / "export" / name
        d.mkdir(parents=True)
        st, cj, fz = tlio.export_transformer_lens(model, d, tau=cert.attn_scale, n_ctx=n_ctx)
        groups = [_inputs(model, n, rng) for n in cert.lengths]
        jobs.append({"kind": "load", "name": name, "weights": str(st), "config": str(cj), "tokens": [_token_ids(fz.model, w) for w in groups]})
        meta[name] = {"model": model, "frozen": fz, "cert": cert, "groups": groups, "seconds": time.perf_counter() - t0}
    for p in sorted(FIXTURES.glob("*.safetensors")):
        name = "tracr-" + p.name.removesuffix(".safetensors")
        model = import_tracr(p)
        ref = json.loads(p.with_name(p.name.removesuffix(".safetensors") + ".reference.json").read_text())
        n = ref["max_len"]
        w = _inputs(model, n, rng)
        cj = p.with_name(p.name.removesuffix(".safetensors") + ".config.json")
        jobs.append({"kind": "load", "name": name, "weights": str(p), "config": str(cj),
                     "tokens": [_tracr_ids(p, model, w)]})  # fmt: skip
        meta[name] = {"model": model, "groups": [w], "heads_model": import_tracr(p, keep_dead_weights=True)}
    return jobs, meta


def _tracr_ids(p: Path, model: tf.Model, w: np.ndarray) -> list[list[int]]:
    """Return a tracr fixture's token ids for inputs over the imported alphabet (the fixture's own vocabulary order, BOS first)."""
    cfg = json.loads(p.with_name(p.name.removesuffix(".safetensors") + ".config.json").read_text())
    vocab = [x if isinstance(x, str) else json.dumps(x) for x in cfg["hardsoft"]["input_vocab"]]
    bos = vocab.index(str(cfg["hardsoft"]["bos"]) if isinstance(cfg["hardsoft"]["bos"], str) else json.dumps(cfg["hardsoft"]["bos"]))
    return [[bos] + [vocab.index(model.alphabet[c]) for c in row] for row in w.tolist()]


def make_jobs(work: Path, rng: np.random.Generator) -> list[dict[str, Any]]:
    """Return the jobs that make random TransformerLens models (supported and refused options) and run them."""
    jobs = []
    for k, (name, opts) in enumerate([*SUPPORTED.items(), *((n, o) for n, (o, _) in REFUSED.items())]):
        d = work / "make" / name
        d.mkdir(parents=True)
        toks = [rng.integers(0, 5, size=(16, n)).tolist() for n in (1, 3, 6)]
        jobs.append({"kind": "make", "name": name, "options": opts, "seed": k, "dir": str(d), "tokens": toks})
    return jobs


def main() -> int:
    """Run both directions for every TransformerLens environment; print figures; exit 1 if any comparison fails."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tl-python", action="append", required=True, help="python of an environment with torch and TransformerLens")
    ap.add_argument("--out", help="keep the work files here (default: a temporary directory)")
    args = ap.parse_args()
    failures: list[str] = []
    summary: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(args.out) if args.out else Path(tmp)
        rng = np.random.default_rng(0)
        t0 = time.perf_counter()
        ejobs, meta = export_jobs(root, rng)  # the hardsoft side once: every TransformerLens loads the same files
        t_hs = time.perf_counter() - t0
        print(f"== hardsoft side: {len(ejobs)} models compiled, frozen, verified, certified and exported in {t_hs:.1f} s")
        for env in args.tl_python:
            work = root / Path(env).parent.parent.name
            work.mkdir(parents=True, exist_ok=True)
            mjobs = make_jobs(work, np.random.default_rng(1))
            jobs = [dict(j, out=str(work / f"{j['kind']}-{j['name']}.npz")) for j in ejobs + mjobs]
            plan = work / "plan.json"
            plan.write_text(json.dumps({"jobs": jobs, "report": str(work / "tl-report.json")}))
            t1 = time.perf_counter()
            proc = subprocess.run([env, str(ROOT / "scripts" / "interop_tl.py"), str(plan)], capture_output=True, text=True)
            t_tl = time.perf_counter() - t1
            if proc.returncode != 0:
                print(proc.stdout[-3000:], proc.stderr[-3000:])
                failures.append(f"{env}: the TransformerLens side exited {proc.returncode}")
                continue
            rep = json.loads((work / "tl-report.json").read_text())
            tag = f"TransformerLens {rep['version']} (torch {rep['torch']})"
            status = {j["name"]: j for j in rep["jobs"]}
            unreviewed = sorted(set(rep["fields"]) - set(tlio.CONFIG_FIELDS))
            print(f"== {tag}: {len(rep['fields'])} config fields, unreviewed: {unreviewed or 'none'}")
            if unreviewed:
                failures.append(f"{tag}: config fields not in CONFIG_FIELDS: {unreviewed}")
            t2 = time.perf_counter()
            for j in jobs[: len(ejobs)]:
                failures += _check_export(tag, j, status[j["name"]], meta[j["name"]], summary)
            for j in jobs[len(ejobs) :]:
                failures += _check_make(tag, j, status[j["name"]], summary, set(rep["fields"]))
            print(f"== {tag}: TransformerLens side {t_tl:.1f} s (load or make, run), comparisons {time.perf_counter() - t2:.1f} s")
        if args.out:
            (root / "interop-summary.json").write_text(json.dumps(summary, indent=1, default=float))
    print(f"interop-check: {len(summary)} comparisons, {len(failures)} failure(s)")
    for f in failures:
        print("FAILED", f)
    return 1 if failures else 0


def _check_export(tag: str, job: dict[str, Any], st: dict[str, Any], meta: dict[str, Any], summary: list[dict[str, Any]]) -> list[str]:
    """Compare one loaded export (or tracr fixture) with hardsoft; print one line; return failures."""
    name = job["name"]
    if not st["ok"]:
        print(f"{tag} {name}: TransformerLens could not load it: {st['error']}")
        return [f"{tag} {name}: {st['error']}"]
    res = np.load(job["out"])
    if "frozen" in meta:
        fz, orig, cert = meta["frozen"], meta["model"], meta["cert"]
        m, tau = fz.model, float(cert.attn_scale)
    else:
        m = orig = meta["model"]
        tau = float(m.own_tau)
    worst = compare(m, tau, meta["groups"], res, meta.get("heads_model"))
    agree = total = 0
    for k, w in enumerate(meta["groups"]):
        want = _decisions(orig, _logits(orig, tf.run(orig, w, "hard").activations[-1]), orig.offset)
        got = _decisions(m, res[f"g{k}.logits"], m.offset)
        same = np.abs(got - want) <= NUMERIC_OUTPUT_ATOL if orig.output is not None and orig.output.kind == "numerical" else got == want
        agree += int(same.sum())
        total += want.size
    row = {"tl": tag, "job": name, "inputs": int(sum(len(g) for g in meta["groups"])), "logits_rel": worst["logits"], "patterns": worst["patterns"],
           "decisions": [agree, total], "d_model": m.d, "layers": m.depth, "tau": tau}  # fmt: skip
    summary.append(row)
    bad = worst["logits"] > RTOL or worst["patterns"] > RTOL or agree != total
    print(
        f"{tag} {name}: {row['inputs']} inputs, logits {worst['logits']:.1e}, patterns {worst['patterns']:.1e}, "
        f"decisions {agree}/{total}{'  FAILED' if bad else ''}"
    )
    return [f"{tag} {name}: logits {worst['logits']:.1e}, patterns {worst['patterns']:.1e}, decisions {agree}/{total}"] if bad else []


def _check_make(tag: str, job: dict[str, Any], st: dict[str, Any], summary: list[dict[str, Any]], fields: set[str]) -> list[str]:
    """Import one TransformerLens-made model; compare with its run, or check its refusal; print one line; return failures.

    A refused option that is not a field of this TransformerLens's config (4.x has no clip_qkv, no use_attention_sinks)
    is not an option there: TransformerLens makes a plain model, which must import and match.
    """
    name = job["name"]
    refused = name in REFUSED and REFUSED[name][1] in fields
    if not st["ok"]:
        print(f"{tag} {name}: TransformerLens could not make it: {st['error']}")
        return [] if name in REFUSED else [f"{tag} {name}: {st['error']}"]
    weights = Path(job["dir"]) / f"{name}.safetensors"
    try:
        m = tlio.import_transformer_lens(weights)
        full = tlio.import_transformer_lens(weights, keep_dead_weights=True)
    except ValueError as e:
        ok = refused and REFUSED[name][1] in str(e)
        print(f"{tag} {name}: refused: {e}{'' if ok else '  FAILED'}")
        summary.append({"tl": tag, "job": name, "refused": str(e)})
        return [] if ok else [f"{tag} {name}: refused: {e}"]
    if refused:
        print(f"{tag} {name}: imported, but {REFUSED[name][1]} must be refused  FAILED")
        return [f"{tag} {name}: not refused"]
    res = np.load(job["out"])
    groups = [np.array(g) for g in job["tokens"]]
    worst = compare(m, float(m.own_tau), groups, res, full)
    summary.append({"tl": tag, "job": name, "logits_rel": worst["logits"], "patterns": worst["patterns"]})
    bad = worst["logits"] > RTOL or worst["patterns"] > RTOL
    note = f" ({REFUSED[name][1]} is not a field of this TransformerLens: a plain model)" if name in REFUSED else ""
    print(
        f"{tag} {name}{note}: imported (d = {m.d}, own tau {m.own_tau:.4g}), "
        f"logits {worst['logits']:.1e}, patterns {worst['patterns']:.1e}{'  FAILED' if bad else ''}"
    )
    return [f"{tag} {name}: logits {worst['logits']:.1e}, patterns {worst['patterns']:.1e}"] if bad else []


if __name__ == "__main__":
    sys.exit(main())
