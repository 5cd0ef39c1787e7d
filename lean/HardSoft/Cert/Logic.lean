module

public import HardSoft.HeadMass

/-!
# Certificates, part 1: the temporal logic as the compiler takes it

The formulas of `constructive/logic/syntax.py` (docs/temporal-logic.md, "Semantics") as a
DAG: node `g` of a program `P : Prog` refers to its children by index, and only to smaller
indices (the compiler's schedule lists every node after its children; a larger index makes the
node false). `holds P w n g i` is the meaning of node `g` at position `i` of the word `w` of
length `n` (symbols as indices of the alphabet).

Besides the semantics, this file holds the computable evaluators the checker runs
(`symEval`: a symbol-only node at one symbol; `keval`: a Boolean node over leaf values, three-valued;
`conjLits`: a Boolean node as one conjunction of literals) with their soundness theorems, and
the since / until theorems the tie-breaking heads rest on (Lemma 8 with a select `β`).

## Main results

* `HardSoft.Cert.symEval_sound`, `HardSoft.Cert.keval_sound`, `HardSoft.Cert.conjLits_sound`.
* `HardSoft.Cert.since_iff_target`, `HardSoft.Cert.until_iff_target`: `f S g` at `i` is `g` at
  the tie-breaking head's target for every select `β` with `g → β`, `¬f → β` and the blocking
  condition; `HardSoft.Cert.block_of_anchored`: the anchored select `h ∨ Y h` meets it.
-/

@[expose] public section

set_option autoImplicit false


namespace HardSoft.Cert

/-- Temporal logic (docs/temporal-logic.md), definition: the direction of a count, `#<` (the
positions `j < i`), `#<=` (`j ≤ i`) or `#>` (`j > i`). -/
inductive CountDir where
  /-- `#<`: the positions `j < i` -/
  | lt
  /-- `#<=`: the positions `j ≤ i` -/
  | le
  /-- `#>`: the positions `i < j < n` -/
  | gt

section Count

open Classical

/-- Temporal logic, definition: the number of positions where `p` holds among those a count of
direction `d` sees from position `i` of a word of length `n`. -/
noncomputable def countIn (p : Nat → Prop) (n i : Nat) : CountDir → Nat
  | .lt => countMax (fun j => decide (p j)) i
  | .le => countMax (fun j => decide (p j)) (i + 1)
  | .gt => countMax (fun j => decide (p (i + 1 + j))) (n - 1 - i)

end Count

/-- Temporal logic, definition: `Σ_k c_k #_k` over the terms `(c_k, d_k, x_k)` of a comparison,
`cnt x d` the count of direction `d` of node `x`. -/
noncomputable def cmpSum (cnt : Nat → CountDir → Nat) : List (Int × CountDir × Nat) → Int
  | [] => 0
  | t :: ts => t.1 * (cnt t.2.2 t.2.1 : Int) + cmpSum cnt ts

/-- Temporal logic (docs/temporal-logic.md), definition: one node of a formula DAG; children are
indices of earlier nodes. -/
inductive Node where
  /-- `a`: the symbol at `i` is the `a`-th of the alphabet -/
  | atom (a : Nat)
  /-- `true` / `false` -/
  | const (b : Bool)
  /-- `!x` -/
  | not (x : Nat)
  /-- `x & y` -/
  | and (x y : Nat)
  /-- `x | y` -/
  | or (x y : Nat)
  /-- `first`: `i = 0` -/
  | first
  /-- `last`: `i = n - 1` -/
  | last
  /-- `Y x` (strict previous) -/
  | prev (x : Nat)
  /-- `X x` (strict next) -/
  | next (x : Nat)
  /-- `x S y` (strict since) -/
  | since (x y : Nat)
  /-- `x U y` (strict until) -/
  | until (x y : Nat)
  /-- `mod(m, r)`: `i mod m = r` -/
  | modEq (m r : Nat)
  /-- `pos(...)` moved to one side: `p i + q n + r > 0` -/
  | lin (p q r : Int)
  /-- a comparison of counts moved to one side: `Σ_k c_k #_k[x_k] + r > 0` (integers `c_k`, `r`),
  each term `(c_k, direction, x_k)` -/
  | cmp (terms : List (Int × CountDir × Nat)) (r : Int)

/-- A formula DAG: node `g` is `P[g]`. -/
abbrev Prog := List Node

/-- Node `g` of `P` (`false` past its end). -/
noncomputable def nodeAt (P : Prog) (g : Nat) : Node := P.getD g (.const false)

/-- Temporal logic, helper definition: `holds` with an explicit recursion budget (`fuel`), so
that it is defined by structural recursion; `holds` gives node `g` the budget `g + 1`, which is
enough because children have smaller indices (`holdsF_fuel`). -/
noncomputable def holdsF (P : Prog) (w : List Nat) (n : Nat) : Nat → Nat → Nat → Prop
  | 0, _, _ => False
  | f + 1, g, i =>
    match nodeAt P g with
    | .atom a => w.getD i 0 = a
    | .const b => b = true
    | .not x => x < g ∧ ¬ holdsF P w n f x i
    | .and x y => x < g ∧ y < g ∧ holdsF P w n f x i ∧ holdsF P w n f y i
    | .or x y => x < g ∧ y < g ∧ (holdsF P w n f x i ∨ holdsF P w n f y i)
    | .first => i = 0
    | .last => i + 1 = n
    | .prev x => x < g ∧ 0 < i ∧ holdsF P w n f x (i - 1)
    | .next x => x < g ∧ i + 1 < n ∧ holdsF P w n f x (i + 1)
    | .since x y => x < g ∧ y < g ∧
        ∃ j, j < i ∧ holdsF P w n f y j ∧ ∀ k, j < k → k < i → holdsF P w n f x k
    | .until x y => x < g ∧ y < g ∧
        ∃ j, i < j ∧ j < n ∧ holdsF P w n f y j ∧ ∀ k, i < k → k < j → holdsF P w n f x k
    | .modEq m r => i % m = r
    | .lin p q r => 0 < p * (i : Int) + q * (n : Int) + r
    | .cmp ts r => (∀ t, t ∈ ts → t.2.2 < g) ∧
        0 < cmpSum (fun x d => countIn (fun j => holdsF P w n f x j) n i d) ts + r

