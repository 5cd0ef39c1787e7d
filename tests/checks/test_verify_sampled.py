"""Sampled long inputs: ``verify --sample K --length N[,N2,...]`` (checks.engine.verify.verify_sampled), the numpy-wide
references it uses for long words, the model-file-against-a-program target, and the up-front memory refusal."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest

from hardsoft.checks.engine import verify as vf
from hardsoft.checks.engine.programs import compile_text, target_from_model, target_from_program, target_from_srasp
from hardsoft.constructive import logic
from hardsoft.constructive import srasp as sr
from hardsoft.constructive.lang import get_language
from hardsoft.constructive.lang.library import library
from hardsoft.spec import transformer as tf
from tests.cli_run import run_hardsoft

hardsoft = run_hardsoft


def test_adversarial_families() -> None:
    w = vf.adversarial_words(2, 5).tolist()
    for row in ([0] * 5, [1] * 5, [0, 1, 0, 1, 0], [1, 0, 1, 0, 1], [1, 0, 0, 0, 0], [0, 0, 0, 0, 1], [0, 1, 1, 1, 1], [1, 1, 1, 1, 0]):
        assert row in w
    assert len(w) == len({tuple(r) for r in w}) == 8
    assert vf.adversarial_words(2, 1).tolist() == [[0], [1]]  # duplicates removed
    assert vf.adversarial_words(3, 4).shape == (3 + 3 + 12, 4)


def test_sampled_words_are_seeded_per_length() -> None:
    a, b = vf.sampled_words(2, 50, 4, seed=1), vf.sampled_words(2, 50, 4, seed=1)
    assert np.array_equal(a, b) and a.shape == (8 + 4, 50)
    assert not np.array_equal(a[8:], vf.sampled_words(2, 50, 4, seed=2)[8:])
    tasks = vf.plan_samples(2, (10, 300), 5, 0, chunk_positions=600)
    assert sum(t.stop - t.start for t in tasks) == 2 * 13 and all((t.stop - t.start) * t.n <= 600 for t in tasks)


def test_a_formula_sampled_at_long_lengths_agrees_and_says_what_it_means() -> None:
    target = vf.target_from_compiled(logic.compile_formula(logic.parse("(a S b) & Y a"), ("a", "b"), "bounded"), evaluator="vectorized")
    r = vf.verify_sampled(target, [64, 700], 3, workers=1)
    assert r.ok and r.strings == 2 * (8 + 3) and set(r.per_mode) == {"hard", "soft"}
    assert "evidence, not proof" in r.summary() and "700" in r.summary()
    doc = r.to_json()
    assert doc["sampled"]["lengths"] == [64, 700] and doc["sampled"]["meaning"] == vf.SAMPLED_MEANING


def test_a_planted_defect_at_a_long_length_is_caught() -> None:
    """The reference wrong only on words longer than 500 whose last symbol is b: found at length 600 (the family ending in b)."""
    target = vf.target_from_compiled(logic.compile_formula(logic.parse("a S b"), ("a", "b"), "bounded"), evaluator="vectorized")
    real = target.reference

    def wrong(w: np.ndarray) -> np.ndarray:
        t = np.array(real(w), dtype=bool)
        if w.shape[1] > 500:
            t[w[:, -1] == 1, -1, :] ^= True
        return t

    planted = dataclasses.replace(target, reference=wrong)
    assert vf.verify_sampled(planted, [100], 0, workers=1).ok
    r = vf.verify_sampled(planted, [600], 0, workers=1)
    assert not r.ok and r.per_mode["hard"].wrong_strings >= 1
    assert "(600 symbols)" in r.per_mode["hard"].counterexamples[0]["word"]


def test_sampled_run_on_the_process_pool_equals_serial() -> None:
    target = vf.target_from_compiled(logic.compile_formula(logic.parse("a U (b & X a)"), ("a", "b"), "bounded"), evaluator="vectorized")
    serial = vf.verify_sampled(target, [40, 90], 4, workers=1, chunk_positions=200)
    pooled = vf.verify_sampled(target, [40, 90], 4, workers=2, chunk_positions=200)
    assert serial.ok and pooled.ok and serial.strings == pooled.strings and pooled.tasks > 2
    assert serial.per_length == pooled.per_length


@pytest.mark.parametrize("bad, message", [((), "at least one length"), ((0,), "integer >= 1"), ((True,), "integer >= 1")])
def test_bad_lengths_are_refused(bad: tuple, message: str) -> None:
    target = vf.example_targets()["has-a"]
    with pytest.raises(ValueError, match=message):
        vf.verify_sampled(target, bad, 1)


def test_time_and_memory_are_refused_up_front(monkeypatch: pytest.MonkeyPatch) -> None:
    target = vf.example_targets()["has-a"]
    with pytest.raises(ValueError, match="estimated .* more than the limit"):
        vf.verify_sampled(target, [3000], 2000, max_seconds=0.01, workers=1)
    monkeypatch.setenv(tf.MEMORY_LIMIT_VARIABLE, str(10**6))
    with pytest.raises(ValueError, match=r"needs about .* of memory, more than the 977 KiB"):
        vf.verify_sampled(target, [5000], 1, workers=1)
    with pytest.raises(ValueError, match="HARDSOFT_MEMORY_LIMIT"):
        tf.run(target.model, np.zeros((1, 5000), dtype=int), "hard")


def test_the_run_memory_estimate_is_refused_in_the_api_naming_the_machine() -> None:
    target = vf.example_targets()["has-a"]
    limit = tf.memory_limit_bytes()
    assert limit is not None
    n = 4 * limit // (8 * target.model.d * (target.model.depth + 1))  # the trace alone is 4 times the machine's memory
    with pytest.raises(ValueError) as e:
        tf.require_run_memory(target.model, 1, n)
    assert "needs about" in str(e.value) and "this machine has" in str(e.value) and "\n" not in str(e.value)
    assert tf.estimate_run_bytes(target.model, 2, 100) > tf.estimate_run_bytes(target.model, 1, 100)


@pytest.mark.parametrize("lang", ["brasp", "crasp"])
def test_the_numpy_wide_interpreters_equal_the_word_by_word_ones(lang: str) -> None:
    language = get_language(lang)
    rng = np.random.default_rng(3)
    for name, entry in library().items():
        if entry.language != lang:
            continue
        prog = language.parse(entry.text)
        alphabet = tuple(entry.alphabet)
        for n in (1, 2, 7, 30):
            w = rng.integers(0, len(alphabet), size=(6, n))
            want, got = language.interpret(prog, w, alphabet), language.interpret_columns(prog, w, alphabet)
            for v in want:
                assert np.array_equal(np.asarray(want[v]), np.asarray(got[v])), (name, n, v)


@pytest.mark.parametrize("lang", ["tl", "brasp", "crasp"])
def test_a_programs_long_reference_equals_its_reference(lang: str) -> None:
    text = {
        "tl": "(a S b) | X (b U a)",
        "brasp": "p = rightmost past [Q_a@j] Q_b default Q_a\nq = leftmost future [p@j & Q_b@i] p default !p\noutput q\n",
        "crasp": "c = #[Q_a]\nd = #[Q_b]\nb = 2*c > d + 1\noutput b\n",
    }[lang]
    compiled = compile_text(lang, text, ("a", "b"), "bounded")
    w = np.random.default_rng(0).integers(0, 2, size=(20, 13))
    short, long = target_from_program(compiled), target_from_program(compiled, columns=True)
    assert np.array_equal(np.asarray(short.reference(w), dtype=bool), np.asarray(long.reference(w), dtype=bool))
    assert vf.verify_sampled(long, [500], 2, workers=1).ok


def test_an_srasp_program_sampled() -> None:
    comp = sr.compile_program(sr.load_library("dyck1"))
    r = vf.verify_sampled(target_from_srasp(comp), [9, 200], 3, workers=1)
    assert r.ok, r.summary()
    assert vf.verify(target_from_srasp(comp), 6, workers=1).ok  # the same target, every word: agrees with verify_compiled


def test_a_model_file_against_a_reference_program(tmp_path: Path) -> None:
    text = "p = rightmost past [Q_a@j] Q_b default Q_a\noutput p\n"
    compiled = compile_text("brasp", text, ("a", "b"), "bounded")
    target = target_from_model(compiled.model, "brasp", text, "bounded")
    assert vf.verify_sampled(target, [300], 3, workers=1).ok
    other = target_from_model(compiled.model, "brasp", "p = rightmost past [Q_b@j] Q_b default Q_a\noutput p\n", "bounded")
    assert not vf.verify_sampled(other, [50], 3, workers=1).ok


def test_cli_sample(tmp_path: Path) -> None:
    p = hardsoft("verify", "a S b", "--sample", "2", "--length", "100,400", "--workers", "1", "--json")
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    assert doc["ok"] and doc["sampled"]["lengths"] == [100, 400] and "evidence, not proof" in doc["sampled"]["meaning"]
    f = tmp_path / "p.txt"
    f.write_text("c = #[Q_a]\nb = c > 2\noutput b\n")
    m = tmp_path / "m.json"
    assert hardsoft("compile", "--lang", "crasp", "--file", str(f), "--save-model", str(m)).returncode == 0
    p = hardsoft("verify", "--model", str(m), "--lang", "crasp", "--file", str(f), "--sample", "2", "--length", "300", "--workers", "1")
    assert p.returncode == 0, p.stderr
    assert "sampled strings of length 300" in p.stdout and "evidence, not proof" in p.stdout
    g = tmp_path / "dyck1.srasp"
    g.write_text(sr.library_text("dyck1"))
    p = hardsoft("verify", "--lang", "srasp", "--file", str(g), "--sample", "1", "--length", "64", "--workers", "1")
    assert p.returncode == 0, p.stderr
    assert "sampled strings of length 64" in p.stdout


@pytest.mark.parametrize(
    "args, message",
    [
        (["a S b", "--sample", "2"], "--sample K and --length N[,N2,...] go together"),
        (["a S b", "--length", "5"], "go together"),
        (["a S b", "--sample", "2", "--length", "5", "--up-to", "3"], "choose one"),
        (["a S b", "--sample", "2", "--length", "5,x"], "is not an integer"),
        (["a S b", "--sample", "-1", "--length", "5"], "--sample must be >= 0"),
        (["a S b", "--sample", "1", "--length", "0"], "lengths must be >= 1"),
        (["--model", "m.json"], "--model needs --reference"),
    ],
)
def test_cli_sample_bad_input(args: list[str], message: str) -> None:
    p = hardsoft("verify", *args)
    assert p.returncode == 2 and p.stdout == "" and message in p.stderr and p.stderr.count("\n") == 1, p.stderr


def test_cli_refuses_a_length_past_the_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(tf.MEMORY_LIMIT_VARIABLE, str(10**6))
    p = hardsoft("verify", "a S b", "--sample", "1", "--length", "5000", "--workers", "1")
    assert p.returncode == 2 and "of memory, more than the" in p.stderr and p.stderr.count("\n") == 1, p.stderr


def test_constructions_refuses_a_size_past_the_memory_up_front() -> None:
    """The issue's case: flip-flop to n = 10^7 was run length by length to 8192 and ended in MemoryError (exit 4)."""
    p = hardsoft("constructions", "--only", "flip-flop", "--max-n", "10000000")
    assert p.returncode == 2 and p.stdout == "" and p.stderr.count("\n") == 1, p.stderr
    assert "flip-flop at --max-n 10000000" in p.stderr and "GiB of memory, more than the" in p.stderr and "this machine has" in p.stderr


