module

public import HardSoft.Cert.Translate
public import HardSoft.Cert.Sound

/-!
# Certificates: a certified translation

`certified_of_translation`: the certificate checker's theorem (`certified_of_check`) read through a
correct translation (`TranslationCorrect`): if the checker accepts a model of the formula DAG a
B-RASP or C-RASP program was translated to, and the translation is correct, then the model computes
the program's own output vector, for every length, word and position, hard and soft.

## Main results

* `HardSoft.Cert.certified_of_translation`.
-/

@[expose] public section

set_option autoImplicit false

namespace HardSoft.Cert

section Translated

open Classical

variable {α : Type} [Lean.Grind.Field α] [LE α] [LT α] [Std.IsLinearOrder α] [Std.LawfulOrderLT α]
  [Lean.Grind.OrderedRing α]

/-- Theorem 26 for a translated B-RASP or C-RASP program, every n: if the checker accepts a
certificate `C` of a model `M` and `C`'s formula DAG is a correct translation of the program's
meaning `sem` (`TranslationCorrect`), then for every word over `C`'s alphabet and every position `i`,
the model's root coordinate after its last layer is exactly `[sem w i]`, in hard mode and in soft
mode at `C`'s temperature rule (`certified_of_check`). -/
theorem certified_of_translation (C : Cert) (M : ModelW) (h : check C M = true)
    (R : RatEmb α) (E : ExpLike α) (hE : E.Tangent) (sem : List Nat → Nat → Prop)
    (hT : TranslationCorrect C.nsym sem C.prog C.root) (w : List Nat)
    (hsym : ∀ a, a ∈ w → a < C.nsym) (i : Nat) (hi : i < w.length) :
    run R .hard M w w.length M.layers.length i (C.crd C.root) = ind (sem w i) ∧
      run R (.soft E (C.tauRule R w.length)) M w w.length M.layers.length i (C.crd C.root)
        = ind (sem w i) := by
  have e : holds C.prog w w.length C.root i = sem w i := propext (hT w hsym i hi).symm
  have hc := certified_of_check C M h R E hE w hsym i hi
  rw [e] at hc
  exact hc

end Translated

end HardSoft.Cert

end