/-- Temporal logic, definition: node `g` of `P` holds at position `i` of the word `w` (symbol
indices) of length `n` (docs/temporal-logic.md, "Semantics"; since and until are strict; a node
whose children do not come before it is false). -/
noncomputable def holds (P : Prog) (w : List Nat) (n : Nat) (g : Nat) (i : Nat) : Prop := holdsF P w n (g + 1) g i

/-- A comparison's sum depends only on the counts of the nodes its terms name. -/
theorem cmpSum_congr {c1 c2 : Nat → CountDir → Nat} :
    ∀ (ts : List (Int × CountDir × Nat)), (∀ t, t ∈ ts → c1 t.2.2 t.2.1 = c2 t.2.2 t.2.1) → cmpSum c1 ts = cmpSum c2 ts
  | [], _ => rfl
  | t :: ts, h => by
    unfold cmpSum
    rw [h t (by simp), cmpSum_congr ts (fun u hu => h u (by simp [hu]))]

/-- Counts of equivalent predicates are equal. -/
theorem countIn_congr {p q : Nat → Prop} (h : ∀ j, p j ↔ q j) (n i : Nat) (d : CountDir) :
    countIn p n i d = countIn q n i d := by
  have : p = q := funext (fun j => propext (h j))
  rw [this]

/-- Node `0` has no children: any two budgets give `holdsF` the same value there. -/
theorem holdsF_node_zero (P : Prog) (w : List Nat) (n : Nat) (a b i : Nat) :
    holdsF P w n (a + 1) 0 i ↔ holdsF P w n (b + 1) 0 i := by
  conv => arg 1; rw [holdsF]
  conv => arg 2; rw [holdsF]
  split <;> simp_all <;> (rename_i ts _ _; intro hm; cases ts with
    | nil => simp [cmpSum]
    | cons t _ => obtain ⟨c, d, x⟩ := t; exact absurd (by simp) (hm c d x))

/-- Any budget above `g` gives `holdsF` the same value at node `g`. -/
theorem holdsF_fuel (P : Prog) (w : List Nat) (n : Nat) :
    ∀ (a b g i : Nat), g ≤ a → g ≤ b → (holdsF P w n (a + 1) g i ↔ holdsF P w n (b + 1) g i) := by
  intro a
  induction a with
  | zero =>
    intro b g i ha hb
    have hg : g = 0 := by omega
    subst hg
    cases b with
    | zero => exact Iff.rfl
    | succ b => exact holdsF_node_zero P w n 0 (b + 1) i
  | succ a ih =>
    intro b g i ha hb
    cases b with
    | zero =>
      have hg : g = 0 := by omega
      subst hg
      exact holdsF_node_zero P w n (a + 1) 0 i
    | succ b =>
      have key : ∀ x, x < g → ∀ j, (holdsF P w n (a + 1) x j ↔ holdsF P w n (b + 1) x j) :=
        fun x hx j => ih b x j (by omega) (by omega)
      conv => arg 1; rw [holdsF]
      conv => arg 2; rw [holdsF]
      split
      · exact Iff.rfl
      · exact Iff.rfl
      · next x _ => constructor <;> (intro ⟨hx, h⟩; first
          | exact ⟨hx, fun h' => h ((key x hx i).mpr h')⟩
          | exact ⟨hx, fun h' => h ((key x hx i).mp h')⟩)
      · next x y _ => constructor <;> (intro ⟨hx, hy, h1, h2⟩; first
          | exact ⟨hx, hy, (key x hx i).mp h1, (key y hy i).mp h2⟩
          | exact ⟨hx, hy, (key x hx i).mpr h1, (key y hy i).mpr h2⟩)
      · next x y _ => constructor <;> (intro ⟨hx, hy, h⟩; first
          | exact ⟨hx, hy, h.imp (key x hx i).mp (key y hy i).mp⟩
          | exact ⟨hx, hy, h.imp (key x hx i).mpr (key y hy i).mpr⟩)
      · exact Iff.rfl
      · exact Iff.rfl
      · next x _ => constructor <;> (intro ⟨hx, h1, h2⟩; first
          | exact ⟨hx, h1, (key x hx _).mp h2⟩
          | exact ⟨hx, h1, (key x hx _).mpr h2⟩)
      · next x _ => constructor <;> (intro ⟨hx, h1, h2⟩; first
          | exact ⟨hx, h1, (key x hx _).mp h2⟩
          | exact ⟨hx, h1, (key x hx _).mpr h2⟩)
      · next x y _ => constructor <;> (intro ⟨hx, hy, j, hj, hr, hf⟩; first
          | exact ⟨hx, hy, j, hj, (key y hy j).mp hr, fun k h1 h2 => (key x hx k).mp (hf k h1 h2)⟩
          | exact ⟨hx, hy, j, hj, (key y hy j).mpr hr, fun k h1 h2 => (key x hx k).mpr (hf k h1 h2)⟩)
      · next x y _ => constructor <;> (intro ⟨hx, hy, j, hj, hjn, hr, hf⟩; first
          | exact ⟨hx, hy, j, hj, hjn, (key y hy j).mp hr, fun k h1 h2 => (key x hx k).mp (hf k h1 h2)⟩
          | exact ⟨hx, hy, j, hj, hjn, (key y hy j).mpr hr, fun k h1 h2 => (key x hx k).mpr (hf k h1 h2)⟩)
      · exact Iff.rfl
      · exact Iff.rfl
      · next ts r _ =>
        constructor
        · intro ⟨hts, h⟩
          refine ⟨hts, ?_⟩
          have e := cmpSum_congr (c1 := fun x d => countIn (fun j => holdsF P w n (a + 1) x j) n i d)
            (c2 := fun x d => countIn (fun j => holdsF P w n (b + 1) x j) n i d) ts
            (fun t ht => countIn_congr (fun j => key t.2.2 (hts t ht) j) n i t.2.1)
          omega
        · intro ⟨hts, h⟩
          refine ⟨hts, ?_⟩
          have e := cmpSum_congr (c1 := fun x d => countIn (fun j => holdsF P w n (a + 1) x j) n i d)
            (c2 := fun x d => countIn (fun j => holdsF P w n (b + 1) x j) n i d) ts
            (fun t ht => countIn_congr (fun j => key t.2.2 (hts t ht) j) n i t.2.1)
          omega

