"""Compile tracr library programs and export them as TransformerLens-style fixtures (tests/fixtures/tracr/).

Six programs (length, reverse, hist, sort, frac_prevs, dyck) at max_seq_len 4 and 6, plus length and hist at 10,
where tracr's own model is wrong. What it writes, per model NAME (a program and its max_seq_len, e.g. reverse_4):
  NAME.safetensors      the weights under HookedTransformer state-dict names (float32, as tracr assembles them)
  NAME.config.json      HookedTransformerConfig fields, plus a "hardsoft" block (input vocabulary, BOS, output labels)
  NAME.reference.json   every input up to max_seq_len with rasp.evaluate's output ("output") and the assembled
                        tracr model's own decoded output ("tracr_output")
and it prints the figures of docs/tracr-fixtures.md (a Markdown table).

Before writing, it checks that the numpy HookedTransformer forward pass of tests/tl_forward.py, run on the
exported weights, reproduces the assembled tracr model on every input (same decoded outputs; the largest
differences of residuals and logits are printed) and that tracr's own apply() agrees with the batched run.

tracr is not on PyPI and the project does not depend on it. To run this script:
  1. get tracr's source (github.com/google-deepmind/tracr; the fixtures were made at commit
     9ce2b8c82b6ba10e62e86cf6f390e7536d4fd2cd) and put the folder holding its tracr/ package on PYTHONPATH;
  2. in a scratch virtual environment OUTSIDE this repository (Python 3.11):
       pip install "jax[cpu]==0.4.30" dm-haiku==0.0.12 chex==0.1.86 "numpy<2" einops networkx typing_extensions safetensors
     (the versions used: jax 0.4.30, jaxlib 0.4.30, dm-haiku 0.0.12, chex 0.1.86, numpy 1.26.4, einops 0.8.2,
     networkx 3.6.1, typing_extensions 4.16.0, safetensors 0.8.0, ml_dtypes 0.5.4, scipy 1.17.1);
  3. from the repository's root: PYTHONPATH=/path/to/tracr-src /path/to/venv/bin/python scripts/tracr_export.py [OUT_DIR]
     (OUT_DIR defaults to tests/fixtures/tracr); with --large OUT_DIR it writes the larger models of LARGE instead (shuffle_dyck
     and sort_freq at lengths 8, 12 and 16, for benchmarks/interop.py --tracr-dir OUT_DIR; not committed; names after OUT_DIR
     select some), and counts the sampled inputs on which the float64 forward pass decodes differently from tracr's float32 run.

How tracr's model maps to a HookedTransformer (as in TransformerLens's tracr demo): tracr's layer l is an attention
sub-layer then an MLP sub-layer, which is TransformerLens's block l; the query/key/value kernels [d_model, H*d_head]
split into heads [H, d_model, d_head]; the output kernel [H*d_head, d_model] into [H, d_head, d_model]; token and
position embeddings are tracr's embedding tables (position row 0, the BOS position, is zero in tracr); the
unembedding projects the residual stream onto tracr's output space (one column per output label, or the one
numeric coordinate); tracr divides q.k by sqrt(key_size) and key_size is d_head, so attn_scale = sqrt(d_head).
"""

from __future__ import annotations

import itertools
import json
import math
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.tl_forward import decode, encode, expected_shapes, run_forward  # noqa: E402

