module

public import HardSoft.Cert.Logic

/-!
# Certificates: B-RASP and C-RASP through their translation to the temporal logic

B-RASP (Yang, Chiang, Angluin 2024) and C-RASP (Yang, Chiang 2024) programs reach the
compiler, and the certificate checker, as temporal-logic formulas (`constructive/lang/brasp.py`
and `crasp.py`, `to_formulas`). This file states what that translation must satisfy and proves
its rules over predicates on positions, for every length `n` and every position `i < n`:

* B-RASP attention `P(i) = DIR_j [M(i, j), K(j)] V(j) : D(i)` (`battend`, as `interpret_word`
  and `_masked` define it) is the formula `attention_formula` builds (`attnFormula`, from the
  strict since / until `tSince`, `tUntil`, which are `holds` of `.since` / `.until` nodes), in all
  six cases of direction and mask (`attnFormula_iff`);
* a selector reading query vectors is split on their values: the attention is the disjunction,
  over every assignment `σ` of the query values, of "the queries are `σ` at `i`" and the attention
  with the key-only selector `S[q := σ]` (`attnFormula_query_split`);
* C-RASP's inclusive count `#[j ≤ i] P(j)` is the logic's `#<=` (`craspCount_eq_countIn`), and a
  comparison `Σ_k c_k C_k + r op 0` is `holds` of the `Node.cmp` the certificate writes for it
  (`holds_craspCmpNode`);
* `TranslationCorrect`: what a whole translated program must satisfy for the certificate
  checker's theorem to speak about the B-RASP or C-RASP program itself.

The simplifications of `t_since` and `t_until` (`false S g = Y g`, `f S false = false` and their
mirror images) are proved too (`tSince_false_left`, ...). Not proved here: that the Python functions
build exactly these formulas (the definitions below mirror their text; the translation is tested
against the interpreters), the Boolean simplifications of `t_not`, `t_and`, `t_or` and
`assume_symbol`, and C-RASP's pieces of conditionals (`Piece`, `_join`, `_merge`).

## Main results

* `HardSoft.Cert.attnFormula_iff`, `HardSoft.Cert.attnFormula_query_split`,
  `HardSoft.Cert.craspCount_eq_countIn`, `HardSoft.Cert.holds_craspCmpNode`.
* `HardSoft.Cert.attnFormula_nodes`: the same over the nodes of a formula DAG that translate the key,
  value and default correctly at the word's positions.
* `HardSoft.Cert.rpF_not_leftmost_past`: the wrong variant (the rightmost rule used for a leftmost
  past attention) is refuted, so the six cases are not interchangeable.
-/

@[expose] public section

set_option autoImplicit false

namespace HardSoft.Cert

/-! ### Strict since and until on predicates -/

/-- Temporal logic (docs/temporal-logic.md), definition: the strict since `F S G` on predicates
over positions: some `j < i` has `G`, and every `k` strictly between `j` and `i` has `F`. -/
def tSince (F G : Nat → Prop) (i : Nat) : Prop :=
  ∃ j, j < i ∧ G j ∧ ∀ k, j < k → k < i → F k

/-- Temporal logic, definition: the strict until `F U G` on a word of length `n`: some `j` with
`i < j < n` has `G`, and every `k` strictly between `i` and `j` has `F`. -/
def tUntil (n : Nat) (F G : Nat → Prop) (i : Nat) : Prop :=
  ∃ j, i < j ∧ j < n ∧ G j ∧ ∀ k, i < k → k < j → F k

/-- Temporal logic: a `.since` node holds exactly when `tSince` of its children's meanings does
(`holds_since`). -/
theorem holds_since_tSince {P : Prog} {w : List Nat} {n g i x y : Nat} (h : nodeAt P g = .since x y)
    (hx : x < g) (hy : y < g) : holds P w n g i ↔ tSince (holds P w n x) (holds P w n y) i :=
  holds_since h hx hy

/-- Temporal logic: an `.until` node holds exactly when `tUntil` of its children's meanings does
(`holds_until`). -/
theorem holds_until_tUntil {P : Prog} {w : List Nat} {n g i x y : Nat} (h : nodeAt P g = .until x y)
    (hx : x < g) (hy : y < g) : holds P w n g i ↔ tUntil n (holds P w n x) (holds P w n y) i :=
  holds_until h hx hy

/-! ### B-RASP attention -/

/-- B-RASP (Yang, Chiang, Angluin 2024), definition: the direction of an attention. -/
inductive BDir where
  /-- `leftmost`: the smallest chosen `j` -/
  | leftmost
  /-- `rightmost`: the largest chosen `j` -/
  | rightmost

/-- B-RASP, definition: the mask of an attention. -/
inductive BMask where
  /-- `past`: `j < i` -/
  | past
  /-- `future`: `j > i` -/
  | future
  /-- `all`: every `j` -/
  | all

/-- B-RASP, definition: the mask `M(i, j)` (`brasp._masked`): past `j < i`, future `j > i`, all
always. -/
def bmask : BMask → Nat → Nat → Prop
  | .past, i, j => j < i
  | .future, i, j => i < j
  | .all, _, _ => True

/-- B-RASP, definition: the positions the attention at `i` may choose on a word of length `n`:
`j < n` with `M(i, j)` and the selector `S(i, j)`. -/
def bchosen (m : BMask) (S : Nat → Nat → Prop) (n i j : Nat) : Prop := j < n ∧ bmask m i j ∧ S i j

/-- B-RASP, definition: `j` is the leftmost (no chosen `k < j`) or the rightmost (no chosen
`k > j`) of the positions `C` chooses. -/
def bpick : BDir → (Nat → Prop) → Nat → Prop
  | .leftmost, C, j => C j ∧ ∀ k, k < j → ¬ C k
  | .rightmost, C, j => C j ∧ ∀ k, j < k → ¬ C k