/-- A child `x < g` read with node `g`'s budget is the child itself. -/
theorem holdsF_child (P : Prog) (w : List Nat) (n : Nat) {x g : Nat} (hx : x < g) (j : Nat) :
    holdsF P w n g x j ↔ holds P w n x j := by
  obtain ⟨a, rfl⟩ : ∃ a, g = a + 1 := ⟨g - 1, by omega⟩
  exact holdsF_fuel P w n a x x j (by omega) (Nat.le_refl x)

/-! ### Unfolding -/

section Unfold

variable {P : Prog} {w : List Nat} {n g i : Nat}

/-- Unfolding `holds` at an atom. -/
theorem holds_atom {a : Nat} (h : nodeAt P g = .atom a) : holds P w n g i ↔ w.getD i 0 = a := by
  unfold holds; simp only [holdsF, h]

/-- Unfolding `holds` at a constant. -/
theorem holds_const {b : Bool} (h : nodeAt P g = .const b) : holds P w n g i ↔ b = true := by
  unfold holds; simp only [holdsF, h]

/-- Unfolding `holds` at a negation. -/
theorem holds_not {x : Nat} (h : nodeAt P g = .not x) (hx : x < g) :
    holds P w n g i ↔ ¬ holds P w n x i := by
  unfold holds; simp only [holdsF, h]
  rw [holdsF_child P w n hx]; unfold holds; exact ⟨fun h => h.2, fun h => ⟨hx, h⟩⟩

/-- Unfolding `holds` at a conjunction. -/
theorem holds_and {x y : Nat} (h : nodeAt P g = .and x y) (hx : x < g) (hy : y < g) :
    holds P w n g i ↔ holds P w n x i ∧ holds P w n y i := by
  unfold holds; simp only [holdsF, h]
  rw [holdsF_child P w n hx, holdsF_child P w n hy]; unfold holds
  exact ⟨fun h => ⟨h.2.2.1, h.2.2.2⟩, fun h => ⟨hx, hy, h.1, h.2⟩⟩

/-- Unfolding `holds` at a disjunction. -/
theorem holds_or {x y : Nat} (h : nodeAt P g = .or x y) (hx : x < g) (hy : y < g) :
    holds P w n g i ↔ holds P w n x i ∨ holds P w n y i := by
  unfold holds; simp only [holdsF, h]
  rw [holdsF_child P w n hx, holdsF_child P w n hy]; unfold holds
  exact ⟨fun h => h.2.2, fun h => ⟨hx, hy, h⟩⟩

/-- Unfolding `holds` at `first`. -/
theorem holds_first (h : nodeAt P g = .first) : holds P w n g i ↔ i = 0 := by
  unfold holds; simp only [holdsF, h]

/-- Unfolding `holds` at `last`. -/
theorem holds_last (h : nodeAt P g = .last) : holds P w n g i ↔ i + 1 = n := by
  unfold holds; simp only [holdsF, h]

/-- Unfolding `holds` at `Y x`. -/
theorem holds_prev {x : Nat} (h : nodeAt P g = .prev x) (hx : x < g) :
    holds P w n g i ↔ 0 < i ∧ holds P w n x (i - 1) := by
  unfold holds; simp only [holdsF, h]
  rw [holdsF_child P w n hx]; unfold holds
  exact ⟨fun h => h.2, fun h => ⟨hx, h⟩⟩

/-- Unfolding `holds` at `X x`. -/
theorem holds_next {x : Nat} (h : nodeAt P g = .next x) (hx : x < g) :
    holds P w n g i ↔ i + 1 < n ∧ holds P w n x (i + 1) := by
  unfold holds; simp only [holdsF, h]
  rw [holdsF_child P w n hx]; unfold holds
  exact ⟨fun h => h.2, fun h => ⟨hx, h⟩⟩