TRACR_COMMIT = "9ce2b8c82b6ba10e62e86cf6f390e7536d4fd2cd"
BOS = "BOS"
LENGTHS = (4, 6)
#: Fixtures at a longer length, on a smaller alphabet, where tracr's selector-width MLP is no longer exact and the
#: assembled model disagrees with the program: (program, max_seq_len, vocabulary).
LONG = (("length", 10, ["a", "b"]), ("hist", 10, ["a", "b"]))
#: Larger models for the speed benchmark (benchmarks/interop.py --tracr-dir): (program, max_seq_len, vocabulary).  Written
#: with --large OUT_DIR, not committed (megabytes each); compared with tracr on LARGE_SAMPLE inputs per model (the count
#: of inputs where the float64 forward pass decodes otherwise than tracr's float32 run is printed), and their reference
#: table holds those inputs only.
LARGE = tuple(("dyck", n, ["(", ")"]) for n in (8, 12, 16)) + tuple(("sort_freq", n, ["a", "b"]) for n in (8, 12, 16))
LARGE_SAMPLE = 64
#: Programs exported only in the LARGE set (not among the committed fixtures).
LARGE_ONLY = ("sort_freq",)
#: tracr's fixed softmax coldness: expr_to_craft_graph passes softmax_coldness=100 to every attention head.
SOFTMAX_COLDNESS = 100.0
#: tracr's default mlp_exactness (compile_rasp_to_model), kept.
MLP_EXACTNESS = 100
#: Score gaps below this are counted as float32 noise around an intended tie (e.g. 100.0000477 against 100).
NOISE_TIE = 1e-4
#: A numerical output of tracr's model counts as agreeing with rasp.evaluate when within this distance.
NUMERIC_AGREEMENT = 1e-2


def programs() -> dict[str, tuple[Callable[[int], Any], list[Any], str]]:
    """Return, per fixture program name, a builder (max_seq_len -> RASP program), its vocabulary and its source text."""
    from tracr.compiler import lib
    from tracr.rasp import rasp

    return {
        "length": (lambda n: lib.make_length(), ["a", "b", "c"], "lib.make_length()"),
        "reverse": (lambda n: lib.make_reverse(rasp.tokens), ["a", "b", "c"], "lib.make_reverse(rasp.tokens)"),
        "hist": (lambda n: lib.make_hist(), ["a", "b", "c"], "lib.make_hist()"),
        "sort": (
            lambda n: lib.make_sort(rasp.tokens, rasp.tokens, max_seq_len=n, min_key=1),
            [1, 2, 3],
            "lib.make_sort(rasp.tokens, rasp.tokens, max_seq_len=N, min_key=1)",
        ),
        "frac_prevs": (
            lambda n: lib.make_frac_prevs(rasp.tokens == "x"),
            ["a", "x"],
            'lib.make_frac_prevs(rasp.tokens == "x")',
        ),
        "dyck": (lambda n: lib.make_shuffle_dyck(["()"]), ["(", ")"], 'lib.make_shuffle_dyck(["()"])'),
        "sort_freq": (lambda n: lib.make_sort_freq(max_seq_len=n), ["a", "b"], "lib.make_sort_freq(max_seq_len=N)"),
    }


