// What the behaviour semantics accepts, as an explicit table: per place in a behaviour's closure (an
// action body with a flow, an atomic action body, a state body, a part that performs or exhibits
// behaviours) the member constructs it models, and per kind of feature the relationships it models.
// Everything else met in the closure is refused (`unsupported`, with the construct and its place):
// nothing is skipped. docs/execution-semantics.md shows the same table; test/sysml/behavior reads it.
import type { Member, RelationKind, Usage } from '../ast';

export type Place = 'action flow' | 'atomic action' | 'state' | 'part';

export interface ConstructRule {
  /** As constructOf() names it. */
  readonly construct: string;
  /** Where it is modeled; elsewhere it is refused. */
  readonly places: readonly Place[];
  /** Only in the subject's own body (and what it inherits). */
  readonly subjectOnly?: boolean;
  readonly semantics: string;
  readonly spec: string;
}

const FEATURES: Place[] = ['action flow', 'atomic action', 'state', 'part'];

/** Constructs with an execution semantics (docs/execution-semantics.md). */
export const MODELED_CONSTRUCTS: readonly ConstructRule[] = [
  { construct: 'attribute', places: FEATURES, semantics: 'a feature of the state; `:=`/`default` an initial value, `=` a bound value re-read in every state', spec: 'SysML 7.7 Attributes; KerML 7.3.4.7 Feature values' },
  { construct: 'ref', places: FEATURES, semantics: 'as attribute (a usage without keyword)', spec: 'SysML 7.6 Usages' },
  { construct: 'feature', places: FEATURES, semantics: 'as attribute', spec: 'KerML 7.3.4 Features' },
  { construct: 'in parameter', places: FEATURES, semantics: 'the subject’s: a feature the question binds or ranges over (one typed by a part: its attributes); `= e` (a perform’s binding): bound to e; a flow’s target: its transfer; else computed outside the model (reading it is refused)', spec: 'SysML 7.16.2 Action parameters; 7.16.8 Perform action usages' },
  { construct: 'out parameter', places: FEATURES, semantics: 'the subject’s: its result (never a free input); of a body-less action that runs at most once: a free input of the run; else as in parameter', spec: 'SysML 7.16.2' },
  { construct: 'inout parameter', places: FEATURES, semantics: 'as in parameter', spec: 'SysML 7.16.2' },
  { construct: 'part', places: ['action flow', 'state', 'part'], semantics: 'one instance; its features are features of the state, its behaviours run (in a part); a `ref part` is a part owned elsewhere, possibly another of the model: no instance, and reading, assigning or sending to it is refused', spec: 'SysML 7.11 Parts' },
  { construct: 'item', places: ['action flow', 'state', 'part'], semantics: 'as part', spec: 'SysML 7.10 Items' },
  { construct: 'occurrence', places: ['action flow', 'state', 'part'], semantics: 'as part', spec: 'SysML 7.9 Occurrences' },
  { construct: 'port', places: ['part'], semantics: 'a receiver of signals (`accept … via p`, `send … to p`); its features are not features of the state (reading them is refused)', spec: 'SysML 7.12 Ports; 7.16.9 Send and accept action usages' },
  { construct: 'perform', places: ['action flow', 'part'], semantics: 'the performed action runs (inlined in a flow; its own token in a part)', spec: 'SysML 7.16.8 Perform action usages' },
  { construct: 'exhibit', places: ['part'], semantics: 'the exhibited state machine runs with its own token', spec: 'SysML 7.17.6 Exhibit state usages' },
  { construct: 'action', places: ['action flow'], semantics: 'a node of the flow: atomic, or a composite with its own flow', spec: 'SysML 7.16 Actions' },
  { construct: 'state', places: ['state', 'part'], semantics: 'a state (a part exhibits it)', spec: 'SysML 7.17 States' },
  { construct: 'fork', places: ['action flow'], semantics: 'one token per successor', spec: 'SysML 7.16.5 Control nodes' },
  { construct: 'join', places: ['action flow'], semantics: 'waits for a token from every incoming succession', spec: 'SysML 7.16.5' },
  { construct: 'merge', places: ['action flow'], semantics: 'passes any token on', spec: 'SysML 7.16.5' },
  { construct: 'decide', places: ['action flow'], semantics: 'one branch whose guard holds (`else` when none)', spec: 'SysML 7.16.5' },
  { construct: 'succession', places: ['action flow', 'state'], semantics: 'a control edge (`first`/`then`/`if … then`/`else`); in a state, the initial state or a transition', spec: 'SysML 7.16.4 Successions; KerML 7.3.6.4 Successions' },
  { construct: 'succession flow', places: ['action flow'], semantics: 'a succession between two actions of the flow and a transfer between their parameters', spec: 'SysML 7.13.3 Succession flows; KerML 8.4.8' },
  { construct: 'flow', places: ['action flow'], semantics: 'a transfer between two actions’ parameters when the source ends, if the target cannot start before; else the parameters stay outside the model', spec: 'SysML 7.13.2 Flows; KerML 8.4.8 Transfers' },
  { construct: 'binding', places: FEATURES, semantics: 'its two ends are equal: the end without a value of its own is bound to the other (read as it in every state, never assigned nor a flow target); two ends with values of their own are refused', spec: 'SysML 7.13.1 Binding connectors; KerML 7.4.6.3 Binding connectors' },
  { construct: 'calc', places: FEATURES, semantics: 'a calculation read through its parameters and results: each a feature bound where it has a value (`in k = v`, `out d = k * 2`), `t.d` read in the state it is read in, `t` its result (return value or result expression); no node of the flow; members other than parameters, attributes, a return and a result expression are refused', spec: 'SysML 7.18 Calculations (a calc usage is an action usage whose parameters are bound); KerML 7.4.9 Expressions' },
  { construct: 'assign', places: ['action flow', 'atomic action'], semantics: 'sets a feature', spec: 'SysML 7.16.10 Assignment actions' },
  { construct: 'send', places: ['action flow', 'atomic action'], semantics: 'adds a signal to the receiver’s pending signals (`to` a part or port; `via` alone: through an unconnected port, out of the model; a connected one is refused; neither: refused, the receiver is left to be determined)', spec: 'SysML 7.16.9 Send actions' },
  { construct: 'accept', places: ['action flow'], semantics: 'waits for a signal (sent to the performing part, or `via` a port or part: sent to it), a time (`after`) or a change (`when`)', spec: 'SysML 7.16.9 Accept actions' },
  { construct: 'terminate', places: ['action flow'], semantics: '`terminate;` ends the action whose body holds it (its featuring occurrence; in the subject\'s own body, the run; in an if/while/loop/for body, refused); `terminate X;` where X is an action whose body holds it (by name, or `self`) ends every token inside X, and X\'s successors follow (the subject\'s own name ends the run); another occurrence is refused', spec: 'SysML 7.16.12 Terminate actions; Actions.sysml terminateActions (`terminatedOccurrence default that`)' },
  { construct: 'if', places: ['action flow'], semantics: 'chooses a body by its condition', spec: 'SysML 7.16.11 Structured control actions' },
  { construct: 'while', places: ['action flow'], semantics: 'condition before, `until` after each iteration', spec: 'SysML 7.16.11' },
  { construct: 'loop', places: ['action flow'], semantics: 'as while, no condition', spec: 'SysML 7.16.11' },
  { construct: 'for', places: ['action flow'], semantics: 'iterates a sequence', spec: 'SysML 7.16.11' },
  { construct: 'entry', places: ['state'], semantics: 'atomic effects on entering', spec: 'SysML 7.17.3 State subactions' },
  { construct: 'do', places: ['state'], semantics: 'atomic effects right after entry', spec: 'SysML 7.17.3' },
  { construct: 'exit', places: ['state'], semantics: 'atomic effects on leaving', spec: 'SysML 7.17.3' },
  { construct: 'transition', places: ['state'], semantics: 'trigger, guard, effect, target', spec: 'SysML 7.17.4 Transitions' },
  { construct: 'assert constraint', places: FEATURES, subjectOnly: true, semantics: 'the condition `holds` checks when none is given', spec: 'SysML 7.19.4 Constraint assertions' },
];