/-- Unfolding `holds` at `x S y`. -/
theorem holds_since {x y : Nat} (h : nodeAt P g = .since x y) (hx : x < g) (hy : y < g) :
    holds P w n g i ↔ ∃ j, j < i ∧ holds P w n y j ∧ ∀ k, j < k → k < i → holds P w n x k := by
  unfold holds; simp only [holdsF, h]
  have ex := holdsF_child P w n hx
  have ey := holdsF_child P w n hy
  unfold holds at ex ey
  simp only [ex, ey]
  exact ⟨fun h => h.2.2, fun h => ⟨hx, hy, h⟩⟩

/-- Unfolding `holds` at `x U y`. -/
theorem holds_until {x y : Nat} (h : nodeAt P g = .until x y) (hx : x < g) (hy : y < g) :
    holds P w n g i ↔ ∃ j, i < j ∧ j < n ∧ holds P w n y j ∧ ∀ k, i < k → k < j → holds P w n x k := by
  unfold holds; simp only [holdsF, h]
  have ex := holdsF_child P w n hx
  have ey := holdsF_child P w n hy
  unfold holds at ex ey
  simp only [ex, ey]
  exact ⟨fun h => h.2.2, fun h => ⟨hx, hy, h⟩⟩

/-- Unfolding `holds` at `mod(m, r)`. -/
theorem holds_modEq {m r : Nat} (h : nodeAt P g = .modEq m r) : holds P w n g i ↔ i % m = r := by
  unfold holds; simp only [holdsF, h]

/-- Unfolding `holds` at `pos(...)`. -/
theorem holds_lin {p q r : Int} (h : nodeAt P g = .lin p q r) :
    holds P w n g i ↔ 0 < p * (i : Int) + q * (n : Int) + r := by
  unfold holds; simp only [holdsF, h]

/-- Unfolding `holds` at a comparison of counts. -/
theorem holds_cmp {ts : List (Int × CountDir × Nat)} {r : Int} (h : nodeAt P g = .cmp ts r)
    (hts : ∀ t, t ∈ ts → t.2.2 < g) :
    holds P w n g i ↔ 0 < cmpSum (fun x d => countIn (fun j => holds P w n x j) n i d) ts + r := by
  unfold holds; simp only [holdsF, h]
  rw [cmpSum_congr ts (c2 := fun x d => countIn (fun j => holds P w n x j) n i d)
    (fun t ht => countIn_congr (fun j => holdsF_child P w n (hts t ht) j) n i t.2.1)]
  exact ⟨fun h => h.2, fun h => ⟨hts, h⟩⟩

end Unfold

/-! ### Symbol-only nodes: a function of the symbol at `i` -/

/-- Checker helper: whether `p i + q n + r > 0` holds at every position of every length
(`i = b`, `n = 1 + a + b`: the value is `(q + r) + q a + (p + q) b`), `some false` if it fails at
every one, `none` otherwise (`Pos.constant` of `constructive/logic/syntax.py`). -/
noncomputable def linConst (p q r : Int) : Option Bool :=
  if 0 < q + r ∧ 0 ≤ q ∧ 0 ≤ p + q then some true
  else if q + r ≤ 0 ∧ q ≤ 0 ∧ p + q ≤ 0 then some false else none

/-- Checker: the value of node `g` at a position holding symbol `a`, when `g` is symbol-only
(atoms, constants, constant `pos(...)`, comparisons with no count left, `[r > 0]`, and Boolean
connectives of them); `none` otherwise. -/
noncomputable def symEval (P : Prog) (a : Nat) : Nat → Nat → Option Bool
  | 0, _ => none
  | fuel + 1, g =>
    match nodeAt P g with
    | .atom b => some (a == b)
    | .const b => some b
    | .lin p q r => linConst p q r
    | .not x => if x < g then (symEval P a fuel x).map (!·) else none
    | .and x y => if x < g ∧ y < g then
        match symEval P a fuel x, symEval P a fuel y with
        | some u, some v => some (u && v)
        | _, _ => none
      else none
    | .or x y => if x < g ∧ y < g then
        match symEval P a fuel x, symEval P a fuel y with
        | some u, some v => some (u || v)
        | _, _ => none
      else none
    | .cmp [] r => some (decide (0 < r))
    | _ => none

/-- `linConst` is sound: a decided `pos(...)` has that value at every position `i < n`. -/
theorem linConst_sound {p q r : Int} {b : Bool} (h : linConst p q r = some b) {n i : Nat} (hi : i < n) :
    (0 < p * (i : Int) + q * (n : Int) + r ↔ b = true) := by
  have hN : (n : Int) = 1 + ((n - 1 - i : Nat) : Int) + (i : Int) := by omega
  have hA : (0 : Int) ≤ ((n - 1 - i : Nat) : Int) := Int.natCast_nonneg _
  have hI : (0 : Int) ≤ (i : Int) := Int.natCast_nonneg _
  generalize ((n - 1 - i : Nat) : Int) = A at hN hA
  generalize (i : Int) = I at hN hI
  rw [hN, Int.mul_add, Int.mul_add, Int.mul_one]
  unfold linConst at h
  by_cases h1 : 0 < q + r ∧ 0 ≤ q ∧ 0 ≤ p + q
  · rw [if_pos h1] at h
    cases h
    have ha := Int.mul_nonneg h1.2.1 hA
    have hb := Int.mul_nonneg h1.2.2 hI
    rw [Int.add_mul] at hb
    constructor
    · intro _; rfl
    · intro _; omega
  · rw [if_neg h1] at h
    by_cases h2 : q + r ≤ 0 ∧ q ≤ 0 ∧ p + q ≤ 0
    · rw [if_pos h2] at h
      cases h
      have ha := Int.mul_le_mul_of_nonneg_right h2.2.1 hA
      have hb := Int.mul_le_mul_of_nonneg_right h2.2.2 hI
      rw [Int.zero_mul] at ha hb
      rw [Int.add_mul] at hb
      constructor
      · intro hc; omega
      · intro hc; exact absurd hc (by decide)
    · rw [if_neg h2] at h; cases h