/-- B-RASP attention (Yang, Chiang, Angluin 2024), definition, as `brasp.interpret_word` computes
it: `P(i) = V(j*)` for `j*` the leftmost or rightmost `j < n` with `M(i, j)` and `S(i, j)`; if there
is none, `P(i) = D(i)`. -/
def battend (d : BDir) (m : BMask) (S : Nat → Nat → Prop) (V D : Nat → Prop) (n i : Nat) : Prop :=
  (∃ j, bpick d (bchosen m S n i) j ∧ V j) ∨ ((∀ j, ¬ bchosen m S n i j) ∧ D i)

/-! ### The formulas of `attention_formula` -/

/-- B-RASP translation (`attention_formula`), definition: `past_any = true S K`, some key before
`i`. -/
def pastAny (K : Nat → Prop) : Nat → Prop := tSince (fun _ => True) K

/-- B-RASP translation, definition: `fut_any = true U K`, some key after `i`. -/
def futAny (n : Nat) (K : Nat → Prop) : Nat → Prop := tUntil n (fun _ => True) K

/-- B-RASP translation, definition: `rp = (!K) S (K & V)`, the nearest key before `i` has `V`. -/
def rpF (K V : Nat → Prop) : Nat → Prop := tSince (fun k => ¬ K k) (fun k => K k ∧ V k)

/-- B-RASP translation, definition: `lf = (!K) U (K & V)`, the nearest key after `i` has `V`. -/
def lfF (n : Nat) (K V : Nat → Prop) : Nat → Prop := tUntil n (fun k => ¬ K k) (fun k => K k ∧ V k)

/-- B-RASP translation, definition: `lp = true S (K & !past_any & V)`, the first key overall is
before `i` and has `V`. -/
def lpF (K V : Nat → Prop) : Nat → Prop := tSince (fun _ => True) (fun k => (K k ∧ ¬ pastAny K k) ∧ V k)

/-- B-RASP translation, definition: `rf = true U (K & !fut_any & V)`, the last key overall is
after `i` and has `V`. -/
def rfF (n : Nat) (K V : Nat → Prop) : Nat → Prop :=
  tUntil n (fun _ => True) (fun k => (K k ∧ ¬ futAny n K k) ∧ V k)

/-- B-RASP translation (`all_mask_sides`), definition: `(near, none on the near side, far, any key
on the far side)` of an `all` mask: leftmost `(lp, !past_any, lf, fut_any)`, rightmost
`(rf, !fut_any, rp, past_any)`. -/
def allMaskSides (n : Nat) (K V : Nat → Prop) : BDir → (Nat → Prop) × (Nat → Prop) × (Nat → Prop) × (Nat → Prop)
  | .leftmost => (lpF K V, fun i => ¬ pastAny K i, lfF n K V, futAny n K)
  | .rightmost => (rfF n K V, fun i => ¬ futAny n K i, rpF K V, pastAny K)

/-- B-RASP translation, definition: the `all` mask's formula from its sides `s`:
`near | here_first & (K & V | !K & (far | !far_any & D))`. -/
def allFormula (s : (Nat → Prop) × (Nat → Prop) × (Nat → Prop) × (Nat → Prop)) (K V D : Nat → Prop) (i : Nat) : Prop :=
  s.1 i ∨ (s.2.1 i ∧ ((K i ∧ V i) ∨ (¬ K i ∧ (s.2.2.1 i ∨ (¬ s.2.2.2 i ∧ D i)))))

/-- B-RASP translation (`attention_formula`), definition: the formula of `DIR_j [M(i, j), K(j)]
V(j) : D(i)` for a key-only selector `K`: past `(rp or lp) | !past_any & D`, future
`(lf or rf) | !fut_any & D`, all `allFormula (allMaskSides ...)`. -/
def attnFormula : BDir → BMask → Nat → (Nat → Prop) → (Nat → Prop) → (Nat → Prop) → Nat → Prop
  | .rightmost, .past, _, K, V, D, i => rpF K V i ∨ (¬ pastAny K i ∧ D i)
  | .leftmost, .past, _, K, V, D, i => lpF K V i ∨ (¬ pastAny K i ∧ D i)
  | .leftmost, .future, n, K, V, D, i => lfF n K V i ∨ (¬ futAny n K i ∧ D i)
  | .rightmost, .future, n, K, V, D, i => rfF n K V i ∨ (¬ futAny n K i ∧ D i)
  | d, .all, n, K, V, D, i => allFormula (allMaskSides n K V d) K V D i

/-! ### The six cases -/

/-- B-RASP translation: `past_any` holds at `i` exactly when some key is before `i`. -/
theorem pastAny_iff {K : Nat → Prop} {i : Nat} : pastAny K i ↔ ∃ j, j < i ∧ K j := by
  unfold pastAny tSince
  constructor
  · rintro ⟨j, hj, hK, _⟩; exact ⟨j, hj, hK⟩
  · rintro ⟨j, hj, hK⟩; exact ⟨j, hj, hK, fun _ _ _ => trivial⟩

/-- B-RASP translation: `fut_any` holds at `i` exactly when some key is after `i` (before `n`). -/
theorem futAny_iff {K : Nat → Prop} {n i : Nat} : futAny n K i ↔ ∃ j, i < j ∧ j < n ∧ K j := by
  unfold futAny tUntil
  constructor
  · rintro ⟨j, hj, hjn, hK, _⟩; exact ⟨j, hj, hjn, hK⟩
  · rintro ⟨j, hj, hjn, hK⟩; exact ⟨j, hj, hjn, hK, fun _ _ _ => trivial⟩

/-- B-RASP translation: `rp` holds at `i` exactly when some key `j < i` with no key strictly between
`j` and `i` (the nearest key before `i`) has `V`. -/
theorem rpF_iff {K V : Nat → Prop} {i : Nat} :
    rpF K V i ↔ ∃ j, j < i ∧ K j ∧ V j ∧ ∀ k, j < k → k < i → ¬ K k := by
  unfold rpF tSince
  constructor
  · rintro ⟨j, hj, ⟨hK, hV⟩, hno⟩; exact ⟨j, hj, hK, hV, hno⟩
  · rintro ⟨j, hj, hK, hV, hno⟩; exact ⟨j, hj, ⟨hK, hV⟩, hno⟩

