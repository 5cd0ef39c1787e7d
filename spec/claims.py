"""The one registry of claims: each explicit statement of the project, the paper result it corresponds to, and where it is checked.

The README's traceability table and the report are generated from ``REGISTRY``
(``checks.report.traceability_table``); ``validate_registry`` fails the run when a
named spec function, SMT check, Lean theorem or test does not exist.  ``LEAN_STATEMENTS``
holds, for each Lean theorem a claim cites, its exact statement (pinned: the Lean check
makes Lean confirm it, ``checks.families.lean.pins``) and what it proves in words (the table's Lean
column).
"""

from __future__ import annotations

import ast
import importlib
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from hardsoft import locations

#: Names in the registry's spec and twins columns are relative to this package ("spec.bounds.f").
PACKAGE = "hardsoft"


@dataclass(frozen=True)
class Claim:
    """One statement: id, the paper result, the statement in words, and its spec functions, SMT checks, Lean theorems, tests."""

    id: str
    paper: str
    statement: str
    spec: tuple[str, ...]
    smt: tuple[str, ...] = ()
    lean: tuple[str, ...] = ()
    tests: tuple[str, ...] = ()
    twins: tuple[str, ...] = ()
    kind: str = "statement"  # or "erratum"


REGISTRY: tuple[Claim, ...] = (
    Claim(
        "E",
        "Edelman et al. bound as used in Theorem 26",
        "With N positions, m = |M(s)| maximal, gap gamma and x = e^{-gamma/tau}, the softmax mass off M(s) is "
        "<= (N-m)x/(m+(N-m)x) (equality when every other score is max - gamma), and "
        "||softmax_tau(s) - ahardmax(s)||_1 <= 2(N-1)x <= 2N e^{-gamma/tau}.",
        spec=("spec.bounds.bound_E_mass_off", "spec.bounds.bound_E_l1", "spec.bounds.bound_E_edelman", "spec.attention.compute_mass_off_max_set"),
        smt=(
            "smt.E.softmax_vs_hardmax",
            "smt.E.wrong_Nminus1",
        ),
        lean=(
            "HardSoft.softmax_mass_off_max_le",
            "HardSoft.softmax_mass_off_max_le_rat",
            "HardSoft.sumTo_absv_sub_ahardmax_eq",
            "HardSoft.sumTo_absv_sub_ahardmax_le",
            "HardSoft.softmax_offMass_le_of_gap",
            "HardSoft.sumTo_absv_softmax_sub_ahardmax_le",
        ),
        tests=(
            "tests/spec/test_statements.py::test_property_holds",
            "tests/spec/test_statements.py::test_E_edge_cases",
            "tests/spec/test_statements.py::test_vectors",
        ),
        twins=("spec.bounds.wrong_bound_E_mass_off_Nminus",),
    ),
    Claim(
        "Z",
        "Lemma 6 (ziggurat)",
        "If the sorted scores satisfy s_(1) - s_(k) >= (k-1) gamma, the mass off the top position is "
        "<= (x - x^N)/(1 - x^N) <= x = e^{-gamma/tau}, whatever N.",
        spec=("spec.bounds.bound_Z_mass_off_top", "spec.bounds.bound_Z_weight_top", "spec.bounds.is_ziggurat"),
        smt=(
            "smt.Z.ziggurat",
            "smt.Z.wrong_short_series",
        ),
        lean=(
            "HardSoft.ziggurat_mass_off_top_le",
            "HardSoft.ziggurat_mass_off_top_le_rat",
            "HardSoft.sumTo_sub_top_div_sumTo_le_geom",
            "HardSoft.softmax_mass_off_top_le_of_ziggurat",
        ),
        tests=("tests/spec/test_statements.py::test_property_holds", "tests/spec/test_statements.py::test_vectors"),
        twins=("spec.bounds.wrong_bound_Z_mass_off_top_short",),
    ),
    Claim(
        "S",
        "Softmax Lipschitz bound used in Lemma 25",
        "||softmax_tau(a) - softmax_tau(b)||_1 <= ||a - b||_inf / tau.",
        spec=("spec.bounds.bound_S_l1", "spec.attention.softmax"),
        smt=(
            "smt.S.lipschitz",
            "smt.S.wrong_half",
        ),
        tests=(
            "tests/spec/test_statements.py::test_property_holds",
            "tests/smt/test_smt.py::test_S_proved_up_to_12",
            "tests/smt/test_smt.py::test_S_without_log_mean_fact_is_refuted",
        ),
        twins=("spec.bounds.wrong_bound_S_l1_half",),
    ),
    Claim(
        "P",
        "Lemma 25 (per-layer error)",
        "If the AHAT input has ||x_i|| <= X and gap >= gamma, at most N keys per query, and the SMAT input is within "
        "eps <= 1, the layer's output error is <= r eps + a with r = (1+Lip F)(1 + sum_h |B^h|_col (1 + X(2X+1)|A^h|_sum/tau)), "
        "a = 2(1+Lip F) X (N-1) e^{-gamma/tau} sum_h |B^h|_col; the score error step |A|_sum(2X eps + eps^2) <= |A|_sum(2X+1) eps needs eps <= 1.",
        spec=("spec.bounds.compute_layer_constants", "spec.bounds.compute_score_error_bound", "spec.bounds.compute_layer_error_bound"),
        smt=("smt.P.layer_steps",),
        lean=(
            "HardSoft.score_err_le",
            "HardSoft.score_err_le_iff",
            "HardSoft.not_score_err_le_of_one_lt",
            "HardSoft.layer_err_le",
            "HardSoft.err_le_eps_of_layers",
        ),
        tests=("tests/spec/test_statements.py::test_property_holds", "tests/spec/test_statements.py::test_P_guard"),
        twins=("spec.bounds.wrong_score_error_bound_unguarded",),
    ),
    Claim(
        "C",
        "Theorem 26 (composition), with the eps <= 1 bootstrapping fix",
        "B_0 = 0, B_l = r_l B_(l-1) + a_l (uniform: a(r^L - 1)/(r - 1)); r_l >= 1, a_l >= 0 make B_l non-decreasing; "
        "if B_L <= min(eps, 1), every intermediate error stays <= B_l <= 1, Lemma 25 applies at every layer, and the final error is <= eps.",
        spec=("spec.bounds.compute_recursion", "spec.bounds.compute_recursion_closed_form", "spec.bounds.is_bootstrap_ok"),
        smt=(
            "smt.C.closed_form",
            "smt.C.monotone",
            "smt.C.bootstrap",
            "smt.C.wrong_no_BL_guard",
            "smt.C.wrong_monotone_r_positive",
        ),
        lean=(
            "HardSoft.bound_closed_form",
            "HardSoft.bound_monotone",
            "HardSoft.err_le_bound_of_bound_le_one",
            "HardSoft.err_le_eps_of_bound_le",
            "HardSoft.forall_err_le_bound_iff",
            "HardSoft.exists_err_gt_of_one_lt_bound",
            "HardSoft.composition_guard_necessary",
            "HardSoft.composition_err_le_eps_rat",
            "HardSoft.err_le_eps_of_layers",
        ),
        tests=(
            "tests/spec/test_statements.py::test_property_holds",
            "tests/spec/test_statements.py::test_C_guard_counterexample",
            "tests/spec/test_statements.py::test_C_closed_form_matches_mpmath",
            "tests/checks/test_end_to_end.py::test_soft_tracks_hard_within_eps",
        ),
        twins=("spec.bounds.wrong_bootstrap_unguarded",),
    ),
    Claim(
        "T",
        "Theorem 26 (the temperature)",
        "With r <= R/tau (tau <= 1) and a = A N e^{-gamma/tau}: 1/tau >= (2/gamma) ln(A N L R^(L-1) (2(L-1)/(e gamma))^(L-1) / eps) "
        "gives B_L <= eps for that and every smaller tau; the tightest such tau is found by certified bisection.",
        spec=(
            "spec.bounds.compute_sufficient_inverse_temperature",
            "spec.bounds.compute_tightest_inverse_temperature",
            "spec.bounds.certify_bound_at",
        ),
        lean=("HardSoft.bound_const_le_of_mul_pow_le", "HardSoft.composition_err_le_eps_of_mul_pow_le"),
        tests=(
            "tests/spec/test_statements.py::test_property_holds",
            "tests/spec/test_statements.py::test_vectors",
            "tests/checks/test_theorem26.py::test_rows_are_ordered_and_T_temperature_works",
        ),
        twins=("spec.bounds.erratum_offset_plus",),
    ),
    Claim(
        "G",
        "Lemma 29 (activation growth)",
        "||y_i|| <= (1 + sum_h |B^h|_col) X and ||z_i|| <= (1 + Lip F)||y_i|| + ||b_1|| |W_2|_col + ||b_2||: "
        "x_max grows at most geometrically in L, linearly in max ||WE + PE||.",
        spec=("spec.bounds.bound_G_activations", "spec.transformer.compute_model_norms"),
        tests=("tests/spec/test_statements.py::test_property_holds",),
    ),
    Claim(
        "Q",
        "Proposition 24 (positive gap)",
        "An AHAT has finitely many inputs of length n, so gamma_T(n) is the minimum of finitely many positive gaps (or +inf): "
        "measured exhaustively, it is > 0 and no input has a smaller gap.",
        spec=("spec.transformer.measure", "spec.transformer.enumerate_inputs", "spec.bounds.is_gap_positive"),
        tests=("tests/spec/test_statements.py::test_property_holds", "tests/spec/test_transformer.py::test_measure_exhaustive_counts"),
    ),
    Claim(
        "ERR1",
        "Erratum 1 (proof of Theorem 26)",
        "The printed a = K x_max n e^{+gamma/tau} grows as tau -> 0, so no temperature certifies any eps; the correct sign is e^{-gamma/tau}.",
        spec=("spec.bounds.erratum_offset_plus", "spec.bounds.compute_offset"),
        smt=(
            "smt.ERR1.offset_minus_ok",
            "smt.ERR1.offset_plus",
        ),
        tests=("tests/spec/test_statements.py::test_twin_caught", "tests/spec/test_statements.py::test_erratum_offset_plus_grows_as_tau_shrinks"),
        kind="erratum",
    ),
    Claim(
        "ERR2",
        "Erratum 2 (condition on eps in Theorem 26)",
        "The printed eps(n) <= alpha/n^beta must read eps(n) >= alpha/n^beta: the O-form 1/tau = O((1/gamma) log(n x_max/gamma)) "
        "fails when eps shrinks faster than any polynomial (e.g. eps = e^{-n}); statement T keeps the log(1/eps) term.",
        spec=("spec.bounds.erratum_o_form_inverse_temperature",),
        tests=("tests/spec/test_statements.py::test_erratum_o_form_fails_for_exponentially_small_eps",),
        kind="erratum",
    ),
    Claim(
        "ERR3",
        "Erratum 3 (Lemma 25 applied layer after layer)",
        "Lemma 25 needs input error <= 1; without B_L <= 1 an intermediate error may exceed 1 and the guarded step says nothing: "
        "there are error sequences obeying every guarded step that exceed any bound.",
        spec=("spec.bounds.compute_guard_counterexample", "spec.bounds.wrong_bootstrap_unguarded"),
        smt=(
            "smt.ERR3.score_unguarded",
            "smt.ERR3.bootstrap_unguarded",
        ),
        tests=("tests/spec/test_statements.py::test_C_guard_counterexample", "tests/spec/test_statements.py::test_twin_caught"),
        kind="erratum",
    ),
    Claim(
        "L7",
        "Lemma 7 (table lookup, parabolic scores)",
        "Scores s_ij = K(2tj - j^2) (features one, i, i^2) have the unique maximum j = t = i + offset and gap K; with a "
        "one-sided mask the keys form a ziggurat with step K, so at tau = 1 the softmax mass off t is <= e^{-K} (two-sided: "
        "<= 2x/(1-x), x = e^{-K}); the bounded variant in j/n has gap K/n^2 and needs tau = c/n^2. The compiler uses it for Y/X "
        "in the unbounded regime.",
        spec=(
            "constructive.heads.lookup_head",
            "constructive.heads.build_lookup",
            "constructive.heads.two_sided_lookup_mass_bound",
        ),
        tests=(
            "tests/constructive/test_logic_compiler.py::test_build_lookup_reads_the_target_and_mass_off_is_within_lemma_7",
            "tests/constructive/test_logic_compiler.py::test_build_lookup_bounded_needs_tau_c_over_n_squared",
            "tests/constructive/test_logic_compiler.py::test_every_head_mass_off_within_its_lemma_bound",
        ),
    ),
    Claim(
        "L8",
        "Lemma 8 (tie-breaking)",
        "Rightmost (leftmost) unique-hard attention to the selected keys j < i (j > i) becomes a unique maximum with scores "
        "K(select_j +- j/n) (bounded) or K(n select_j +- j) (unbounded); for every selection the sorted scores form a ziggurat "
        "with step gap = K/n (resp. K), checked for every selection and query up to n = 12 and, as the rank inequality, for every n "
        "by z3. Since/until read the nearest "
        "key where g | !f holds; Y/X are the all-selected case.",
        spec=("constructive.heads.tiebreak_head", "constructive.heads.build_tiebreak"),
        tests=(
            "tests/constructive/test_logic_compiler.py::test_tiebreak_ziggurat_for_every_selection_up_to_n_12",
            "tests/constructive/test_logic_compiler.py::test_tiebreak_ziggurat_inequality_for_every_n_by_z3",
            "tests/constructive/test_logic_compiler.py::test_build_tiebreak_selects_the_nearest_and_mass_off_is_within_Z",
            "tests/constructive/test_logic_compiler.py::test_every_head_mass_off_within_its_lemma_bound",
        ),
    ),
    Claim(
        "ZU",
        "Lemma 6 (ziggurat) as used by the compiler",
        "Every tie-breaking and one-sided lookup head of a compiled formula has softmax mass off its hard choice <= "
        "e^{-gap/tau} = e^{-K/c} = 1/(16 m) at the regime's temperature (tau = c/n with gap 1/n, or tau = 1 with gap K), for "
        "every n; the FFN's clamps tolerate 1/(4m) per leaf, so the soft run decodes exactly like the hard one.",
        spec=("constructive.heads.ziggurat_mass_bound", "constructive.logic.compiler.CompiledFormula", "constructive.logic.selfcheck.head_masses"),
        tests=(
            "tests/constructive/test_logic_compiler.py::test_every_head_mass_off_within_its_lemma_bound",
            "tests/constructive/test_logic_compiler.py::test_measured_gap_is_at_least_the_claimed_gap",
            "tests/constructive/test_logic_compiler.py::test_family_slice_exhaustive_to_length_6",
        ),
    ),
    Claim(
        "CNT",
        "Counting (TL with past/future counts; C-RASP-style uniform attention)",
        "#<[f]/i and #>[f]/(n-1-i) are uniform averages (all scores tie: soft = hard exactly, gap +inf); a comparison "
        "sum c_k #_k + c_0 > 0 becomes V_i = N_i/max(D_i, 1) with a half-integer N_i, so |V_i| >= 1/(2(n-1)); the parity sign "
        "head (scores K o V_i p_j, or K o V_i n p_j) has gap >= K/n (resp. K) and mass off <= 2 e^{-K/c}. Comparisons mixing "
        "past and future counts are refused.",
        spec=("constructive.heads.count_head", "constructive.heads.sign_head", "constructive.logic.compiler.compile_formula"),
        tests=(
            "tests/constructive/test_logic_compiler.py::test_counting_heads_are_exact_in_soft_mode_and_comparison_values_keep_their_margin",
            "tests/constructive/test_logic_compiler.py::test_every_head_mass_off_within_its_lemma_bound",
            "tests/constructive/test_logic_compiler.py::test_handpicked_exhaustive_to_length_8",
        ),
    ),
    Claim(
        "APP-FF",
        "Applications: flip-flop (Liu et al. 2023), gap 1/n",
        "The one-layer AHAT for the flip-flop language (a read returns the last written bit) has gap gamma_T(n) = 1/n "
        "exactly, and the softmax transformer with the same parameters decides every input at tau = 1/(2n) "
        "(ziggurat with step 1/n: mass off the top <= e^{-2} < 1/4, removed exactly by a clean-up FFN).",
        spec=("constructive.applications.build_flip_flop", "constructive.applications.reference_flip_flop", "constructive.audit.verify"),
        tests=(
            "tests/constructive/test_applications.py::test_exhaustive_hard_and_soft",
            "tests/constructive/test_applications.py::test_gap_matches_claim",
            "tests/constructive/test_applications.py::test_references_by_hand",
        ),
    ),
    Claim(
        "APP-IND",
        "Applications: basic induction head, tau = Theta(1/n)",
        "The two-layer AHAT induction head (output the token after the previous occurrence of the current token, '-' if "
        "none) has gap gamma_T(n) = 1/n exactly and decides every input in soft mode at tau = 1/(2n). The same "
        "transduction compiled from TL[since] formulas by the temporal-logic compiler (one formula per output symbol, "
        "a & (!a S (c & Y a)); construction induction-tl: 2 layers, 9 heads) has gap 1/n (n >= 3) and decides every "
        "input at the compiler's tau = c/n.",
        spec=(
            "constructive.applications.build_k_hop",
            "constructive.applications.reference_k_hop",
            "constructive.applications.induction_formulas",
            "constructive.applications.build_induction_tl",
            "constructive.audit.verify",
        ),
        tests=(
            "tests/constructive/test_applications.py::test_exhaustive_hard_and_soft",
            "tests/constructive/test_applications.py::test_gap_matches_claim",
            "tests/constructive/test_applications.py::test_sampled_long",
        ),
    ),
    Claim(
        "APP-KHOP",
        "Applications: k-hop induction heads at tau = Theta(1/n)",
        "The (k+1)-layer AHAT for k-hop induction heads (k = 2, 3 registered) has gap gamma_T(n) = 1/n exactly and decides "
        "every input in soft mode at tau = 1/(2n), the same temperature for every depth (clean-up FFNs); it needs n >= k+1.",
        spec=("constructive.applications.build_k_hop", "constructive.applications.reference_k_hop"),
        tests=(
            "tests/constructive/test_applications.py::test_exhaustive_hard_and_soft",
            "tests/constructive/test_applications.py::test_gap_matches_claim",
            "tests/constructive/test_applications.py::test_too_short_is_an_error",
        ),
    ),
    Claim(
        "APP-PA",
        "Applications: an S-RASP comparison of prefix sums, gap Omega(1/n^3)",
        "Prefix-argmax (the token at the last position of maximal prefix frequency of 'a') compiled to a two-layer AHAT "
        "has gap gamma_T(n) = 1/n^3 exactly and decides every input in soft mode at tau = 1/(2n^3).",
        spec=("constructive.applications.build_prefix_argmax", "constructive.applications.reference_prefix_argmax"),
        tests=(
            "tests/constructive/test_applications.py::test_exhaustive_hard_and_soft",
            "tests/constructive/test_applications.py::test_gap_matches_claim",
        ),
    ),
    Claim(
        "APP-DYCK",
        "Applications: Dyck-k through S-RASP (the paper cites Yao et al. 2021)",
        "The Dyck-2 prefix-validity program, written in the project's small S-RASP (spec.srasp: clamped prefix sums, "
        "equality aggregates, once) and compiled to an 11-layer AHAT with position features i, i^2, 1/max(i,1), i/n, "
        "outputs for every prefix 'in', 'open' or 'bad' exactly as a stack-based reference does; its gap is gamma_T(n) = 1/n "
        "(n >= 3) and it decides every input in soft mode at tau = 1/(n ln(128 n^3)). The compiler agrees with the "
        "S-RASP interpreter on random programs (every sequence, exact integers). Project's own encoding: prefix averages "
        "are turned back into integers by a lookup head over positions, so the gap is Theta(1/n), not the paper's "
        "general Omega(1/n^3), at the price of scores of size ~n^2 (float32 audit: decided to n = 512, not at 528).",
        spec=(
            "constructive.srasp.compiler.dyck_program",
            "constructive.srasp.compiler.compile_program",
            "constructive.srasp.compiler.reference_dyck",
            "constructive.applications.build_dyck",
        ),
        tests=(
            "tests/constructive/test_srasp.py::test_program_equals_reference_on_every_word",
            "tests/constructive/test_srasp.py::test_compiled_equals_program_hard_and_soft",
            "tests/constructive/test_srasp.py::test_compiler_agrees_with_the_interpreter_on_random_programs",
            "tests/constructive/test_srasp.py::test_planted_defects_are_caught",
            "tests/constructive/test_applications.py::test_exhaustive_hard_and_soft",
            "tests/constructive/test_applications.py::test_gap_matches_claim",
        ),
    ),
    Claim(
        "PREC",
        "Precision (a question the paper leaves open)",
        "A construction run in a format with p significand bits keeps every decision while (gamma(n) - ulp(S))/tau(n) >= "
        "ln(1/margin) (rounding shrinks a gap by at most one spacing ulp at the score magnitude S; statement Z), and can "
        "lose one once gamma(n) < ulp(S) or 1/tau(n) overflows the softmax's format (e.g. flip-flop in float16: safe to "
        "n = 314, breakdown from n = 1025; measured 1024 decided, 1056 not). Runs really compute every step in the format.",
        spec=(
            "constructive.audit.predicted_breakdown",
            "constructive.audit.predicted_safe",
            "constructive.audit.precision_audit",
            "constructive.lowprec.run_lowprec",
        ),
        tests=(
            "tests/constructive/test_lowprec.py::test_float16_differs_where_rounding_predicts",
            "tests/constructive/test_lowprec.py::test_overflow_names_the_step",
            "tests/constructive/test_applications.py::test_predicted_breakdown_values",
            "tests/constructive/test_applications.py::test_flip_flop_float16_breaks_where_predicted",
            "tests/constructive/test_applications.py::test_predicted_safe_is_below_the_breakdown",
        ),
    ),
)