/-- `symEval` is sound: a symbol-only node holds at `i` exactly as it does on the symbol at `i`. -/
theorem symEval_sound (P : Prog) (a : Nat) : ∀ (fuel g : Nat) (b : Bool), symEval P a fuel g = some b →
    ∀ (w : List Nat) (n i : Nat), i < n → w.getD i 0 = a → (holds P w n g i ↔ b = true) := by
  intro fuel
  induction fuel with
  | zero => intro g b h; simp [symEval] at h
  | succ f ih =>
    intro g b h w n i hi hw
    unfold symEval at h
    split at h
    next b' hg => cases h; rw [holds_atom hg, hw]; exact beq_iff_eq.symm
    next b' hg => cases h; rw [holds_const hg]
    next p q r hg => rw [holds_lin hg]; exact linConst_sound h hi
    next x hg =>
      by_cases hx : x < g
      · rw [if_pos hx] at h
        cases hs : symEval P a f x with
        | none => rw [hs] at h; cases h
        | some u =>
          rw [hs] at h; cases h
          rw [holds_not hg hx, ih x u hs w n i hi hw]; cases u <;> simp
      · rw [if_neg hx] at h; cases h
    next x y hg =>
      by_cases hxy : x < g ∧ y < g
      · rw [if_pos hxy] at h
        cases hs : symEval P a f x <;> cases ht : symEval P a f y <;> rw [hs, ht] at h <;> try cases h
        next u v =>
          rw [holds_and hg hxy.1 hxy.2, ih x u hs w n i hi hw, ih y v ht w n i hi hw]; cases u <;> cases v <;> simp
      · rw [if_neg hxy] at h; cases h
    next x y hg =>
      by_cases hxy : x < g ∧ y < g
      · rw [if_pos hxy] at h
        cases hs : symEval P a f x <;> cases ht : symEval P a f y <;> rw [hs, ht] at h <;> try cases h
        next u v =>
          rw [holds_or hg hxy.1 hxy.2, ih x u hs w n i hi hw, ih y v ht w n i hi hw]; cases u <;> cases v <;> simp
      · rw [if_neg hxy] at h; cases h
    next r hg =>
      cases h
      rw [holds_cmp hg (fun t ht => absurd ht (List.not_mem_nil))]
      simp [cmpSum]
    next => cases h

/-! ### Boolean nodes over leaves -/

/-- Checker helper: the position of `x` in `l` (`none` if absent). -/
noncomputable def indexOf (l : List Nat) (x : Nat) : Option Nat :=
  match l with
  | [] => none
  | y :: t => if y = x then some 0 else (indexOf t x).map (· + 1)

/-- `indexOf` is sound: the index found holds `x`. -/
theorem indexOf_sound : ∀ {l : List Nat} {x k : Nat}, indexOf l x = some k → l.getD k 0 = x ∧ k < l.length
  | [], _, _, h => by simp [indexOf] at h
  | y :: t, x, k, h => by
    unfold indexOf at h
    by_cases hy : y = x
    · rw [if_pos hy] at h; cases h; exact ⟨by simp [hy], by simp⟩
    · rw [if_neg hy] at h
      cases ht : indexOf t x with
      | none => rw [ht] at h; cases h
      | some k' =>
        rw [ht] at h; cases h
        have := indexOf_sound ht
        exact ⟨by simpa using this.1, by simp; omega⟩

/-- Checker: Kleene's three-valued `and` (`none` unknown). -/
noncomputable def kand : Option Bool → Option Bool → Option Bool
  | some false, _ => some false
  | _, some false => some false
  | some true, some true => some true
  | _, _ => none

/-- Checker: Kleene's three-valued `or`. -/
noncomputable def kor : Option Bool → Option Bool → Option Bool
  | some true, _ => some true
  | _, some true => some true
  | some false, some false => some false
  | _, _ => none

/-- Checker: the value of the Boolean node `g` when its leaves `L` take the values `ρ`, in Kleene's
three-valued logic: `not`, `and`, `or` and constants above the leaves; any other node is unknown
(`none`), and `and` / `or` are decided as soon as one side decides them. -/
noncomputable def keval (P : Prog) (L : List Nat) (ρ : List Bool) : Nat → Nat → Option Bool
  | 0, _ => none
  | fuel + 1, g =>
    match indexOf L g with
    | some k => some (ρ.getD k false)
    | none =>
      match nodeAt P g with
      | .const b => some b
      | .not x => if x < g then (keval P L ρ fuel x).map (!·) else none
      | .and x y => if x < g ∧ y < g then kand (keval P L ρ fuel x) (keval P L ρ fuel y) else none
      | .or x y => if x < g ∧ y < g then kor (keval P L ρ fuel x) (keval P L ρ fuel y) else none
      | _ => none

