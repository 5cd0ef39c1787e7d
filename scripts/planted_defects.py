"""Plant each defect of the mutation study (docs/mutation.md) (one line at a time), run the test that pins its meaning, expect it to FAIL.

Usage: python scripts/planted_defects.py   (restores every file; exits 1 if some defect is not caught)
Each entry: (file, original text, defective text, tests that must fail).  Run it after
changing a pinned function: a defect that stops being caught means the test lost its meaning.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

DEFECTS: list[tuple[str, str, str, str, list[str]]] = [
    ("x_max: the last enumeration chunk only", "spec/transformer.py",
     "xmax[l] = max(xmax[l], float(np.abs(x).max()))", "xmax[l] = float(np.abs(x).max())",
     ["tests/spec/test_meaning.py::test_x_max_over_several_enumeration_chunks"]),
    ("x_max: signed maximum instead of |x|", "spec/transformer.py",
     "xmax[l] = max(xmax[l], float(np.abs(x).max()))", "xmax[l] = max(xmax[l], float(x.max()))",
     ["tests/spec/test_meaning.py::test_x_max_is_the_largest_activation_of_every_layer"]),
    ("x_max: the last layer instead of every layer", "spec/transformer.py",
     "gap, max(xmax), tuple(xmax))", "gap, xmax[-1], tuple(xmax))",
     ["tests/spec/test_meaning.py::test_x_max_is_the_largest_activation_of_every_layer"]),
    ("range certification: r at the left end of the piece", "spec/bounds.py",
     "r_hi = _iv(r0) + _iv(r1) * t_hi", "r_hi = _iv(r0) + _iv(r1) * t_lo",
     ["tests/spec/test_meaning.py::test_range_certificate_against_the_true_supremum"]),
    ("range certification: a at the right end of the piece", "spec/bounds.py",
     "a_hi = _iv(a1) * iv.exp(-g * t_lo)", "a_hi = _iv(a1) * iv.exp(-g * t_hi)",
     ["tests/spec/test_meaning.py::test_range_certificate_against_the_true_supremum"]),
    ("certified bound: the interval's upper end rounded to nearest first", "spec/bounds.py",
     "return _upper(_B_L_interval(consts, ti, ti))",
     "return float(mpmath.mpf(_B_L_interval(consts, ti, ti).b))",
     ["tests/spec/test_certified.py::test_certified_bound_never_below_60_digits"]),
    ("K X N in float64 before the interval arithmetic", "spec/bounds.py",
     "a1 = float_up(Fraction(K) * Fraction(X) * int(N))", "a1 = K * X * N",
     ["tests/spec/test_certified.py::test_constants_are_rounded_up_from_the_exact_products"]),
    ("FFN Lipschitz bound: |W1 W2|_col instead of |W1|_col |W2|_col", "spec/transformer.py",
     "lip_F=float_up(W1_col * W2_col)", "lip_F=float_up(_col_exact(_exact(layer.W1) @ _exact(layer.W2)))",
     ["tests/spec/test_meaning.py::test_ffn_lipschitz_bound_survives_a_cancelling_weight_product"]),
    ("runner: UNDECIDED beats FAILED", "checks/runner.py",
     "    if any(r.outcome is Outcome.FAILED for r in results):\n        return EXIT_FAILED\n    if any(r.outcome is Outcome.UNDECIDED for r in results) or not results:\n        return EXIT_UNDECIDED",
     "    if any(r.outcome is Outcome.UNDECIDED for r in results) or not results:\n        return EXIT_UNDECIDED\n    if any(r.outcome is Outcome.FAILED for r in results):\n        return EXIT_FAILED",
     ["tests/checks/test_runner.py"]),
    ("runner: an empty run counts as passed", "checks/runner.py",
     "for r in results) or not results:", "for r in results):", ["tests/checks/test_runner.py"]),
    ("runner: an exception inside a check escapes (exit 2, no report)", "checks/runner.py",
     "    try:\n        out = check()\n    except Exception as e:  # a check that crashes has failed; its message is the evidence\n        return [error_result(family, name, claim, time.perf_counter() - t0, e)]\n",
     "    out = check()\n", ["tests/checks/test_runner.py"]),
    ("bootstrap: B_L <= max(eps, 1)", "spec/bounds.py",
     "return float(B_L) <= min(e, 1.0)", "return float(B_L) <= max(e, 1.0)",
     ["tests/spec/test_meaning.py::test_bootstrap_ok_means_every_guarded_error_sequence_ends_within_eps"]),
    ("bootstrap: B_L < 1 strictly", "spec/bounds.py",
     "return float(B_L) <= min(e, 1.0)", "return float(B_L) < min(e, 1.0)",
     ["tests/spec/test_meaning.py::test_bootstrap_at_the_boundary_of_one"]),
    ("r: tau instead of 1/tau", "spec/bounds.py",
     "return r0 + r1 / t, a1 * compute_x(gamma, t)", "return r0 + r1 * t, a1 * compute_x(gamma, t)",
     ["tests/spec/test_meaning.py::test_r_has_the_one_over_tau_factor"]),
    ("r: the 1/tau factor dropped", "spec/bounds.py",
     "return r0 + r1 / t, a1 * compute_x(gamma, t)", "return r0 + r1, a1 * compute_x(gamma, t)",
     ["tests/spec/test_meaning.py::test_r_has_the_one_over_tau_factor"]),
    # survivors of make mutate's first run, each killed by a test added for it (docs/mutation.md)
    ("survivor: Z top weight (1-x)**(1-x^N)", "spec/bounds.py",
     "return (1.0 - x) / (1.0 - x**N)", "return (1.0 - x) ** (1.0 - x**N)",
     ["tests/spec/test_meaning.py::test_Z_weight_top_is_exact_at_the_staircase"]),
    ("survivor: erratum 1 offset e^(gamma**t)", "spec/bounds.py",
     "mpmath.exp(mpmath.mpf(g) / t)", "mpmath.exp(mpmath.mpf(g) ** t)",
     ["tests/spec/test_meaning.py::test_erratum_offset_plus_value"]),
    ("survivor: guarded steps checked with == instead of <=", "spec/bounds.py",
     "return all(e[l] <= r[l - 1] * e[l - 1] + a[l - 1]", "return all(e[l] == r[l - 1] * e[l - 1] + a[l - 1]",
     ["tests/spec/test_meaning.py::test_guarded_step_sequence_accepts_slack_and_rejects_excess"]),
    ("survivor: sufficient temperature floored at 2", "spec/bounds.py",
     "t_up = max(_upper(t), 1.0, consts.t_min)", "t_up = max(_upper(t), 2.0, consts.t_min)",
     ["tests/spec/test_meaning.py::test_sufficient_temperature_floor_is_one"]),
    ("survivor: is_last feature at i == n", "spec/transformer.py",
     '"is_last": lambda i, n: (i == n - 1)', '"is_last": lambda i, n: (i == n * 1)',
     ["tests/spec/test_meaning.py::test_every_position_feature_pinned_at_n_4"]),
    ("survivor: (i+1)/n feature as (i+1) | n", "spec/transformer.py",
     '"(i+1)/n": lambda i, n: (i + 1) / n', '"(i+1)/n": lambda i, n: (i + 1) | n',
     ["tests/spec/test_meaning.py::test_every_position_feature_pinned_at_n_4"]),
    ("survivor: enumeration refuses a one-symbol alphabet", "spec/transformer.py",
     "if alphabet_size <= 0 or n <= 0:", "if alphabet_size <= 1 or n <= 0:",
     ["tests/spec/test_meaning.py::test_enumerate_inputs_of_a_one_symbol_alphabet"]),
    ("survivor: (i/n)^3 feature", "spec/transformer.py",
     '"(i/n)^2": lambda i, n: (i / n) ** 2', '"(i/n)^2": lambda i, n: (i / n) ** 3',
     ["tests/spec/test_meaning.py::test_every_position_feature_pinned_at_n_4"]),
    ("survivor: position embedding not frozen", "spec/transformer.py",
     '@dataclass(frozen=True)\nclass PositionEmbedding:', '@dataclass(frozen=False)\nclass PositionEmbedding:',
     ["tests/spec/test_meaning.py::test_model_parameters_are_immutable"]),
    ("survivor: 1/(i+1) feature as 1.0 | (i+1)", "spec/transformer.py",
     '"1/(i+1)": lambda i, n: 1.0 / (i + 1)', '"1/(i+1)": lambda i, n: 1.0 | (i + 1)',
     ["tests/spec/test_meaning.py::test_every_position_feature_pinned_at_n_4"]),
    ("survivor: check_size refuses its documented maximum", "smt/core.py",
     'if v > maximum:\n        raise ValueError(f"{name} = {v} exceeds the documented maximum {maximum} for this check")',
     'if v >= maximum:\n        raise ValueError(f"{name} = {v} exceeds the documented maximum {maximum} for this check")',
     ["tests/smt/test_smt_core.py::test_check_size_boundaries"]),
    ("survivor: check_size default minimum 2", "smt/core.py",
     "maximum: int, minimum: int = 1) -> int:", "maximum: int, minimum: int = 2) -> int:",
     ["tests/smt/test_smt_core.py::test_check_size_boundaries"]),
    ("survivor: model value p/1 printed as a fraction test inverted", "smt/core.py",
     "if fr.denominator != 1 else", "if fr.denominator < 1 else", ["tests/smt/test_smt_core.py::test_model_values_exact_strings"]),
    ("survivor: verdict seconds as a clock product", "smt/core.py",
     "dt = time.perf_counter() - t0", "dt = time.perf_counter() * t0", ["tests/smt/test_smt_core.py::test_verdict_seconds_is_the_solver_time"]),
    ("survivor: check_box refuses boxes <= 1", "smt/core.py",
     "if math.isnan(v) or v <= 0 or math.isinf(v):", "if math.isnan(v) or v <= 1 or math.isinf(v):",
     ["tests/smt/test_smt_core.py::test_check_box_accepts_boxes_below_one"]),
    ("survivor: a non-numeric model value crashes", "smt/core.py",
     "        return s, float(Fraction(s))\n    except ValueError:", "        return s, float(Fraction(s))\n    except ZeroDivisionError:",
     ["tests/smt/test_smt_core.py::test_model_values_of_a_non_numeric_constant"]),
    ("survivor: check_box accepts boxes beyond its maximum", "smt/core.py",
     'if v > maximum:\n        raise ValueError(f"{name} = {v} exceeds the documented maximum {maximum}")',
     'if v == maximum:\n        raise ValueError(f"{name} = {v} exceeds the documented maximum {maximum}")',
     ["tests/smt/test_smt_core.py::test_check_box_accepts_boxes_below_one"]),
    ("survivor: algebraic model value d * '?'", "smt/core.py", 'return d + "?", float(Fraction(d))', 'return d * "?", float(Fraction(d))',
     ["tests/smt/test_smt_core.py::test_model_values_exact_strings"]),
    # survivors of the second run (seed 9)
    ("survivor: E l1 bound 2(N-1) - x", "spec/bounds.py", "return 2.0 * (N - 1) * x", "return 2.0 * (N - 1) - x",
     ["tests/spec/test_meaning.py::test_E_l1_bound_is_tight_as_x_goes_to_zero"]),
    ("survivor: Z wrong twin with N & 1 positions", "spec/bounds.py", "    k = max(N - 1, 1)\n    return (x - x**k)",
     "    k = max(N & 1, 1)\n    return (x - x**k)", ["tests/spec/test_meaning.py::test_Z_wrong_twin_is_exactly_N_minus_one"]),
    ("survivor: norms of an empty matrix", "spec/transformer.py", "    if M.size == 0:", "    if M.size < 0:",
     ["tests/spec/test_meaning.py::test_layer_norms_of_a_zero_width_ffn"]),
    ("survivor: check_box lets float()'s ValueError through", "smt/core.py",
     "        v = float(value)\n    except (TypeError, ValueError):\n        raise ValueError(f\"{name} must be a number",
     "        v = float(value)\n    except (TypeError, ZeroDivisionError):\n        raise ValueError(f\"{name} must be a number",
     ["tests/smt/test_smt_core.py::test_check_box_names_a_non_number"]),
]


def main() -> int:
    """Plant, test, restore; print one line per defect."""
    missed = 0
    for what, rel, old, new, tests in DEFECTS:
        path = ROOT / rel
        text = path.read_text()
        if text.count(old) != 1:
            print(f"STALE   {what}: the original text is not found exactly once in {rel}")
            missed += 1
            continue
        try:
            path.write_text(text.replace(old, new))
            p = subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "-o", "addopts=", *tests],
                               cwd=ROOT, capture_output=True, text=True)
        finally:
            path.write_text(text)
        caught = p.returncode == 1
        missed += not caught
        tail = p.stdout.strip().splitlines()[-1] if p.stdout.strip() else p.stderr.strip()[-200:]
        print(f"{'CAUGHT' if caught else 'MISSED'}  {what}  [{' '.join(tests)}: {tail}]", flush=True)
    print(f"{len(DEFECTS) - missed} of {len(DEFECTS)} planted defects caught")
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