#: The ordered-field context of the generic Lean theorems (the section variables of lean/HardSoft/*.lean).
FIELD = "{α : Type} [Lean.Grind.Field α] [LE α] [LT α] [Std.IsLinearOrder α] [Std.LawfulOrderLT α] [Lean.Grind.OrderedRing α]"


def over_field(rest: str) -> str:
    """Return the Lean statement ``∀ FIELD rest``: ``rest`` is ``binders, conclusion`` of a theorem generic over α."""
    return f"∀ {FIELD} {rest}"


def _caller_origin() -> str:
    """Return ``file:line`` of the code that constructs a LeanStatement (the registry entry)."""
    frame = sys._getframe(2)
    path = Path(frame.f_code.co_filename)
    tree = locations.source_tree()
    try:
        shown = str(path.relative_to(tree)) if tree is not None else path.name
    except ValueError:
        shown = str(path)
    return f"{shown}:{frame.f_lineno}"


@dataclass(frozen=True)
class LeanStatement:
    """What a Lean theorem cited by a claim proves: its exact statement (pinned) and the same in words.

    statement -- the theorem's full type in Lean syntax, binders written with ``∀`` (read inside
                 ``namespace HardSoft``); the generated pin module makes Lean confirm
                 ``example : statement := @name`` (``checks.families.lean.pins``)
    says      -- what the theorem proves, in words, no more than the statement: the Lean column of
                 the traceability table
    origin    -- ``file:line`` of this entry (filled in automatically; failures name it)
    """

    statement: str
    says: str
    origin: str = field(default_factory=_caller_origin, compare=False)