/-- Kleene's `and` is sound: a decided value is the conjunction's. -/
theorem kand_sound {u v : Option Bool} {b : Bool} {A B : Prop} (h : kand u v = some b)
    (hu : ∀ c, u = some c → (A ↔ c = true)) (hv : ∀ c, v = some c → (B ↔ c = true)) : (A ∧ B ↔ b = true) := by
  cases u with
  | none => cases v with
    | none => simp [kand] at h
    | some c => cases c <;> simp [kand] at h
                · subst h; have := hv false rfl; simp at this ⊢; exact fun _ hb => this hb
  | some c => cases c with
    | false => simp [kand] at h; subst h; have := hu false rfl; simp at this ⊢; exact fun ha => absurd ha this
    | true => cases v with
      | none => simp [kand] at h
      | some c' => cases c' <;> simp [kand] at h <;> subst h
                   · have := hv false rfl; simp at this ⊢; exact fun _ hb => this hb
                   · have a := hu true rfl; have b := hv true rfl; simp at a b ⊢; exact ⟨a, b⟩

/-- Kleene's `or` is sound: a decided value is the disjunction's. -/
theorem kor_sound {u v : Option Bool} {b : Bool} {A B : Prop} (h : kor u v = some b)
    (hu : ∀ c, u = some c → (A ↔ c = true)) (hv : ∀ c, v = some c → (B ↔ c = true)) : (A ∨ B ↔ b = true) := by
  cases u with
  | none => cases v with
    | none => simp [kor] at h
    | some c => cases c <;> simp [kor] at h
                · subst h; have := hv true rfl; simp at this ⊢; exact Or.inr this
  | some c => cases c with
    | true => simp [kor] at h; subst h; have := hu true rfl; simp at this ⊢; exact Or.inl this
    | false => cases v with
      | none => simp [kor] at h
      | some c' => cases c' <;> simp [kor] at h <;> subst h
                   · have a := hu false rfl; have b := hv false rfl; simp at a b ⊢; exact ⟨a, b⟩
                   · have := hv true rfl; simp at this ⊢; exact Or.inr this

/-- `keval` is sound: if every leaf `L[k]` holds at `i` exactly when `ρ[k]`, and `keval` decides node
`g`, then `g` holds at `i` exactly as it says (whatever the nodes it left unknown). -/
theorem keval_sound (P : Prog) (L : List Nat) (ρ : List Bool) (w : List Nat) (n i : Nat)
    (hL : ∀ k, k < L.length → (holds P w n (L.getD k 0) i ↔ ρ.getD k false = true)) :
    ∀ (fuel g : Nat) (b : Bool), keval P L ρ fuel g = some b → (holds P w n g i ↔ b = true) := by
  intro fuel
  induction fuel with
  | zero => intro g b h; simp [keval] at h
  | succ f ih =>
    intro g b h
    unfold keval at h
    cases hk : indexOf L g with
    | some k =>
      rw [hk] at h; cases h
      have := indexOf_sound hk
      rw [← this.1]; exact hL k this.2
    | none =>
      rw [hk] at h
      simp only at h
      split at h
      next b' hg => cases h; rw [holds_const hg]
      next x hg =>
        by_cases hx : x < g
        · rw [if_pos hx] at h
          cases hs : keval P L ρ f x with
          | none => rw [hs] at h; cases h
          | some u =>
            rw [hs] at h; cases h
            rw [holds_not hg hx, ih x u hs]; cases u <;> simp
        · rw [if_neg hx] at h; cases h
      next x y hg =>
        by_cases hxy : x < g ∧ y < g
        · rw [if_pos hxy] at h
          rw [holds_and hg hxy.1 hxy.2]
          exact kand_sound h (fun c hc => ih x c hc) (fun c hc => ih y c hc)
        · rw [if_neg hxy] at h; cases h
      next x y hg =>
        by_cases hxy : x < g ∧ y < g
        · rw [if_pos hxy] at h
          rw [holds_or hg hxy.1 hxy.2]
          exact kor_sound h (fun c hc => ih x c hc) (fun c hc => ih y c hc)
        · rw [if_neg hxy] at h; cases h
      next => cases h

/-! ### Boolean nodes as one conjunction of literals (the compiler's circuit gates) -/

/-- Checker: literals `(x, p)` whose conjunction is `g` (`pol = true`) or `¬g` (`pol = false`),
stopping at the inputs `I` (`and` under `pol`, `or` under `¬pol`, `not` flips, a constant equal to
`pol` is the empty conjunction); `none` if `g` is no such conjunction over `I`. -/
noncomputable def conjLits (P : Prog) (I : List Nat) : Nat → Nat → Bool → Option (List (Nat × Bool))
  | 0, _, _ => none
  | fuel + 1, g, pol =>
    if I.contains g then some [(g, pol)] else
    match nodeAt P g with
    | .const b => if b = pol then some [] else none
    | .not x => if x < g then conjLits P I fuel x (!pol) else none
    | .and x y => if pol ∧ x < g ∧ y < g then
        match conjLits P I fuel x pol, conjLits P I fuel y pol with
        | some a, some b => some (a ++ b)
        | _, _ => none
      else none
    | .or x y => if !pol ∧ x < g ∧ y < g then
        match conjLits P I fuel x pol, conjLits P I fuel y pol with
        | some a, some b => some (a ++ b)
        | _, _ => none
      else none
    | _ => none

