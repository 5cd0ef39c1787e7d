"""The one registry of claims: each explicit statement of the project, the paper result it corresponds to, and where it is checked.

The traceability table of docs/claims.md and the report are generated from ``REGISTRY``
(``checks.report.traceability_table``); ``checks.registry.validate_registry`` fails the run
when a named spec function, SMT check, Lean theorem or test does not exist.  The exact
statement of every Lean theorem a claim cites is pinned in ``spec.lean_statements``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

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
    not_covered: str = ""  # what is NOT covered, in plain words (the trust ledger's last line; required)
    #: per statement SMT check of ``smt``: the domain the claim states for the check's variables, as Z3 constraints in
    #: Python syntax over the encoding's names (``smt.domains`` checks that the encoding leaves none of it out)
    domains: Mapping[str, Mapping[str, tuple[str, ...]]] = field(default_factory=dict)


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
        not_covered="Assumed, not proved: that the real exp has ExpLike's properties (checked by tests/spec/test_exp_facts.py); "
        "floating-point softmax is not modelled. (Lean covers every N, from the scores as well as in the abstract-weight form; "
        "the SMT checks only up to the preset bound.)",
        domains={
            "smt.E.softmax_vs_hardmax": {"tau": ("tau > 0",), "gamma": ("gamma > 0",), "x": ("x > 0", "x < 1")},  # x = e^{-gamma/tau}
        },
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
            "HardSoft.softmax_mass_off_top_le_of_distinct",
            "HardSoft.softmax_mass_off_top_le_of_keys",
        ),
        tests=("tests/spec/test_statements.py::test_property_holds", "tests/spec/test_statements.py::test_vectors"),
        twins=("spec.bounds.wrong_bound_Z_mass_off_top_short",),
        not_covered="Assumed, not proved: that the real exp has ExpLike's properties (checked by tests/spec/test_exp_facts.py); "
        "floating-point softmax is not modelled. (Lean covers every N, from the scores as well as in the abstract-weight form; "
        "the SMT checks only up to the preset bound.)",
        domains={"smt.Z.ziggurat": {"tau": ("tau > 0",), "gamma": ("gamma > 0",), "x": ("x > 0", "x < 1")}},
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
        lean=("HardSoft.softmax_lipschitz", "HardSoft.sumTo_absv_sub_le_of_ratio"),
        tests=(
            "tests/spec/test_statements.py::test_property_holds",
            "tests/smt/test_smt.py::test_S_proved_up_to_12",
            "tests/smt/test_smt.py::test_S_without_log_mean_fact_is_refuted",
            "tests/spec/test_exp_facts.py::test_exp_fact_holds_at_many_points",
            "tests/spec/test_exp_facts.py::test_log_mean_fact_by_its_derivatives",
            "tests/checks/test_lean_statement_twins.py::test_wrong_statement_twin_rejected",
        ),
        twins=("spec.bounds.wrong_bound_S_l1_half",),
        not_covered="Assumed, not proved: that the real exp has ExpLike's properties and fact F5 (2(e^d - 1) <= d(e^d + 1) for d >= 0); "
        "each is checked of the real exp by tests/spec/test_exp_facts.py (mpmath at many points, and F5 through its derivatives). "
        "Floating-point softmax is not modelled.",
        domains={
            # delta = ||a - b||_inf / tau, y = e^delta (so F5 holds of them: tests/spec/test_exp_facts.py), ratios in [v, y^2 v]
            "smt.S.lipschitz": {
                "delta": ("delta >= 0", "delta * (y + 1) >= 2 * (y - 1)"),
                "y": ("y >= 1",),
                "v": ("v > 0",),
                "u": ("u == y * y * v",),
            },
        },
    ),
    Claim(
        "P",
        "Lemma 25 (per-layer error)",
        "If the AHAT input has ||x_i|| <= X and gap >= gamma, at most N keys per query, and the SMAT input is within "
        "eps <= 1, the layer's output error is <= r eps + a with r = (1+Lip F)(1 + sum_h |B^h|_col (1 + X(2X+1)|A^h|_sum/tau)), "
        "a = 2(1+Lip F) X (N-1) e^{-gamma/tau} sum_h |B^h|_col; the score error step |A|_sum(2X eps + eps^2) <= |A|_sum(2X+1) eps needs eps <= 1. "
        "N counts every position a query sees (a BOS token included); biases enter folded through a constant coordinate (so in |A^h|_sum, "
        "|B^h|_col and X); when the hard mode counts scores within a tie tolerance as tied, with spread delta_h (row max minus the lowest "
        "tied score), a gains (1+Lip F) X sum_h |B^h|_col delta_h / tau (statement S applied to the tied scores raised to the max).",
        spec=(
            "spec.bounds.compute_layer_constants",
            "spec.bounds.compute_score_error_bound",
            "spec.bounds.compute_layer_error_bound",
            "spec.bounds.compute_spread_coefficient",
            "spec.transformer.compute_recursion_constants",
        ),
        smt=("smt.P.layer_steps",),
        lean=(
            "HardSoft.score_err_le",
            "HardSoft.score_err_le_iff",
            "HardSoft.not_score_err_le_of_one_lt",
            "HardSoft.layer_err_le",
            "HardSoft.layer_err_le_concrete",
            "HardSoft.err_le_eps_of_layers",
        ),
        tests=(
            "tests/spec/test_statements.py::test_property_holds",
            "tests/spec/test_statements.py::test_P_guard",
            "tests/spec/test_modelio_v3.py::test_spread_term_bounds_the_soft_error_and_dropping_it_does_not",
            "tests/spec/test_modelio_v3.py::test_bos_positions_enter_the_bounds",
            "tests/checks/test_lean_statement_twins.py::test_wrong_statement_twin_rejected",
        ),
        twins=("spec.bounds.wrong_score_error_bound_unguarded",),
        not_covered="Lean proves the layer for every dimension, head count and key count: layer_err_le (with the guard eps <= 1 in score_err_le_iff) from the scores, statement S (from fact F5), statement E and the triangle inequality proved there, the score-error, head, residual and feed-forward steps its hypotheses; layer_err_le_concrete proves those four steps too, for the layer written out coordinate by coordinate (bilinear scores x_q^T Q_h x_j, heads (sum_j w_j x_j) V_h, the residual stream, a ReLU FFN with biases; no layer norm), so Lemma 25 for that layer rests only on ExpLike's properties and fact F5. Its weight norms are hypotheses as upper bounds (|Q_h|_sum <= A_h, every column sum of V_h, W1, W2 <= B_h, |W1|, |W2|, with Lip F = |W1| |W2|); that a real layer's weights have the norms the spec computes (compute_layer_constants) is tested, not proved. SMT: only the boxes, dimensions, positions, FFN widths and head counts listed; the composition uses S and E as lemmas, proved only up to the preset's key count N (in the same run, else P is undecided). Layer norms and real transformer weights: only tested (spec + fuzz). The tie-spread term (near ties read as ties) has no Lean or SMT proof: its derivation is in compute_spread_coefficient, and it is tested.",
        domains={
            # every activation box X <= act_box and weight box |A| <= weight_box of the preset (Coverage.fixed), eps in [0, 1]
            "smt.P.layer_steps": {
                "X": ("X > 0", "X <= act_box"),
                "eps": ("eps >= 0", "eps <= 1"),
                "A_[0-9]*": ("var >= -weight_box", "var <= weight_box"),
            },
        },
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
        not_covered="Nothing of the recursion: Lean proves it for every depth L (the SMT checks up to the preset bound only); "
        "that a concrete model's r_l and a_l are Lemma 25's constants is statement P's, and floating point is not modelled.",
        domains={
            "smt.C.closed_form": {"r": ("r != 1",), "a": ()},  # the r = 1 branch is its own query over a alone
            "smt.C.monotone": {"r_[0-9]*": ("var >= 1",), "a_[0-9]*": ("var >= 0",)},
            "smt.C.bootstrap": {"r_[0-9]*": ("var >= 1",), "a_[0-9]*": ("var >= 0",)},
        },
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
        lean=(
            "HardSoft.bound_le_eps_of_inverse_temperature",
            "HardSoft.bound_le_eps_of_temperature",
            "HardSoft.bound_const_le_of_mul_pow_le",
            "HardSoft.composition_err_le_eps_of_mul_pow_le",
        ),
        tests=(
            "tests/spec/test_statements.py::test_property_holds",
            "tests/spec/test_statements.py::test_vectors",
            "tests/checks/test_theorem26.py::test_rows_are_ordered_and_T_temperature_works",
            "tests/spec/test_exp_facts.py::test_exp_fact_holds_at_many_points",
            "tests/spec/test_exp_facts.py::test_tangent_fact_by_its_derivative",
            "tests/checks/test_lean_statement_twins.py::test_wrong_statement_twin_rejected",
        ),
        twins=("spec.bounds.erratum_offset_plus",),
        not_covered="No SMT check. Assumed, not proved: that the real exp has ExpLike's properties, fact F1 (1 + x <= e^x) and a logarithm "
        "(e^(ln x) = x for x > 0), checked of the real exp by tests/spec/test_exp_facts.py; Lean's T has no non-vacuity theorem at Rat "
        "(F1 holds of no exponential over Rat). Tested only: that the spec's R and A N bound a model's r_l and a_l (r_l = r0 + r1/tau <= R/tau "
        "for tau <= 1), its interval evaluation of the formula, and the certified bisection for the tightest tau (tests and the fuzz family).",
    ),
    Claim(
        "G",
        "Lemma 29 (activation growth)",
        "||y_i|| <= (1 + sum_h |B^h|_col) X and ||z_i|| <= (1 + Lip F)||y_i|| + ||b_1|| |W_2|_col + ||b_2||: "
        "x_max grows at most geometrically in L, linearly in max ||WE + PE||.",
        spec=("spec.bounds.bound_G_activations", "spec.transformer.compute_model_norms"),
        lean=("HardSoft.activation_growth", "HardSoft.activation_growth_layers"),
        tests=(
            "tests/spec/test_statements.py::test_property_holds",
            "tests/checks/test_lean_statement_twins.py::test_wrong_statement_twin_rejected",
        ),
        not_covered="No SMT check. Tested only: that spec.bound_G_activations and compute_model_norms compute these bounds from a model's "
        "weights (the column sums, Lip F = |W1|_col |W2|_col, the bias norms); layer norm is not part of the model.",
    ),
    Claim(
        "Q",
        "Proposition 24 (positive gap)",
        "An AHAT has finitely many inputs of length n, so gamma_T(n) is the minimum of finitely many positive gaps (or +inf): "
        "measured exhaustively, it is > 0 and no input has a smaller gap. Scores within the model's tie tolerance (tie_rtol) of the row "
        "maximum count as tied: the gap is the row maximum minus the largest score not tied, and the spread of the tied ones is measured too.",
        spec=("spec.transformer.measure", "spec.transformer.enumerate_inputs", "spec.bounds.is_gap_positive"),
        tests=(
            "tests/spec/test_statements.py::test_property_holds",
            "tests/spec/test_transformer.py::test_measure_exhaustive_counts",
            "tests/spec/test_modelio_v3.py::test_tie_tolerance_decides_whether_a_float32_near_tie_is_a_tie",
        ),
        not_covered="No Lean or SMT statement, on purpose: Proposition 24 is that a minimum of finitely many positive numbers is positive, "
        "which a Lean theorem would only restate; what can be wrong is the measurement, that gamma_T(n) is the minimum over every input, "
        "layer, head and query, and that is checked by enumerating every input of small models (tests).",
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
        lean=("HardSoft.corrected_offset_le_eps", "HardSoft.printed_offset_not_le"),
        tests=(
            "tests/spec/test_statements.py::test_twin_caught",
            "tests/spec/test_statements.py::test_erratum_offset_plus_grows_as_tau_shrinks",
            "tests/checks/test_lean_statement_twins.py::test_wrong_statement_twin_rejected",
        ),
        kind="erratum",
        not_covered="Assumed, not proved: that the real exp has ExpLike's properties (checked by tests/spec/test_exp_facts.py).",
        domains={
            "smt.ERR1.offset_minus_ok": {"K": ("K > 0",), "X": ("X > 0",), "gamma": ("gamma > 0",), "eps": ("eps > 0",), "t": ("t > 0",)},
        },
    ),
    Claim(
        "ERR2",
        "Erratum 2 (condition on eps in Theorem 26)",
        "The printed eps(n) <= alpha/n^beta must read eps(n) >= alpha/n^beta: the O-form 1/tau = O((1/gamma) log(n x_max/gamma)) "
        "fails when eps shrinks faster than any polynomial (e.g. eps = e^{-n}); statement T keeps the log(1/eps) term.",
        spec=("spec.bounds.erratum_o_form_inverse_temperature",),
        lean=("HardSoft.eps_upper_bound_not_certified", "HardSoft.bound_le_eps_of_eps_lower_bound"),
        tests=(
            "tests/spec/test_statements.py::test_erratum_o_form_fails_for_exponentially_small_eps",
            "tests/checks/test_lean_statement_twins.py::test_wrong_statement_twin_rejected",
        ),
        kind="erratum",
        not_covered="Assumed, not proved: that the real exp has ExpLike's properties and fact F1 (checked by tests/spec/test_exp_facts.py). "
        "Tested only: the spec's O-form function (erratum_o_form_inverse_temperature) and its failure at eps = e^{-n}.",
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
        lean=(
            "HardSoft.unguarded_err_unbounded",
            "HardSoft.exists_err_gt_of_one_lt_bound",
            "HardSoft.forall_err_le_bound_iff",
            "HardSoft.not_score_err_le_of_one_lt",
        ),
        tests=("tests/spec/test_statements.py::test_C_guard_counterexample", "tests/spec/test_statements.py::test_twin_caught"),
        kind="erratum",
        not_covered="Nothing of the statement: Lean proves it for every depth L >= 2 (unguarded_err_unbounded) and sharp "
        "(forall_err_le_bound_iff), and the score step's failure for every eps > 1; the SMT countermodels are replayed in the spec.",
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
        smt=(
            "smt.L7.parabola",
            "smt.L7.wrong_loss_2K",
        ),
        lean=(
            "HardSoft.lookup_gap",
            "HardSoft.lookup_gap_bounded",
            "HardSoft.lookup_past",
            "HardSoft.lookup_future",
            "HardSoft.lookup_past_bounded",
            "HardSoft.lookup_future_bounded",
            "HardSoft.lookup_two_sided",
            "HardSoft.lookup_two_sided_bounded",
        ),
        tests=(
            "tests/constructive/test_heads_lean_formulas.py::test_lookup_scores_are_the_lean_formula",
            "tests/constructive/test_heads_lean_formulas.py::test_wrong_lookup_builder_fails",
            "tests/constructive/test_logic_compiler.py::test_build_lookup_reads_the_target_and_mass_off_is_within_lemma_7",
            "tests/constructive/test_logic_compiler.py::test_build_lookup_bounded_needs_tau_c_over_n_squared",
            "tests/constructive/test_logic_compiler.py::test_every_head_mass_off_within_its_lemma_bound",
            "tests/checks/test_lean_headmass.py::test_wrong_head_mass_rejected",
        ),
        not_covered="Lean proves the gap, the one-sided mass bound e^{-K/tau} (past and future, both regimes) and the two-sided bound 2x/(1-x) (both regimes, lookup_two_sided and lookup_two_sided_bounded), for every n. Not proved: that the built head computes the Lean formula (tested for every n <= 32, tests/constructive/test_heads_lean_formulas.py). For a compiled program without comparisons of counts (TL, B-RASP), `hardsoft certify` (docs/certify.md) proves in Lean, for every n, that its model as compiled holds the program's value at every position, hard and soft at the temperature rule: its heads are checked to be this construction over the right coordinates and composed by HardSoft.Cert.certified_of_check (the checker evaluated by the kernel on the program's weights, one theorem per program).",
        domains={"smt.L7.parabola": {"n": ("n >= 1",), "j": ("j >= 0", "j <= n - 1")}},
    ),
    Claim(
        "L8",
        "Lemma 8 (tie-breaking)",
        "Rightmost (leftmost) unique-hard attention to the selected keys j < i (j > i) becomes a unique maximum with scores "
        "K(select_j +- j/n) (bounded) or K(n select_j +- j) (unbounded); for every selection the sorted scores form a ziggurat "
        "with step gap = K/n (resp. K), checked for every selection and query up to n = 12 (tests) and by Z3 up to the preset "
        "bound (smt.L8.tiebreak_ziggurat), and, as the rank inequality, for every n by Z3 (smt.L8.rank_every_n). Since/until "
        "read the nearest "
        "key where g | !f holds; Y/X are the all-selected case.",
        spec=("constructive.heads.tiebreak_head", "constructive.heads.build_tiebreak"),
        smt=(
            "smt.L8.rank_every_n",
            "smt.L8.wrong_rank_step_2K_over_n",
            "smt.L8.tiebreak_ziggurat",
            "smt.L8.wrong_gap_2K_over_n",
        ),
        lean=(
            "HardSoft.tiebreak_past_bounded",
            "HardSoft.tiebreak_future_bounded",
            "HardSoft.tiebreak_past_unbounded",
            "HardSoft.tiebreak_future_unbounded",
            "HardSoft.softmax_mass_off_top_le_of_keys",
        ),
        tests=(
            "tests/constructive/test_heads_lean_formulas.py::test_tiebreak_scores_are_the_lean_formula",
            "tests/constructive/test_heads_lean_formulas.py::test_wrong_tiebreak_builder_fails",
            "tests/constructive/test_heads_lean_formulas.py::test_one_hot_select_scores_are_the_tiebreak_lean_formula",
            "tests/constructive/test_heads_lean_formulas.py::test_wrong_one_hot_select_builder_fails",
            "tests/constructive/test_logic_compiler.py::test_tiebreak_ziggurat_for_every_selection_up_to_n_12",
            "tests/constructive/test_logic_compiler.py::test_tiebreak_ziggurat_inequality_for_every_n_by_z3",
            "tests/constructive/test_logic_compiler.py::test_build_tiebreak_selects_the_nearest_and_mass_off_is_within_Z",
            "tests/constructive/test_logic_compiler.py::test_every_head_mass_off_within_its_lemma_bound",
        ),
        not_covered="Not proved: that the built head computes the Lean scores (tested: every selection to n = 8, sampled to n = 32; S-RASP's one-hot order and != selects, whose scores 2 sel +- j/n are this family with K = 2 at length 2n, on every word to n = 6); the SMT checks cover every selection only up to the preset bound (the rank inequality for every n). For a compiled program without comparisons of counts (TL, B-RASP), `hardsoft certify` (docs/certify.md) proves in Lean, for every n, that its model as compiled holds the program's value at every position, hard and soft at the temperature rule: its heads are checked to be this construction over the right coordinates and composed by HardSoft.Cert.certified_of_check (the checker evaluated by the kernel on the program's weights, one theorem per program).",
        domains={
            "smt.L8.rank_every_n": {"n": ("n >= 2",), "i": ("i >= 1", "i <= n - 1"), "jstar": ("jstar >= 0", "jstar < i")},
            "smt.L8.tiebreak_ziggurat": {"K": ("K > 0",)},
        },
    ),
    Claim(
        "ZU",
        "Lemma 6 (ziggurat) as used by the compiler",
        "Every tie-breaking and one-sided lookup head of a compiled formula has softmax mass off its hard choice <= "
        "e^{-gap/tau} = e^{-K/c} = 1/(16 m) at the regime's temperature (tau = c/n with gap 1/n, or tau = 1 with gap K), for "
        "every n; the FFN's clamps tolerate 1/(4m) per leaf, so the soft run decodes exactly like the hard one.",
        spec=("constructive.heads.ziggurat_mass_bound", "constructive.logic.compiler.CompiledFormula", "constructive.logic.selfcheck.head_masses"),
        smt=("smt.ZU.rule_mass_off", "smt.ZU.wrong_thirty_second"),
        lean=(
            "HardSoft.tiebreak_past_bounded_at_rule",
            "HardSoft.tiebreak_future_bounded_at_rule",
            "HardSoft.tiebreak_past_unbounded_at_rule",
            "HardSoft.tiebreak_future_unbounded_at_rule",
            "HardSoft.lookup_past_at_rule",
            "HardSoft.lookup_future_at_rule",
            "HardSoft.softmax_output_err_le",
            "HardSoft.softmax_output_err_le_offMass",
            "HardSoft.clampUnit_eq_one",
            "HardSoft.clampUnit_eq_zero",
            "HardSoft.softmax_mass_off_top_le_of_distinct",
        ),
        tests=(
            "tests/constructive/test_logic_compiler.py::test_every_head_mass_off_within_its_lemma_bound",
            "tests/constructive/test_logic_compiler.py::test_measured_gap_is_at_least_the_claimed_gap",
            "tests/constructive/test_logic_compiler.py::test_family_slice_exhaustive_to_length_6",
            "tests/checks/test_lean_headmass.py::test_wrong_head_mass_rejected",
            "tests/smt/test_prec_zu_smt.py::test_zu_rule_is_the_compilers",
            "tests/smt/test_prec_zu_smt.py::test_zu_twin_fails_on_a_compiled_head",
            "tests/smt/test_prec_zu_smt.py::test_planted_zu_defects_are_caught",
        ),
        not_covered="Lean proves, for every n: the read-out clamp exact (1 on the intended assignment, 0 on every other, each leaf within 1/(4m)); the temperature rule for every tie-breaking head (past and future; bounded at tau = c/n with exp(-1/c) <= x, unbounded at tau = 1 with exp(-K) <= x) and for the one-sided lookups at tau = 1: mass off <= x (= 1/(16m) at the compilers' c and K; over Rat the bound is a variable x, since the only ExpLike there is the constant 1); and that a head's output error is at most its mass off (values within 1 of the hard output). SMT (smt.ZU.rule_mass_off) checks the rule itself with the compiler's constants (16 = spec.constants.ZU_MASS_DIVISOR): the rule's equations give gap/tau = ln(16 m) in both regimes for every n >= 1 and every m >= 1 (symbolic), so x = e^{-gap/tau} = 1/(16 m) (exp fact F7), and N keys whose sorted scores form a ziggurat of step gap have mass off the top <= 1/(16 m), for N up to the preset bound only (that these heads' scores form that ziggurat is smt.L8.*, smt.L7.parabola and Lean; the transcription spec.bounds.compute_zu_rule of the compiler's constants is tied to compiled formulas by tests, not proved). Not proved: that the compiled heads compute the Lean score formulas (tested), the arithmetic from per-head errors to each leaf's tolerance 1/(4m) through the residual stream, and the composition over layers (a whole compiled formula decoding like its hard run): checked exhaustively only (every string up to the tested length). For a compiled TL, B-RASP or C-RASP program (comparisons of counts included, those mixing past and future counts too), `hardsoft certify` (docs/certify.md) proves in Lean, for every n, that its model as compiled holds the program's value at every position, hard and soft at the temperature rule: its heads are checked to be this construction over the right coordinates and composed by HardSoft.Cert.certified_of_check (the checker evaluated by the kernel on the program's weights, one theorem per program). With a mixed comparison the rule is the mixed one, tau = c/max(n-1, 1) <= c (unbounded) or c/(n^2 max(n-1, 1)) <= c/n (bounded), and every head of this claim keeps its bound there (exp(-K/tau) <= exp(-K/c) unbounded, exp(-(K/n)/tau) <= exp(-K/c) bounded; exp monotone: HardSoft.Cert.mass_le_errRule_unbounded and the bounded families' proofs).",
        domains={
            # the rule's parameters (tau, the gap and x are the rule's functions of them: the claim's own hypotheses)
            "smt.ZU.rule_mass_off": {"n": ("n >= 1",), "m": ("m >= 1",), "L": ("L > 0",)},
        },
    ),
    Claim(
        "CNT",
        "Counting (TL with past/future counts; C-RASP-style uniform attention)",
        "#<[f]/i, #>[f]/(n-1-i) and the inclusive #<=[f]/(i+1) (C-RASP's count) are uniform averages (all scores tie: "
        "soft = hard exactly, gap +inf); a comparison "
        "sum c_k #_k + c_0 > 0 becomes V_i = N_i/max(D_i, 1) with a half-integer N_i, so |V_i| >= 1/(2(n-1)); the parity sign "
        "head (scores K o V_i p_j, or K o V_i n p_j) has gap >= K/n (resp. K) and mass off <= 2 e^{-K/c}. A comparison mixing "
        "past and future counts is compiled through a lookup over positions per count (Lemma 7 with the positions as the table: "
        "scores (S_i^2 - (p - S_i)^2)/D_i, gap >= 1/(n-1), bounded 1/(n^2 (n-1))) at its own temperature rule "
        "(tau = 1/(max(n-1,1) ln(32 C)) unbounded, 1/(n^2 max(n-1,1) ln(32 C)) bounded).",
        spec=(
            "constructive.heads.count_head",
            "constructive.heads.inclusive_count_head",
            "constructive.heads.sign_head",
            "constructive.logic.compiler.compile_formula",
        ),
        smt=(
            "smt.CNT.sign_margin",
            "smt.CNT.wrong_sign_margin_1_over_n_minus_1",
            "smt.CNT.uniform_scores",
            "smt.CNT.wrong_count_positive_gap",
        ),
        lean=(
            "HardSoft.softmax_eq_uniform_of_const",
            "HardSoft.sign_gap_bounded",
            "HardSoft.sign_gap_unbounded",
            "HardSoft.sign_head_bounded",
            "HardSoft.sign_head_unbounded",
            "HardSoft.softmax_output_err_le_offMass",
            "HardSoft.position_lookup_at_rule",
            "HardSoft.position_lookup_bounded_at_rule",
            "HardSoft.position_lookup_copy_at_rule",
            "HardSoft.position_lookup_copy_bounded_at_rule",
        ),
        tests=(
            "tests/constructive/test_heads_lean_formulas.py::test_count_head_scores_are_constant",
            "tests/constructive/test_heads_lean_formulas.py::test_position_lookup_scores_are_the_lean_formula",
            "tests/constructive/test_heads_lean_formulas.py::test_wrong_position_lookup_builders_fail",
            "tests/checks/test_lean_mass_off.py::test_wrong_mass_off_rejected",
            "tests/constructive/test_heads_lean_formulas.py::test_sign_head_gap_is_the_lean_quantity",
            "tests/constructive/test_heads_lean_formulas.py::test_sign_head_scores_are_the_lean_formula",
            "tests/constructive/test_logic_compiler.py::test_counting_heads_are_exact_in_soft_mode_and_comparison_values_keep_their_margin",
            "tests/constructive/test_logic_compiler.py::test_every_head_mass_off_within_its_lemma_bound",
            "tests/constructive/test_logic_compiler.py::test_handpicked_exhaustive_to_length_8",
            "tests/checks/test_lean_headmass.py::test_wrong_head_mass_rejected",
            "tests/constructive/test_logic_inclusive.py::test_inclusive_comparisons_compile_exactly",
        ),
        not_covered="Lean proves, for every n: exact uniform weights for equal scores (soft = hard at every tau), the sign head's gap for |V| = (2m+1)/(2D), its mass bound (mass off the selected parity group <= 2x at tau = c/n with exp(-K/c) <= x, and <= 2 e^{-K/tau} unbounded), and the head's output error <= its mass off. Not proved: that the compiler's V has that form and that the built heads compute the Lean score formulas (tested); SMT: n beyond the preset bound. The lookups over positions of mixed comparisons: Lean proves their mass bound at the mixed rule for every n (scores 2 f p - (1/D) p^2 at f = S/D, D <= max(n-1, 1), tau = 1/(max(n-1,1) L): mass off p = S <= 2x/(1-x) when exp(-L) <= x, x = 1/(32 C) at L = ln(32 C); bounded: keys p/n, tau = 1/(n^2 max(n-1,1) L)) and their copy error at the same rule (|sum_p w_p p - S| (1-x)^2 <= 2x when also x <= 1, so <= 2x/(1-x)^2 for x < 1); not proved for every formula: the margin the copy error leaves N and V, derived in constructive.logic.compiler and tested (every string to length 8, random formulas, per-head mass and copy error to n = 40), and decided by the kernel for each certified program (below), and that the compiler's heads are position_lookup_spec with f = S/D (the spec's scores are the Lean formula: tested for every n <= 32, D and S). Inclusive counts (#<=, C-RASP's): their D = i + 1 reaches n, inside the Lean sign theorems' hypotheses (the gaps for 1 <= D <= n, the non-vacuity theorems at D = n = 2 where the bound is tight; the head mass bounds for 1 <= D <= n and n >= 2, where both parity groups have keys); at n = 1 the sign head has one key and the correction W = [N < 0] decides, tested (every string to length 6 hard and soft in both regimes, the C-RASP library and random programs, a planted missing W) and proved for every n in each certified program. Certified: `hardsoft certify` proves, for every n, the compiled models of comparisons of inclusive counts (every C-RASP program; docs/certify.md): the checker's count family (a tied head whose columns are the comparison's terms and its constant r - 1/2, so V = N/(i+1) exactly: HardSoft.Cert.tie_out_past), the group writing W, and the sign family (exactly [V > 0] hard, within 2 errRule soft for n >= 2: HardSoft.Cert.sign_out_hard, sign_out_soft_bounded, sign_out_soft_unbounded; 1 - W = [N > 0] at n = 1), composed by HardSoft.Cert.certified_of_check. Strict comparisons (every count #< or every count #>) are certified too: the constant part of V, r - 1/2 times 1/max(i,1) (#<) or 1/max(n-1-i,1) (#>), written by the position embedding or two FFN units, count heads of the terms only, the sign head of orientation [r >= 1] with no W, and the flipped clamp for orientation -1 (a table or gate reading the comparison in its sign head's layer clamps its effective value 1 - s: the checker's flipOf). Mixed comparisons (#< with #>) are certified in both regimes. Unbounded: the checker's average columns (a count head's column of coefficient 1 writing #_d[x]/D exactly, Role.avg), its lookup family over positions (Family.plk: the query 2 on the average and -1 on 1/max(D, 1), keys p and p^2, value p; exactly the count S hard, within copyErr = 2 errLk/(1 - errLk)^2 soft at the mixed rule tau = c/max(n-1, 1), errLk = (1 + (1/c)/k)^(-k) >= exp(-1/c), from position_lookup_copy_at_rule with D <= max(n-1, 1): HardSoft.Cert.plk_out_hard, HardSoft.Cert.plk_out_soft), and the mixed clamp (GroupD.mix: clamp(2N + 1/2) from the copies, exact when sum_k |c_k| copyErr <= 1/4, which the kernel decides per certificate: HardSoft.Cert.mix_val), composed by HardSoft.Cert.certified_of_check (Step.lean's copy_step and mix_step); so the margin the copy error leaves N is proved for each certified program, not only tested. Bounded: each counted node's value / n written exactly by two FFN units (GroupD.scale), averaged by a count column reading it (CntD.sc, Role.avgN: #_d[x]/(n D) exactly), V's constant (r - 1/2)/n (GroupD.vpre), lookups over positions p/n (Family.plkN: the unbounded scores divided by n^2, so at tau = c/(n^2 max(n-1, 1)) the same copy error copyErr, from position_lookup_copy_bounded_at_rule; each adds c_k p/n into V: HardSoft.Cert.plkN_out_hard, HardSoft.Cert.plkN_out_soft), so V is N/n exactly hard and within sum_k |c_k| copyErr / n <= 1/(4n) soft (HardSoft.Cert.vmix_val), the invariant's one approximate role (Role.vmix, Role.approx; the layer check plkNOK requires the served terms to be the comparison's and the budget <= 1/4, decided by the kernel per certificate), and the sign head reading that V (o V >= 1/(4n), gap >= K/(2n), mass off within 2 errRule at the rule for n >= 2: HardSoft.Cert.sign_raw_vmix), composed by HardSoft.Cert.certified_of_check.",
        domains={
            # V = N / max(D, 1), N = h + 1/2 for any integer h, D a count in 0..n-1, o = +-1
            "smt.CNT.sign_margin": {
                "D": ("integer(D)", "D >= 0", "D <= n - 1"),
                "h": ("integer(h)",),
                "K": ("K > 0",),
                "o": ("Or(o == 1, o == -1)",),
            },
            "smt.CNT.uniform_scores": {"xq_[0-9]*": (), "x_[0-9]*": ()},  # every residual stream
        },
    ),
    Claim(
        "APP-FF",
        "Applications: flip-flop (Liu et al. 2023), gap 1/n",
        "The one-layer AHAT for the flip-flop language (a read returns the last written bit) has gap gamma_T(n) = 1/n "
        "exactly, and the softmax transformer with the same parameters decides every input at tau = 1/(2n) "
        "(ziggurat with step 1/n: mass off the top <= e^{-2} < 1/4, removed exactly by a clean-up FFN).",
        spec=("constructive.applications.build_flip_flop", "constructive.applications.reference_flip_flop", "constructive.audit.check_construction"),
        smt=("smt.APP-FF.head_gap", "smt.APP-FF.wrong_head_gap_2_over_n"),
        lean=("HardSoft.flip_flop_head", "HardSoft.tiebreak_past_bounded_at_half_tau", "HardSoft.tiebreak_past_bounded"),
        tests=(
            "tests/constructive/test_heads_lean_formulas.py::test_flip_flop_head_is_the_bounded_past_tiebreak",
            "tests/constructive/test_heads_lean_formulas.py::test_flip_flop_scores_are_the_lean_formula_for_every_input",
            "tests/smt/test_heads_smt.py::test_app_head_scores_are_the_built_heads",
            "tests/constructive/test_heads_lean_formulas.py::test_wrong_application_builders_fail",
            "tests/checks/test_lean_applications.py::test_wrong_application_gap_rejected",
            "tests/constructive/test_applications.py::test_exhaustive_hard_and_soft",
            "tests/constructive/test_applications.py::test_gap_matches_claim",
            "tests/constructive/test_applications.py::test_references_by_hand",
        ),
        not_covered="Not proved: that the built head computes [write_j] + j/n (tested for every symbol at every key and query, n <= 32), the clean-up FFN's exact restoration of the bit, and the read-out: checked exhaustively to n = 10 and sampled to n = 256. `hardsoft certify` does not cover this model. What a certificate would need: a description of a hand-built model (certificate.describe replays the TL compiler's schedule; this model is built directly by constructive.applications or the S-RASP compiler), the target language as a program of the certificate's logic (its reference is a Python function), and checker families, invariant roles and layer_step cases for its head's score [write_j] + j/n and its read-out (the families' gap and mass lemmas above are proved; the checker does not use them).",
        domains={"smt.APP-FF.head_gap": {"n": ("n >= 1",), "a_j": ("a_j >= 0", "a_j <= 1"), "a_t": ("a_t >= 0", "a_t <= 1")}},
    ),
    Claim(
        "APP-IND",
        "Applications: basic induction head, tau = Theta(1/n)",
        "The two-layer AHAT induction head (output the token after the previous occurrence of the current token, '-' if "
        "none) has gap gamma_T(n) = 1/n exactly and decides every input in soft mode at tau = 1/(2n). The same "
        "transduction compiled from TL[since] formulas by the temporal-logic compiler (one formula per output symbol, "
        "a & (!a S (c & Y a)); construction induction-tl: 3 layers, 4 heads) has gap 1/n (n >= 3) and decides every "
        "input at the compiler's tau = c/n.",
        spec=(
            "constructive.applications.build_k_hop",
            "constructive.applications.reference_k_hop",
            "constructive.applications.induction_formulas",
            "constructive.applications.build_induction_tl",
            "constructive.audit.check_construction",
        ),
        smt=("smt.APP-IND.head_gap", "smt.APP-IND.wrong_head_gap_2_over_n"),
        lean=("HardSoft.induction_prev_head", "HardSoft.induction_hop_head", "HardSoft.indicator_head", "HardSoft.tiebreak_past_bounded_at_half_tau"),
        tests=(
            "tests/constructive/test_heads_lean_formulas.py::test_induction_layer0_scores_are_the_lean_formulas_for_every_input",
            "tests/constructive/test_heads_lean_formulas.py::test_induction_hop_scores_are_the_lean_formula",
            "tests/smt/test_heads_smt.py::test_app_head_scores_are_the_built_heads",
            "tests/constructive/test_heads_lean_formulas.py::test_wrong_application_builders_fail",
            "tests/checks/test_lean_applications.py::test_wrong_application_gap_rejected",
            "tests/constructive/test_applications.py::test_exhaustive_hard_and_soft",
            "tests/constructive/test_applications.py::test_gap_matches_claim",
            "tests/constructive/test_applications.py::test_sampled_long",
        ),
        not_covered="Not proved: that the built heads compute the Lean score formulas (tested: every input for P and S, every word to n = 6 and sampled words to n = 32 for M), the clean-up FFNs, and the composition of the two layers into the output; nor anything of the TL-compiled variant (induction-tl) beyond its compiler's heads: checked exhaustively to n = 8 and sampled to n = 256. `hardsoft certify` does not cover this model. What a certificate would need: a description of a hand-built model (certificate.describe replays the TL compiler's schedule; this model is built directly by constructive.applications or the S-RASP compiler), the target language as a program of the certificate's logic (its reference is a Python function), and checker families, invariant roles and layer_step cases for its previous-token and matching heads' scores (the families' gap and mass lemmas above are proved; the checker does not use them).",
        domains={"smt.APP-IND.head_gap": {"n": ("n >= 1",)}},
    ),
    Claim(
        "APP-KHOP",
        "Applications: k-hop induction heads at tau = Theta(1/n)",
        "The (k+1)-layer AHAT for k-hop induction heads (k = 2, 3 registered) has gap gamma_T(n) = 1/n exactly and decides "
        "every input in soft mode at tau = 1/(2n), the same temperature for every depth (clean-up FFNs); it needs n >= k+1.",
        spec=("constructive.applications.build_k_hop", "constructive.applications.reference_k_hop"),
        smt=("smt.APP-KHOP.head_gap", "smt.APP-KHOP.wrong_head_gap_2_over_n"),
        lean=("HardSoft.induction_prev_head", "HardSoft.induction_hop_head", "HardSoft.indicator_head"),
        tests=(
            "tests/constructive/test_heads_lean_formulas.py::test_induction_hop_scores_are_the_lean_formula",
            "tests/smt/test_heads_smt.py::test_app_head_scores_are_the_built_heads",
            "tests/constructive/test_heads_lean_formulas.py::test_wrong_application_builders_fail",
            "tests/constructive/test_applications.py::test_exhaustive_hard_and_soft",
            "tests/constructive/test_applications.py::test_gap_matches_claim",
            "tests/constructive/test_applications.py::test_too_short_is_an_error",
        ),
        not_covered="Not proved: that the built hop heads compute the Lean formula (tested: every word to n = 6, sampled to n = 16), the clean-ups, and the k-fold composition into the output: checked exhaustively to n = 8 and sampled to n = 256. SMT: smt.APP-KHOP.head_gap proves the gap 1/n of head P (layer 0) and of the hop heads' score formula [j >= 1 and w_(j-1) = w_i] + j/n for every n (symbolic integers; the same queries as smt.APP-IND.head_gap); that every hop layer of the 2- and 3-hop models has that formula is tested (every word to n = 5 in test_app_head_scores_are_the_built_heads, to n = 16 sampled in test_induction_hop_scores_are_the_lean_formula), not proved. `hardsoft certify` does not cover this model. What a certificate would need: a description of a hand-built model (certificate.describe replays the TL compiler's schedule; this model is built directly by constructive.applications or the S-RASP compiler), the target language as a program of the certificate's logic (its reference is a Python function), and checker families, invariant roles and layer_step cases for its hop heads' score [j >= 1 and w_(j-1) = w_i] + j/n and the k-fold chaining (the families' gap and mass lemmas above are proved; the checker does not use them).",
        domains={"smt.APP-KHOP.head_gap": {"n": ("n >= 1",)}},
    ),
    Claim(
        "APP-PA",
        "Applications: an S-RASP comparison of prefix sums, gap Omega(1/n^3)",
        "Prefix-argmax (the token at the last position of maximal prefix frequency of 'a') compiled to a two-layer AHAT "
        "has gap gamma_T(n) = 1/n^3 exactly and decides every input in soft mode at tau = 1/(2n^3).",
        spec=("constructive.applications.build_prefix_argmax", "constructive.applications.reference_prefix_argmax"),
        smt=("smt.APP-PA.ratio_gap", "smt.APP-PA.wrong_gap_2_over_n_cubed"),
        lean=("HardSoft.prefix_argmax_gap", "HardSoft.prefix_argmax_mass_le", "HardSoft.prefix_argmax_head", "HardSoft.softmax_eq_uniform_of_const"),
        tests=(
            "tests/constructive/test_heads_lean_formulas.py::test_prefix_argmax_scores_are_the_lean_formula",
            "tests/constructive/test_heads_lean_formulas.py::test_wrong_application_builders_fail",
            "tests/checks/test_lean_applications.py::test_wrong_application_gap_rejected",
            "tests/checks/test_lean_mass_off.py::test_wrong_mass_off_rejected",
            "tests/constructive/test_applications.py::test_exhaustive_hard_and_soft",
            "tests/constructive/test_applications.py::test_gap_matches_claim",
        ),
        not_covered="Lean proves, for every n: head A's gap 1/n^3 and its mass bound (mass off the last maximiser <= exp(-(1/n^3)/tau), <= exp(-2) at tau = 1/(2n^3)), and head R's uniform weights. Not proved: that the built heads compute the Lean formulas (tested: every word to n = 6, sampled to n = 32), head B's read-out of the chosen token and the composition of the two layers into the output: measured exhaustively (n <= 8) and sampled to n = 256. `hardsoft certify` does not cover this model. What a certificate would need: a description of a hand-built model (certificate.describe replays the TL compiler's schedule; this model is built directly by constructive.applications or the S-RASP compiler), the target language as a program of the certificate's logic (its reference is a Python function), and checker families, invariant roles and layer_step cases for head A's ratio score c_j/(j+1) + j/n^3, whose inputs are counts, not 0/1 values (the families' gap and mass lemmas above are proved; the checker does not use them).",
        domains={
            "smt.APP-PA.ratio_gap": {"n": ("n >= 1",), "j": ("j >= 0", "j <= n - 1", "j != t"), "t": ("t >= 0", "t <= n - 1")},
        },
    ),
    Claim(
        "APP-DYCK",
        "Applications: Dyck-k through S-RASP (the paper cites Yao et al. 2021)",
        "The Dyck-2 prefix-validity program, written in the project's small S-RASP (constructive.srasp: clamped prefix sums, "
        "equality aggregates, once) and compiled to an 11-layer AHAT with position features i, i^2, 1/max(i,1), i/n, "
        "outputs for every prefix 'in', 'open' or 'bad' exactly as a stack-based reference does; its gap is gamma_T(n) = 1/n "
        "(n >= 3) and it decides every input in soft mode at tau = 1/(n ln(128 n^3)). The compiler agrees with the "
        "S-RASP interpreter on random programs (every sequence, exact integers). Project's own encoding: prefix averages "
        "are turned back into integers by a lookup head over positions, so the gap is Theta(1/n), not the paper's "
        "general Omega(1/n^3), at the price of scores of size ~n^2 (float32 audit: decided to n = 512, not at 528).",
        spec=(
            "constructive.srasp.dyck.dyck_program",
            "constructive.srasp.compiler.compile_program",
            "constructive.srasp.dyck.reference_dyck",
            "constructive.applications.build_dyck",
            "constructive.heads.gated_position_spec",
        ),
        smt=(
            "smt.APP-DYCK.srasp_lookup_gap",
            "smt.APP-DYCK.wrong_srasp_gap_2_over_i",
            "smt.APP-DYCK.partner_gap",
            "smt.APP-DYCK.wrong_partner_gap_2_over_n",
            "smt.APP-DYCK.gated_position_ziggurat",
            "smt.APP-DYCK.wrong_gated_gap_2",
        ),
        lean=(
            "HardSoft.srasp_lookup_gap",
            "HardSoft.srasp_lookup_gap_neg",
            "HardSoft.position_lookup_at_rule",
            "HardSoft.position_lookup_copy_at_rule",
            "HardSoft.position_lookup_neg_at_rule",
            "HardSoft.dyck_partner_head",
            "HardSoft.softmax_mass_off_top_le_of_deficits",
            "HardSoft.indicator_head",
            "HardSoft.gated_position_gap",
            "HardSoft.gated_position_copy",
            "HardSoft.gated_slack_at_rule",
            "HardSoft.big_m_product",
        ),
        tests=(
            "tests/constructive/test_heads_lean_formulas.py::test_dyck_partner_scores_are_the_lean_formula",
            "tests/constructive/test_heads_lean_formulas.py::test_gated_position_scores_are_the_lean_formula",
            "tests/constructive/test_heads_lean_formulas.py::test_wrong_gated_builders_fail",
            "tests/constructive/test_heads_lean_formulas.py::test_gated_span_n_scores_are_the_lean_formula",
            "tests/constructive/test_heads_lean_formulas.py::test_wrong_gated_span_n_builder_fails",
            "tests/constructive/test_srasp_verify.py::test_big_m_products_meet_the_lean_hypotheses",
            "tests/constructive/test_srasp_verify.py::test_wrong_big_m_products_fail_the_lean_hypotheses",
            "tests/constructive/test_heads_lean_formulas.py::test_psum_lookup_scores_are_the_lean_formula",
            "tests/constructive/test_heads_lean_formulas.py::test_srasp_temperature_is_the_lean_rule",
            "tests/constructive/test_heads_lean_formulas.py::test_wrong_position_lookup_builders_fail",
            "tests/constructive/test_heads_lean_formulas.py::test_wrong_application_builders_fail",
            "tests/checks/test_lean_applications.py::test_wrong_application_gap_rejected",
            "tests/checks/test_lean_mass_off.py::test_wrong_mass_off_rejected",
            "tests/constructive/test_srasp.py::test_program_equals_reference_on_every_word",
            "tests/constructive/test_srasp.py::test_compiled_equals_program_hard_and_soft",
            "tests/constructive/test_srasp.py::test_compiler_agrees_with_the_interpreter_on_random_programs",
            "tests/constructive/test_srasp.py::test_planted_defects_are_caught",
            "tests/constructive/test_applications.py::test_exhaustive_hard_and_soft",
            "tests/constructive/test_applications.py::test_gap_matches_claim",
        ),
        not_covered="Lean proves, for every n: the Psum lookup's gap 1/i and its mass bound at the temperature rule tau = 1/(n L) (L = ln(128 n^3): mass off p = S_i <= 2x/(1-x) with x = 1/(128 n^3), and <= x off p = 0 for a negative sum), the partner heads' gap 1/n and mass bound, and Once's 0/1 head. Lean also proves the Psum lookup's copy error at that rule: |sum_p w_p p - S_i| (1-x)^2 <= 2x for x <= 1, so <= 2x/(1-x)^2 for x < 1; and, for the integer-valued selects of the S-RASP compiler, the gated position head's ziggurat (scores (2g - 1) j: every key at least its distance below the target g (N - 1) or 0, gap 1) and its copy error |sum_p w_p p - target| (1-x)^2 <= x at any tau with exp(-1/tau) <= x <= 1 (every key on one side of the target: tight as x -> 0). Lean proves the big-M product ReLU(z + s) - ReLU(-z + s) of the integer conditionals and selects (big_m_product): with z within e of an integer z0, |z0| + 1 <= M K and the slack within d of -M K (1 - b), e + d <= 1, it is exactly 0 when b is false and within e + d of z0 when b is true; and that the compiler's slack at degree 1, M (P + b) - M (i+1) from the gate head's soft copy P, is within d = M x/(1-x)^2 of -M (i+1) (1 - b) (gated_slack_at_rule). Not proved: that the compiled units have that form with M = 2C + 1 against the growth bound |z0| <= 2 C K, z within e = 1/4 and e + d <= 1 (tested on every word to n = 6 for six programs, degree 0, 1 and 2: test_big_m_products_meet_the_lean_hypotheses), the degree-2 slack (the gate head's copy of b i^2, measured < 10^-3), the partner head's mass bound under the scores that copy error perturbs (the module docstring's 1/4), that the compiled heads compute the Lean formulas (tested: every word to n = 5, sampled to n = 32), the clean-ups and IsConst units, and the composition of the 11 layers into the outputs: checked exhaustively to n = 8 and sampled to n = 256 (and the interpreter against a stack reference). `hardsoft certify` does not cover this model. What a certificate would need: a description of a hand-built model (certificate.describe replays the TL compiler's schedule; this model is built directly by constructive.applications or the S-RASP compiler), the target language as a program of the certificate's logic (its reference is a Python function), and checker families, invariant roles and layer_step cases for the Psum lookup, the partner and gated position heads and the big-M products, whose coordinates hold integers (prefix sums, depths) the invariant's roles do not (the families' gap and mass lemmas above are proved; the checker does not use them).",
        domains={
            # the prefix sum S of a query i >= 1 lies in -i..i; keys p in 0..i other than the target max(0, S)
            "smt.APP-DYCK.srasp_lookup_gap": {
                "i": ("integer(i)", "i >= 1"),
                "S": ("integer(S)", "S >= -i", "S <= i"),
                "p": ("integer(p)", "p >= 0", "p <= i", "p != If(S >= 0, S, 0)"),
            },
            "smt.APP-DYCK.gated_position_ziggurat": {"N": ("N >= 1",), "g": ("Or(g == 0, g == 1)",), "p": ("p >= 0", "p <= N - 1")},
            "smt.APP-DYCK.partner_gap": {
                "n": ("n >= 1",),
                "i": ("i <= n",),
                "j": ("j >= 0", "j < i", "j != t"),
                "t": ("t >= 0", "t < i"),
                "dj": ("dj >= 0",),
                "dt": ("dt >= 0",),
                "di": ("di >= 0",),
                "oj": ("Or(oj == 0, oj == 1)",),
                "ot": ("Or(ot == 0, ot == 1)",),
            },
        },
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
        smt=("smt.PREC.rounded_ziggurat", "smt.PREC.wrong_half_spacing"),
        lean=("HardSoft.rounded_ziggurat", "HardSoft.rounded_mass_off_top_le", "HardSoft.rounded_mass_off_top_le_margin"),
        tests=(
            "tests/checks/test_lean_headmass.py::test_wrong_head_mass_rejected",
            "tests/constructive/test_lowprec.py::test_float16_differs_where_rounding_predicts",
            "tests/constructive/test_lowprec.py::test_overflow_names_the_step",
            "tests/constructive/test_applications.py::test_predicted_breakdown_values",
            "tests/constructive/test_applications.py::test_flip_flop_float16_breaks_where_predicted",
            "tests/constructive/test_applications.py::test_predicted_safe_is_below_the_breakdown",
            "tests/constructive/test_applications.py::test_predicted_safe_is_the_lean_rule",
            "tests/constructive/test_applications.py::test_planted_halved_spacing_in_predicted_safe_is_caught",
            "tests/constructive/test_applications.py::test_score_bound_bounds_every_score",
            "tests/smt/test_prec_zu_smt.py::test_planted_prec_defects_are_caught",
        ),
        not_covered="Lean proves, for every N: scores forming a ziggurat of step gamma, each rounded to within half a spacing u <= gamma, "
        "form a ziggurat of step gamma - u (rounded_ziggurat), so the rounded scores' softmax mass off the top is <= exp(-(gamma - u)/tau) "
        "(rounded_mass_off_top_le), and <= margin wherever predicted_safe's rule exp(-(gamma - u)/tau) <= margin holds "
        "(rounded_mass_off_top_le_margin). SMT checks the same (the rounded step and, through the exp abstraction, the mass bound) for "
        "N up to the preset bound (smt.PREC.rounded_ziggurat); its twin, the step gamma - u/2, is refuted and replayed. "
        "Tested, not proved: that predicted_safe's condition is those hypotheses (u the storage "
        "format's spacing at the score bound S, which bounds every rounding error of |x| <= S by u/2; (gamma - u)/tau >= ln(1/margin) iff "
        "exp(-(gamma - u)/tau) <= margin; margin < 1, so u < gamma: test_predicted_safe_is_the_lean_rule, every construction and format, "
        "a planted halved spacing caught), that score_bound(n) bounds every head's scores (tested to n = 6 and at n = 24), and that the "
        "heads' scores form a ziggurat of step gamma(n) (each construction's own claim). Assumed, neither proved nor checked: the rounding "
        "model itself, every score moved by at most half a spacing of the storage format at S; the activations, the products' own "
        "rounding (scores accumulated in float32, then rounded once), the mixed formats' float32 scores (modelled by their low-format "
        "keys) and the softmax's own rounding are not modelled, so predicted_safe remains a prediction for real runs. Only measured: the "
        "breakdown side (predicted_breakdown: gamma(n) < ulp(S), or 1/tau(n) overflowing the softmax's format) and the lengths the "
        "low-precision runs decide (tests and the audit).",
        domains={
            "smt.PREC.rounded_ziggurat": {
                "gamma": ("gamma > 0",),
                "u": ("u >= 0", "u <= gamma"),
                "tau": ("tau > 0",),
                "x": ("x > 0", "x <= 1"),  # x = exp(-(gamma - u)/tau)
            },
        },
    ),
    Claim(
        "TRANS",
        "B-RASP and C-RASP programs enter Theorem 26's certificates through their translation to the temporal logic (the RASP papers' translations; the project's rules)",
        "B-RASP's attention P(i) = DIR_j [M(i,j), S(i,j)] V(j) : D(i) (leftmost or rightmost, mask past, future or all) equals, at "
        "every position of every length, the since / until formula the translation builds for it, for each of the six cases and after "
        "the split of a selector on its query vectors; C-RASP's count #[j <= i] P(j) is the logic's inclusive count #<= and its "
        "comparisons of counts are the logic's comparison nodes; a translation correct for a whole program (TranslationCorrect) makes "
        "a certified model compute the program's own output, hard and soft, for every n.",
        spec=("constructive.lang.brasp.attention_formula", "constructive.lang.brasp.to_formulas", "constructive.lang.crasp.to_formulas"),
        lean=(
            "HardSoft.Cert.attnFormula_iff",
            "HardSoft.Cert.attnFormula_query_split",
            "HardSoft.Cert.attnFormula_nodes",
            "HardSoft.Cert.holds_since_tSince",
            "HardSoft.Cert.holds_until_tUntil",
            "HardSoft.Cert.rpF_not_leftmost_past",
            "HardSoft.Cert.craspCount_eq_countIn",
            "HardSoft.Cert.holds_craspCmpNode",
            "HardSoft.Cert.certified_of_translation",
        ),
        tests=(
            "tests/constructive/test_brasp_rules.py::test_every_attention_rule_matches_the_definition_on_every_word",
            "tests/constructive/test_brasp_rules.py::test_a_wrong_side_of_an_all_mask_is_caught",
            "tests/constructive/test_lang.py::test_library_program_equals_its_hand_written_tl_formula_to_length_8",
            "tests/checks/test_lean.py::test_translation_pins_are_consistent",
        ),
        not_covered="Lean proves, for every n and every position, each rule of the translation (lean/HardSoft/Cert/Translate.lean): "
        "the six attention cases against the interpreter's definition (attnFormula_iff; a wrong rule refuted: rpF_not_leftmost_past), "
        "over DAG nodes that translate K, V and D (attnFormula_nodes), the split on query vectors (attnFormula_query_split), C-RASP's "
        "inclusive count and its comparisons (craspCount_eq_countIn, holds_craspCmpNode), and that a translation meeting "
        "TranslationCorrect gives the program's own output from a certified model (certified_of_translation). Not proved: that the "
        "Python translation (to_formulas) builds exactly these formulas and meets TranslationCorrect for a whole program, its Boolean "
        "folding (t_not, t_and, t_or, assume_symbol) and C-RASP's conditional pieces included: tested against the interpreters (every "
        "word to length 8, every rule on every word to its tested length, a wrong all-mask side planted). The Lean definitions mirror "
        "the Python text; they are read, not proved equal to it.",
    ),
    Claim(
        "CERT",
        "Theorem 26 for one compiled program, for every input length (the project's statement; the paper proves its constructions by hand)",
        "A certificate checker, proved sound once in Lean: if it accepts a compiled model's rational weights with the compiler's "
        "description of them, then for every word over the alphabet, of every length n >= 1, and every position i, the model's root "
        "coordinate after the last layer is exactly [the program holds at i], in hard (average-hard) attention and in softmax at the "
        "regime's temperature rule (tau(n) = c/n bounded, 1 unbounded; with a comparison mixing past and future counts c/max(n-1, 1) unbounded, c/(n^2 max(n-1, 1)) bounded), over any ordered field with an exponential meeting 1 + x <= exp x.",
        spec=("constructive.logic.compiler.compile_formula",),
        lean=("HardSoft.Cert.certified_of_check", "HardSoft.Cert.certified_hard_of_check"),
        tests=(
            "tests/checks/test_lean.py::test_real_project_every_theorem_proved",
            "tests/checks/test_lean.py::test_pin_module_text",
            "tests/checks/test_certify_lean.py::test_certified",
            "tests/checks/test_certify_lean.py::test_plant_rejected_by_lean_and_named",
            "tests/checks/test_certify.py::test_description_passes_the_mirror",
        ),
        not_covered="Lean proves the checker sound for every n, word and position (certified_of_check, certified_hard_of_check) and that it "
        "accepts a real compiled model (Y a: nonvacuous_certified_hard_of_check, checked by kernel evaluation). Not proved: that the Python "
        "compiler always produces a model the checker accepts (each certificate is checked on its own: hardsoft certify); that the translation "
        "of a whole B-RASP or C-RASP program to TL is correct (each of its rules is proved, claim TRANS; the whole program is tested: every "
        "word to n = 8 against their interpreters); exp's fact F1 (1 + x <= exp x, a "
        "hypothesis, checked of the real exp in tests/spec/test_exp_facts.py). Covered by the checker: every temporal-logic formula the "
        "compiler accepts in both regimes, comparisons of counts included (inclusive, strict, mixed, and constant ones with no count left, "
        "[r > 0] through the symbol-only evaluation), so every B-RASP and C-RASP program through its translation. Not covered by the checker: S-RASP "
        "and the hand-built applications (their heads' families are proved, their composition is tested: see their claims and "
        "docs/trust.md), and floating point (the theorem is over exact arithmetic; PREC is the precision audit).",
    ),
)


def get_claim(claim_id: str) -> Claim:
    """Return the claim with this id (ValueError naming the known ids otherwise)."""
    for c in REGISTRY:
        if c.id == claim_id:
            return c
    raise ValueError(f"unknown claim {claim_id!r}; known: {', '.join(c.id for c in REGISTRY)}")


def tests_shipped() -> bool:
    """Return whether the test suite is at hand (a source tree); an installed wheel ships no tests."""
    tree = locations.source_tree()
    return tree is not None and (tree / "tests").is_dir()