@pytest.mark.parametrize(
    "args, message",
    [
        (["constructions", "--only", "flip-flop", "--alphabet", "ab"], "--alphabet is not used by the built-in constructions"),
        (["constructions", "--regime", "unbounded"], "--regime is not used"),
        (["verify", "--example", "has-a", "--up-to", "3", "--alphabet", "ab"], "--alphabet is not used with --example"),
        (["verify", "--example", "has-a", "--up-to", "3", "--regime", "bounded"], "--regime is not used with --example"),
        (["verify", "a S b", "--up-to", "3", "--seed", "1"], "--seed is not used without --sample"),
        (["verify", "--model", "m.json", "--reference", "r.json", "--alphabet", "ab"], "--alphabet is not used with --model"),
        (
            ["temperature", "--model", "spec/models/has-a.json", "--n", "4", "--eps", "0.1", "--regime", "bounded"],
            "--regime is not used without a program",
        ),
        (
            ["compile", "--lang", "srasp", "--regime", "bounded", 'program "x"\nalphabet "a"\nA = token("a")\noutput "y" if A, else "n"\n'],
            "S-RASP compiles with its own",
        ),
    ],
)
def test_an_option_a_command_does_not_use_is_refused(args: list[str], message: str) -> None:
    p = hardsoft(*args)
    assert p.returncode == 2 and p.stdout == "" and message in p.stderr and p.stderr.count("\n") == 1, p.stderr