/-- `conjLits` is sound: `g` holds (`pol`) or fails (`¬pol`) exactly when every literal does. -/
theorem conjLits_sound (P : Prog) (I : List Nat) (w : List Nat) (n i : Nat) :
    ∀ (fuel g : Nat) (pol : Bool) (L : List (Nat × Bool)), conjLits P I fuel g pol = some L →
      ((holds P w n g i ↔ pol = true) ↔ ∀ e, e ∈ L → (holds P w n e.1 i ↔ e.2 = true)) := by
  intro fuel
  induction fuel with
  | zero => intro g pol L h; simp [conjLits] at h
  | succ f ih =>
    intro g pol L h
    unfold conjLits at h
    by_cases hI : I.contains g = true
    · rw [if_pos hI] at h; cases h; simp
    · rw [if_neg hI] at h
      split at h
      next b hg =>
        by_cases hb : b = pol
        · rw [if_pos hb] at h; cases h; rw [holds_const hg, hb]; simp
        · rw [if_neg hb] at h; cases h
      next x hg =>
        by_cases hx : x < g
        · rw [if_pos hx] at h
          rw [holds_not hg hx, ← ih x (!pol) L h]; cases pol <;> simp
        · rw [if_neg hx] at h; cases h
      next x y hg =>
        by_cases hc : pol = true ∧ x < g ∧ y < g
        · rw [if_pos hc] at h
          cases hs : conjLits P I f x pol <;> cases ht : conjLits P I f y pol <;> rw [hs, ht] at h <;> try cases h
          next a b =>
            have e1 := ih x pol a hs
            have e2 := ih y pol b ht
            rw [holds_and hg hc.2.1 hc.2.2, hc.1]
            rw [hc.1] at e1 e2
            simp only [List.mem_append]
            constructor
            · intro hh e he
              rcases he with he | he
              · exact (e1.mp (by simpa using (hh.mpr trivial).1)) e he
              · exact (e2.mp (by simpa using (hh.mpr trivial).2)) e he
            · intro hh
              have a1 := e1.mpr (fun e he => hh e (Or.inl he))
              have a2 := e2.mpr (fun e he => hh e (Or.inr he))
              simp at a1 a2 ⊢; exact ⟨a1, a2⟩
        · rw [if_neg hc] at h; cases h
      next x y hg =>
        by_cases hc : (!pol) = true ∧ x < g ∧ y < g
        · rw [if_pos hc] at h
          have hp : pol = false := by cases pol; rfl; exact absurd hc.1 (by decide)
          cases hs : conjLits P I f x pol <;> cases ht : conjLits P I f y pol <;> rw [hs, ht] at h <;> try cases h
          next a b =>
            have e1 := ih x pol a hs
            have e2 := ih y pol b ht
            rw [holds_or hg hc.2.1 hc.2.2, hp]
            rw [hp] at e1 e2
            simp only [List.mem_append]
            constructor
            · intro hh e he
              rcases he with he | he
              · exact (e1.mp (by simp; intro hx; exact absurd (Or.inl hx) (by simpa using hh))) e he
              · exact (e2.mp (by simp; intro hy; exact absurd (Or.inr hy) (by simpa using hh))) e he
            · intro hh
              have a1 := e1.mpr (fun e he => hh e (Or.inl he))
              have a2 := e2.mpr (fun e he => hh e (Or.inr he))
              simp at a1 a2 ⊢; exact ⟨a1, a2⟩
        · rw [if_neg hc] at h; cases h
      next => cases h

/-! ### Since and until through a select (Lemma 8) -/

section Select

open Classical