/** Constructs with no effect on an execution: read nowhere by the semantics, so never a silent loss. */
export const INERT_CONSTRUCTS: readonly ConstructRule[] = [
  { construct: 'comment', places: FEATURES, semantics: 'annotation', spec: 'KerML 7.2.4 Annotations' },
  { construct: 'doc', places: FEATURES, semantics: 'annotation', spec: 'KerML 7.2.4' },
  // In a behaviour, a textual representation is its body in another language (an opaque action): refused there.
  { construct: 'rep', places: ['part'], semantics: 'annotation (in an action or state: its behaviour written in another language, refused)', spec: 'KerML 7.2.4; SysML 7.16 opaque actions' },
  { construct: 'metadata', places: FEATURES, semantics: 'annotation', spec: 'SysML 7.26 Metadata' },
  { construct: 'import', places: FEATURES, semantics: 'names only (resolved by the name resolver)', spec: 'KerML 7.2.5.4 Imports' },
  { construct: 'alias', places: FEATURES, semantics: 'names only', spec: 'KerML 7.2.5.3 Memberships' },
  { construct: 'definition', places: FEATURES, semantics: 'a declaration: it takes part only where a usage is typed by it (then its members are read)', spec: 'SysML 7.6 Definitions' },
  { construct: 'package', places: FEATURES, semantics: 'a declaration', spec: 'KerML 7.2.5 Namespaces' },
];