def state_dict(model: Any, output_label: str) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """Return the HookedTransformer state dict and config of an assembled tracr model."""
    mc = model.model_config
    params = {k: {kk: np.asarray(vv) for kk, vv in v.items()} for k, v in model.params.items()}
    w_e = params["token_embed"]["embeddings"]
    w_pos = params["pos_embed"]["embeddings"]
    d_vocab, d_model = w_e.shape
    h, dh = mc.num_heads, mc.key_size
    labels = list(model.residual_labels)
    categorical = hasattr(model.output_encoder, "encoding_map")
    if categorical:
        out_map = model.output_encoder.encoding_map
        output_labels = [v for v, _ in sorted(out_map.items(), key=lambda kv: kv[1])]
        w_u = np.zeros((d_model, len(output_labels)), dtype=np.float32)
        for j, value in enumerate(output_labels):
            w_u[labels.index(f"{output_label}:{value}"), j] = 1.0
    else:
        output_labels = None
        w_u = np.zeros((d_model, 1), dtype=np.float32)
        w_u[labels.index(output_label), 0] = 1.0
    sd: dict[str, np.ndarray] = {
        "embed.W_E": w_e,
        "pos_embed.W_pos": w_pos,
        "unembed.W_U": w_u,
        "unembed.b_U": np.zeros(w_u.shape[1], dtype=np.float32),
    }
    heads = lambda m: m.reshape(d_model, h, dh).transpose(1, 0, 2)  # d_model (H d_head) -> H d_model d_head
    for l in range(mc.num_layers):
        a, m = f"transformer/layer_{l}/attn/", f"transformer/layer_{l}/mlp/"
        b = f"blocks.{l}."
        for tl, tr in (("Q", "query"), ("K", "key"), ("V", "value")):
            sd[b + f"attn.W_{tl}"] = heads(params[a + tr]["w"])
            sd[b + f"attn.b_{tl}"] = params[a + tr]["b"].reshape(h, dh)
        sd[b + "attn.W_O"] = params[a + "linear"]["w"].reshape(h, dh, d_model)
        sd[b + "attn.b_O"] = params[a + "linear"]["b"]
        sd[b + "mlp.W_in"] = params[m + "linear_1"]["w"]
        sd[b + "mlp.b_in"] = params[m + "linear_1"]["b"]
        sd[b + "mlp.W_out"] = params[m + "linear_2"]["w"]
        sd[b + "mlp.b_out"] = params[m + "linear_2"]["b"]
    sd = {k: np.ascontiguousarray(v, dtype=np.float32) for k, v in sd.items()}
    cfg = {
        "n_layers": mc.num_layers,
        "n_heads": h,
        "d_model": int(d_model),
        "d_head": dh,
        "d_mlp": mc.mlp_hidden_size,
        "d_vocab": int(d_vocab),
        "d_vocab_out": int(w_u.shape[1]),
        "n_ctx": int(w_pos.shape[0]),
        "act_fn": "relu",
        "normalization_type": "LN" if mc.layer_norm else None,
        "attn_only": False,
        "attention_dir": "causal" if mc.causal else "bidirectional",
        "use_attn_scale": True,
        "attn_scale": math.sqrt(dh),
        "positional_embedding_type": "standard",
        "hardsoft": {
            "input_vocab": [v for v, _ in sorted(model.input_encoder.encoding_map.items(), key=lambda kv: kv[1])],
            "bos": model.input_encoder.bos_token,
            "output_labels": output_labels,
            "output_kind": "categorical" if categorical else "numerical",
        },
    }
    assert cfg["normalization_type"] is None and mc.activation_function.__name__ == "relu"
    shapes = expected_shapes(cfg)
    assert {k: v.shape for k, v in sd.items()} == shapes, "exported shapes differ from the config's"
    return sd, cfg


def tracr_runs(model: Any, inputs: list[tuple[Any, ...]]) -> list[dict[str, Any]]:
    """Return the assembled tracr model's run on each input (batched by length): decoded outputs, residuals, scores."""
    import jax
    import jax.numpy as jnp

    forward = jax.jit(model.forward)
    enc = model.input_encoder
    categorical = hasattr(model.output_encoder, "encoding_map")
    runs: list[dict[str, Any]] = []
    by_len: dict[int, list[tuple[Any, ...]]] = {}
    for x in inputs:
        by_len.setdefault(len(x), []).append(x)
    for n in sorted(by_len):
        group = by_len[n]
        toks = jnp.array([enc.encode([BOS, *x]) for x in group])
        out = forward(model.params, toks)
        unemb = np.asarray(out.unembedded_output)
        res = [np.asarray(r) for r in out.transformer_output.residuals]
        scores = [np.asarray(s) for s in out.transformer_output.attn_logits]
        for i, x in enumerate(group):
            row = unemb[i].tolist()
            decoded = model.output_encoder.decode(row) if categorical else [float(v) for v in row]
            runs.append(
                {
                    "input": x,
                    "decoded": decoded[1:],
                    "residuals": [r[i] for r in res],
                    "scores": [s[i] for s in scores],
                }
            )
    order = {x: k for k, x in enumerate(inputs)}
    return sorted(runs, key=lambda r: order[r["input"]])


def rasp_output(program: Any, x: tuple[Any, ...]) -> list[Any]:
    """Return rasp.evaluate's output on x (None where undefined; all None where evaluation raises).

    A numerical program's values are floats: rasp.evaluate returns a one-element mean as the element itself, so
    frac_prevs gives True where it means 1.0.
    """
    from tracr.rasp import rasp

    try:
        out = rasp.evaluate(program, list(x))
    except (ValueError, TypeError, ZeroDivisionError):
        return [None] * len(x)
    if rasp.is_numerical(program):
        return [None if v is None else float(v) for v in out]
    return [plain(v) for v in out]