#: For each Lean theorem a claim cites: its pinned statement and what it says (keys = the names in Claim.lean).
LEAN_STATEMENTS: dict[str, LeanStatement] = {
    "HardSoft.bound_closed_form": LeanStatement(
        over_field(
            "(r a : α) (L : Nat), (r - 1) * bound (fun _ => r) (fun _ => a) L = a * (r ^ L - 1) ∧ (r ≠ 1 → bound (fun _ => r) (fun _ => a) L = a * (r ^ L - 1) / (r - 1)) ∧ (r = 1 → bound (fun _ => r) (fun _ => a) L = natCast L * a)"
        ),
        "uniform r, a: (r - 1) B_L = a (r^L - 1); B_L = a (r^L - 1)/(r - 1) if r ≠ 1; B_L = L a if r = 1",
    ),
    "HardSoft.bound_monotone": LeanStatement(
        over_field(
            "{r a : Nat → α} {L : Nat} (hr : ∀ l, l < L → 1 ≤ r l) (ha : ∀ l, l < L → 0 ≤ a l) {l : Nat} (hlL : l ≤ L), 0 ≤ bound r a l ∧ bound r a l ≤ bound r a L"
        ),
        "r_l ≥ 1 and a_l ≥ 0 for l < L give 0 ≤ B_l ≤ B_L for every l ≤ L",
    ),
    "HardSoft.err_le_bound_of_bound_le_one": LeanStatement(
        over_field(
            "{r a e : Nat → α} {L : Nat} (he0 : e 0 = 0) (hstep : ∀ l, l < L → e l ≤ 1 → e (l + 1) ≤ r l * e l + a l) (hr : ∀ l, l < L → 1 ≤ r l) (ha : ∀ l, l < L → 0 ≤ a l) (hBL : bound r a L ≤ 1), ∀ l, l ≤ L → e l ≤ bound r a l ∧ bound r a l ≤ 1"
        ),
        "e_0 = 0, the guarded step e_l ≤ 1 → e_(l+1) ≤ r_l e_l + a_l, r_l ≥ 1, a_l ≥ 0 (each for l < L) and B_L ≤ 1 give e_l ≤ B_l ≤ 1 for every l ≤ L",
    ),
    "HardSoft.err_le_eps_of_bound_le": LeanStatement(
        over_field(
            "{r a e : Nat → α} {L : Nat} {eps : α} (he0 : e 0 = 0) (hstep : ∀ l, l < L → e l ≤ 1 → e (l + 1) ≤ r l * e l + a l) (hr : ∀ l, l < L → 1 ≤ r l) (ha : ∀ l, l < L → 0 ≤ a l) (hBeps : bound r a L ≤ eps) (hB1 : bound r a L ≤ 1), e L ≤ eps"
        ),
        "the same hypotheses with B_L ≤ eps and B_L ≤ 1 give e_L ≤ eps",
    ),
    "HardSoft.forall_err_le_bound_iff": LeanStatement(
        over_field(
            "{r a : Nat → α} {L : Nat} (hr : ∀ l, l < L → 0 ≤ r l) (ha : ∀ l, l < L → 0 ≤ a l), (∀ e : Nat → α, e 0 = 0 → (∀ l, l < L → e l ≤ 1 → e (l + 1) ≤ r l * e l + a l) → (∀ l, l ≤ L → 0 ≤ e l) → e L ≤ bound r a L) ↔ ∀ l, l < L → bound r a l ≤ 1"
        ),
        "the guard, sharp: for r_l, a_l ≥ 0 (l < L), every guarded sequence with e_0 = 0 and e ≥ 0 has e_L ≤ B_L if and only if B_l ≤ 1 for every l < L",
    ),
    "HardSoft.exists_err_gt_of_one_lt_bound": LeanStatement(
        over_field(
            "{r a : Nat → α} {L l : Nat} (hr : ∀ k, k < L → 0 ≤ r k) (ha : ∀ k, k < L → 0 ≤ a k) (hl : l < L) (hBl : 1 < bound r a l) (M : α), ∃ e : Nat → α, e 0 = 0 ∧ (∀ k, k < L → e k ≤ 1 → e (k + 1) ≤ r k * e k + a k) ∧ (∀ k, k ≤ L → 0 ≤ e k) ∧ M < e L"
        ),
        "r_k, a_k ≥ 0 (k < L) and B_l > 1 for some l < L: for every M a guarded sequence (e_0 = 0, e ≥ 0) has e_L > M",
    ),
    "HardSoft.composition_guard_necessary": LeanStatement(
        over_field(
            "(M : α), (∃ e : Nat → α, e 0 = 0 ∧ (∀ l, l < 2 → e l ≤ 1 → e (l + 1) ≤ (fun _ => (1 : α)) l * e l + (fun _ => (2 : α)) l) ∧ M < e 2) ∧ ¬ ∀ e : Nat → α, e 0 = 0 → (∀ l, l < 2 → e l ≤ 1 → e (l + 1) ≤ (fun _ => (1 : α)) l * e l + (fun _ => (2 : α)) l) → e 2 ≤ bound (fun _ => (1 : α)) (fun _ => (2 : α)) 2"
        ),
        "one instance, r = 1, a = 2, L = 2 (B_2 = 4): for every M a guarded sequence has e_2 > M, so e_2 ≤ B_2 fails",
    ),
    "HardSoft.composition_err_le_eps_rat": LeanStatement(
        "∀ {r a e : Nat → Rat} {L : Nat} {eps : Rat} (he0 : e 0 = 0) (hstep : ∀ l, l < L → e l ≤ 1 → e (l + 1) ≤ r l * e l + a l) (hr : ∀ l, l < L → 1 ≤ r l) (ha : ∀ l, l < L → 0 ≤ a l) (hBeps : bound r a L ≤ eps) (hB1 : bound r a L ≤ 1), e L ≤ eps",
        "err_le_eps_of_bound_le at α = Rat",
    ),
    "HardSoft.err_le_eps_of_layers": LeanStatement(
        over_field(
            "{L : Nat} {H N : Nat → Nat} {A B scoreErr dSoft dHard wErr headErr : Nat → Nat → α} {X tau x LipF yErr e : Nat → α} {eps : α} (hA : ∀ l, l < L → ∀ h, h < H l → 0 ≤ A l h) (hB : ∀ l, l < L → ∀ h, h < H l → 0 ≤ B l h) (hX : ∀ l, l < L → 0 ≤ X l) (htau : ∀ l, l < L → 0 < tau l) (hx : ∀ l, l < L → 0 ≤ x l) (hLip : ∀ l, l < L → 0 ≤ LipF l) (he0 : e 0 = 0) (he : ∀ l, l ≤ L → 0 ≤ e l) (hscore : ∀ l, l < L → ∀ h, h < H l → scoreErr l h ≤ A l h * (2 * X l * e l + e l * e l)) (hS : ∀ l, l < L → ∀ h, h < H l → dSoft l h ≤ scoreErr l h / tau l) (hE : ∀ l, l < L → ∀ h, h < H l → dHard l h ≤ 2 * natCast (N l - 1) * x l) (hw : ∀ l, l < L → ∀ h, h < H l → wErr l h ≤ dSoft l h + dHard l h) (hhead : ∀ l, l < L → ∀ h, h < H l → headErr l h ≤ B l h * e l + B l h * X l * wErr l h) (hres : ∀ l, l < L → yErr l ≤ e l + sumTo (headErr l) (H l)) (hffn : ∀ l, l < L → e (l + 1) ≤ (1 + LipF l) * yErr l) (hBeps : bound (fun l => (1 + LipF l) * (1 + sumTo (fun h => B l h * (1 + X l * (2 * X l + 1) * A l h / tau l)) (H l))) (fun l => 2 * (1 + LipF l) * X l * natCast (N l - 1) * x l * sumTo (B l) (H l)) L ≤ eps) (hB1 : bound (fun l => (1 + LipF l) * (1 + sumTo (fun h => B l h * (1 + X l * (2 * X l + 1) * A l h / tau l)) (H l))) (fun l => 2 * (1 + LipF l) * X l * natCast (N l - 1) * x l * sumTo (B l) (H l)) L ≤ 1), e L ≤ eps ∧ ∀ l, l ≤ L → e l ≤ 1"
        ),
        "Theorem 26, algebraic form: L layers each with Lemma 25's step facts as hypotheses (l < L), e_0 = 0, e ≥ 0, and B_L ≤ eps, B_L ≤ 1 for Lemma 25's r_l, a_l give e_L ≤ eps and e_l ≤ 1 for every l ≤ L",
    ),
    "HardSoft.bound_const_le_of_mul_pow_le": LeanStatement(
        over_field(
            "{r a eps : α} (hr : 1 ≤ r) (ha : 0 ≤ a) (L : Nat) (h : a * natCast L * r ^ (L - 1) ≤ eps), bound (fun _ => r) (fun _ => a) L ≤ eps"
        ),
        "uniform r ≥ 1, a ≥ 0: the sufficient condition a L r^(L-1) ≤ eps gives B_L ≤ eps (the choice of tau is not in Lean)",
    ),
    "HardSoft.composition_err_le_eps_of_mul_pow_le": LeanStatement(
        over_field(
            "{e : Nat → α} {r a eps : α} {L : Nat} (he0 : e 0 = 0) (hstep : ∀ l, l < L → e l ≤ 1 → e (l + 1) ≤ r * e l + a) (hr : 1 ≤ r) (ha : 0 ≤ a) (h : a * natCast L * r ^ (L - 1) ≤ eps) (heps : eps ≤ 1), e L ≤ eps"
        ),
        "uniform r ≥ 1, a ≥ 0, e_0 = 0, the guarded steps (l < L) and the sufficient condition a L r^(L-1) ≤ eps ≤ 1 give e_L ≤ eps",
    ),
    "HardSoft.score_err_le": LeanStatement(
        over_field("{A X eps : α} (hA : 0 ≤ A) (h0 : 0 ≤ eps) (h1 : eps ≤ 1), A * (2 * X * eps + eps * eps) ≤ A * (2 * X + 1) * eps"),
        "A ≥ 0 and 0 ≤ eps ≤ 1 give A (2X eps + eps^2) ≤ A (2X + 1) eps (where the guard eps ≤ 1 enters)",
    ),
    "HardSoft.score_err_le_iff": LeanStatement(
        over_field("{A X eps : α} (hA : 0 < A) (h0 : 0 ≤ eps), A * (2 * X * eps + eps * eps) ≤ A * (2 * X + 1) * eps ↔ eps ≤ 1"),
        "A > 0, eps ≥ 0: A (2X eps + eps^2) ≤ A (2X + 1) eps if and only if eps ≤ 1",
    ),
    "HardSoft.not_score_err_le_of_one_lt": LeanStatement(
        over_field("{A X eps : α} (hA : 0 < A) (h1 : 1 < eps), ¬ A * (2 * X * eps + eps * eps) ≤ A * (2 * X + 1) * eps"),
        "A > 0, eps > 1: A (2X eps + eps^2) ≤ A (2X + 1) eps fails",
    ),
    "HardSoft.layer_err_le": LeanStatement(
        over_field(
            "{H N : Nat} {A B scoreErr dSoft dHard wErr headErr : Nat → α} {X tau x LipF eps yErr outErr : α} (hA : ∀ h, h < H → 0 ≤ A h) (hB : ∀ h, h < H → 0 ≤ B h) (hX : 0 ≤ X) (htau : 0 < tau) (hLip : 0 ≤ LipF) (h0 : 0 ≤ eps) (h1 : eps ≤ 1) (hscore : ∀ h, h < H → scoreErr h ≤ A h * (2 * X * eps + eps * eps)) (hS : ∀ h, h < H → dSoft h ≤ scoreErr h / tau) (hE : ∀ h, h < H → dHard h ≤ 2 * natCast (N - 1) * x) (hw : ∀ h, h < H → wErr h ≤ dSoft h + dHard h) (hhead : ∀ h, h < H → headErr h ≤ B h * eps + B h * X * wErr h) (hres : yErr ≤ eps + sumTo headErr H) (hffn : outErr ≤ (1 + LipF) * yErr), outErr ≤ (1 + LipF) * (1 + sumTo (fun h => B h * (1 + X * (2 * X + 1) * A h / tau)) H) * eps + 2 * (1 + LipF) * X * natCast (N - 1) * x * sumTo B H"
        ),
        "one layer, H heads, with the score-error, S, E (≤ 2(N-1)x), triangle, head, residual and FFN steps as hypotheses and 0 ≤ eps ≤ 1: output error ≤ r eps + a, r = (1+Lip F)(1 + Σ_h |B_h| (1 + X(2X+1)|A_h|/tau)), a = 2(1+Lip F) X (N-1) x Σ_h |B_h|",
    ),
    "HardSoft.softmax_mass_off_max_le": LeanStatement(
        over_field(
            "{isMax : Nat → Bool} {w : Nat → α} {x : α} {N : Nat} (hmax : ∀ j, j < N → isMax j = true → w j = 1) (hoff : ∀ j, j < N → isMax j = false → w j ≤ x) (hoff0 : ∀ j, j < N → isMax j = false → 0 ≤ w j) (hx : 0 ≤ x) (hm : 0 < countMax isMax N), offMass isMax w N / sumTo w N ≤ natCast (N - countMax isMax N) * x / (natCast (countMax isMax N) + natCast (N - countMax isMax N) * x) ∧ offMass isMax w N / sumTo w N ≤ natCast (N - 1) * x"
        ),
        "weights w = 1 on the m ≥ 1 max positions and 0 ≤ w ≤ x elsewhere: off-max mass ≤ (N-m)x/(m+(N-m)x) and ≤ (N-1)x",
    ),
    "HardSoft.softmax_mass_off_max_le_rat": LeanStatement(
        "∀ {isMax : Nat → Bool} {w : Nat → Rat} {x : Rat} {N : Nat} (hmax : ∀ j, j < N → isMax j = true → w j = 1) (hoff : ∀ j, j < N → isMax j = false → w j ≤ x) (hoff0 : ∀ j, j < N → isMax j = false → 0 ≤ w j) (hx : 0 ≤ x) (hm : 0 < countMax isMax N), offMass isMax w N / sumTo w N ≤ natCast (N - 1) * x",
        "the (N-1)x form of softmax_mass_off_max_le at α = Rat",
    ),
    "HardSoft.sumTo_absv_sub_ahardmax_eq": LeanStatement(
        over_field(
            "{isMax : Nat → Bool} {p : Nat → α} {N : Nat} (hm : 0 < countMax isMax N) (hmax : ∀ j, j < N → isMax j = true → p j = (1 - offMass isMax p N) / natCast (countMax isMax N)) (hoff0 : ∀ j, j < N → isMax j = false → 0 ≤ p j), sumTo (fun j => absv (p j - ahardmax isMax N j)) N = 2 * offMass isMax p N"
        ),
        "p ≥ 0 off the max set and p = (1 - δ)/m on each of its m ≥ 1 positions (δ the mass off it): ||p - ahardmax||_1 = 2δ",
    ),
    "HardSoft.sumTo_absv_sub_ahardmax_le": LeanStatement(
        over_field(
            "{isMax : Nat → Bool} {p : Nat → α} {x : α} {N : Nat} (hm : 0 < countMax isMax N) (hmax : ∀ j, j < N → isMax j = true → p j = (1 - offMass isMax p N) / natCast (countMax isMax N)) (hoff0 : ∀ j, j < N → isMax j = false → 0 ≤ p j) (hδ : offMass isMax p N ≤ natCast (N - 1) * x), sumTo (fun j => absv (p j - ahardmax isMax N j)) N ≤ 2 * natCast (N - 1) * x"
        ),
        "the same with δ ≤ (N-1)x: ||p - ahardmax||_1 ≤ 2(N-1)x",
    ),
    "HardSoft.softmax_offMass_le_of_gap": LeanStatement(
        over_field(
            "(E : ExpLike α) {s : Nat → α} {isMax : Nat → Bool} {smax gamma tau : α} {N : Nat} (htau : 0 < tau) (hmax : ∀ j, j < N → isMax j = true → s j = smax) (hgap : ∀ j, j < N → isMax j = false → s j ≤ smax - gamma) (hm : 0 < countMax isMax N), offMass isMax (softmax E tau s N) N ≤ natCast (N - countMax isMax N) * E.exp (-gamma / tau) / (natCast (countMax isMax N) + natCast (N - countMax isMax N) * E.exp (-gamma / tau)) ∧ offMass isMax (softmax E tau s N) N ≤ natCast (N - 1) * E.exp (-gamma / tau)"
        ),
        "for any exp with ExpLike's properties, tau > 0, scores = s_max on the max set (m ≥ 1) and ≤ s_max - gamma elsewhere: softmax mass off the max set ≤ (N-m)x/(m+(N-m)x) and ≤ (N-1)x, x = exp(-gamma/tau)",
    ),
    "HardSoft.sumTo_absv_softmax_sub_ahardmax_le": LeanStatement(
        over_field(
            "(E : ExpLike α) {s : Nat → α} {isMax : Nat → Bool} {smax gamma tau : α} {N : Nat} (htau : 0 < tau) (hmax : ∀ j, j < N → isMax j = true → s j = smax) (hgap : ∀ j, j < N → isMax j = false → s j ≤ smax - gamma) (hm : 0 < countMax isMax N), sumTo (fun j => absv (softmax E tau s N j - ahardmax isMax N j)) N = 2 * offMass isMax (softmax E tau s N) N ∧ sumTo (fun j => absv (softmax E tau s N j - ahardmax isMax N j)) N ≤ 2 * natCast (N - 1) * E.exp (-gamma / tau)"
        ),
        "the same hypotheses: ||softmax - ahardmax||_1 = 2δ ≤ 2(N-1)x",
    ),
    "HardSoft.ziggurat_mass_off_top_le": LeanStatement(
        over_field(
            "{w : Nat → α} {x : α} {N : Nat} (hN : 0 < N) (hw0 : 0 < w 0) (hnn : ∀ k, k < N → 0 ≤ w k) (hw : ∀ k, 0 < k → k < N → w k ≤ x ^ k * w 0) (hx0 : 0 ≤ x) (hx1 : x ≤ 1), (sumTo w N - w 0) / sumTo w N ≤ x ∧ sumTo w N * (1 - x) ≤ w 0 * (1 - x ^ N)"
        ),
        "N ≥ 1, w_0 > 0, 0 ≤ w_k ≤ x^k w_0, 0 ≤ x ≤ 1: off-top mass ≤ x and total (1 - x) ≤ w_0 (1 - x^N)",
    ),
    "HardSoft.ziggurat_mass_off_top_le_rat": LeanStatement(
        "∀ {w : Nat → Rat} {x : Rat} {N : Nat} (hN : 0 < N) (hw0 : 0 < w 0) (hnn : ∀ k, k < N → 0 ≤ w k) (hw : ∀ k, 0 < k → k < N → w k ≤ x ^ k * w 0) (hx0 : 0 ≤ x) (hx1 : x ≤ 1), (sumTo w N - w 0) / sumTo w N ≤ x",
        "the off-top mass ≤ x form of ziggurat_mass_off_top_le at α = Rat",
    ),
    "HardSoft.sumTo_sub_top_div_sumTo_le_geom": LeanStatement(
        over_field(
            "{w : Nat → α} {x : α} {N : Nat} (hN : 0 < N) (hw0 : 0 < w 0) (hnn : ∀ k, k < N → 0 ≤ w k) (hw : ∀ k, 0 < k → k < N → w k ≤ x ^ k * w 0) (hx0 : 0 ≤ x) (hx1 : x < 1), (sumTo w N - w 0) / sumTo w N ≤ (x - x ^ N) / (1 - x ^ N) ∧ (sumTo w N - w 0) / sumTo w N ≤ x"
        ),
        "the same weights with 0 ≤ x < 1: off-top mass ≤ (x - x^N)/(1 - x^N) and ≤ x",
    ),
    "HardSoft.softmax_mass_off_top_le_of_ziggurat": LeanStatement(
        over_field(
            "(E : ExpLike α) {s : Nat → α} {gamma tau : α} {N : Nat} (hN : 0 < N) (htau : 0 < tau) (hg : 0 ≤ gamma) (hz : ∀ k, 0 < k → k < N → natCast k * gamma ≤ s 0 - s k), sumTo (softmax E tau s N) N - softmax E tau s N 0 ≤ E.exp (-gamma / tau) ∧ (E.exp (-gamma / tau) < 1 → sumTo (softmax E tau s N) N - softmax E tau s N 0 ≤ (E.exp (-gamma / tau) - E.exp (-gamma / tau) ^ N) / (1 - E.exp (-gamma / tau) ^ N))"
        ),
        "for any exp with ExpLike's properties, N ≥ 1, tau > 0, gamma ≥ 0 and a ziggurat k gamma ≤ s_0 - s_k: softmax mass off the top ≤ x, and ≤ (x - x^N)/(1 - x^N) when x < 1, x = exp(-gamma/tau)",
    ),
}