/** Relationships modeled on each kind of member; any other on a member in the closure is refused. */
export const MODELED_RELATIONS: Readonly<Record<'feature' | 'port' | 'instance' | 'action' | 'perform' | 'state' | 'constraint' | 'calc' | 'control', readonly RelationKind[]>> = {
  // typing gives the domain (Boolean, an enumeration); redefinition replaces the inherited feature;
  // subsetting only of a feature outside the model (a library quantity such as ISQ::mass: a typing).
  feature: ['typing', 'redefinition', 'subsetting'],
  port: ['typing', 'redefinition', 'subsetting'],
  // typing and subsetting give the inherited members; redefinition replaces the inherited one.
  instance: ['typing', 'subsetting', 'redefinition'],
  action: ['typing', 'redefinition'],
  perform: ['typing', 'redefinition', 'reference'],
  state: ['typing', 'redefinition', 'reference'],
  // an asserted constraint: its own expression (questions.ts); a constraint it names must have one.
  constraint: ['typing', 'redefinition', 'reference'],
  // typing gives the calc definition's parameters and results; redefinition replaces the inherited one.
  calc: ['typing', 'redefinition'],
  control: [],
};

const RULES = new Map(MODELED_CONSTRUCTS.map((r) => [r.construct, r]));
const INERT = new Map(INERT_CONSTRUCTS.map((r) => [r.construct, r]));

/** The construct a member is, as the tables name it (`attribute`, `in parameter`, `assert constraint`, `transition`, `port`…). */
export function constructOf(m: Member): string {
  switch (m.kind) {
    case 'Usage':
      if (m.direction !== null) return `${m.direction} parameter`;
      if (m.role === 'perform' || m.role === 'exhibit') return m.role;
      return m.role ? `${m.role} ${m.keyword}` : m.keyword;
    case 'Definition':
      return 'definition';
    case 'Package':
      return 'package';
    case 'Import':
      return 'import';
    case 'Alias':
      return 'alias';
    case 'Comment':
      return 'comment';
    case 'Documentation':
      return 'doc';
    case 'TextualRepresentation':
      return 'rep';
    case 'Dependency':
      return 'dependency';
    case 'RelationshipDeclaration':
      return `${m.keyword} relationship`;
    case 'ElementFilter':
      return 'filter';
    case 'InvalidMember':
      return 'text that does not parse';
    case 'ResultExpression':
      return 'result expression';
    case 'Succession':
      return 'succession';
    case 'Transition':
      return 'transition';
    case 'AcceptAction':
      return 'accept';
    case 'SendAction':
      return 'send';
    case 'AssignAction':
      return 'assign';
    case 'IfAction':
      return 'if';
    case 'LoopAction':
      return m.form;
    case 'ForAction':
      return 'for';
    case 'TerminateAction':
      return 'terminate';
    case 'StateSubaction':
      return m.which;
  }
}

export type Admission = 'modeled' | 'inert' | 'refused';

/** Whether a construct is modeled at a place (inert ones are accepted everywhere). */
export function admission(construct: string, place: Place, inSubject: boolean): Admission {
  const inert = INERT.get(construct);
  if (inert) return inert.places.includes(place) ? 'inert' : 'refused';
  const r = RULES.get(construct);
  if (!r || !r.places.includes(place) || (r.subjectOnly && !inSubject)) return 'refused';
  return 'modeled';
}

/** Which relation table applies to a usage. */
export function relationClass(u: Usage): keyof typeof MODELED_RELATIONS {
  // A parameter (`in item x`) is a value computed outside, whatever its keyword.
  if (u.direction !== null) return 'feature';
  if (u.role === 'perform' || u.role === 'exhibit') return 'perform';
  if (u.keyword === 'fork' || u.keyword === 'join' || u.keyword === 'merge' || u.keyword === 'decide') return 'control';
  if (u.keyword === 'part' || u.keyword === 'item' || u.keyword === 'occurrence') return 'instance';
  if (u.keyword === 'action') return 'action';
  if (u.keyword === 'state') return 'state';
  if (u.keyword === 'constraint') return 'constraint';
  if (u.keyword === 'calc') return 'calc';
  if (u.keyword === 'port') return 'port';
  return 'feature';
}