/-- B-RASP translation: `lf` holds at `i` exactly when the nearest key after `i` has `V`. -/
theorem lfF_iff {K V : Nat → Prop} {n i : Nat} :
    lfF n K V i ↔ ∃ j, i < j ∧ j < n ∧ K j ∧ V j ∧ ∀ k, i < k → k < j → ¬ K k := by
  unfold lfF tUntil
  constructor
  · rintro ⟨j, hj, hjn, ⟨hK, hV⟩, hno⟩; exact ⟨j, hj, hjn, hK, hV, hno⟩
  · rintro ⟨j, hj, hjn, hK, hV, hno⟩; exact ⟨j, hj, hjn, ⟨hK, hV⟩, hno⟩

/-- B-RASP translation: `lp` holds at `i` exactly when the first key of the word is before `i`
and has `V`. -/
theorem lpF_iff {K V : Nat → Prop} {i : Nat} :
    lpF K V i ↔ ∃ j, j < i ∧ K j ∧ V j ∧ ∀ k, k < j → ¬ K k := by
  unfold lpF tSince
  constructor
  · rintro ⟨j, hj, ⟨⟨hK, hfirst⟩, hV⟩, _⟩
    exact ⟨j, hj, hK, hV, fun k hk hKk => hfirst (pastAny_iff.mpr ⟨k, hk, hKk⟩)⟩
  · rintro ⟨j, hj, hK, hV, hno⟩
    exact ⟨j, hj, ⟨⟨hK, fun h => by obtain ⟨k, hk, hKk⟩ := pastAny_iff.mp h; exact hno k hk hKk⟩, hV⟩,
      fun _ _ _ => trivial⟩

/-- B-RASP translation: `rf` holds at `i` exactly when the last key of the word (before `n`) is
after `i` and has `V`. -/
theorem rfF_iff {K V : Nat → Prop} {n i : Nat} :
    rfF n K V i ↔ ∃ j, i < j ∧ j < n ∧ K j ∧ V j ∧ ∀ k, j < k → k < n → ¬ K k := by
  unfold rfF tUntil
  constructor
  · rintro ⟨j, hj, hjn, ⟨⟨hK, hlast⟩, hV⟩, _⟩
    exact ⟨j, hj, hjn, hK, hV, fun k hk hkn hKk => hlast (futAny_iff.mpr ⟨k, hk, hkn, hKk⟩)⟩
  · rintro ⟨j, hj, hjn, hK, hV, hno⟩
    exact ⟨j, hj, hjn, ⟨⟨hK, fun h => by obtain ⟨k, hk, hkn, hKk⟩ := futAny_iff.mp h; exact hno k hk hkn hKk⟩, hV⟩,
      fun _ _ _ => trivial⟩

/-- B-RASP attention (Yang, Chiang, Angluin 2024), rightmost past: `(!K) S (K & V) | !(true S K) & D`
is the attention at every position `i < n`. -/
theorem attn_rightmost_past {K V D : Nat → Prop} {n i : Nat} (hi : i < n) :
    attnFormula .rightmost .past n K V D i ↔ battend .rightmost .past (fun _ j => K j) V D n i := by
  simp only [attnFormula, battend, bpick, bchosen, bmask, rpF_iff, pastAny_iff]
  constructor
  · rintro (⟨j, hj, hK, hV, hno⟩ | ⟨hnone, hD⟩)
    · exact Or.inl ⟨j, ⟨⟨by omega, hj, hK⟩, fun k hk ⟨_, hki, hKk⟩ => hno k hk hki hKk⟩, hV⟩
    · exact Or.inr ⟨fun j ⟨_, hj, hK⟩ => hnone ⟨j, hj, hK⟩, hD⟩
  · rintro (⟨j, ⟨⟨_, hj, hK⟩, hno⟩, hV⟩ | ⟨hnone, hD⟩)
    · exact Or.inl ⟨j, hj, hK, hV, fun k hjk hki hKk => hno k hjk ⟨by omega, hki, hKk⟩⟩
    · exact Or.inr ⟨fun ⟨j, hj, hK⟩ => hnone j ⟨by omega, hj, hK⟩, hD⟩

/-- B-RASP attention (Yang, Chiang, Angluin 2024), leftmost past:
`true S (K & !(true S K) & V) | !(true S K) & D` is the attention at every position `i < n`. -/
theorem attn_leftmost_past {K V D : Nat → Prop} {n i : Nat} (hi : i < n) :
    attnFormula .leftmost .past n K V D i ↔ battend .leftmost .past (fun _ j => K j) V D n i := by
  simp only [attnFormula, battend, bpick, bchosen, bmask, lpF_iff, pastAny_iff]
  constructor
  · rintro (⟨j, hj, hK, hV, hno⟩ | ⟨hnone, hD⟩)
    · exact Or.inl ⟨j, ⟨⟨by omega, hj, hK⟩, fun k hk ⟨_, _, hKk⟩ => hno k hk hKk⟩, hV⟩
    · exact Or.inr ⟨fun j ⟨_, hj, hK⟩ => hnone ⟨j, hj, hK⟩, hD⟩
  · rintro (⟨j, ⟨⟨_, hj, hK⟩, hno⟩, hV⟩ | ⟨hnone, hD⟩)
    · exact Or.inl ⟨j, hj, hK, hV, fun k hkj hKk => hno k hkj ⟨by omega, by omega, hKk⟩⟩
    · exact Or.inr ⟨fun ⟨j, hj, hK⟩ => hnone j ⟨by omega, hj, hK⟩, hD⟩

