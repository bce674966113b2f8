// Cases whose upstream expectation contradicts the SysML v2 / KerML specification (release 2026-04:
// the BNF in ../shared/corpus/sysml-release-2026-04/bnf/SysML-textual-bnf.kebnf, the libraries beside
// it). The specification wins: the harness scores the spec-correct expectation (`expect` replaces
// the upstream fields) and prints why. Only contradictions the spec text settles are listed.
import type { Document, Node } from '../../src/sysml/ast';
import { walk } from '../../src/sysml/walk';
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
  /** Also agreeing, besides the expectation: a refusal whose text matches (a contradiction found by
   * `boundThenAssigned` rather than read by hand keeps the upstream expectation, which holds where no
   * assignment to the bound feature runs, and accepts the engine's own refusal naming the binding). */
  refusalAlsoAgrees?: RegExp;
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

// `attribute x : T = e;` then `assign x := …`: `=` is a FeatureValue with isInitial = false, which KerML
// (FeatureValue, 8.3.4.8 / 7.4.12) makes equivalent to a BindingConnector between x and e: x equals e for
// the whole life of its owner. Only `:=` (isInitial = true) gives an initial value that an assignment may
// change. The model binds and assigns the same feature, so it has no value the spec gives: the engine
// must not answer a value (Assay refuses at the assignment, naming the binding's place).
const BOUND_THEN_ASSIGNED = (what: string) =>
  `\`=\` is a FeatureValue with isInitial = false, equivalent to a BindingConnector (KerML FeatureValue semantics): the feature equals its expression for its owner's whole life, and only \`:=\` (isInitial) gives a value an assignment may change; here ${what}`;
const BOUND_THEN_ASSIGNED_OUTCOME = (upstream: string) => `no value: the model binds the feature and assigns it (a refusal naming both places), not ${upstream}`;
const BOUND_THEN_ASSIGNED_ERROR = 'is bound to a value';

// `Belt @ Safety` with `part def Belt`: the operand of a ClassificationExpression is an ArgumentMember
// whose value is an OwnedExpression; a bare name there is a FeatureReferenceExpression, and KerML's BNF
// reads its name as `FeatureReference : Feature = [QualifiedName]`: it must name a Feature. A definition
// is no Feature, so the expression does not resolve and the constraint has no value. (Outside a filter
// condition `@` is also only `istype` on the operand's value (ClassificationTestOperator = 'istype' |
// 'hastype' | '@'): it tests what a feature's value is an instance of, not the metadata annotating the
// declaration; that is `@@` on a MetadataReference.)
const DEFINITION_AS_OPERAND = (name: string) =>
  `\`${name} @ Safety\`: a name in an expression is a FeatureReferenceExpression (KerML BNF: FeatureReference : Feature = [QualifiedName]), whose referent must be a Feature; \`${name}\` names a part definition, so the expression does not resolve and the constraint has no value (and \`@\` outside a filter is \`istype\` on the operand's value, ClassificationTestOperator, not a test of the metadata annotating a declaration, which is \`@@\`)`;
const DEFINITION_AS_OPERAND_OUTCOME = (name: string) => `no verdict: \`${name}\` in an expression names no feature (a refusal naming it), not true`;