def plain(v: Any) -> Any:
    """Return v as a JSON value (numpy scalars become Python scalars)."""
    return v.item() if isinstance(v, np.generic) else v


def disagrees(got: Any, want: Any, numerical: bool) -> bool:
    """Return whether tracr's output differs from the program's at one defined position."""
    if numerical:
        return abs(float(got) - float(want)) > NUMERIC_AGREEMENT
    return got != want


def gap_figures(scores: list[list[np.ndarray]], sd: dict[str, np.ndarray], n_layers: int, n_heads: int) -> dict[str, Any]:
    """Return the score-gap figures over every active head, query and input: smallest positive gap, ties, noise ties.

    scores holds one run per input: per layer, the [n_heads, T, T] scores. A head is active when its W_Q and W_K are
    not zero (tracr pads layers and heads with zeros). The gap of a query row is its largest score minus the largest
    score strictly below it; an exact tie is a row whose largest score occurs more than once.
    """
    active = [
        (l, h) for l in range(n_layers) for h in range(n_heads) if np.any(sd[f"blocks.{l}.attn.W_Q"][h]) and np.any(sd[f"blocks.{l}.attn.W_K"][h])
    ]
    smallest, smallest_real = math.inf, math.inf
    exact_ties = noise_ties = queries = 0
    noise_example = None
    for run in scores:
        for l, h in active:
            s = run[l][h].astype(np.float64)  # [T, T], query rows
            for row in s:
                queries += 1
                top = row.max()
                if np.count_nonzero(row == top) > 1:
                    exact_ties += 1
                below = row[row < top]
                if below.size == 0:
                    continue
                gap = float(top - below.max())
                smallest = min(smallest, gap)
                if gap < NOISE_TIE:
                    noise_ties += 1
                    if noise_example is None:
                        noise_example = (float(top), float(below.max()))
                else:
                    smallest_real = min(smallest_real, gap)
    return {
        "active_heads": len(active),
        "queries": queries,
        "smallest_positive_gap": smallest,
        "smallest_gap_above_noise": smallest_real,
        "exact_ties": exact_ties,
        "noise_ties": noise_ties,
        "noise_example": noise_example,
    }