/-- B-RASP attention (Yang, Chiang, Angluin 2024), leftmost future: `(!K) U (K & V) | !(true U K) & D`
is the attention at every position. -/
theorem attn_leftmost_future {K V D : Nat → Prop} {n i : Nat} :
    attnFormula .leftmost .future n K V D i ↔ battend .leftmost .future (fun _ j => K j) V D n i := by
  simp only [attnFormula, battend, bpick, bchosen, bmask, lfF_iff, futAny_iff]
  constructor
  · rintro (⟨j, hj, hjn, hK, hV, hno⟩ | ⟨hnone, hD⟩)
    · exact Or.inl ⟨j, ⟨⟨hjn, hj, hK⟩, fun k hk ⟨_, hik, hKk⟩ => hno k hik hk hKk⟩, hV⟩
    · exact Or.inr ⟨fun j ⟨hjn, hj, hK⟩ => hnone ⟨j, hj, hjn, hK⟩, hD⟩
  · rintro (⟨j, ⟨⟨hjn, hj, hK⟩, hno⟩, hV⟩ | ⟨hnone, hD⟩)
    · exact Or.inl ⟨j, hj, hjn, hK, hV, fun k hik hkj hKk => hno k hkj ⟨by omega, hik, hKk⟩⟩
    · exact Or.inr ⟨fun ⟨j, hj, hjn, hK⟩ => hnone j ⟨hjn, hj, hK⟩, hD⟩

/-- B-RASP attention (Yang, Chiang, Angluin 2024), rightmost future:
`true U (K & !(true U K) & V) | !(true U K) & D` is the attention at every position. -/
theorem attn_rightmost_future {K V D : Nat → Prop} {n i : Nat} :
    attnFormula .rightmost .future n K V D i ↔ battend .rightmost .future (fun _ j => K j) V D n i := by
  simp only [attnFormula, battend, bpick, bchosen, bmask, rfF_iff, futAny_iff]
  constructor
  · rintro (⟨j, hj, hjn, hK, hV, hno⟩ | ⟨hnone, hD⟩)
    · exact Or.inl ⟨j, ⟨⟨hjn, hj, hK⟩, fun k hk ⟨hkn, _, hKk⟩ => hno k hk hkn hKk⟩, hV⟩
    · exact Or.inr ⟨fun j ⟨hjn, hj, hK⟩ => hnone ⟨j, hj, hjn, hK⟩, hD⟩
  · rintro (⟨j, ⟨⟨hjn, hj, hK⟩, hno⟩, hV⟩ | ⟨hnone, hD⟩)
    · exact Or.inl ⟨j, hj, hjn, hK, hV, fun k hjk hkn hKk => hno k hjk ⟨hkn, by omega, hKk⟩⟩
    · exact Or.inr ⟨fun ⟨j, hj, hjn, hK⟩ => hnone j ⟨hjn, hj, hK⟩, hD⟩

/-- B-RASP attention (Yang, Chiang, Angluin 2024), leftmost all:
`lp | !past_any & (K & V | !K & (lf | !fut_any & D))` is the attention at every position `i < n`. -/
theorem attn_leftmost_all {K V D : Nat → Prop} {n i : Nat} (hi : i < n) :
    attnFormula .leftmost .all n K V D i ↔ battend .leftmost .all (fun _ j => K j) V D n i := by
  simp only [attnFormula, allMaskSides, allFormula, battend, bpick, bchosen, bmask, lpF_iff, lfF_iff,
    pastAny_iff, futAny_iff, true_and]
  constructor
  · rintro (⟨j, hj, hK, hV, hno⟩ | ⟨hnp, (⟨hKi, hVi⟩ | ⟨hnKi, (⟨j, hj, hjn, hK, hV, hno⟩ | ⟨hnf, hD⟩)⟩)⟩)
    · exact Or.inl ⟨j, ⟨⟨by omega, hK⟩, fun k hk ⟨_, hKk⟩ => hno k hk hKk⟩, hV⟩
    · exact Or.inl ⟨i, ⟨⟨hi, hKi⟩, fun k hk ⟨_, hKk⟩ => hnp ⟨k, hk, hKk⟩⟩, hVi⟩
    · refine Or.inl ⟨j, ⟨⟨hjn, hK⟩, fun k hk ⟨_, hKk⟩ => ?_⟩, hV⟩
      rcases Nat.lt_trichotomy k i with h | h | h
      · exact hnp ⟨k, h, hKk⟩
      · exact hnKi (h ▸ hKk)
      · exact hno k h hk hKk
    · refine Or.inr ⟨fun k ⟨hkn, hKk⟩ => ?_, hD⟩
      rcases Nat.lt_trichotomy k i with h | h | h
      · exact hnp ⟨k, h, hKk⟩
      · exact hnKi (h ▸ hKk)
      · exact hnf ⟨k, h, hkn, hKk⟩
  · rintro (⟨j, ⟨⟨hjn, hK⟩, hno⟩, hV⟩ | ⟨hnone, hD⟩)
    · rcases Nat.lt_trichotomy j i with h | h | h
      · exact Or.inl ⟨j, h, hK, hV, fun k hk hKk => hno k hk ⟨by omega, hKk⟩⟩
      · subst h
        exact Or.inr ⟨fun ⟨k, hk, hKk⟩ => hno k hk ⟨by omega, hKk⟩, Or.inl ⟨hK, hV⟩⟩
      · refine Or.inr ⟨fun ⟨k, hk, hKk⟩ => hno k (by omega) ⟨by omega, hKk⟩,
          Or.inr ⟨fun hKi => hno i h ⟨hi, hKi⟩, Or.inl ⟨j, h, hjn, hK, hV, fun k _ hkj hKk => hno k hkj ⟨by omega, hKk⟩⟩⟩⟩
    · exact Or.inr ⟨fun ⟨k, hk, hKk⟩ => hnone k ⟨by omega, hKk⟩,
        Or.inr ⟨fun hKi => hnone i ⟨hi, hKi⟩, Or.inr ⟨fun ⟨k, _, hkn, hKk⟩ => hnone k ⟨hkn, hKk⟩, hD⟩⟩⟩

