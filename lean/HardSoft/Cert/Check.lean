module

public import HardSoft.Cert.Model

/-!
# Certificates, part 4: the certificate and its checker

A certificate describes a compiled model the way the compiler laid it out
(`constructive/logic/compiler.py`): what each residual coordinate holds (`Role`: nothing, a
position feature, or the 0/1 value of a formula node from the layer after which it exists), where
each node lives, which construction each head is (`Family`, with its select and value terms; the
count and sign heads of an inclusive comparison of counts), and what each group of hidden units
computes (`GroupD`: the clamp of an attended node, its eraser, a truth table, a circuit gate, an
inclusive comparison's one-position correction `W`, a mixed comparison's clamp of its copied
counts, or a copy's eraser). `check` returns `true` only if the weights are exactly those
constructions over those coordinates, the Boolean plans compute their nodes (by enumeration or
by flattening), every select meets Lemma 8's conditions, and the temperature rule puts every
head's error within the clamps' tolerance. `HardSoft.Cert.Sound` proves once that `check = true`
implies the model computes the formula at every position of every word of every length, in hard
and in soft mode.

## Main definitions

* `HardSoft.Cert`: the certificate.
* `HardSoft.Cert.check`: the checker (evaluated by the kernel on each certificate).
* `HardSoft.Cert.Cert.tauRule`: the temperature rule `τ(n) = c / (n^2 max(n-1, 1))` (mixed
  comparisons, bounded regime), `c / max(n-1, 1)` (mixed comparisons, unbounded), `c/n` (bounded) or
  `1` (unbounded).
* `HardSoft.Cert.errRule`: the rational bound `(1 + γ/k)^(-k)` on `exp(-γ)`, `γ = K/c` (bounded or
  mixed) or `K`.
* `HardSoft.Cert.errLk`, `HardSoft.Cert.copyErr`: the mixed comparisons' position lookups' mass
  bound `(1 + (1/c)/k)^(-k) ≥ exp(-1/c)` and copy error `2x/(1-x)^2`.

## Main results

* `HardSoft.Cert.Role.eq_of_beq`: the decided role equality is equality (the soundness theorem is
  `HardSoft.Cert.certified_of_check`).
-/

@[expose] public section

set_option autoImplicit false


namespace HardSoft.Cert

/-- What a residual coordinate holds at a layer boundary: nothing, a position feature, the 0/1
value of node `g`, or one of the two values an inclusive comparison `g` (`Node.cmp ts r`, every
term `#<=`) carries between its two layers: `val g`, the count head's output
`(Σ_k c_k #<=_k + r - 1/2) / (i + 1)`, and `single g`, the one-position correction `W`
(`1` if `n = 1` and `g` does not hold, else `0`); `pre g`, a strict comparison's constant part; and
`avg d x`, the average `#_d[x](i) / maskCount d n i` a mixed comparison's position lookup reads;
and the bounded regime's mixed comparisons' stages: `scaled x`, node `x`'s value divided by `n`;
`avgN d x`, the average of the scaled values (`#_d[x](i) / n / maskCount d n i`); `vpre g`, comparison
`g`'s constant part `(r - 1/2)/n`; `vmix g`, its `V = (A - 1/2)/n` after the position lookups
(held only approximately: `Role.approx`). -/
inductive Role where
  | zero
  | feat (f : Feat)
  | node (g : Nat)
  | val (g : Nat)
  | single (g : Nat)
  | pre (g : Nat)
  | avg (d : CountDir) (x : Nat)
  | scaled (x : Nat)
  | avgN (d : CountDir) (x : Nat)
  | vpre (g : Nat)
  | vmix (g : Nat)

/-- Checker helper: equality of count directions, decided. -/
noncomputable def dirEq : CountDir → CountDir → Bool
  | .lt, .lt | .le, .le | .gt, .gt => true
  | _, _ => false

/-- Checker helper lemma: `dirEq` decides equality. -/
theorem dirEq_eq {a b : CountDir} (h : dirEq a b = true) : a = b := by
  cases a <;> cases b <;> simp_all [dirEq]

/-- Checker helper: role equality, decided. -/
noncomputable def Role.beq : Role → Role → Bool
  | .zero, .zero => true
  | .feat f, .feat f' => f.beq f'
  | .node g, .node g' => g == g'
  | .val g, .val g' => g == g'
  | .single g, .single g' => g == g'
  | .pre g, .pre g' => g == g'
  | .avg d x, .avg d' x' => dirEq d d' && x == x'
  | .scaled x, .scaled x' => x == x'
  | .avgN d x, .avgN d' x' => dirEq d d' && x == x'
  | .vpre g, .vpre g' => g == g'
  | .vmix g, .vmix g' => g == g'
  | _, _ => false

/-- `Role.beq` decides equality. -/
theorem Role.eq_of_beq {a b : Role} (h : a.beq b = true) : a = b := by
  cases a <;> cases b <;> simp_all [Role.beq]
  · exact Feat.eq_of_beq h
  · exact dirEq_eq h.1
  · exact dirEq_eq h.1

/-- Whether a role's value is held only approximately (within `1/(4n)`): a bounded mixed comparison's `V`
after its position lookups (soft mode). -/
noncomputable def Role.approx : Role → Bool
  | .vmix _ => true
  | _ => false

/-- One value column of a count head: it adds `coef` times its source's `0/1` value to the
coordinate `vc` of comparison `g`'s `V` (a term `c_k #<=[x_k]`: `src = some x_k`, `coef = c_k`;
the constant: `src = none`, the column reads the `is_first` feature, `coef = r - 1/2`). -/
structure CntD where
  /-- the comparison -/
  g : Nat
  /-- the coordinate of its `V` (the column's `W_O` target) -/
  vc : Nat
  /-- the counted node (`none`: the constant, through `is_first`) -/
  src : Option Nat
  /-- the `W_O` entry -/
  coef : Rat
  /-- an average column of a mixed comparison's count: `src = some g`, `coef = 1`, `g` the counted
  node, `vc` holding `.avg d g` (`#_d[g](i) / maskCount d n i`) after the layer -/
  avg : Bool
  /-- a scaled average column (bounded regime): it reads the coordinate `s` holding `.scaled g`
  instead of `crd g`; `vc` holds `.avgN d g` after the layer -/
  sc : Option Nat

/-- The head constructions (`constructive/heads.py`): tie-breaking (Lemma 8) past / future in the
bounded / unbounded regime, the unbounded one-sided lookup (Lemma 7), the count head of direction
`d` with its value columns `ts` (no score, every key ties), and the sign head of a comparison
(orientation `o`, reading `V` at `vc` and the correction `W` at `wc`; its one value term is the
comparison's node), and the position lookup of a mixed comparison's count `#_d[x]` (Lemma 7 over
positions, unbounded regime): it reads the average at `ac` and writes the count into the copy
coordinate `cc`. -/
inductive Family where
  | tbPastB | tbFutB | tbPastU | tbFutU | lkPast | lkFut
  | cnt (d : CountDir) (ts : List CntD)
  | sign (o : Bool) (vc : Nat) (wc : Option Nat)
  | plk (d : CountDir) (x ac cc : Nat)
  | plkN (d : CountDir) (x ac : Nat) (vs : List (Nat × Nat))

/-- A coordinate's role over a stretch of layer boundaries: `role` from boundary `start` on, until
boundary `stop` (excluded; `none`: to the end). A coordinate serves several nodes in turn
(`constructive.residual.Residual.compact`), each in its own span. -/
structure Span where
  /-- what the coordinate holds -/
  role : Role
  /-- the first boundary -/
  start : Nat
  /-- the first boundary after the span (`none`: none) -/
  stop : Option Nat

/-- One value term of a head: the attended node (its coordinate is the term's target) and the node
read at the chosen key. -/
structure TermD where
  /-- the attended node -/
  node : Nat
  /-- the node whose value is copied -/
  src : Nat

/-- One head: its construction, its select node (tie-breaking; `none`: every key selected), whether
the select is the anchored `h | Y h` (`h | X h`), and its value terms. -/
structure HeadD where
  /-- the construction -/
  fam : Family
  /-- the select node -/
  sel : Option Nat
  /-- anchored select -/
  anchored : Bool
  /-- value terms -/
  terms : List TermD

/-- A group of consecutive hidden units of a layer's FFN and what it computes. -/
inductive GroupD where
  /-- the clamp of attended node `g`'s raw value (2 units) -/
  | pair (g : Nat)
  /-- `x - ReLU(x)` on attended node `g`'s coordinate (1 unit) -/
  | eraser (g : Nat)
  /-- `-ReLU(x) + ReLU(-x) = -x` on coordinate `c`: its value erased (2 units), the coordinate free for a later node -/
  | clear (c : Nat)
  /-- node `g` from the truth table of `inputs`: one clamp per listed assignment (2 units each),
  the sum (`neg = false`) or one minus it (`neg = true`); `extra` are further leaves the table
  does not depend on, enumerated to show it -/
  | table (g : Nat) (inputs extra : List Nat) (assigns : List (List Bool)) (neg : Bool)
  /-- node `g` as one gate: the clamp of `sigma` over `inputs`, or one minus it (`neg`) -/
  | gate (g : Nat) (inputs : List Nat) (sigma : List Bool) (neg : Bool)
  /-- inclusive comparison `g`'s correction `W` at `wc` from its `V` at `vc` (2 units,
  `±ReLU(-V + M is_first + M is_last ± 1/2 - 2M)`) -/
  | single (g vc wc : Nat) (M : Rat)
  /-- strict comparison `g`'s constant part `q f_dir` of `V` at `vc`, from the feature at `f` (2 units,
  `±ReLU(±q f_dir)`, `q = r - 1/2`) -/
  | pre (g vc f : Nat)
  /-- the clamp of the raw value `s ≈ 1 - [g]` of a node `g` a sign head attends with orientation `-1`
  (2 units, `ReLU(3/2 - 2s) - ReLU(1/2 - 2s)`) -/
  | pairFlip (g : Nat)
  /-- mixed comparison `g` (`Node.cmp ts r`) from the copies `cs` of its counts (one per term, in
  term order): `ReLU(Σ_k 2 c_k y_k + 2r - 1/2) - ReLU(Σ_k 2 c_k y_k + 2r - 3/2)` (2 units) -/
  | mix (g : Nat) (cs : List Nat)
  /-- `x - ReLU(x)` on a position lookup's copy coordinate `cc` (1 unit) -/
  | copyErase (cc : Nat)
  /-- node `x`'s value divided by `n` into `sc`: `ReLU(1/n) - ReLU(1/n - y)` (2 units, bounded mixed) -/
  | scale (x sc : Nat)
  /-- bounded mixed comparison `g`'s constant part `(r - 1/2)/n` at `vc`, from the feature `1/n` at `f` (2 units) -/
  | vpre (g vc f : Nat)

/-- One layer of the description: its heads (in the model's order) and its unit groups (in order). -/
structure LayerD where
  /-- the heads -/
  heads : List HeadD
  /-- the unit groups -/
  groups : List GroupD

end HardSoft.Cert

namespace HardSoft

open HardSoft.Cert

/-- Certificates, definition: a compiled model's description. -/
structure Cert where
  /-- the formula DAG -/
  prog : Prog
  /-- the alphabet size -/
  nsym : Nat
  /-- what each coordinate holds, span by span -/
  spans : List (List Span)
  /-- the coordinate of each node -/
  coord : List Nat
  /-- `(g2, g1, leaves)`: node `g2` is node `g1` as a Boolean function of `leaves` (shared coordinates) -/
  equiv : List (Nat × Nat × List Nat)
  /-- the node read out -/
  root : Nat
  /-- bounded regime (`τ = c/n`) or unbounded (`τ = 1`) -/
  bounded : Bool
  /-- the mixed comparisons' rule: `τ = c / max(n-1, 1)` (unbounded regime), `c / (n^2 max(n-1, 1))` (bounded) -/
  mixed : Bool
  /-- the temperature constant `c` -/
  c : Rat
  /-- the score scale `K` -/
  K : Rat
  /-- the exponent `k` of the bound `exp(-γ) ≤ (1 + γ/k)^(-k)` -/
  expK : Nat
  /-- the layers -/
  layers : List LayerD

end HardSoft

namespace HardSoft.Cert


variable (C : Cert)

/-- Whether a span covers layer boundary `l`. -/
noncomputable def Span.covers (s : Span) (l : Nat) : Bool :=
  decide (s.start ≤ l) && (match s.stop with | none => true | some e => decide (l < e))

/-- The role of coordinate `c` at layer boundary `l`: the first of its spans that covers `l`, else nothing. -/
noncomputable def roleAt (c l : Nat) : Role :=
  match (C.spans.getD c []).find? (fun s => s.covers l) with
  | some s => s.role
  | none => .zero

/-- The coordinate of node `g`. -/
noncomputable def crd (g : Nat) : Nat := C.coord.getD g 0

/-- The exponent `γ` of every head's mass bound `exp(-γ)`: `K/c` (bounded: gap `K/n`,
`τ = c/n`; mixed: gap at least `K`, `τ = c / max(n-1, 1) ≤ c`), `K` (unbounded: gap `K`, `τ = 1`). -/
noncomputable def gammaRule : Rat := if C.bounded || C.mixed then C.K / C.c else C.K

/-- The rational bound `(1 + γ/k)^(-k) ≥ exp(-γ)` (from `1 + t ≤ exp t`) on every head's error. -/
noncomputable def errRule : Rat := 1 / (1 + C.gammaRule / C.expK) ^ C.expK

/-- The rational bound `(1 + (1/c)/k)^(-k) ≥ exp(-1/c)` on the position lookups' mass off the count
(mixed comparisons: the scores' gap `1/max(n-1, 1)` at `τ = c / max(n-1, 1)`). -/
noncomputable def errLk : Rat := 1 / (1 + (1 / C.c) / C.expK) ^ C.expK

/-- The bound `2x/(1-x)^2` (`x = errLk`) on a position lookup's copy error (HeadMass,
`position_lookup_copy_at_rule`). -/
noncomputable def copyErr : Rat := 2 * C.errLk / ((1 - C.errLk) * (1 - C.errLk))

variable {α : Type} [Lean.Grind.Field α] [LE α] [LT α]

/-- The temperature rule at length `n`: `c / (n^2 max(n-1, 1))` (mixed comparisons, bounded),
`c / max(n-1, 1)` (mixed comparisons, unbounded), `c/n` (bounded), `1` (unbounded). -/
noncomputable def tauRule (R : RatEmb α) (n : Nat) : α :=
  if C.mixed then
    (if C.bounded then R.cast C.c / natCast (n * n * max (n - 1) 1) else R.cast C.c / natCast (max (n - 1) 1))
  else if C.bounded then R.cast C.c / natCast n else 1

/-! ### Checker helpers -/

/-- Whether a list of naturals has no repeats. -/
noncomputable def nodupNat : List Nat → Bool
  | [] => true
  | x :: t => !t.contains x && nodupNat t

/-- Whether a list of assignments has no repeats. -/
noncomputable def nodupAssign : List (List Bool) → Bool
  | [] => true
  | x :: t => !t.contains x && nodupAssign t

/-- Every assignment of `m` Booleans. -/
noncomputable def allAssign : Nat → List (List Bool)
  | 0 => [[]]
  | m + 1 => (allAssign m).map (true :: ·) ++ (allAssign m).map (false :: ·)

/-- The first coordinate holding the feature `f` at boundary `l`. -/
noncomputable def featCoord (C : Cert) (f : Feat) (l : Nat) : Option Nat :=
  (List.range C.spans.length).find? (fun c => (C.roleAt c l).beq (.feat f))

/-- Whether node `g` is the formula the feature `f` computes (`first` / `is_first`, ...). -/
noncomputable def featIs (P : Prog) (g : Nat) (f : Feat) : Bool :=
  match nodeAt P g, f with
  | .first, .isFirst => true
  | .last, .isLast => true
  | .modEq m r, .modEq m' r' => m == m' && r == r'
  | .lin p q r, .lin p' q' r' => p == p' && q == q' && r == r'
  | _, _ => false

/-- Whether the certificate lists `g2` as equivalent to `g1`. -/
noncomputable def listedEquiv (C : Cert) (g2 g1 : Nat) : Bool := C.equiv.any (fun e => e.1 == g2 && e.2.1 == g1)

/-- Whether coordinate `crd g` holds node `g`'s value exactly at layer boundary `l`. -/
noncomputable def rep (C : Cert) (g l : Nat) : Bool :=
  match C.roleAt (C.crd g) l with
  | .node g' => g' == g || listedEquiv C g g'
  | .feat f => featIs C.prog g f
  | .zero => false
  | .val _ => false
  | .single _ => false
  | .pre _ => false
  | .avg _ _ => false
  | .scaled _ => false
  | .avgN _ _ => false
  | .vpre _ => false
  | .vmix _ => false

/-- The conjuncts of node `r` (its `and`-tree, `r` itself included). -/
noncomputable def conjuncts (P : Prog) : Nat → Nat → List Nat
  | 0, r => [r]
  | fuel + 1, r =>
    match nodeAt P r with
    | .and x y => r :: (if x < r ∧ y < r then conjuncts P fuel x ++ conjuncts P fuel y else [])
    | _ => [r]

/-- Whether node `x` is symbol-only with value `b` at every symbol `a < nsym` (as `symEval` says). -/
noncomputable def symAll (C : Cert) (x : Nat) (p : Nat → Bool → Bool) : Bool :=
  (List.range C.nsym).all (fun a => match symEval C.prog a (x + 1) x with
    | some b => p a b
    | none => false)

/-- Whether `h ↔ ¬f` at every position, as far as syntax and the symbols show. -/
noncomputable def negOf (C : Cert) (h f : Nat) : Bool :=
  (match nodeAt C.prog f with | .not x => x == h && decide (h < f) | _ => false) ||
  (match nodeAt C.prog h with | .not x => x == f && decide (f < h) | _ => false) ||
  (List.range C.nsym).all (fun a => match symEval C.prog a (h + 1) h, symEval C.prog a (f + 1) f with
    | some u, some v => u != v
    | _, _ => false)

/-- Whether `c → f` at every position, as far as syntax and the symbols show. -/
noncomputable def impliesF (C : Cert) (c f : Nat) : Bool :=
  c == f ||
  (List.range C.nsym).all (fun a => match symEval C.prog a (c + 1) c, symEval C.prog a (f + 1) f with
    | some u, some v => !u || v
    | _, _ => false)

/-- Lemma 8's conditions on the select `b` of `x S r` (`past`) or `x U r`: the plain select
`r | !x`, or the anchored `h | Y h` (`h | X h`) with `h ↔ ¬x`, `r → x` through a conjunct, and
`Y h` (`X h`) a conjunct of `r`. -/
noncomputable def selectOK (C : Cert) (past anchored : Bool) (b x r : Nat) : Bool :=
  if !anchored then
    match nodeAt C.prog b with
    | .or r' y => r' == r && decide (r < b) && decide (y < b) &&
        (match nodeAt C.prog y with | .not x' => x' == x && decide (x < y) | _ => false)
    | _ => false
  else
    match nodeAt C.prog b with
    | .or h p => decide (h < b) && decide (p < b) && negOf C h x &&
        (match nodeAt C.prog p with
         | .prev h' => past && h' == h && decide (h < p)
         | .next h' => !past && h' == h && decide (h < p)
         | _ => false) &&
        (conjuncts C.prog (r + 1) r).contains p &&
        (conjuncts C.prog (r + 1) r).any (fun c => impliesF C c x)
    | _ => false

/-- The score templates of a family, as (query column, key column) pairs over the coordinates of
the features and the select; `none` if a feature has no coordinate. -/
noncomputable def scoreTemplate (C : Cert) (fam : Family) (sel : Option Nat) (l : Nat) : Option (List (SVec × SVec)) :=
  let selT : SVec := match sel with | some b => [(C.crd b, C.K)] | none => []
  match fam with
  | .tbPastB => match featCoord C .one l, featCoord C .iOverN l with
    | some o, some p => some [([(o, 1)], (p, C.K) :: selT)]
    | _, _ => none
  | .tbFutB => match featCoord C .one l, featCoord C .iOverN l with
    | some o, some p => some [([(o, 1)], (p, -C.K) :: selT)]
    | _, _ => none
  | .tbPastU => match featCoord C .one l, featCoord C .idx l, featCoord C .len l with
    | some o, some p, some m => some [([(o, 1)], [(p, C.K)]), ([(m, 1)], selT)]
    | _, _, _ => none
  | .tbFutU => match featCoord C .one l, featCoord C .idx l, featCoord C .len l with
    | some o, some p, some m => some [([(o, 1)], [(p, -C.K)]), ([(m, 1)], selT)]
    | _, _, _ => none
  | .lkPast => match featCoord C .one l, featCoord C .idx l, featCoord C .idxSq l with
    | some o, some p, some s => some [([(p, 1), (o, -1)], [(p, 2 * C.K)]), ([(o, 1)], [(s, -C.K)])]
    | _, _, _ => none
  | .lkFut => match featCoord C .one l, featCoord C .idx l, featCoord C .idxSq l with
    | some o, some p, some s => some [([(p, 1), (o, 1)], [(p, 2 * C.K)]), ([(o, 1)], [(s, -C.K)])]
    | _, _, _ => none
  | .cnt _ _ | .sign _ _ _ | .plk _ _ _ _ | .plkN _ _ _ _ => none

/-- The mask of a family. -/
noncomputable def Family.mask : Family → Mask
  | .tbPastB | .tbPastU | .lkPast => .strict
  | .tbFutB | .tbFutU | .lkFut => .strictAnti
  | .cnt .lt _ => .strict
  | .cnt .le _ => .causal
  | .cnt .gt _ => .strictAnti
  | .sign _ _ _ => .none
  | .plk .gt _ _ _ => .none
  | .plk _ _ _ _ => .causal
  | .plkN .gt _ _ _ => .none
  | .plkN _ _ _ _ => .causal

/-- Whether a family belongs to the regime. -/
noncomputable def Family.inRegime (bounded : Bool) : Family → Bool
  | .tbPastB | .tbFutB => bounded
  | .cnt _ _ | .sign _ _ _ => true
  | .plkN _ _ _ _ => bounded
  | _ => !bounded

/-- Whether a family is a tie-breaking head (Lemma 8). -/
noncomputable def Family.tiebreak : Family → Bool
  | .lkPast | .lkFut | .cnt _ _ | .sign _ _ _ | .plk _ _ _ _ | .plkN _ _ _ _ => false
  | _ => true

/-- Whether a family looks into the past. -/
noncomputable def Family.past : Family → Bool
  | .tbPastB | .tbPastU | .lkPast => true
  | _ => false

/-- Whether the node a value term serves is the family's operator over its source (and select). -/
noncomputable def termKindOK (C : Cert) (hd : HeadD) (t : TermD) : Bool :=
  match hd.sel, nodeAt C.prog t.node with
  | none, .prev x => hd.fam.past && x == t.src && decide (x < t.node)
  | none, .next x => !hd.fam.past && x == t.src && decide (x < t.node)
  | some b, .since x r => hd.fam.past && hd.fam.tiebreak && r == t.src && decide (x < t.node) &&
      decide (r < t.node) && selectOK C true hd.anchored b x r
  | some b, .until x r => !hd.fam.past && hd.fam.tiebreak && r == t.src && decide (x < t.node) &&
      decide (r < t.node) && selectOK C false hd.anchored b x r
  | _, _ => false

/-- Whether two lists of sparse columns match pairwise. -/
noncomputable def sameCols : List SVec → List SVec → Bool
  | [], [] => true
  | v :: vs, t :: ts => sameVec v t && sameCols vs ts
  | _, _ => false

/-- Whether one head's weights are its family's construction at layer `l` (input boundary `l - 1`):
the tie-breaking and lookup families. -/
noncomputable def headOKSel (C : Cert) (l : Nat) (hw : HeadW) (hd : HeadD) : Bool :=
  hd.fam.inRegime C.bounded && hw.mask.beq hd.fam.mask &&
  (match hd.sel with | some b => rep C b (l - 1) | none => true) &&
  (match scoreTemplate C hd.fam hd.sel (l - 1) with
   | some tm => sameCols hw.q (tm.map (·.1)) && sameCols hw.k (tm.map (·.2))
   | none => false) &&
  sameCols hw.v (hd.terms.map (fun t => [(C.crd t.src, 1)])) &&
  sameCols hw.o (hd.terms.map (fun t => [(C.crd t.node, 1)])) &&
  hd.terms.all (fun t => rep C t.src (l - 1) && (C.roleAt (C.crd t.node) l).beq (.node t.node) &&
    (C.roleAt (C.crd t.node) (l - 1)).beq .zero && termKindOK C hd t)

/-- Whether every term of a comparison counts inclusively (`#<=`), and there is one. -/
noncomputable def allLe (ts : List (Int × CountDir × Nat)) : Bool :=
  !ts.isEmpty && ts.all (fun t => match t.2.1 with | .le => true | _ => false)

/-- Whether node `g` is an inclusive comparison (`Node.cmp ts r`, every term `#<=`, one at least, every counted node before `g`). -/
noncomputable def inclusiveCmp (P : Prog) (g : Nat) : Bool :=
  match nodeAt P g with
  | .cmp ts _ => allLe ts && ts.all (fun t => decide (t.2.2 < g))
  | _ => false

/-- The direction of a comparison (its first term's; `#<=` if none). -/
noncomputable def cmpDir (P : Prog) (g : Nat) : CountDir :=
  match nodeAt P g with
  | .cmp (t :: _) _ => t.2.1
  | _ => .le

/-- The constant `r` of a comparison (`0` if none). -/
noncomputable def cmpR (P : Prog) (g : Nat) : Int :=
  match nodeAt P g with
  | .cmp _ r => r
  | _ => 0

/-- The position feature `1/D` of a strict count's direction: `1/max(i,1)` (`#<`), `1/max(n-1-i,1)` (`#>`). -/
noncomputable def dirFeat : CountDir → Feat
  | .gt => .invMaxRest
  | _ => .invMaxI

/-- Whether node `g` is a strict comparison (`Node.cmp ts r`, every term `#<` or every term `#>`, one at
least, every counted node before `g`). -/
noncomputable def strictCmp (P : Prog) (g : Nat) : Bool :=
  match nodeAt P g with
  | .cmp ts _ => !ts.isEmpty && (ts.all (fun t => dirEq t.2.1 .lt) || ts.all (fun t => dirEq t.2.1 .gt)) &&
      ts.all (fun t => decide (t.2.2 < g))
  | _ => false

/-- The count columns of comparison `Node.cmp ts r`, in order, as `(coef, src)`: the first term,
then the constant `r - 1/2` (through `is_first`), then the other terms. -/
noncomputable def cntExpected (ts : List (Int × CountDir × Nat)) (r : Int) : List (Rat × Option Nat) :=
  match ts with
  | [] => []
  | t :: rest => ((t.1 : Rat), some t.2.2) :: (((2 * r - 1 : Int) : Rat) / 2, none) ::
      rest.map (fun u => ((u.1 : Rat), some u.2.2))

/-- Whether the value columns of a count head read what its columns say at boundary `l - 1`: the
counted node (`rep`), or the `is_first` feature for the constant; a scaled column (`sc = some s`,
bounded mixed comparisons) reads the coordinate `s` holding its node's value over `n` (`.scaled x`). -/
noncomputable def cntVOK (C : Cert) (l : Nat) : List SVec → List CntD → Bool
  | [], [] => true
  | v :: vs, t :: ts =>
    (match t.sc with
     | some s => sameVec v [(s, 1)] && (match t.src with
       | some x => (C.roleAt s (l - 1)).beq (.scaled x)
       | none => false)
     | none => match t.src with
       | some x => sameVec v [(C.crd x, 1)] && rep C x (l - 1)
       | none => match featCoord C .isFirst (l - 1) with
         | some f => sameVec v [(f, 1)]
         | none => false) && cntVOK C l vs ts
  | _, _ => false

/-- The count columns of comparison `g`: `cntExpected` (inclusive), the terms alone (strict). -/
noncomputable def cntExpectedOf (P : Prog) (g : Nat) : List (Rat × Option Nat) :=
  match nodeAt P g with
  | .cmp ts r => if strictCmp P g then ts.map (fun t => ((t.1 : Rat), some t.2.2)) else cntExpected ts r
  | _ => []

/-- Whether a count head is its construction at layer `l`: the mask of its direction (causal for
`#<=`, strict for `#<`, strict anticausal for `#>`), no score (one empty query and key column), one
value column per `CntD` writing `coef` into the comparison's `V` coordinate, which holds nothing
(inclusive) or the constant part `pre g` (strict) before the layer and the comparison's `V` after it;
an average column (`avg`, strict directions) reads its node `g` with coefficient `1` into a
coordinate holding nothing before the layer and `.avg d g` after it (`sc = none`), or, in the bounded
regime, reads the scaled copy at `sc = some s` into `.avgN d g`; every other column has `sc = none`. -/
noncomputable def cntHeadOK (C : Cert) (l : Nat) (hw : HeadW) (hd : HeadD) (d : CountDir) (ts : List CntD) : Bool :=
  hw.mask.beq (Family.cnt d ts).mask &&
  hd.sel.isNone && !hd.anchored && hd.terms.isEmpty && !ts.isEmpty &&
  sameCols hw.q [[]] && sameCols hw.k [[]] &&
  cntVOK C l hw.v ts &&
  sameCols hw.o (ts.map (fun t => [(t.vc, t.coef)])) &&
  ts.all (fun t => if t.avg then
    !dirEq d .le && t.src == some t.g && t.coef == 1 &&
    (C.roleAt t.vc (l - 1)).beq .zero &&
    (match t.sc with
     | some _ => C.bounded && (C.roleAt t.vc l).beq (.avgN d t.g)
     | none => (C.roleAt t.vc l).beq (.avg d t.g))
  else
    t.sc.isNone &&
    (match d with
    | .le => inclusiveCmp C.prog t.g && (C.roleAt t.vc (l - 1)).beq .zero
    | _ => t.src.isSome && strictCmp C.prog t.g && dirEq (cmpDir C.prog t.g) d && (C.roleAt t.vc (l - 1)).beq (.pre t.g)) &&
    (C.roleAt t.vc l).beq (.val t.g))

/-- Whether node `g` is a mixed comparison (`Node.cmp ts r`, every term `#<` or `#>`, some of each,
every counted node before `g`). -/
noncomputable def mixedCmp (P : Prog) (g : Nat) : Bool :=
  match nodeAt P g with
  | .cmp ts _ => !ts.isEmpty && ts.all (fun t => !dirEq t.2.1 .le) &&
      ts.any (fun t => dirEq t.2.1 .lt) && ts.any (fun t => dirEq t.2.1 .gt) &&
      ts.all (fun t => decide (t.2.2 < g))
  | _ => false

/-- Whether a sign head is its construction at layer `l`: no mask; the score `K V` against the
key `p_j` (bounded) or `n p_j` (unbounded); the value `[j even] - W`; written into the coordinate of
its one term's node, an inclusive comparison whose `V` is at `vc` and `W` at `wc` at boundary
`l - 1`; or, without `W`, a strict comparison's `V`, or (bounded regime, mixed rule) a mixed
comparison's approximate `V` (role `vmix`), with orientation `o = [r ≥ 1]`. -/
noncomputable def signHeadOK (C : Cert) (l : Nat) (hw : HeadW) (hd : HeadD) (o : Bool) (vc : Nat) (wc : Option Nat) : Bool :=
  hw.mask.beq .none && hd.sel.isNone && !hd.anchored &&
  (match hd.terms, wc with
   | [t], some w =>
     o && t.node == t.src && inclusiveCmp C.prog t.node &&
     (C.roleAt vc (l - 1)).beq (.val t.node) && (C.roleAt w (l - 1)).beq (.single t.node) &&
     (C.roleAt (C.crd t.node) (l - 1)).beq .zero && (C.roleAt (C.crd t.node) l).beq (.node t.node) &&
     (match featCoord C .one (l - 1), featCoord C .parity (l - 1),
        featCoord C (if C.bounded then .parity else .lenParity) (l - 1) with
      | some one, some par, some kp =>
        sameCols hw.q [[(vc, C.K)]] && sameCols hw.k [[(kp, 1)]] &&
        sameCols hw.v [[(one, 1 / 2), (par, 1 / 2), (w, -1)]]
      | _, _, _ => false) &&
     sameCols hw.o [[(C.crd t.node, 1)]]
   | [t], none =>
     o == decide (1 ≤ cmpR C.prog t.node) && t.node == t.src &&
     (strictCmp C.prog t.node && (C.roleAt vc (l - 1)).beq (.val t.node) ||
       C.bounded && C.mixed && mixedCmp C.prog t.node && (C.roleAt vc (l - 1)).beq (.vmix t.node)) &&
     (C.roleAt (C.crd t.node) (l - 1)).beq .zero && (C.roleAt (C.crd t.node) l).beq (.node t.node) &&
     (match featCoord C .one (l - 1), featCoord C .parity (l - 1),
        featCoord C (if C.bounded then .parity else .lenParity) (l - 1) with
      | some one, some par, some kp =>
        sameCols hw.q [[(vc, if o then C.K else -C.K)]] && sameCols hw.k [[(kp, 1)]] &&
        sameCols hw.v [[(one, 1 / 2), (par, 1 / 2)]]
      | _, _, _ => false) &&
     sameCols hw.o [[(C.crd t.node, 1)]]
   | _, _ => false)

/-- Whether a position lookup head is its construction at layer `l` (mixed comparisons, unbounded
regime, `τ = c / max(n-1, 1)`): mask causal (`#<`) or none (`#>`); scores `2 f p - p^2/D'` from the
query's average `f` at `ac` (role `.avg d x` at `l - 1`) against the key's `p`, and the query's
`1/D'` (feature `dirFeat d`) against the key's `p^2`; value `p`; output into the copy `cc`, which
holds nothing before and after the layer (a `copyErase` group erases it). -/
noncomputable def plkHeadOK (C : Cert) (l : Nat) (hw : HeadW) (hd : HeadD) (d : CountDir) (x ac cc : Nat) : Bool :=
  C.mixed && !C.bounded && decide (C.errLk < 1) &&
  (match d with
   | .lt => hw.mask.beq .causal
   | .gt => hw.mask.beq .none
   | .le => false) &&
  hd.sel.isNone && !hd.anchored && hd.terms.isEmpty &&
  (C.roleAt ac (l - 1)).beq (.avg d x) &&
  (C.roleAt cc (l - 1)).beq .zero && (C.roleAt cc l).beq .zero && decide (cc < C.spans.length) &&
  (match featCoord C .idx (l - 1), featCoord C .idxSq (l - 1), featCoord C (dirFeat d) (l - 1) with
   | some p, some s, some v =>
     sameCols hw.q [[(ac, 2)], [(v, -1)]] && sameCols hw.k [[(p, 1)], [(s, 1)]] &&
     sameCols hw.v [[(p, 1)]] && sameCols hw.o [[(cc, 1)]]
   | _, _, _ => false)

/-- The coefficient of comparison `g`'s term `(d, x)` (its first such term; `0` if none). -/
noncomputable def termCoef (P : Prog) (g : Nat) (d : CountDir) (x : Nat) : Int :=
  match nodeAt P g with
  | .cmp ts _ => match ts.find? (fun t => dirEq t.2.1 d && t.2.2 == x) with
    | some t => t.1
    | none => 0
  | _ => 0

/-- Whether a bounded position lookup head is its construction at layer `l` (mixed comparisons,
bounded regime, `τ = c / (n^2 max(n-1, 1))`): mask causal (`#<`) or none (`#>`); scores
`2 f (p/n) - (p/n)^2/D'` from the query's scaled average `f` at `ac` (role `.avgN d x` at `l - 1`)
against the key's `p/n`, and the query's `1/D'` (feature `dirFeat d`) against the key's `(p/n)^2`; one
value column `p/n` per served comparison `(g, vc) ∈ vs`, written with `g`'s coefficient of the term
`(d, x)` into `g`'s `V` at `vc`, which holds `.vpre g` before the layer and `.vmix g` after it. -/
noncomputable def plkNHeadOK (C : Cert) (l : Nat) (hw : HeadW) (hd : HeadD) (d : CountDir) (x ac : Nat)
    (vs : List (Nat × Nat)) : Bool :=
  C.mixed && C.bounded && decide (C.errLk < 1) &&
  (match d with
   | .lt => hw.mask.beq .causal
   | .gt => hw.mask.beq .none
   | .le => false) &&
  hd.sel.isNone && !hd.anchored && hd.terms.isEmpty && !vs.isEmpty &&
  (C.roleAt ac (l - 1)).beq (.avgN d x) &&
  vs.all (fun e => (C.roleAt e.2 (l - 1)).beq (.vpre e.1) && (C.roleAt e.2 l).beq (.vmix e.1)) &&
  (match featCoord C .iOverN (l - 1), featCoord C .iOverNSq (l - 1), featCoord C (dirFeat d) (l - 1) with
   | some p, some s, some v =>
     sameCols hw.q [[(ac, 2)], [(v, -1)]] && sameCols hw.k [[(p, 1)], [(s, 1)]] &&
     sameCols hw.v (vs.map (fun _ => [(p, 1)])) &&
     sameCols hw.o (vs.map (fun e => [(e.2, ((termCoef C.prog e.1 d x : Int) : Rat))]))
   | _, _, _ => false)

/-- Whether one head's weights are its family's construction at layer `l` (input boundary `l - 1`). -/
noncomputable def headOK (C : Cert) (l : Nat) (hw : HeadW) (hd : HeadD) : Bool :=
  match hd.fam with
  | .cnt d ts => cntHeadOK C l hw hd d ts
  | .sign o vc wc => signHeadOK C l hw hd o vc wc
  | .plk d x ac cc => plkHeadOK C l hw hd d x ac cc
  | .plkN d x ac vs => plkNHeadOK C l hw hd d x ac vs
  | _ => headOKSel C l hw hd

/-- The attended nodes of a layer (every value term's node). -/
noncomputable def attended (LD : LayerD) : List Nat := LD.heads.flatMap (fun hd => hd.terms.map (·.node))

/-- The nodes of a layer attended by a sign head (their raw value is within `2 errRule`). -/
noncomputable def signAttended (LD : LayerD) : List Nat :=
  LD.heads.flatMap (fun hd => match hd.fam with
    | .sign _ _ _ => hd.terms.map (·.node)
    | _ => [])

/-- The nodes of a layer attended by a sign head of orientation `-1` (their raw value is within
`2 errRule` of `1 - [g]`). -/
noncomputable def flippedAtt (LD : LayerD) : List Nat :=
  LD.heads.flatMap (fun hd => match hd.fam with
    | .sign false _ _ => hd.terms.map (·.node)
    | _ => [])

/-- The nodes of a layer attended by any other head (their raw value is near `[g]`). -/
noncomputable def plainAtt (LD : LayerD) : List Nat :=
  LD.heads.flatMap (fun hd => match hd.fam with
    | .sign false _ _ => []
    | _ => hd.terms.map (·.node))

/-- The count columns of a layer, in head order. -/
noncomputable def cntCols (LD : LayerD) : List CntD :=
  LD.heads.flatMap (fun hd => match hd.fam with
    | .cnt _ ts => ts
    | _ => [])

/-- Whether every comparison counted in a layer has exactly its columns there, in order
(`cntExpectedOf`), all writing one coordinate (the columns that are not averages); an average
column is the only column writing its coordinate. -/
noncomputable def countsOK (C : Cert) (LD : LayerD) : Bool :=
  (cntCols LD).all (fun t => if t.avg then ((cntCols LD).filter (fun u => u.vc == t.vc)).length == 1 else
    match nodeAt C.prog t.g with
    | .cmp _ _ =>
      ((cntCols LD).filter (fun u => !u.avg && u.g == t.g)).map (fun u => (u.coef, u.src)) == cntExpectedOf C.prog t.g &&
      ((cntCols LD).filter (fun u => !u.avg && u.g == t.g)).all (fun u => u.vc == t.vc)
    | _ => false)

/-- The copy coordinates of a layer's position lookups, in head order. -/
noncomputable def plkCopies (LD : LayerD) : List Nat :=
  LD.heads.flatMap (fun hd => match hd.fam with
    | .plk _ _ _ cc => [cc]
    | _ => [])

/-- Whether a layer has a position lookup of the count `#_d[x]` with copy coordinate `cc`. -/
noncomputable def plkHas (LD : LayerD) (d : CountDir) (x cc : Nat) : Bool :=
  LD.heads.any (fun hd => match hd.fam with
    | .plk d' x' _ cc' => dirEq d' d && x' == x && cc' == cc
    | _ => false)

/-- The entries of a layer's bounded position lookups, in head order: `(d, x, g, vc)` for the lookup of
`#_d[x]` serving comparison `g` at `vc`. -/
noncomputable def plkNEnts (LD : LayerD) : List (CountDir × Nat × Nat × Nat) :=
  LD.heads.flatMap (fun hd => match hd.fam with
    | .plkN d x _ vs => vs.map (fun e => (d, x, e.1, e.2))
    | _ => [])

/-- The terms `(c, d, x)` the bounded position lookups of a layer add into the coordinate `vc`, one
per entry aimed at `vc` (`c` the served comparison's coefficient of `#_d[x]`). -/
noncomputable def servedAt (C : Cert) (LD : LayerD) (vc : Nat) : List (Int × CountDir × Nat) :=
  ((plkNEnts LD).filter (fun e => e.2.2.2 == vc)).map (fun e => (termCoef C.prog e.2.2.1 e.1 e.2.1, e.1, e.2.1))

/-- Checker helper: equality of terms, decided. -/
noncomputable def termEq (a b : Int × CountDir × Nat) : Bool := a.1 == b.1 && dirEq a.2.1 b.2.1 && a.2.2 == b.2.2

/-- A list of terms without the first one equal to `a`. -/
noncomputable def termErase (a : Int × CountDir × Nat) : List (Int × CountDir × Nat) → List (Int × CountDir × Nat)
  | [] => []
  | b :: l => if termEq a b then l else b :: termErase a l

/-- Whether two lists of terms are permutations of each other. -/
noncomputable def termPerm : List (Int × CountDir × Nat) → List (Int × CountDir × Nat) → Bool
  | [], l => l.isEmpty
  | a :: l1, l2 => l2.any (termEq a) && termPerm l1 (termErase a l2)

/-- The clamp's input column of a mixed comparison: `2 c_k` on the copy `cs_k` of term `k`. -/
noncomputable def mixWin (cs : List Nat) (ts : List (Int × CountDir × Nat)) : SVec :=
  (cs.zip ts).map (fun e => (e.1, 2 * (e.2.1 : Rat)))

/-- `Σ_k |c_k|` over the terms of a comparison. -/
noncomputable def absCoef (ts : List (Int × CountDir × Nat)) : Rat :=
  (ts.map (fun t => ((t.1.natAbs : Nat) : Rat))).sum

/-- Whether each copy `cs_k` is a position lookup's of term `k`'s count, in this layer. -/
noncomputable def copiesOK (LD : LayerD) : List Nat → List (Int × CountDir × Nat) → Bool
  | [], [] => true
  | c :: cs, t :: ts => plkHas LD t.2.1 t.2.2 c && copiesOK LD cs ts
  | _, _ => false

/-- Whether the bounded position lookups of a layer serve their comparisons whole: for every entry
`(d, x, g, vc)`, `g` is a mixed comparison whose terms are, up to order, exactly the terms the entries
aimed at `vc` add (`servedAt`), within the copy error's budget `Σ |c| copyErr ≤ 1/4`. (No other head
writes a `V` coordinate: its role `.vmix g` after the layer is no count target's, attended node's or
copy's.) -/
noncomputable def plkNOK (C : Cert) (LD : LayerD) : Bool :=
  (plkNEnts LD).all (fun e => mixedCmp C.prog e.2.2.1 &&
    (match nodeAt C.prog e.2.2.1 with
     | .cmp ts _ => termPerm (servedAt C LD e.2.2.2) ts && decide (absCoef (servedAt C LD e.2.2.2) * C.copyErr ≤ 1 / 4)
     | _ => false))

/-- The largest `|V|` of an inclusive comparison, plus `1/2`: `Σ_k |c_k| + |r - 1/2| + 1/2`. -/
noncomputable def cmpBound (ts : List (Int × CountDir × Nat)) (r : Int) : Rat :=
  (ts.map (fun t => ((t.1.natAbs : Nat) : Rat))).sum +
    (if r ≤ 0 then (1 / 2 - (r : Rat)) else ((r : Rat) - 1 / 2)) + 1 / 2

/-- The target coordinate of a unit group. -/
noncomputable def GroupD.target (C : Cert) : GroupD → Nat
  | .pair g | .eraser g | .table g _ _ _ _ | .gate g _ _ _ => C.crd g
  | .clear c => c
  | .single _ _ wc _ => wc
  | .pre _ vc _ => vc
  | .pairFlip g => C.crd g
  | .mix g _ => C.crd g
  | .copyErase cc => cc
  | .scale _ sc => sc
  | .vpre _ vc _ => vc

/-- The number of `true`s. -/
noncomputable def ones (σ : List Bool) : Nat := (σ.filter id).length

/-- Whether input `x` of a Boolean node is read flipped in layer `l`: attended there by a sign head
of orientation `-1` (its raw value is near `1 - [x]`). -/
noncomputable def flipOf (LD : LayerD) (x : Nat) : Bool := (flippedAtt LD).contains x

/-- The clamp's input column: `±2` on each input's coordinate, negated for a flipped input
(bit `b`, not flipped: `b ? 2 : -2`; flipped: `b ? -2 : 2`). -/
noncomputable def clampCol (cs : List Nat) (fl : List Bool) (σ : List Bool) : SVec :=
  ((cs.zip fl).zip σ).map (fun e => (e.1.1, if e.2 != e.1.2 then 2 else -2))

/-- The bias shift of the flipped inputs: `Σ_{k flipped} (σ_k ? 1 : -1)`. -/
noncomputable def flipShift (fl σ : List Bool) : Int :=
  ((fl.zip σ).map (fun e => if e.1 then (if e.2 then 1 else -1) else 0)).sum

/-- Whether `us` are the clamp unit pairs of the assignments, in order, writing `s` into `tgt`: the
clamp over the effective inputs (`1 - y` for a flipped input, as listed in `fl`). -/
noncomputable def clampUnitsOK (cs : List Nat) (fl : List Bool) (tgt : Nat) (s : Rat) : List (List Bool) → List UnitW → Bool
  | [], [] => true
  | σ :: rest, u1 :: u2 :: us =>
    σ.length == cs.length &&
    sameVec u1.win (clampCol cs fl σ) && u1.bias == 3 / 2 - 2 * (ones σ : Rat) + 2 * (flipShift fl σ : Rat) &&
    sameVec u1.wout [(tgt, s)] &&
    sameVec u2.win (clampCol cs fl σ) && u2.bias == 1 / 2 - 2 * (ones σ : Rat) + 2 * (flipShift fl σ : Rat) &&
    sameVec u2.wout [(tgt, -s)] &&
    clampUnitsOK cs fl tgt s rest us
  | _, _ => false

/-- Whether an input of a Boolean node is read exactly (`rep` at `l - 1`) or is attended in layer `l`
(flipped or not: a flipped input's clamp column reads `1 - y`). -/
noncomputable def inputOK (C : Cert) (LD : LayerD) (l x : Nat) : Bool :=
  rep C x (l - 1) || (attended LD).contains x

/-- How many inputs are attended in layer `l` (approximate in soft mode), a sign-attended one twice
(its error is `2 errRule`). -/
noncomputable def approxCount (LD : LayerD) (ins : List Nat) : Nat :=
  (ins.filter (fun x => (attended LD).contains x)).length + (ins.filter (fun x => (signAttended LD).contains x)).length

/-- The error bound on attended node `g`'s raw value: `2 errRule` for a sign head's, else `errRule`. -/
noncomputable def errOf (C : Cert) (LD : LayerD) (g : Nat) : Rat :=
  if (signAttended LD).contains g then 2 * C.errRule else C.errRule

/-- Whether the literals of a gate are those of the assignment. -/
noncomputable def litsMatch (lits : List (Nat × Bool)) (ins : List Nat) (σ : List Bool) : Bool :=
  lits.all (fun e => (ins.zip σ).contains e) && (ins.zip σ).all (fun e => lits.contains e)

/-- Whether the unit groups of layer `l` are what they say, consuming the units in order. -/
noncomputable def groupsOK (C : Cert) (LD : LayerD) (l : Nat) : List GroupD → List UnitW → Bool
  | [], [] => true
  | [], [u] => sameVec u.win [] && u.bias == 0 && sameVec u.wout []
  | .pair g :: gs, u1 :: u2 :: us =>
    (attended LD).contains g && !(flippedAtt LD).contains g &&
    sameVec u1.win [(C.crd g, 2)] && u1.bias == -1 / 2 && sameVec u1.wout [(C.crd g, 1)] &&
    sameVec u2.win [(C.crd g, 2)] && u2.bias == -3 / 2 && sameVec u2.wout [(C.crd g, -1)] &&
    decide (errOf C LD g ≤ 1 / 4) && groupsOK C LD l gs us
  | .pairFlip g :: gs, u1 :: u2 :: us =>
    (flippedAtt LD).contains g && !(plainAtt LD).contains g &&
    sameVec u1.win [(C.crd g, -2)] && u1.bias == 3 / 2 && sameVec u1.wout [(C.crd g, 1)] &&
    sameVec u2.win [(C.crd g, -2)] && u2.bias == 1 / 2 && sameVec u2.wout [(C.crd g, -1)] &&
    decide (errOf C LD g ≤ 1 / 4) && groupsOK C LD l gs us
  | .pre g vc f :: gs, u1 :: u2 :: us =>
    strictCmp C.prog g && featCoord C (dirFeat (cmpDir C.prog g)) (l - 1) == some f &&
    (C.roleAt vc (l - 1)).beq .zero && (C.roleAt vc l).beq (.pre g) &&
    sameVec u1.win [(f, ((2 * cmpR C.prog g - 1 : Int) : Rat) / 2)] && u1.bias == 0 && sameVec u1.wout [(vc, 1)] &&
    sameVec u2.win [(f, -(((2 * cmpR C.prog g - 1 : Int) : Rat) / 2))] && u2.bias == 0 && sameVec u2.wout [(vc, -1)] &&
    groupsOK C LD l gs us
  | .eraser g :: gs, u :: us =>
    (attended LD).contains g &&
    sameVec u.win [(C.crd g, 1)] && u.bias == 0 && sameVec u.wout [(C.crd g, -1)] && groupsOK C LD l gs us
  | .clear c :: gs, u1 :: u2 :: us =>
    (C.roleAt c l).beq .zero && !((attended LD).map C.crd).contains c &&
    sameVec u1.win [(c, 1)] && u1.bias == 0 && sameVec u1.wout [(c, -1)] &&
    sameVec u2.win [(c, -1)] && u2.bias == 0 && sameVec u2.wout [(c, 1)] && groupsOK C LD l gs us
  | .table g ins ex as neg :: gs, us =>
    (C.roleAt (C.crd g) l).beq (.node g) && (C.roleAt (C.crd g) (l - 1)).beq .zero &&
    !(attended LD).contains g && ins.all (inputOK C LD l) &&
    (allAssign (ins.length + ex.length)).all (fun ρ =>
      keval C.prog (ins ++ ex) ρ (g + 1) g == some (as.contains (ρ.take ins.length) != neg)) &&
    decide ((approxCount LD ins : Rat) * C.errRule ≤ 1 / 4) && nodupAssign as &&
    clampUnitsOK (ins.map C.crd) (ins.map (flipOf LD)) (C.crd g) (if neg then -1 else 1) as (us.take (2 * as.length)) &&
    groupsOK C LD l gs (us.drop (2 * as.length))
  | .gate g ins σ neg :: gs, us =>
    (C.roleAt (C.crd g) l).beq (.node g) && (C.roleAt (C.crd g) (l - 1)).beq .zero &&
    !(attended LD).contains g && ins.all (inputOK C LD l) &&
    (match conjLits C.prog ins (g + 1) g (!neg) with
     | some lits => litsMatch lits ins σ
     | none => false) &&
    decide ((approxCount LD ins : Rat) * C.errRule ≤ 1 / 4) &&
    clampUnitsOK (ins.map C.crd) (ins.map (flipOf LD)) (C.crd g) (if neg then -1 else 1) [σ] (us.take 2) &&
    groupsOK C LD l gs (us.drop 2)
  | .single g vc wc M :: gs, u1 :: u2 :: us =>
    inclusiveCmp C.prog g &&
    (match nodeAt C.prog g with
     | .cmp ts r => decide (cmpBound ts r ≤ M)
     | _ => false) &&
    (C.roleAt vc l).beq (.val g) && (C.roleAt wc (l - 1)).beq .zero && (C.roleAt wc l).beq (.single g) &&
    (match featCoord C .isFirst (l - 1), featCoord C .isLast (l - 1) with
     | some f, some e =>
       sameVec u1.win [(vc, -1), (f, M), (e, M)] && u1.bias == 1 / 2 - 2 * M && sameVec u1.wout [(wc, 1)] &&
       sameVec u2.win [(vc, -1), (f, M), (e, M)] && u2.bias == -1 / 2 - 2 * M && sameVec u2.wout [(wc, -1)]
     | _, _ => false) &&
    groupsOK C LD l gs us
  | .mix g cs :: gs, u1 :: u2 :: us =>
    mixedCmp C.prog g && nodupNat cs &&
    (match nodeAt C.prog g with
     | .cmp ts r =>
       copiesOK LD cs ts &&
       sameVec u1.win (mixWin cs ts) && u1.bias == 2 * (r : Rat) - 1 / 2 && sameVec u1.wout [(C.crd g, 1)] &&
       sameVec u2.win (mixWin cs ts) && u2.bias == 2 * (r : Rat) - 3 / 2 && sameVec u2.wout [(C.crd g, -1)] &&
       decide (absCoef ts * C.copyErr ≤ 1 / 4)
     | _ => false) &&
    (C.roleAt (C.crd g) (l - 1)).beq .zero && (C.roleAt (C.crd g) l).beq (.node g) &&
    !(attended LD).contains g && groupsOK C LD l gs us
  | .copyErase cc :: gs, u :: us =>
    (plkCopies LD).contains cc &&
    sameVec u.win [(cc, 1)] && u.bias == 0 && sameVec u.wout [(cc, -1)] && groupsOK C LD l gs us
  | .scale x sc :: gs, u1 :: u2 :: us =>
    (match featCoord C .invN (l - 1) with
     | some f =>
       sameVec u1.win [(f, 1)] && u1.bias == 0 && sameVec u1.wout [(sc, 1)] &&
       sameVec u2.win [(f, 1), (C.crd x, -1)] && u2.bias == 0 && sameVec u2.wout [(sc, -1)]
     | none => false) &&
    rep C x (l - 1) && (C.roleAt sc (l - 1)).beq .zero && (C.roleAt sc l).beq (.scaled x) &&
    groupsOK C LD l gs us
  | .vpre g vc f :: gs, u1 :: u2 :: us =>
    C.bounded && mixedCmp C.prog g && featCoord C .invN (l - 1) == some f &&
    (C.roleAt vc (l - 1)).beq .zero && (C.roleAt vc l).beq (.vpre g) &&
    sameVec u1.win [(f, ((2 * cmpR C.prog g - 1 : Int) : Rat) / 2)] && u1.bias == 0 && sameVec u1.wout [(vc, 1)] &&
    sameVec u2.win [(f, -(((2 * cmpR C.prog g - 1 : Int) : Rat) / 2))] && u2.bias == 0 && sameVec u2.wout [(vc, -1)] &&
    groupsOK C LD l gs us
  | _, _ => false

/-- The groups writing coordinate `c`. -/
noncomputable def groupsAt (C : Cert) (gs : List GroupD) (c : Nat) : List GroupD := gs.filter (fun G => G.target C == c)

/-- Whether every coordinate is written by the expected groups: an attended node's by its pair then
its eraser, a table, gate, clearing, single or mix group's coordinate by that group alone, a position
lookup's copy by its `copyErase` alone (each copy once); and any other coordinate is written by a
group exactly when its role changes from boundary `l - 1` to boundary `l`, except a count head's
target and a bounded position lookup's `V` (their roles change, written by the heads alone). -/
noncomputable def targetsOK (C : Cert) (LD : LayerD) (l d : Nat) : Bool :=
  nodupNat ((attended LD).map C.crd) &&
  (attended LD).all (fun g => match groupsAt C LD.groups (C.crd g) with
    | [.pair g1, .eraser g2] => g1 == g && g2 == g
    | [.pairFlip g1, .eraser g2] => g1 == g && g2 == g
    | _ => false) &&
  LD.groups.all (fun G => match G with
    | .table _ _ _ _ _ | .gate _ _ _ _ | .clear _ | .single _ _ _ _ | .pre _ _ _ | .mix _ _ | .scale _ _ | .vpre _ _ _ =>
      (groupsAt C LD.groups (G.target C)).length == 1
    | _ => true) &&
  nodupNat (plkCopies LD) &&
  (plkCopies LD).all (fun cc => match groupsAt C LD.groups cc with
    | [.copyErase c'] => c' == cc
    | _ => false) &&
  (List.range d).all (fun c => if (plkCopies LD).contains c then true
    else if (C.roleAt c (l - 1)).beq (C.roleAt c l)
    then (groupsAt C LD.groups c).length == 0
    else if ((cntCols LD).map (·.vc)).contains c || ((plkNEnts LD).map (·.2.2.2)).contains c
    then (groupsAt C LD.groups c).length == 0
    else (groupsAt C LD.groups c).length != 0)

/-- Whether a group negates (adds `1` through `b_2`). -/
noncomputable def GroupD.neg : GroupD → Bool
  | .table _ _ _ _ neg | .gate _ _ _ neg => neg
  | _ => false

/-- The output bias a group needs on its target: `1` for a negated table or gate. -/
noncomputable def b2Expected (C : Cert) (gs : List GroupD) (c : Nat) : Rat :=
  if (groupsAt C gs c).any GroupD.neg then 1 else 0

/-- Whether every index of a sparse vector is below `d`. -/
noncomputable def inRange (d : Nat) (v : SVec) : Bool := v.all (fun e => decide (e.1 < d))

/-- Whether every index of a layer's weights is below `d`. -/
noncomputable def layerInRange (d : Nat) (L : LayerW) : Bool :=
  L.heads.all (fun h => h.q.all (inRange d) && h.k.all (inRange d) && h.v.all (inRange d) && h.o.all (inRange d)) &&
  L.units.all (fun u => inRange d u.win && inRange d u.wout) && inRange d L.b2

/-- Whether layer `l` (1-based) of the model is what its description says. -/
noncomputable def layerOK (C : Cert) (d l : Nat) (LW : LayerW) (LD : LayerD) : Bool :=
  layerInRange d LW && LW.heads.length == LD.heads.length &&
  (LW.heads.zip LD.heads).all (fun p => headOK C l p.1 p.2) && countsOK C LD &&
  targetsOK C LD l d && groupsOK C LD l LD.groups LW.units &&
  (LW.b2.map (·.1) ++ LD.groups.map (GroupD.target C)).all (fun c => svGet LW.b2 c == b2Expected C LD.groups c) &&
  plkNOK C LD

/-- The word-embedding entry coordinate `c` needs for symbol `a`. -/
noncomputable def weExpected (C : Cert) (c a : Nat) : Rat :=
  match C.roleAt c 0 with
  | .node g => match symEval C.prog a (g + 1) g with
    | some true => 1
    | _ => 0
  | _ => 0

/-- The position-embedding entry coordinate `c` needs for feature `f`. -/
noncomputable def peExpected (C : Cert) (c : Nat) (f : Feat) : Rat :=
  match C.roleAt c 0 with
  | .feat f' => if f.beq f' then 1 else 0
  | .node g => match nodeAt C.prog g, f with
    | .modEq 1 0, .one => 1
    | .modEq 2 _, .one => 1 / 2
    | .modEq 2 0, .parity => 1 / 2
    | .modEq 2 1, .parity => -1 / 2
    | _, _ => 0
  | .pre g => if f.beq (dirFeat (cmpDir C.prog g)) then ((2 * cmpR C.prog g - 1 : Int) : Rat) / 2 else 0
  | _ => 0

/-- Whether a list of features has no repeats. -/
noncomputable def nodupFeat : List Feat → Bool
  | [] => true
  | f :: t => !t.any (·.beq f) && nodupFeat t

/-- Whether the role of coordinate `c` can be set by the embedding: a listed feature; a node at
time `0` that is symbol-only, or `mod(1, 0)` / `mod(2, r)` from the features `one` and `parity`. -/
noncomputable def roleEmbedOK (C : Cert) (M : ModelW) (c : Nat) : Bool :=
  let feats := M.pe.map (·.1)
  match C.roleAt c 0 with
  | .feat f => feats.any (·.beq f)
  | .node g =>
    (List.range C.nsym).all (fun a => (symEval C.prog a (g + 1) g).isSome) ||
    (match nodeAt C.prog g with
     | .modEq 1 0 => feats.any (·.beq .one)
     | .modEq 2 r => decide (r < 2) && feats.any (·.beq .one) && feats.any (·.beq .parity)
     | _ => false)
  | .pre g => strictCmp C.prog g && feats.any (·.beq (dirFeat (cmpDir C.prog g)))
  | .val _ | .single _ | .avg _ _ => false
  | .scaled _ | .avgN _ _ | .vpre _ | .vmix _ => false
  | .zero => true

/-- Whether the embedding sets every coordinate to its role's value at layer boundary `0`. -/
noncomputable def embedOK (C : Cert) (M : ModelW) : Bool :=
  M.we.length == C.nsym && M.we.all (inRange M.d) && M.pe.all (fun fe => inRange M.d fe.2) &&
  nodupFeat (M.pe.map (·.1)) &&
  (List.range M.d).all (fun c =>
    roleEmbedOK C M c &&
    (List.range C.nsym).all (fun a => svGet (M.we.getD a []) c == weExpected C c a) &&
    M.pe.all (fun fe => svGet fe.2 c == peExpected C c fe.1))

/-- Whether every listed equivalence holds: the two nodes agree on every assignment of the leaves. -/
noncomputable def equivOK (C : Cert) : Bool :=
  C.equiv.all (fun e => (allAssign e.2.2.length).all (fun ρ =>
    match keval C.prog e.2.2 ρ (e.1 + 1) e.1, keval C.prog e.2.2 ρ (e.2.1 + 1) e.2.1 with
    | some a, some b => a == b
    | _, _ => false))

/-- Whether layers `l+1, l+2, ...` are what the description says. -/
noncomputable def layersOK (C : Cert) (d : Nat) : Nat → List LayerW → List LayerD → Bool
  | _, [], [] => true
  | l, LW :: lws, LD :: lds => layerOK C d (l + 1) LW LD && layersOK C d (l + 1) lws lds
  | _, _, _ => false

/-- Certificates, the checker: whether the model `M` is the construction the certificate `C`
describes, for the formula `C.prog` read out at node `C.root`. -/
noncomputable def check (C : Cert) (M : ModelW) : Bool :=
  C.spans.length == M.d && C.coord.length == C.prog.length && C.coord.all (fun c => decide (c < M.d)) &&
  decide (0 < C.K) && decide (0 < C.c) && decide (0 < C.expK) &&
  equivOK C && embedOK C M && layersOK C M.d 0 M.layers C.layers &&
  decide (C.root < C.prog.length) && rep C C.root M.layers.length

end HardSoft.Cert

end