def get_claim(claim_id: str) -> Claim:
    """Return the claim with this id (ValueError naming the known ids otherwise)."""
    for c in REGISTRY:
        if c.id == claim_id:
            return c
    raise ValueError(f"unknown claim {claim_id!r}; known: {', '.join(c.id for c in REGISTRY)}")


def _resolve(dotted: str) -> bool:
    """Return whether module.attr resolves."""
    mod, _, attr = dotted.rpartition(".")
    try:
        return hasattr(importlib.import_module(f"{PACKAGE}.{mod}"), attr)
    except ImportError:
        return False


def _test_exists(ref: str, root: Path) -> bool:
    """Return whether 'tests/file.py::name' names a test function in that file of the source tree ``root``."""
    path, _, name = ref.partition("::")
    p = root / path
    if not p.is_file():
        return False
    tree = ast.parse(p.read_text(encoding="utf-8"))
    return any(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == name for n in ast.walk(tree))


def _lean_declarations() -> set[str]:
    """Return fully qualified names of theorems/lemmas declared in lean/ (namespace-aware, by a light parse)."""
    names: set[str] = set()
    for p in sorted(locations.lean_sources().rglob("*.lean")):
        if ".lake" in p.parts:
            continue
        ns: list[str] = []
        for line in p.read_text(encoding="utf-8").splitlines():
            m = re.match(r"\s*namespace\s+([\w.]+)", line)
            if m:
                ns.append(m.group(1))
                continue
            m = re.match(r"\s*end\s+([\w.]+)\s*$", line)
            if m and ns and ns[-1] == m.group(1):
                ns.pop()
                continue
            m = re.match(r"\s*(?:@\[[^\]]*\]\s*)?(?:private\s+|protected\s+)?(?:theorem|lemma)\s+([\w.']+)", line)
            if m:
                names.add(".".join(ns + [m.group(1)]))
    return names