/-- Lemma 8 (tie-breaking) for since: with a select `B` such that, at the positions before `i`,
`R → B`, `¬F → B`, and no position with `B`, `F` and `¬R` has `F S R`, the strict since `F S R`
holds at `i > 0` exactly when `R` holds at the past tie-breaking head's target (the rightmost
`j < i` with `B`, else `i - 1`). -/
theorem since_iff_target {F R B : Nat → Prop} {i : Nat} (hRB : ∀ k, k < i → R k → B k)
    (hFB : ∀ k, k < i → ¬ F k → B k)
    (hblock : ∀ k, k < i → B k → F k → ¬ R k → ¬ ∃ j, j < k ∧ R j ∧ ∀ m, j < m → m < k → F m)
    (hi : 0 < i) :
    (∃ j, j < i ∧ R j ∧ ∀ m, j < m → m < i → F m) ↔ R (tiebreakPastTarget (fun k => decide (B k)) i) := by
  unfold tiebreakPastTarget
  cases hl : lastSel (fun k => decide (B k)) i with
  | some t =>
    obtain ⟨ht, hsel, hnone⟩ := lastSel_some hl
    have hBt : B t := of_decide_eq_true hsel
    have hafter : ∀ m, t < m → m < i → F m ∧ ¬ R m := by
      intro m h1 h2
      have hnb : ¬ B m := fun hb => by have := hnone m h2 (by simp [hb]); omega
      exact ⟨Classical.byContradiction (fun hf => hnb (hFB m h2 hf)), fun hr => hnb (hRB m h2 hr)⟩
    simp only [Option.getD_some]
    constructor
    · rintro ⟨j, hj, hRj, hF⟩
      by_cases hjt : j = t
      · rw [← hjt]; exact hRj
      · by_cases hlt : t < j
        · exact absurd hRj (hafter j hlt hj).2
        · have hjt' : j < t := by omega
          refine Classical.byContradiction (fun hRt => ?_)
          exact hblock t ht hBt (hF t hjt' ht) hRt ⟨j, hjt', hRj, fun m h1 h2 => hF m h1 (by omega)⟩
    · intro hRt
      exact ⟨t, ht, hRt, fun m h1 h2 => (hafter m h1 h2).1⟩
  | none =>
    have hnone := lastSel_none hl
    simp only [Option.getD_none]
    have hnoR : ∀ m, m < i → ¬ R m := fun m hm hr => by
      have := hnone m hm; simp [hRB m hm hr] at this
    constructor
    · rintro ⟨j, hj, hRj, _⟩; exact absurd hRj (hnoR j hj)
    · intro h; exact absurd h (hnoR (i - 1) (by omega))

/-- Lemma 8 (tie-breaking) for until, the mirror image: `F U R` holds at `i` with `i + 1 < n`
exactly when `R` holds at the future head's target `i + 1 + k*` (the leftmost `j > i` with `B`,
else `i + 1`), given the conditions at the positions after `i`. -/
theorem until_iff_target {F R B : Nat → Prop} {n i : Nat} (hRB : ∀ k, i < k → k < n → R k → B k)
    (hFB : ∀ k, i < k → k < n → ¬ F k → B k)
    (hblock : ∀ k, i < k → k < n → B k → F k → ¬ R k → ¬ ∃ j, k < j ∧ j < n ∧ R j ∧ ∀ m, k < m → m < j → F m)
    (hin : i + 1 < n) :
    (∃ j, i < j ∧ j < n ∧ R j ∧ ∀ m, i < m → m < j → F m)
      ↔ R (i + 1 + tiebreakFutureTarget (fun k => decide (B k)) n i) := by
  unfold tiebreakFutureTarget
  cases hl : firstSel (fun k => decide (B (i + 1 + k))) (n - 1 - i) with
  | some t =>
    obtain ⟨ht, hsel, hnone⟩ := firstSel_some hl
    have hBt : B (i + 1 + t) := of_decide_eq_true hsel
    have hbefore : ∀ m, i < m → m < i + 1 + t → F m ∧ ¬ R m := by
      intro m h1 h2
      have hnb : ¬ B m := fun hb => by
        have := hnone (m - (i + 1)) (by omega)
        rw [show i + 1 + (m - (i + 1)) = m by omega] at this; simp [hb] at this
      exact ⟨Classical.byContradiction (fun hf => hnb (hFB m h1 (by omega) hf)), fun hr => hnb (hRB m h1 (by omega) hr)⟩
    simp only [Option.getD_some]
    constructor
    · rintro ⟨j, hj, hjn, hRj, hF⟩
      by_cases hjt : j = i + 1 + t
      · rw [← hjt]; exact hRj
      · by_cases hlt : j < i + 1 + t
        · exact absurd hRj (hbefore j hj hlt).2
        · have hjt' : i + 1 + t < j := by omega
          refine Classical.byContradiction (fun hRt => ?_)
          exact hblock (i + 1 + t) (by omega) (by omega) hBt (hF (i + 1 + t) (by omega) hjt') hRt
            ⟨j, hjt', hjn, hRj, fun m h1 h2 => hF m (by omega) h2⟩
    · intro hRt
      exact ⟨i + 1 + t, by omega, by omega, hRt, fun m h1 h2 => (hbefore m h1 h2).1⟩
  | none =>
    have hnone := firstSel_none hl
    simp only [Option.getD_none]
    have hnoR : ∀ m, i < m → m < n → ¬ R m := fun m h1 h2 hr => by
      have := hnone (m - (i + 1)) (by omega)
      rw [show i + 1 + (m - (i + 1)) = m by omega] at this; simp [hRB m h1 h2 hr] at this
    constructor
    · rintro ⟨j, hj, hjn, hRj, _⟩; exact absurd hRj (hnoR j hj hjn)
    · intro h; exact absurd h (hnoR (i + 1 + 0) (by omega) (by omega))

end Select

/-- The anchored select of since (`constructive/logic/compiler.py`, `_anchored_select`): with
`H ↔ ¬F` and `R → F` at the positions before `i`, the select `h | Y h` meets the blocking
condition of `since_iff_target`. -/
theorem block_of_anchored {F R H : Nat → Prop} {i : Nat} (hH : ∀ k, k < i → (H k ↔ ¬ F k))
    (hRF : ∀ k, k < i → R k → F k) :
    ∀ k, k < i → (H k ∨ (0 < k ∧ H (k - 1))) → F k → ¬ R k →
      ¬ ∃ j, j < k ∧ R j ∧ ∀ m, j < m → m < k → F m := by
  intro k hk hb hf _ ⟨j, hj, hRj, hF⟩
  rcases hb with hb | ⟨hk0, hb⟩
  · exact (hH k hk).mp hb hf
  · have hnf := (hH (k - 1) (by omega)).mp hb
    by_cases hjk : j = k - 1
    · rw [hjk] at hRj; exact hnf (hRF _ (by omega) hRj)
    · exact hnf (hF (k - 1) (by omega) (by omega))

/-- The anchored select of until (`h | X h`), the mirror image of `block_of_anchored`, at the
positions after `i`. -/
theorem block_of_anchored_until {F R H : Nat → Prop} {n i : Nat} (hH : ∀ k, i < k → k < n → (H k ↔ ¬ F k))
    (hRF : ∀ k, i < k → k < n → R k → F k) :
    ∀ k, i < k → k < n → (H k ∨ (k + 1 < n ∧ H (k + 1))) → F k → ¬ R k →
      ¬ ∃ j, k < j ∧ j < n ∧ R j ∧ ∀ m, k < m → m < j → F m := by
  intro k hk hkn hb hf _ ⟨j, hj, hjn, hRj, hF⟩
  rcases hb with hb | ⟨hk1, hb⟩
  · exact (hH k hk hkn).mp hb hf
  · have hnf := (hH (k + 1) (by omega) hk1).mp hb
    by_cases hjk : j = k + 1
    · rw [hjk] at hRj; exact hnf (hRF _ (by omega) hk1 hRj)
    · exact hnf (hF (k + 1) (by omega) (by omega))

end HardSoft.Cert

end
