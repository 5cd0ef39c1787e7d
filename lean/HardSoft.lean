module

public import HardSoft.Defs
public import HardSoft.Recursion
public import HardSoft.Softmax
public import HardSoft.Layer
public import HardSoft.Exp
public import HardSoft.Composition
public import HardSoft.Main
public import HardSoft.Examples
public import HardSoft.Constructions
public import HardSoft.Applications
public import HardSoft.HeadMass
public import HardSoft.Lipschitz
public import HardSoft.Temperature
public import HardSoft.Errata
public import HardSoft.Growth
public import HardSoft.LayerSteps
public import HardSoft.Cert.Logic
public import HardSoft.Cert.Translate
public import HardSoft.Cert.Basic
public import HardSoft.Cert.Model
public import HardSoft.Cert.Check
public import HardSoft.Cert.Sem
public import HardSoft.Cert.HeadsBase
public import HardSoft.Cert.Select
public import HardSoft.Cert.Heads
public import HardSoft.Cert.Count
public import HardSoft.Cert.FFN
public import HardSoft.Cert.Mixed
public import HardSoft.Cert.Step
public import HardSoft.Cert.Sound
public import HardSoft.Cert.TranslateCert
public import HardSoft.Cert.Chunks
public import HardSoft.Cert.Examples

/-!
# HardSoft

Root module of the Lean part of the companion to Yang, Strobl, Chiang, Angluin,
"Simulating Hard Attention Using Soft Attention" (arXiv 2412.09925).

## Main results

See `HardSoft.Main`: statement C (Theorem 26 with the bootstrapping fix), the sufficient
condition of statement T, and the algebraic cores of statements E and Z;
`HardSoft.Recursion` for the sharp guard (`forall_err_le_bound_iff`); `HardSoft.Layer` for
Lemma 25's algebra (statement P); `HardSoft.LayerSteps` for Lemma 25 of a concrete layer
(`layer_err_le_concrete`); `HardSoft.Exp` for E and Z derived from scores through an
abstract exponential; `HardSoft.Composition` for Theorem 26 end to end
(`err_le_eps_of_layers`); `HardSoft.Examples` for non-vacuity examples at `Rat`;
`HardSoft.Constructions` for the construction heads (Lemmas 6, 7, 8, counting, comparison,
the read-out clamp) for every `n`; `HardSoft.Applications` for the applications' heads (flip-flop,
induction and k-hop, prefix-argmax, the Dyck partner) for every `n`; `HardSoft.HeadMass` for the
head mass bounds (a head's output error within its mass off, the sign head, Lemma 7 with both
sides visible, the temperature rules of the other heads) for every `n`.
-/

set_option autoImplicit false