def validate_registry() -> list[str]:
    """Return the problems of the registry: every named spec function, SMT check, Lean theorem and test must exist.

    Tests are looked up only in a source tree (``tests_shipped``); an installed wheel has none.
    """
    problems: list[str] = []
    tree = locations.source_tree() if tests_shipped() else None
    ids = [c.id for c in REGISTRY]
    if len(set(ids)) != len(ids):
        problems.append("duplicate claim ids")
    smt_checks: set[str] | None = None
    if any(c.smt for c in REGISTRY):
        try:
            smt_checks = set(importlib.import_module("hardsoft.checks.families.smt").SMT_CHECKS)
        except ImportError as e:
            problems.append(f"cannot import checks.smt_family: {e}")
            smt_checks = set()
    lean_decls = _lean_declarations() if any(c.lean for c in REGISTRY) else set()
    for c in REGISTRY:
        if not c.paper.strip() or not c.statement.strip():
            problems.append(f"{c.id}: missing paper result or statement")
        for f in c.spec + c.twins:
            if not _resolve(f):
                problems.append(f"{c.id}: spec function {f} does not exist")
            else:
                mod, _, attr = f.rpartition(".")
                doc = (getattr(importlib.import_module(f"{PACKAGE}.{mod}"), attr).__doc__ or "").strip()
                if not doc:
                    problems.append(f"{c.id}: {f} has no docstring naming its paper result")
        for s in c.smt:
            if smt_checks is not None and s not in smt_checks:
                problems.append(f"{c.id}: SMT check {s} does not exist")
        for t in c.lean:
            if t not in lean_decls:
                problems.append(f"{c.id}: Lean theorem {t} does not exist in lean/")
            st = LEAN_STATEMENTS.get(t)
            if st is None:
                problems.append(f"{c.id}: Lean theorem {t} has no pinned statement in LEAN_STATEMENTS")
            elif not st.statement.strip() or not st.says.strip():
                problems.append(f"{c.id}: Lean theorem {t} ({st.origin}) has an empty statement or description")
    cited = {t for c in REGISTRY for t in c.lean}
    for t in sorted(set(LEAN_STATEMENTS) - cited):
        problems.append(f"LEAN_STATEMENTS: {t} ({LEAN_STATEMENTS[t].origin}) is cited by no claim")
    for c in REGISTRY:
        for t in c.tests:
            if tree is not None and not _test_exists(t, tree):
                problems.append(f"{c.id}: test {t} does not exist")
    return problems


def tests_shipped() -> bool:
    """Return whether the test suite is at hand (a source tree); an installed wheel ships no tests."""
    tree = locations.source_tree()
    return tree is not None and (tree / "tests").is_dir()