/-- B-RASP attention (Yang, Chiang, Angluin 2024), rightmost all:
`rf | !fut_any & (K & V | !K & (rp | !past_any & D))` is the attention at every position `i < n`. -/
theorem attn_rightmost_all {K V D : Nat → Prop} {n i : Nat} (hi : i < n) :
    attnFormula .rightmost .all n K V D i ↔ battend .rightmost .all (fun _ j => K j) V D n i := by
  simp only [attnFormula, allMaskSides, allFormula, battend, bpick, bchosen, bmask, rfF_iff, rpF_iff,
    pastAny_iff, futAny_iff, true_and]
  constructor
  · rintro (⟨j, hj, hjn, hK, hV, hno⟩ | ⟨hnf, (⟨hKi, hVi⟩ | ⟨hnKi, (⟨j, hj, hK, hV, hno⟩ | ⟨hnp, hD⟩)⟩)⟩)
    · exact Or.inl ⟨j, ⟨⟨hjn, hK⟩, fun k hk ⟨hkn, hKk⟩ => hno k hk hkn hKk⟩, hV⟩
    · exact Or.inl ⟨i, ⟨⟨hi, hKi⟩, fun k hk ⟨hkn, hKk⟩ => hnf ⟨k, hk, hkn, hKk⟩⟩, hVi⟩
    · refine Or.inl ⟨j, ⟨⟨by omega, hK⟩, fun k hk ⟨hkn, hKk⟩ => ?_⟩, hV⟩
      rcases Nat.lt_trichotomy k i with h | h | h
      · exact hno k hk h hKk
      · exact hnKi (h ▸ hKk)
      · exact hnf ⟨k, h, hkn, hKk⟩
    · refine Or.inr ⟨fun k ⟨hkn, hKk⟩ => ?_, hD⟩
      rcases Nat.lt_trichotomy k i with h | h | h
      · exact hnp ⟨k, h, hKk⟩
      · exact hnKi (h ▸ hKk)
      · exact hnf ⟨k, h, hkn, hKk⟩
  · rintro (⟨j, ⟨⟨hjn, hK⟩, hno⟩, hV⟩ | ⟨hnone, hD⟩)
    · rcases Nat.lt_trichotomy j i with h | h | h
      · refine Or.inr ⟨fun ⟨k, hk, hkn, hKk⟩ => hno k (by omega) ⟨hkn, hKk⟩,
          Or.inr ⟨fun hKi => hno i h ⟨hi, hKi⟩, Or.inl ⟨j, h, hK, hV, fun k hjk _ hKk => hno k hjk ⟨by omega, hKk⟩⟩⟩⟩
      · subst h
        exact Or.inr ⟨fun ⟨k, hk, hkn, hKk⟩ => hno k hk ⟨hkn, hKk⟩, Or.inl ⟨hK, hV⟩⟩
      · exact Or.inl ⟨j, h, hjn, hK, hV, fun k hk hkn hKk => hno k hk ⟨hkn, hKk⟩⟩
    · exact Or.inr ⟨fun ⟨k, hk, hkn, hKk⟩ => hnone k ⟨hkn, hKk⟩,
        Or.inr ⟨fun hKi => hnone i ⟨hi, hKi⟩, Or.inr ⟨fun ⟨k, hk, hKk⟩ => hnone k ⟨by omega, hKk⟩, hD⟩⟩⟩

/-- B-RASP attention (Yang, Chiang, Angluin 2024) through its translation (`attention_formula`):
for every direction and mask, every key-only selector `K`, value `V` and default `D`, every length
`n` and every position `i < n`, the formula `attnFormula` holds exactly when the attention does. -/
theorem attnFormula_iff (d : BDir) (m : BMask) (K V D : Nat → Prop) {n i : Nat} (hi : i < n) :
    attnFormula d m n K V D i ↔ battend d m (fun _ j => K j) V D n i := by
  cases d <;> cases m
  · exact attn_leftmost_past hi
  · exact attn_leftmost_future
  · exact attn_leftmost_all hi
  · exact attn_rightmost_past hi
  · exact attn_rightmost_future
  · exact attn_rightmost_all hi


