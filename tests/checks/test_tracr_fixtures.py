"""The tracr fixtures (tests/fixtures/tracr/, made by scripts/tracr_export.py with the real tracr) are whole and self-consistent.

Runs without tracr, jax or torch: the weights are read with safetensors.numpy, and a numpy HookedTransformer forward
pass (tests/tl_forward.py) must reproduce, from the weights alone, what the assembled tracr model output on every
input ("tracr_output"). Each check has a wrong variant (a planted defect) that it must catch.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np
import pytest

from tests.tl_forward import Forward, decode, encode, expected_shapes, fixture_names, load_fixture, run_forward

NAMES = fixture_names()
#: A numerical read-out reproduces tracr's when within this distance (float32 weights run in float64; measured
#: differences are below 1e-7 on values in [0, 1]).
NUMERIC_TOL = 1024 * float(np.finfo(np.float32).eps)


def shape_problems(state: dict[str, np.ndarray], cfg: dict[str, Any]) -> list[str]:
    """Return what is wrong with a state dict against its config: missing, unexpected or misshapen tensors, bad values."""
    want = expected_shapes(cfg)
    problems = [f"missing tensor {k}" for k in sorted(set(want) - set(state))]
    problems += [f"unexpected tensor {k}" for k in sorted(set(state) - set(want))]
    for k in sorted(set(want) & set(state)):
        v = state[k]
        if v.shape != want[k]:
            problems.append(f"{k} has shape {v.shape}, the config gives {want[k]}")
        elif v.dtype != np.float32:
            problems.append(f"{k} is {v.dtype}, not float32")
        elif not np.isfinite(v).all():
            problems.append(f"{k} has NaN or infinite entries")
    return problems


def reproduction_problems(state: dict[str, np.ndarray], cfg: dict[str, Any], reference: dict[str, Any], forward=run_forward) -> list[str]:
    """Return the cases whose tracr_output the forward pass does not reproduce from the weights."""
    numerical = cfg["hardsoft"]["output_kind"] == "numerical"
    bad = []
    for case in reference["cases"]:
        got = decode(forward(state, cfg, encode(case["input"], cfg)).logits, cfg)
        want = case["tracr_output"]
        same = len(got) == len(want) and (all(abs(g - w) <= NUMERIC_TOL * (1 + abs(w)) for g, w in zip(got, want)) if numerical else got == want)
        if not same:
            bad.append(f"{case['input']}: forward gives {got}, tracr gave {want}")
    return bad


@pytest.fixture(scope="module", params=NAMES)
def fixture(request):
    return (request.param, *load_fixture(request.param))


def test_the_fixtures_are_there():
    assert len(NAMES) >= 8, NAMES
    programs = {n.rsplit("_", 1)[0] for n in NAMES}
    assert len(programs) >= 4, programs
    for p in programs:
        assert len([n for n in NAMES if n.rsplit("_", 1)[0] == p]) >= 2, f"{p} is not exported at two lengths"


def test_names_and_shapes_follow_the_config(fixture):
    name, state, cfg, _ = fixture
    assert shape_problems(state, cfg) == [], name
    assert not state["pos_embed.W_pos"][0].any(), "tracr gives the BOS position no position embedding"


def config_problems(cfg: dict[str, Any], reference: dict[str, Any]) -> list[str]:
    """Return what makes a config other than a plain tracr model matching its reference table."""
    hs = cfg["hardsoft"]
    checks = [
        (cfg["act_fn"] == "relu", "act_fn is not relu"),
        (cfg["normalization_type"] is None, "a layer norm"),
        (cfg["positional_embedding_type"] == "standard", "positional_embedding_type is not standard"),
        (cfg["attention_dir"] == "bidirectional", "attention is not bidirectional (tracr compiles with causal=False)"),
        (not cfg["attn_only"], "attn_only, but tracr's blocks have MLPs"),
        # tracr's attention divides q.k by sqrt(key_size), and key_size is d_head.
        (math.isclose(cfg["attn_scale"], math.sqrt(cfg["d_head"]), rel_tol=1e-12), "attn_scale is not sqrt(d_head)"),
        (len(hs["input_vocab"]) == cfg["d_vocab"], "input_vocab does not label every W_E row"),
        (hs["bos"] in hs["input_vocab"], "the BOS is not in input_vocab"),
        (cfg["n_ctx"] == reference["max_len"] + 1, "n_ctx is not one position for the BOS plus max_len"),
        (hs["source"].startswith("tracr ") and f"max_seq_len={reference['max_len']}" in hs["source"], "source does not name tracr and max_len"),
    ]
    if hs["output_kind"] == "numerical":
        checks.append((hs["output_labels"] is None and cfg["d_vocab_out"] == 1, "a numerical read-out is not one unlabelled column"))
    else:
        checks.append((hs["output_kind"] == "categorical", "output_kind is neither categorical nor numerical"))
        checks.append((len(hs["output_labels"] or []) == cfg["d_vocab_out"], "output_labels do not label every W_U column"))
    return [what for ok, what in checks if not ok]


def enumeration_problems(cfg: dict[str, Any], reference: dict[str, Any]) -> list[str]:
    """Return what keeps a reference table from listing every input up to max_len, in order, with full-length outputs."""
    alphabet, n = reference["alphabet"], reference["max_len"]
    problems = []
    if reference["bos"] != cfg["hardsoft"]["bos"] or reference["bos"] in alphabet:
        problems.append("the BOS differs from the config's or is in the alphabet")
    if not set(alphabet) <= set(cfg["hardsoft"]["input_vocab"]):
        problems.append("the alphabet is not in input_vocab")
    want = [list(x) for k in range(1, n + 1) for x in itertools.product(alphabet, repeat=k)]
    if [c["input"] for c in reference["cases"]] != want:
        problems.append("the cases are not every input of length 1..max_len in order")
    problems += [
        f"{c['input']}: outputs of another length" for c in reference["cases"] if not len(c["output"]) == len(c["input"]) == len(c["tracr_output"])
    ]
    return problems


def test_config_is_a_plain_tracr_model(fixture):
    name, _, cfg, reference = fixture
    assert config_problems(cfg, reference) == [], name


def test_reference_lists_every_input_up_to_the_length(fixture):
    name, _, cfg, reference = fixture
    assert enumeration_problems(cfg, reference) == [], name


def test_config_and_enumeration_checks_catch_planted_defects():
    _, cfg, reference = load_fixture(NAMES[0])
    assert config_problems(dict(cfg, attn_scale=cfg["d_head"]), reference) == ["attn_scale is not sqrt(d_head)"]
    assert config_problems(dict(cfg, attention_dir="causal"), reference) != []
    assert config_problems(dict(cfg, n_ctx=cfg["n_ctx"] - 1), reference) != []
    assert enumeration_problems(cfg, dict(reference, cases=reference["cases"][1:])) != []
    short = [dict(c, tracr_output=c["tracr_output"][:-1]) if i == 3 else c for i, c in enumerate(reference["cases"])]
    assert len(enumeration_problems(cfg, dict(reference, cases=short))) == 1


def test_the_weights_reproduce_tracrs_outputs(fixture):
    name, state, cfg, reference = fixture
    assert reproduction_problems(state, cfg, reference) == [], name


# --- planted defects: each check above must catch its wrong variant -------------------------------------------


def test_shape_check_catches_a_misshapen_a_missing_and_a_nan_tensor():
    state, cfg, _ = load_fixture(NAMES[0])
    misshapen = dict(state, **{"blocks.0.attn.W_Q": state["blocks.0.attn.W_Q"][..., :-1]})
    assert any("blocks.0.attn.W_Q has shape" in p for p in shape_problems(misshapen, cfg))
    missing = {k: v for k, v in state.items() if k != "unembed.b_U"}
    assert shape_problems(missing, cfg) == ["missing tensor unembed.b_U"]
    nan = dict(state, **{"embed.W_E": np.where(state["embed.W_E"] == 0, np.float32(np.nan), state["embed.W_E"])})
    assert shape_problems(nan, cfg) == ["embed.W_E has NaN or infinite entries"]


def test_reproduction_check_catches_a_changed_tracr_output():
    name = next(n for n in NAMES if n.startswith("reverse"))
    state, cfg, reference = load_fixture(name)
    case = reference["cases"][-1]
    labels = cfg["hardsoft"]["output_labels"]
    wrong = [labels[(labels.index(case["tracr_output"][0]) + 1) % len(labels)], *case["tracr_output"][1:]]
    planted = dict(reference, cases=[dict(case, tracr_output=wrong)])
    assert len(reproduction_problems(state, cfg, planted)) == 1


@pytest.mark.parametrize(
    "defect",
    [
        pytest.param(lambda cfg: dict(cfg, attention_dir="causal"), id="causal-mask"),
        pytest.param(lambda cfg: dict(cfg, attn_only=True), id="no-mlp"),
        pytest.param(lambda cfg: dict(cfg, attn_scale=100 * cfg["attn_scale"]), id="hot-softmax"),
    ],
)
def test_reproduction_check_catches_a_wrong_forward_pass(defect):
    # reverse needs bidirectional attention, its MLPs and near-hard attention; the check must notice each one missing.
    name = next(n for n in NAMES if n.startswith("reverse"))
    state, cfg, reference = load_fixture(name)
    assert reproduction_problems(state, defect(cfg), reference) != []


def test_reproduction_check_catches_swapped_query_and_key_weights():
    name = next(n for n in NAMES if n.startswith("reverse"))
    state, cfg, reference = load_fixture(name)

    def swapped(st: dict[str, np.ndarray], c: dict[str, Any], tokens: list[int]) -> Forward:
        st = dict(st)
        for l in range(c["n_layers"]):
            q, k = f"blocks.{l}.attn.W_Q", f"blocks.{l}.attn.W_K"
            st[q], st[k] = st[k], st[q]
        return run_forward(st, c, tokens)

    assert reproduction_problems(state, cfg, reference, forward=swapped) != []


# --- the reference outputs against the programs' definitions, written here from their docstrings in tracr's lib ---


def _balanced(x: list[str]) -> bool:
    depth = 0
    for t in x:
        depth += 1 if t == "(" else -1
        if depth < 0:
            return False
    return depth == 0


#: Per program, its output on an input, from the definition (not from tracr).
DEFINITIONS = {
    "length": lambda x: [len(x)] * len(x),
    "reverse": lambda x: x[::-1],
    "hist": lambda x: [x.count(t) for t in x],
    "sort": lambda x: sorted(x),
    "frac_prevs": lambda x: [sum(t == "x" for t in x[: i + 1]) / (i + 1) for i in range(len(x))],
    "dyck": lambda x: [_balanced(x)] * len(x),
}


def definition_problems(program: str, reference: dict[str, Any]) -> list[str]:
    """Return the cases whose reference output (rasp.evaluate's) differs from the program's definition."""
    define = DEFINITIONS[program]
    bad = []
    for c in reference["cases"]:
        want = define(c["input"])
        same = all(abs(g - w) <= 1e-12 for g, w in zip(c["output"], want)) if program == "frac_prevs" else c["output"] == want
        if not same or len(c["output"]) != len(want):
            bad.append(f"{c['input']}: reference {c['output']}, definition {want}")
    return bad


def test_reference_outputs_follow_the_definitions(fixture):
    name, _, _, reference = fixture
    assert definition_problems(name.rsplit("_", 1)[0], reference) == []


def test_definition_check_catches_a_wrong_definition():
    name = next(n for n in NAMES if n.startswith("reverse"))
    _, _, reference = load_fixture(name)
    DEFINITIONS["reverse_planted"] = lambda x: list(x)
    try:
        assert definition_problems("reverse_planted", reference) != []
    finally:
        del DEFINITIONS["reverse_planted"]


def test_a_fixture_records_tracr_disagreeing_with_the_program():
    # At max_seq_len 10 tracr's selector-width MLP (mlp_exactness 100) no longer separates widths 9 and 10.
    wrong = {}
    for name in ("length_4", "length_6", "length_10"):
        _, _, reference = load_fixture(name)
        wrong[name] = sum(c["tracr_output"] != c["output"] for c in reference["cases"])
    assert wrong["length_10"] > 0 and wrong["length_4"] == wrong["length_6"] == 0, wrong