def export_one(name: str, builder: Callable[[int], Any], vocab: list[Any], source: str, n: int, out: Path) -> dict[str, Any]:
    """Compile one program at max_seq_len n, check the numpy forward against tracr, write the three files, return figures."""
    from safetensors.numpy import save_file
    from tracr.compiler import compiling
    from tracr.rasp import rasp

    program = builder(n)
    model = compiling.compile_rasp_to_model(program, vocab=set(vocab), max_seq_len=n, compiler_bos=BOS, mlp_exactness=MLP_EXACTNESS)
    sd, cfg = state_dict(model, program.label)
    numerical = cfg["hardsoft"]["output_kind"] == "numerical"
    cfg["hardsoft"]["source"] = (
        f"tracr {TRACR_COMMIT}, {source.replace('max_seq_len=N', f'max_seq_len={n}')}, vocab={sorted(vocab)!r}, max_seq_len={n}, "
        f"compiler_bos={BOS!r}, softmax_coldness={SOFTMAX_COLDNESS:g}, mlp_exactness={MLP_EXACTNESS}"
    )
    assert rasp.is_numerical(program) == numerical

    inputs = [x for k in range(1, n + 1) for x in itertools.product(sorted(vocab), repeat=k)]
    runs = tracr_runs(model, inputs)
    # tracr's own apply() on a sample (it is slow unbatched) must agree with the batched run.
    for r in runs[:: max(1, len(runs) // 25)]:
        applied = model.apply([BOS, *r["input"]]).decoded[1:]
        assert np.allclose(applied, r["decoded"], atol=1e-6) if numerical else applied == r["decoded"], (name, r["input"])

    cases, max_res, max_logit, differ, undefined = [], 0.0, 0.0, 0, 0
    numpy_scores, max_score = [], 0.0
    w_u = sd["unembed.W_U"].astype(np.float64)
    max_num_err = 0.0
    for r in runs:
        f = run_forward(sd, cfg, encode(list(r["input"]), cfg))
        numpy_scores.append(f.scores)
        # The scores pin attn_scale: outputs alone would not (tracr's attention is near-hard at either scale).
        max_score = max(max_score, max(float(np.abs(a - b).max()) for a, b in zip(f.scores, r["scores"])))
        max_res = max(max_res, max(float(np.abs(a - b).max()) for a, b in zip(f.residuals, r["residuals"])))
        tracr_logits = r["residuals"][-1].astype(np.float64) @ w_u
        max_logit = max(max_logit, float(np.abs(f.logits - tracr_logits).max()))
        ours = decode(f.logits, cfg)
        if numerical:
            assert np.allclose(ours, r["decoded"], atol=1e-4), (name, r["input"], ours, r["decoded"])
        else:
            assert ours == r["decoded"], (name, r["input"], ours, r["decoded"])
        want = rasp_output(program, r["input"])
        got = [plain(v) for v in r["decoded"]]
        if any(w is None for w in want):
            undefined += 1
        if any(w is not None and disagrees(g, w, numerical) for g, w in zip(got, want)):
            differ += 1
        if numerical:
            max_num_err = max([max_num_err, *(abs(g - w) for g, w in zip(got, want) if w is not None)])
        cases.append({"input": list(r["input"]), "output": want, "tracr_output": got})

    assert max_score < 1e-3, (name, max_score)
    out.mkdir(parents=True, exist_ok=True)
    save_file(sd, str(out / f"{name}.safetensors"))
    (out / f"{name}.config.json").write_text(json.dumps(cfg, indent=1) + "\n")
    reference = {"alphabet": sorted(vocab), "bos": BOS, "max_len": n, "cases": cases}
    (out / f"{name}.reference.json").write_text(json.dumps(reference, separators=(",", ":")) + "\n")

    gaps = gap_figures([r["scores"] for r in runs], sd, cfg["n_layers"], cfg["n_heads"])
    gaps64 = gap_figures(numpy_scores, sd, cfg["n_layers"], cfg["n_heads"])
    return {
        "name": name,
        "d_model": cfg["d_model"],
        "layers": cfg["n_layers"],
        "heads": cfg["n_heads"],
        "d_head": cfg["d_head"],
        "d_mlp": cfg["d_mlp"],
        "kind": cfg["hardsoft"]["output_kind"],
        "coldness": SOFTMAX_COLDNESS,
        "effective_coldness": SOFTMAX_COLDNESS / math.sqrt(cfg["d_head"]),
        "cases": len(cases),
        "differ": differ,
        "undefined": undefined,
        "max_numeric_error": max_num_err,
        "max_residual_diff": max_res,
        "max_logit_diff": max_logit,
        "max_score_diff": max_score,
        **gaps,
        "float64": gaps64,
    }


def export_large(name: str, builder: Callable[[int], Any], vocab: list[Any], source: str, n: int, out: Path) -> dict[str, Any]:
    """Compile one program at max_seq_len n, check the numpy forward against tracr on LARGE_SAMPLE random inputs, write it; return sizes."""
    import random

    from safetensors.numpy import save_file
    from tracr.compiler import compiling

    program = builder(n)
    model = compiling.compile_rasp_to_model(program, vocab=set(vocab), max_seq_len=n, compiler_bos=BOS, mlp_exactness=MLP_EXACTNESS)
    sd, cfg = state_dict(model, program.label)
    numerical = cfg["hardsoft"]["output_kind"] == "numerical"
    cfg["hardsoft"]["source"] = f"tracr {TRACR_COMMIT}, {source.replace('max_seq_len=N', f'max_seq_len={n}')}, vocab={sorted(vocab)!r}"
    rng = random.Random(n)
    inputs = sorted({tuple(rng.choice(sorted(vocab)) for _ in range(rng.randint(1, n))) for _ in range(LARGE_SAMPLE)}, key=lambda x: (len(x), x))
    cases, differ = [], 0
    for r in tracr_runs(model, inputs):
        ours = decode(run_forward(sd, cfg, encode(list(r["input"]), cfg)).logits, cfg)
        differ += not (np.allclose(ours, r["decoded"], atol=1e-4) if numerical else ours == r["decoded"])  # float64 here, float32 in tracr
        cases.append({"input": list(r["input"]), "output": rasp_output(program, r["input"]), "tracr_output": [plain(v) for v in r["decoded"]]})
    out.mkdir(parents=True, exist_ok=True)
    save_file(sd, str(out / f"{name}.safetensors"))
    (out / f"{name}.config.json").write_text(json.dumps(cfg, indent=1) + "\n")
    (out / f"{name}.reference.json").write_text(json.dumps({"alphabet": sorted(vocab), "bos": BOS, "max_len": n, "cases": cases}) + "\n")
    sizes = {
        "name": name,
        "d_model": cfg["d_model"],
        "layers": cfg["n_layers"],
        "heads": cfg["n_heads"],
        "d_head": cfg["d_head"],
        "d_mlp": cfg["d_mlp"],
    }
    return sizes | {"sampled": len(inputs), "float64_forward_differs_from_tracr": differ}


def main(argv: list[str]) -> int:
    if argv[:1] == ["--large"]:
        for prog, n, vocab in LARGE:
            if argv[2:] and f"{prog}_{n}" not in argv[2:]:
                continue
            builder, _, source = programs()[prog]
            print(json.dumps(export_large(f"{prog}_{n}", builder, vocab, source, n, Path(argv[1]))), flush=True)
        return 0
    out = Path(argv[0]) if argv else ROOT / "tests" / "fixtures" / "tracr"
    figures = []
    for prog, (builder, vocab, source) in programs().items():
        if prog in LARGE_ONLY:
            continue
        for n in LENGTHS:
            fig = export_one(f"{prog}_{n}", builder, vocab, source, n, out)
            print(json.dumps(fig), flush=True)
            figures.append(fig)
    for prog, n, vocab in LONG:
        builder, _, source = programs()[prog]
        fig = export_one(f"{prog}_{n}", builder, vocab, source, n, out)
        print(json.dumps(fig), flush=True)
        figures.append(fig)
    print()
    print("Scores as tracr computes them (float32):")
    print(
        "| model | output | d_model | layers | heads | d_head | d_mlp | coldness | effective | inputs | smallest gap "
        "| smallest gap >= 1e-4 | noise ties (< 1e-4) | exact ties | tracr != program | max residual / logit / score diff |"
    )
    print("|" + " --- |" * 16)
    for f in figures:
        print(
            f"| {f['name']} | {f['kind']} | {f['d_model']} | {f['layers']} | {f['heads']} | {f['d_head']} | {f['d_mlp']} "
            f"| {f['coldness']:g} | {f['effective_coldness']:.4g} | {f['cases']} | {f['smallest_positive_gap']:.4g} "
            f"| {f['smallest_gap_above_noise']:.4g} | {f['noise_ties']} of {f['queries']} | {f['exact_ties']} "
            f"| {f['differ']} | {f['max_residual_diff']:.2g} / {f['max_logit_diff']:.2g} / {f['max_score_diff']:.2g} |"
        )
    print()
    print("Scores of the numpy forward pass in float64 on the exported float32 weights:")
    print("| model | smallest gap | smallest gap >= 1e-4 | noise ties (< 1e-4) | exact ties | example noise tie |")
    print("|" + " --- |" * 6)
    for f in figures:
        g = f["float64"]
        print(
            f"| {f['name']} | {g['smallest_positive_gap']:.6g} | {g['smallest_gap_above_noise']:.6g} "
            f"| {g['noise_ties']} of {g['queries']} | {g['exact_ties']} | {g['noise_example']} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