/-- B-RASP attention at `i` reads the selector only at `i`: selectors that agree at `i` give the same
value there. -/
theorem battend_congr {d : BDir} {m : BMask} {S S' : Nat → Nat → Prop} {V D : Nat → Prop} {n i : Nat}
    (h : ∀ j, S i j ↔ S' i j) : battend d m S V D n i ↔ battend d m S' V D n i := by
  have e : bchosen m S n i = bchosen m S' n i := funext fun j => propext (by unfold bchosen; rw [h j])
  unfold battend; rw [e]

/-- B-RASP translation (`attention_formula`, `K = false`): with no key selectable the attention is its
default. -/
theorem battend_no_key {d : BDir} {m : BMask} {K V D : Nat → Prop} {n i : Nat} (hK : ∀ j, ¬ K j) :
    battend d m (fun _ j => K j) V D n i ↔ D i := by
  unfold battend
  have hnone : ∀ j, ¬ bchosen m (fun _ j => K j) n i j := fun j ⟨_, _, hKj⟩ => hK j hKj
  constructor
  · rintro (⟨j, hp, _⟩ | ⟨_, hD⟩)
    · cases d <;> exact absurd hp.1 (hnone j)
    · exact hD
  · intro hD; exact Or.inr ⟨hnone, hD⟩

/-- B-RASP translation, definition: every assignment of `m` Boolean query values, in the order of
`itertools.product((True, False), repeat=m)`. -/
noncomputable def boolVecs : Nat → List (List Bool)
  | 0 => [[]]
  | m + 1 => [true, false].flatMap (fun b => (boolVecs m).map (b :: ·))

/-- Every Boolean list of length `m` is one of `boolVecs m`. -/
theorem mem_boolVecs : ∀ σ : List Bool, σ ∈ boolVecs σ.length
  | [] => by show [] ∈ [([] : List Bool)]; exact List.mem_singleton.mpr rfl
  | b :: σ => by
    simp only [boolVecs, List.length_cons, List.mem_flatMap, List.mem_map]
    exact ⟨b, by cases b <;> simp, σ, mem_boolVecs σ, rfl⟩

/-- B-RASP translation, definition: the guard of one assignment, `AND_k (q_k if σ_k else !q_k)` at `i`,
for the query vectors `qs` (false if the lengths differ). -/
def qguard : List (Nat → Bool) → List Bool → Nat → Prop
  | q :: qs, v :: vs, i => q i = v ∧ qguard qs vs i
  | [], [], _ => True
  | _, _, _ => False

/-- The guard of `σ` holds at `i` exactly when `σ` lists the query values at `i`. -/
theorem qguard_iff : ∀ (qs : List (Nat → Bool)) (σ : List Bool) (i : Nat), qguard qs σ i ↔ σ = qs.map (fun q => q i)
  | [], [], _ => by simp [qguard]
  | [], _ :: _, _ => by simp [qguard]
  | _ :: _, [], _ => by simp [qguard]
  | q :: qs, v :: vs, i => by
    simp only [qguard, List.map_cons, List.cons.injEq, qguard_iff qs vs i]
    constructor
    · rintro ⟨h1, h2⟩; exact ⟨h1.symm, h2⟩
    · rintro ⟨h1, h2⟩; exact ⟨h1.symm, h2⟩

/-- B-RASP translation, the split on query vectors (`to_formulas`): an attention whose selector reads
the query vectors `qs` only through their Boolean values at `i` is the disjunction, over every
assignment `σ`, of the guard of `σ` and the attention with the key-only selector `S[q := σ]`. -/
theorem battend_query_split (d : BDir) (m : BMask) (qs : List (Nat → Bool)) (Sel : List Bool → Nat → Prop)
    (V D : Nat → Prop) (n i : Nat) :
    battend d m (fun i' j => Sel (qs.map (fun q => q i')) j) V D n i ↔
      ∃ σ, σ ∈ boolVecs qs.length ∧ qguard qs σ i ∧ battend d m (fun _ j => Sel σ j) V D n i := by
  constructor
  · intro h
    refine ⟨qs.map (fun q => q i), ?_, (qguard_iff qs _ i).mpr rfl, (battend_congr (fun _ => Iff.rfl)).mp h⟩
    have hm := mem_boolVecs (qs.map (fun q => q i))
    rw [List.length_map] at hm
    exact hm
  · rintro ⟨σ, _, hg, h⟩
    have e := (qguard_iff qs σ i).mp hg
    subst e
    exact (battend_congr (fun _ => Iff.rfl)).mp h

/-- B-RASP attention (Yang, Chiang, Angluin 2024) with query vectors, through its translation: the
attention is `OR_σ (q = σ at i) & A_σ`, `A_σ` the formula of `attention_formula` for the key-only
selector `S[q := σ]`, at every position `i < n`. -/
theorem attnFormula_query_split (d : BDir) (m : BMask) (qs : List (Nat → Bool)) (Sel : List Bool → Nat → Prop)
    (V D : Nat → Prop) {n i : Nat} (hi : i < n) :
    battend d m (fun i' j => Sel (qs.map (fun q => q i')) j) V D n i ↔
      ∃ σ, σ ∈ boolVecs qs.length ∧ qguard qs σ i ∧ attnFormula d m n (Sel σ) V D i := by
  rw [battend_query_split]
  constructor
  · rintro ⟨σ, hm, hg, h⟩; exact ⟨σ, hm, hg, (attnFormula_iff d m (Sel σ) V D hi).mpr h⟩
  · rintro ⟨σ, hm, hg, h⟩; exact ⟨σ, hm, hg, (attnFormula_iff d m (Sel σ) V D hi).mp h⟩

/-- B-RASP translation, a wrong variant refuted: the rightmost rule `(!K) S (K & V)` does not compute
a leftmost past attention (every key selected, `V` only at `0`, `n = 3`, `i = 2`). -/
theorem rpF_not_leftmost_past :
    ¬ ∀ (K V D : Nat → Prop) (n i : Nat), i < n →
      ((rpF K V i ∨ (¬ pastAny K i ∧ D i)) ↔ battend .leftmost .past (fun _ j => K j) V D n i) := by
  intro h
  have h2 := (h (fun _ => True) (fun j => j = 0) (fun _ => False) 3 2 (by omega)).mpr
    (Or.inl ⟨0, ⟨⟨by omega, by simp [bmask], trivial⟩, fun k hk _ => by omega⟩, rfl⟩)
  rcases h2 with hr | ⟨hn, _⟩
  · obtain ⟨j, hj, _, hV, hno⟩ := rpF_iff.mp hr
    have hV' : j = 0 := hV
    exact hno 1 (by omega) (by omega) trivial
  · exact hn (pastAny_iff.mpr ⟨0, by omega, trivial⟩)


/-! ### Attention over the nodes of a formula DAG -/