export const SPEC_CONTRADICTIONS: Record<string, SpecContradiction> = {
  filter_classification_annotation_forms: {
    why: DEFINITION_AS_OPERAND('Belt'),
    outcome: DEFINITION_AS_OPERAND_OUTCOME('Belt'),
    expect: { error: 'not a feature' },
  },
  filter_classification_meta_versus_annotation: {
    why: DEFINITION_AS_OPERAND('Belt'),
    outcome: DEFINITION_AS_OPERAND_OUTCOME('Belt'),
    expect: { error: 'not a feature' },
  },
  view_exposed_element_classification: {
    why: DEFINITION_AS_OPERAND('Lib::Belt'),
    outcome: DEFINITION_AS_OPERAND_OUTCOME('Lib::Belt'),
    expect: { error: 'not a feature' },
  },
  satisfy_subject_features: {
    why: '`assert satisfy R by p` binds the subject parameter of R to p (SysML SatisfyRequirementUsage: satisfyingFeature is bound to the subject); it relates no other feature. TouchdownRequirement declares no subject, and its own `attribute verticalSpeed` is a feature of the requirement, not of the subject: no rule matches it to `Lander::verticalSpeed` by name, so it has no value and the require constraint has no verdict',
    outcome: 'no verdict: `verticalSpeed` of the requirement has no value (upstream: true for lander01, false for lander02, by matching names)',
    expect: { error: 'has no value' },
  },
  action_first_names_a_declared_node: {
    why: BOUND_THEN_ASSIGNED('`attribute x : Integer = 0;` is assigned by `s1` (`assign x := 7`), `y` likewise'),
    outcome: BOUND_THEN_ASSIGNED_OUTCOME('x = 7, y = 9'),
    expect: { error: BOUND_THEN_ASSIGNED_ERROR },
  },
  action_last_node_without_a_succession: {
    why: BOUND_THEN_ASSIGNED('`attribute t : Integer = 0;` is assigned by `a` and `b`'),
    outcome: BOUND_THEN_ASSIGNED_OUTCOME('t = 40'),
    expect: { error: BOUND_THEN_ASSIGNED_ERROR },
  },
  action_succession_guard_holds: {
    why: BOUND_THEN_ASSIGNED('`attribute x : Integer = 3;` is assigned by `s1` (`assign x := x + 4`)'),
    outcome: BOUND_THEN_ASSIGNED_OUTCOME('x = 7, y = 9'),
    expect: { error: BOUND_THEN_ASSIGNED_ERROR },
  },
  calc_integer_range: {
    why: BOUND_THEN_ASSIGNED('the calc body\'s `attribute total : Integer = 0;` is assigned in the `for` body'),
    outcome: BOUND_THEN_ASSIGNED_OUTCOME('result 44'),
    expect: { result: { error: 'is bound with' } },
  },
  calc_usage_outputs_one_binding: {
    why: BOUND_THEN_ASSIGNED('the calc body\'s `attribute v : Real = 1.0;` is assigned (`assign v := 2.0`)'),
    outcome: BOUND_THEN_ASSIGNED_OUTCOME('result 1010.0'),
    expect: { result: { error: 'is bound with' } },
  },
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
  // The import names a package outside the specification's libraries: the release's Kernel Function
  // Library declares no `exp`, `ln`, `log` or `atan2` (TrigFunctions has `arctan` of one argument), so
  // the names in the calc resolve to nothing and the model is not valid SysML v2 (`assay parse` reports
  // each unresolved reference).
  calc_opensysml_math_functions: {
    why: '`private import OpenSysMLMathFunctions::*;` names a package that no SysML v2 / KerML library of the release declares (the Kernel Function Library has no exp, ln, log or atan2; TrigFunctions::arctan takes one argument), so `ln`, `exp`, `atan2` and `log` are unresolved references and the calc has no value under the specification',
    outcome: 'no value: the names do not resolve (upstream: 9.1416, with OpenSysML\'s own library)',
    expect: { result: { error: 'unresolved' } },
    refusalAlsoAgrees: /unknown calc or function '(atan2|ln|exp|log)'/,
  },
  // SequenceFunctions::includingAt's body in the release is
  // `(seq->subsequence(1, index - 1), values, seq->subsequence(index + 1))`: the element at `index` is
  // dropped (replaced), while its name and the upstream say insert before it. Which one the
  // specification means is not settled by its own text, so no value is the spec-correct answer.
  calc_sequence_including_at: {
    why: 'the release\'s SequenceFunctions::includingAt is defined by the body `(seq->subsequence(1, index - 1), values, seq->subsequence(index + 1))`, which replaces the element at index ((1, 2, 3)->includingAt(9, 2) = (1, 9, 3)), while its name and documentation intent say insert ((1, 9, 2, 3)); the library text contradicts itself except when appending (index = size + 1)',
    outcome: 'no value naming the contradiction at an inner index (upstream: (1, 9, 2, 3), the insertion reading)',
    expect: { result: { error: 'includingAt' } },
    refusalAlsoAgrees: /includingAt at index \d+ of a sequence of \d+: the library's body/,
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
  unit_shadowed_by_sibling_action: {
    kind: 'decision',
    why: 'Assay reads `[m]` as the unit m where a feature `m` is in scope, and `assay parse` / the editor warn there (docs/semantics.md#units-inside-brackets); KerML\'s ordinary lookup would take the feature',
    outcome: 'the action runs to done with h = 500 [m], with the warning (upstream: an error)',
    expect: { error: undefined, outputs: { h: { type: 'Quantity', value: 500, unit: 'm' } } },
  },
  state_timed_transitions: {
    kind: 'spec',
    why: '`accept at t` waits for a TimeSignal, a ChangeSignal whose condition is `signalClock.currentTime == signalTime` (Kernel Semantic Library, Triggers.kerml TimeSignal, TriggerAt); a ChangeSignal is sent when its condition changes from false to true (Observation.kerml), so an instant already past when the wait begins (`at 5` in a state entered at 10) never comes; `after 3` fires at 13',
    outcome: 'the machine rests in `later` (upstream: the past instant fires at once and the machine reaches done)',
    expect: { finalState: 'later', stateVisits: ['init', 'waiting', 'working', 'later'] },
  },
  unit_shadowed_by_sibling_slot: {
    kind: 'decision',
    why: 'Assay reads `[m]` as the unit m where a feature `m` is in scope, and `assay parse` / the editor warn there (docs/semantics.md#units-inside-brackets); KerML\'s ordinary lookup would take the feature',
    outcome: 'h = 500 [m], with the warning (upstream: an error)',
    expect: { slots: { h: { type: 'Quantity', value: 500, unit: 'm' } } },
  },
};

/** The names a model both binds with `=` (a FeatureValue, neither `:=` nor `default`) and assigns
 * (`assign x := …`): the bound-then-assigned contradiction above, found in the model rather than
 * listed by hand. By name, over the whole document: a candidate only — the case is scored on the
 * engine's own refusal naming the binding (`refusalSays`), never on this match alone. */
export function boundThenAssigned(document: Document): string[] {
  const bound = new Set<string>();
  const assigned = new Set<string>();
  walk(document as unknown as Node, (node) => {
    const n = node as unknown as { kind: string; name?: string | null; value?: { isInitial: boolean; isDefault: boolean } | null; target?: { kind: string; name?: { segments: string[] } } };
    if (n.kind === 'Usage' && n.name && n.value && !n.value.isInitial && !n.value.isDefault) bound.add(n.name);
    if (n.kind === 'AssignAction' && n.target?.kind === 'Name' && n.target.name) assigned.add(n.target.name.segments.at(-1)!);
  });
  return [...assigned].filter((x) => bound.has(x)).sort();
}

/** The engine's refusal of an assignment to a feature bound with `=` (behaviour runs, calc bodies). */
export const BOUND_THEN_ASSIGNED_REFUSAL = /is bound (to a value|with '=').*cannot (also )?be assigned/;

/** The generic bound-then-assigned contradiction for a case `boundThenAssigned` finds names in: the
 * upstream expectation stands where no assignment to those features runs (a loop run zero times), and
 * the engine's refusal at an assignment that does run is the spec-correct outcome. */
export function boundThenAssignedContradiction(names: string[]): SpecContradiction {
  const shown = names.map((x) => `\`${x}\``).join(', ');
  return {
    why: BOUND_THEN_ASSIGNED(`${shown} ${names.length === 1 ? 'is' : 'are'} declared with \`=\` and assigned (found in the model)`),
    outcome: 'no value where an assignment to a bound feature runs (a refusal naming both places); the upstream values where none runs',
    expect: {},
    refusalAlsoAgrees: BOUND_THEN_ASSIGNED_REFUSAL,
  };
}
