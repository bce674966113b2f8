// Cases whose upstream expectation contradicts the SysML v2 / KerML specification (release 2026-04:
// the BNF in ../shared/corpus/sysml-release-2026-04/bnf/SysML-textual-bnf.kebnf, the libraries beside
// it). The specification wins: the harness scores the spec-correct expectation (`expect` replaces
// the upstream fields) and prints why. Only contradictions the spec text settles are listed.
import type { Expected } from './harness';

export interface SpecContradiction {
  /** `spec`: the specification settles it; `decision`: Assay deliberately reads the model otherwise than
   * the letter of KerML, documented in docs/semantics.md, and the case scores Assay's documented reading. */
  kind?: 'spec' | 'decision';
  /** What the specification says, with the rule it follows from. */
  why: string;
  /** The spec-correct outcome, in words. */
  outcome: string;
  /** Fields replacing the upstream expectation. */
  expect: Partial<Expected>;
}

// `x = e;` in an action body: ActionBodyItem → NonBehaviorBodyItem → UsageMember → UsageElement →
// DefaultReferenceUsage (`RefPrefix Usage`, Usage = UsageDeclaration UsageCompletion, UsageCompletion
// = ValuePart? UsageBody). It declares a new reference feature named x, owned by the body and bound
// to e; it is not an AssignmentNode (`assign x := e;`), so the enclosing x keeps its value.
const DECLARES_NOT_ASSIGNS =
  '`x = e;` in a loop body is a DefaultReferenceUsage (BNF: ActionBodyItem → NonBehaviorBodyItem → UsageMember), a new feature of the body bound to e, not an assignment (that is `assign x := e;`, AssignmentNode)';

// `return …` in a body written in braces after `if`/`while`/`loop`/`for`, or in an action usage's body:
// those bodies are ActionBodyParameter = ( 'action' UsageDeclaration? )? '{' ActionBodyItem* '}' or
// ActionBody, and only CalculationBodyItem = ActionBodyItem | ReturnParameterMember admits `return`.
const RETURN_OUTSIDE_CALC_BODY =
  '`return` is a ReturnParameterMember, which only CalculationBodyItem admits; an `if`/`for`/`while` body (ActionBodyParameter: `{ ActionBodyItem* }`) or an action body cannot hold one, so the model does not parse under the SysML v2 grammar';

export const SPEC_CONTRADICTIONS: Record<string, SpecContradiction> = {
  calc_for_over_sequence: {
    why: `${DECLARES_NOT_ASSIGNS}; the calc's \`sum\` stays bound to \`bias\` and \`return : Integer = sum\` binds the result to it`,
    outcome: 'result 10 (bias), not 19',
    expect: { result: { type: 'Integer', value: 10 } },
  },
  calc_iterative_factorial: {
    why: `${DECLARES_NOT_ASSIGNS}; the calc's \`acc\` stays bound to 1 (and its \`i\` to 1, so the \`while\` never ends), and the result is bound to \`acc\``,
    outcome: 'result 1 (a refusal is also acceptable: the loop never terminates), not 720',
    expect: { result: { type: 'Integer', value: 1 } },
  },
  calc_loop_until_body: {
    why: `${DECLARES_NOT_ASSIGNS}; the calc's \`i\` stays bound to \`n\` (the \`until\` reads it, so the loop never ends) and the result is bound to it`,
    outcome: 'result 9 (n; a refusal is also acceptable: the loop never terminates), not 1',
    expect: { result: { type: 'Integer', value: 9 } },
  },
  calc_block_flow_early_return: {
    why: `${RETURN_OUTSIDE_CALC_BODY} (here \`return seen;\` inside \`if\` inside \`action check\`)`,
    outcome: 'a syntax error: no result (upstream: 2)',
    expect: { result: { error: 'syntax error: return outside a calculation body' } },
  },
  calc_block_flow_result_in_block: {
    why: `${RETURN_OUTSIDE_CALC_BODY} (here \`return : Integer = noted;\` inside a \`for\` body)`,
    outcome: 'a syntax error: no result (upstream: 10)',
    expect: { result: { error: 'syntax error: return outside a calculation body' } },
  },
  calc_identity_operators: {
    why: `${RETURN_OUTSIDE_CALC_BODY} (here \`return : Integer = 1;\` inside \`if a === b { … }\`)`,
    outcome: 'a syntax error: no result (upstream: 1)',
    expect: { result: { error: 'syntax error: return outside a calculation body' } },
  },
  // Assay's documented decision (docs/semantics.md, "Units inside brackets"): inside `[ ]` a name the
  // unit table knows is that unit, and the name resolver warns where a model feature takes the name.
  // Ordinary lookup (KerML 8.2.3.5.3, which this case follows) would take the feature; real models
  // (the Apollo analyses: `subject m` with `[m/s]`) mean the unit, and the soundness suite requires it.
  unit_shadowed_by_sibling_calc: {
    kind: 'decision',
    why: 'Assay reads `[m]` as the unit m where a feature `m` is in scope, and `assay parse` / the editor warn there (docs/semantics.md#units-inside-brackets); KerML\'s ordinary lookup would take the feature',
    outcome: 'result 500 [m], with the warning (upstream: an error)',
    expect: { error: undefined, result: { type: 'Quantity', value: 500, unit: 'm' } },
  },
  unit_shadowed_by_sibling_slot: {
    kind: 'decision',
    why: 'Assay reads `[m]` as the unit m where a feature `m` is in scope, and `assay parse` / the editor warn there (docs/semantics.md#units-inside-brackets); KerML\'s ordinary lookup would take the feature',
    outcome: 'h = 500 [m], with the warning (upstream: an error)',
    expect: { slots: { h: { type: 'Quantity', value: 500, unit: 'm' } } },
  },
};