/-- B-RASP attention reads its key, value and default only at the positions of the word: predicates
that agree at every `j < n` (and the defaults at `i`) give the same value. -/
theorem battend_congr_lt {d : BDir} {m : BMask} {K K' V V' D D' : Nat → Prop} {n i : Nat}
    (hK : ∀ j, j < n → (K j ↔ K' j)) (hV : ∀ j, j < n → (V j ↔ V' j)) (hD : D i ↔ D' i) :
    battend d m (fun _ j => K j) V D n i ↔ battend d m (fun _ j => K' j) V' D' n i := by
  have e : bchosen m (fun _ j => K j) n i = bchosen m (fun _ j => K' j) n i := by
    funext j
    apply propext
    unfold bchosen
    constructor
    · rintro ⟨hj, hm, hk⟩; exact ⟨hj, hm, (hK j hj).mp hk⟩
    · rintro ⟨hj, hm, hk⟩; exact ⟨hj, hm, (hK j hj).mpr hk⟩
  have hlt : ∀ j, bpick d (bchosen m (fun _ j => K' j) n i) j → j < n := by
    intro j hp; cases d <;> exact hp.1.1
  unfold battend
  rw [e]
  constructor
  · rintro (⟨j, hp, hv⟩ | ⟨hn, hd⟩)
    · exact Or.inl ⟨j, hp, (hV j (hlt j hp)).mp hv⟩
    · exact Or.inr ⟨hn, hD.mp hd⟩
  · rintro (⟨j, hp, hv⟩ | ⟨hn, hd⟩)
    · exact Or.inl ⟨j, hp, (hV j (hlt j hp)).mpr hv⟩
    · exact Or.inr ⟨hn, hD.mpr hd⟩

/-- B-RASP attention (Yang, Chiang, Angluin 2024) over a formula DAG, what a translation must satisfy at
an attention: if the nodes `k`, `v`, `dd` of `P` hold at every position `j < n` of `w` exactly when the
program's key `K`, value `V` and default `D` do, then `attention_formula`'s formula over those nodes
(the formula the translation adds to `P`) holds at `i < n` exactly when the attention does. -/
theorem attnFormula_nodes {P : Prog} {w : List Nat} {n i k v dd : Nat} (d : BDir) (m : BMask)
    {K V D : Nat → Prop} (hK : ∀ j, j < n → (holds P w n k j ↔ K j))
    (hV : ∀ j, j < n → (holds P w n v j ↔ V j)) (hD : ∀ j, j < n → (holds P w n dd j ↔ D j)) (hi : i < n) :
    attnFormula d m n (holds P w n k) (holds P w n v) (holds P w n dd) i ↔ battend d m (fun _ j => K j) V D n i := by
  rw [attnFormula_iff d m _ _ _ hi]
  exact battend_congr_lt hK hV (hD i hi)

/-! ### The translation's simplifications of since and until -/

/-- B-RASP translation (`t_since`): `false S g` is `Y g`. -/
theorem tSince_false_left (G : Nat → Prop) (i : Nat) : tSince (fun _ => False) G i ↔ 0 < i ∧ G (i - 1) := by
  unfold tSince
  constructor
  · rintro ⟨j, hj, hg, hf⟩
    have hji : j = i - 1 := Classical.byContradiction fun hne => hf (i - 1) (by omega) (by omega)
    subst hji
    exact ⟨by omega, hg⟩
  · rintro ⟨hi, hg⟩
    exact ⟨i - 1, by omega, hg, fun k h1 h2 => absurd h2 (by omega)⟩

/-- B-RASP translation (`t_since`): `f S false` is `false`. -/
theorem tSince_false_right (F : Nat → Prop) (i : Nat) : ¬ tSince F (fun _ => False) i := by
  rintro ⟨_, _, hg, _⟩; exact hg

/-- B-RASP translation (`t_until`): `false U g` is `X g`. -/
theorem tUntil_false_left (n : Nat) (G : Nat → Prop) (i : Nat) :
    tUntil n (fun _ => False) G i ↔ i + 1 < n ∧ G (i + 1) := by
  unfold tUntil
  constructor
  · rintro ⟨j, hj, hjn, hg, hf⟩
    have hji : j = i + 1 := Classical.byContradiction fun hne => hf (i + 1) (by omega) (by omega)
    subst hji
    exact ⟨hjn, hg⟩
  · rintro ⟨hin, hg⟩
    exact ⟨i + 1, by omega, hin, hg, fun k h1 h2 => absurd h2 (by omega)⟩

/-- B-RASP translation (`t_until`): `f U false` is `false`. -/
theorem tUntil_false_right (n : Nat) (F : Nat → Prop) (i : Nat) : ¬ tUntil n F (fun _ => False) i := by
  rintro ⟨_, _, _, hg, _⟩; exact hg

/-! ### C-RASP: counts and comparisons -/

section CRASP

open Classical

/-- C-RASP (Yang, Chiang 2024), definition: the count vector `#[j ≤ i] P(j)`, the number of positions
`j ≤ i` where `P` holds (`crasp._eval`: `sum(1 for j in range(i + 1) if P(j))`). -/
noncomputable def craspCount (P : Nat → Prop) (i : Nat) : Nat :=
  ((List.range (i + 1)).filter (fun j => decide (P j))).length

/-- Counting the positions `j < m` with `f` by a filter is `countMax`. -/
theorem filter_range_length (f : Nat → Bool) : ∀ m, ((List.range m).filter f).length = countMax f m
  | 0 => by simp [countMax]
  | m + 1 => by
    rw [List.range_succ, List.filter_append, List.length_append, filter_range_length f m]
    simp only [countMax]
    cases h : f m <;> simp [h]

/-- C-RASP (Yang, Chiang 2024): the count vector `#[j ≤ i] P(j)` is the temporal logic's inclusive
count `#<=[P]` at `i`, on a word of every length `n`. -/
theorem craspCount_eq_countIn (P : Nat → Prop) (n i : Nat) : craspCount P i = countIn P n i .le := by
  unfold craspCount countIn
  exact filter_range_length _ (i + 1)

end CRASP

/-- C-RASP translation, definition: `Σ_k c_k C_k` for the terms `(c_k, x_k)`, `C x` the count of node `x`. -/
def linSum (C : Nat → Int) : List (Int × Nat) → Int
  | [] => 0
  | t :: ts => t.1 * C t.2 + linSum C ts

/-- C-RASP translation, definition: the terms `(c_k, x_k)` as a comparison node's terms, each an
inclusive count `#<=`. -/
noncomputable def leTerms (ts : List (Int × Nat)) : List (Int × CountDir × Nat) := ts.map (fun t => (t.1, CountDir.le, t.2))

/-- A comparison's sum over `#<=` terms is the linear combination of the inclusive counts. -/
theorem cmpSum_leTerms (cnt : Nat → CountDir → Nat) :
    ∀ ts : List (Int × Nat), cmpSum cnt (leTerms ts) = linSum (fun x => (cnt x .le : Int)) ts
  | [] => rfl
  | t :: ts => by
    show t.1 * (cnt t.2 .le : Int) + cmpSum cnt (leTerms ts) = t.1 * (cnt t.2 .le : Int) + linSum (fun x => (cnt x .le : Int)) ts
    rw [cmpSum_leTerms cnt ts]

/-- Scaling every coefficient by `s` scales the linear combination by `s`. -/
theorem linSum_scale (s : Int) (C : Nat → Int) :
    ∀ ts : List (Int × Nat), linSum C (ts.map (fun t => (s * t.1, t.2))) = s * linSum C ts
  | [] => by show (0 : Int) = s * 0; rw [Int.mul_zero]
  | t :: ts => by
    show s * t.1 * C t.2 + linSum C (ts.map (fun t => (s * t.1, t.2))) = s * (t.1 * C t.2 + linSum C ts)
    rw [linSum_scale s C ts, Int.mul_add, Int.mul_assoc]

/-- C-RASP, definition: a comparison with `0` (`<`, `<=`, `>`, `>=`; `==` and `!=` are translated as
a conjunction and a disjunction of these). -/
inductive CmpOp where
  /-- `> 0` -/
  | gt
  /-- `>= 0` -/
  | ge
  /-- `< 0` -/
  | lt
  /-- `<= 0` -/
  | le

/-- C-RASP, definition: the meaning of `a op 0` for an integer `a`. -/
def cmpOpHolds : CmpOp → Int → Prop
  | .gt, a => 0 < a
  | .ge, a => 0 ≤ a
  | .lt, a => a < 0
  | .le, a => a ≤ 0

/-- C-RASP translation (`certificate._cmp_node`), definition: the sign a comparison is moved to one
side with: `1` for `>`, `>=`; `-1` for `<`, `<=`. -/
def cmpSign : CmpOp → Int
  | .gt => 1
  | .ge => 1
  | .lt => -1
  | .le => -1

/-- C-RASP translation (`certificate._cmp_node`), definition: the constant added to a non-strict
comparison (`E >= 0` is `E + 1 > 0` for an integer `E`). -/
def cmpBump : CmpOp → Int
  | .gt => 0
  | .ge => 1
  | .lt => 0
  | .le => 1

/-- C-RASP translation (`certificate._cmp_node`), definition: the node of `Σ_k c_k #<=[x_k] + r op 0`:
`Node.cmp` with the terms and constant times the sign, plus `1` if the comparison is non-strict. -/
noncomputable def craspCmpNode (op : CmpOp) (ts : List (Int × Nat)) (r : Int) : Node :=
  .cmp (leTerms (ts.map (fun t => (cmpSign op * t.1, t.2)))) (cmpSign op * r + cmpBump op)

/-- C-RASP (Yang, Chiang 2024) through its translation: a node `Node.cmp` over `#<=` terms holds at `i`
exactly when `Σ_k c_k C_k(i) + r > 0`, `C_k` C-RASP's count vector of node `x_k` (`holds_cmp`). -/
theorem holds_cmp_crasp {P : Prog} {w : List Nat} {n g i : Nat} {ts : List (Int × Nat)} {r : Int}
    (h : nodeAt P g = .cmp (leTerms ts) r) (hts : ∀ t, t ∈ ts → t.2 < g) :
    holds P w n g i ↔ 0 < linSum (fun x => (craspCount (holds P w n x) i : Int)) ts + r := by
  have hts' : ∀ t, t ∈ leTerms ts → t.2.2 < g := by
    intro t ht
    unfold leTerms at ht
    rw [List.mem_map] at ht
    obtain ⟨u, hu, rfl⟩ := ht
    exact hts u hu
  rw [holds_cmp h hts', cmpSum_leTerms]
  have e : (fun x => (countIn (fun j => holds P w n x j) n i .le : Int))
      = (fun x => (craspCount (holds P w n x) i : Int)) :=
    funext fun x => congrArg (fun k : Nat => (k : Int)) (craspCount_eq_countIn (holds P w n x) n i).symm
  rw [e]

/-- C-RASP comparison (Yang, Chiang 2024) through its translation: the node `craspCmpNode op ts r`
holds at `i` exactly when `Σ_k c_k C_k(i) + r op 0`, `C_k` C-RASP's count vector `#[j ≤ i]` of node
`x_k`, for `op` each of `>`, `>=`, `<`, `<=`. -/
theorem holds_craspCmpNode {P : Prog} {w : List Nat} {n g i : Nat} {op : CmpOp} {ts : List (Int × Nat)}
    {r : Int} (h : nodeAt P g = craspCmpNode op ts r) (hts : ∀ t, t ∈ ts → t.2 < g) :
    holds P w n g i ↔ cmpOpHolds op (linSum (fun x => (craspCount (holds P w n x) i : Int)) ts + r) := by
  have hts' : ∀ t, t ∈ ts.map (fun t => (cmpSign op * t.1, t.2)) → t.2 < g := by
    intro t ht
    rw [List.mem_map] at ht
    obtain ⟨u, hu, rfl⟩ := ht
    exact hts u hu
  rw [holds_cmp_crasp h hts', linSum_scale]
  generalize linSum (fun x => (craspCount (holds P w n x) i : Int)) ts = L
  cases op <;> simp only [cmpSign, cmpBump, cmpOpHolds] <;> omega

/-! ### What a translation must satisfy -/

/-- B-RASP / C-RASP translation, the specification: the formula DAG `P` with root `root` is a correct
translation of a program's meaning `sem` (a word of symbol indices and a position to the value of the
program's output vector there) over an alphabet of `nsym` symbols when, for every word over the
alphabet and every position of it, the root holds exactly when `sem` does. -/
def TranslationCorrect (nsym : Nat) (sem : List Nat → Nat → Prop) (P : Prog) (root : Nat) : Prop :=
  ∀ w, (∀ a, a ∈ w → a < nsym) → ∀ i, i < w.length → (sem w i ↔ holds P w w.length root i)

end HardSoft.Cert

end
