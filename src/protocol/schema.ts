// Strict zod schemas of every Engine Protocol v1 message and object (spec: engine-protocol-v1.md).
// Every TypeScript type of the protocol is inferred from these schemas; nothing is written twice.
// Unknown properties are rejected everywhere except inside the items of graphs `actions` and `states`.
import { z } from 'zod';

// ---- scalars and enumerations ----------------------------------------------------------------------

export const PROTOCOL_VERSION = 1;

export const Id = z.int().min(1);
export const Scalar = z.union([z.number(), z.boolean(), z.string()]);

export const QUESTION_KINDS = ['evaluate', 'outcomes', 'holds', 'sensitive', 'satisfiable', 'sweep', 'compute'] as const;
export const QuestionKind = z.enum(QUESTION_KINDS);

export const CLAIMS = [
  'none', 'holds', 'violated', 'sensitive', 'value', 'table', 'outcomes', 'satisfiable', 'unsatisfiable', 'unbounded',
] as const;
export const Claim = z.enum(CLAIMS);

/** Strengths from weakest to strongest; the order matters for the standing policy. */
export const STRENGTHS = ['not covered', 'observed', 'witnessed', 'bounded', 'proved'] as const;
export const Strength = z.enum(STRENGTHS);

export const WITNESS_KINDS = ['schedule', 'assignment', 'none'] as const;
export const WitnessKind = z.enum(WITNESS_KINDS);

export const BOUND_NAMES = ['depth', 'steps', 'runs', 'memory'] as const;
export const BoundName = z.enum(BOUND_NAMES);

/** `sources`, `rdf`, or `graphs:` followed by a positive integer with no leading zero. */
export const MODEL_FORM_PATTERN = /^(sources|rdf|graphs:[1-9][0-9]*)$/;
export const ModelForm = z.string().regex(MODEL_FORM_PATTERN, 'a model form is sources, rdf or graphs:<positive integer without leading zero>');

export const ERROR_CODES = ['unsupported', 'budget', 'internal'] as const;
export const ErrorCode = z.enum(ERROR_CODES);

const NonNegativeInt = z.int().min(0);

// ---- supporting objects ----------------------------------------------------------------------------

export const Condition = z.strictObject({ name: z.string(), text: z.string().optional() });
export const Pinned = z.strictObject({ name: z.string(), text: z.string() });
export const FreeInput = z.strictObject({
  name: z.string(),
  type: z.string().optional(),
  unit: z.string().optional(),
  domain: z.string().optional(),
});
export const ConditionSet = z.strictObject({
  name: z.string(),
  features: z.array(FreeInput),
  assertions: z.array(Condition),
  pinned: z.array(Pinned).optional(),
});
export const Range = z.strictObject({
  parameter: z.string(),
  type: z.string(),
  from: Scalar,
  to: Scalar,
  unit: z.string().optional(),
  step: Scalar.optional(),
});
export const Sweep = z.strictObject({
  ranges: z.array(Range),
  sampled: z.boolean().optional(),
  samples: NonNegativeInt.optional(),
  seed: NonNegativeInt.optional(),
  runs: NonNegativeInt.optional(),
});
export const Value = z.strictObject({ name: z.string(), value: Scalar, unit: z.string().optional() });
export const Bound = z.strictObject({ name: z.string(), limit: z.int(), reached: z.boolean().optional() });
export const Budget = z.strictObject({
  deadline: z.iso.datetime({ offset: true }).optional(),
  depth: NonNegativeInt.optional(),
  steps: NonNegativeInt.optional(),
  runs: NonNegativeInt.optional(),
  memory: NonNegativeInt.optional(),
  jobs: NonNegativeInt.optional(),
});
export const Input = z.strictObject({
  name: z.string(),
  type: z.string().optional(),
  sort: z.string().optional(),
  domain: z.string().optional(),
  free: z.boolean().optional(),
  optional: z.boolean().optional(),
  value: z.string().optional(),
});
export const Witness = z.strictObject({
  schedules: z.array(z.string()).optional(),
  at: NonNegativeInt.optional(),
  feature: z.string().optional(),
  inputs: z.array(Value).optional(),
});
export const SourceDocument = z.strictObject({ path: z.string(), text: z.string() });
export const Sources = z.strictObject({ library: z.string(), documents: z.array(SourceDocument) });
// The inner forms of graph items are open: only name and kind are fixed.
export const GraphItem = z.looseObject({ name: z.string(), kind: z.string() });
export const Graphs = z.strictObject({
  version: z.int().min(1),
  subject: z.string(),
  actions: z.array(GraphItem).optional(),
  states: z.array(GraphItem).optional(),
});
export const Model = z.strictObject({ sources: Sources.optional(), graphs: Graphs.optional() });

export const FREE_DIMENSIONS = ['schedule', 'inputs'] as const;
export const DRAWS = ['min', 'max', 'average'] as const;

export const Question = z.strictObject({
  kind: QuestionKind,
  subject: z.string(),
  subjectKind: z.string().optional(),
  schedule: z.string(),
  modelSeed: NonNegativeInt.optional(),
  draws: z.enum(DRAWS).optional(),
  clockStep: z.number().gt(0).optional(),
  free: z.array(z.enum(FREE_DIMENSIONS)),
  condition: Condition.optional(),
  conditions: z.array(ConditionSet).optional(),
  bindings: z.array(Value).optional(),
  inputs: z.array(FreeInput).optional(),
  sweep: Sweep.optional(),
});

// ---- params ----------------------------------------------------------------------------------------

export const DescribeParams = z.strictObject({ protocols: z.array(z.int().min(1)).min(1) });
export const CoversParams = z.strictObject({ question: Question, model: Model });
export const RunParams = z.strictObject({ question: Question, model: Model, bounds: z.array(Bound), budget: Budget });
export const CancelParams = z.strictObject({ id: Id });
export const ProgressParams = z.strictObject({
  id: Id,
  runs: NonNegativeInt.optional(),
  depth: NonNegativeInt.optional(),
  steps: NonNegativeInt.optional(),
  text: z.string().optional(),
});

// ---- results ---------------------------------------------------------------------------------------

export const Description = z.strictObject({
  name: z.string().min(1),
  version: z.string().min(1),
  protocol: z.int().min(1),
  answers: z.array(QuestionKind).min(1),
  subjects: z.array(z.string()).optional(),
  bounds: z.array(BoundName).optional(),
  witness: WitnessKind.optional(),
  model: z.array(ModelForm).optional(),
  authority: Strength.optional(),
  concurrent: z.boolean().optional(),
});
export const CoversResult = z.strictObject({ covers: z.boolean(), reason: z.string().optional() });
export const RunResult = z.strictObject({
  claim: Claim,
  strength: Strength,
  bounds: z.array(Bound).optional(),
  witness: Witness.optional(),
  executions: z.array(Witness).optional(),
  reason: z.string().optional(),
  values: z.array(Value).optional(),
  inputs: z.array(Input).optional(),
  assumptions: z.array(z.string()).optional(),
  elapsed: NonNegativeInt.optional(),
});
export const ErrorObject = z.strictObject({ code: ErrorCode, message: z.string() });

// ---- envelopes -------------------------------------------------------------------------------------

const JsonRpc = z.literal('2.0');

export const DescribeRequest = z.strictObject({ jsonrpc: JsonRpc, id: Id, method: z.literal('describe'), params: DescribeParams });
export const CoversRequest = z.strictObject({ jsonrpc: JsonRpc, id: Id, method: z.literal('covers'), params: CoversParams });
export const RunRequest = z.strictObject({ jsonrpc: JsonRpc, id: Id, method: z.literal('run'), params: RunParams });
export const CancelNotification = z.strictObject({ jsonrpc: JsonRpc, method: z.literal('cancel'), params: CancelParams });
export const ProgressNotification = z.strictObject({ jsonrpc: JsonRpc, method: z.literal('progress'), params: ProgressParams });

/** A request of any method, as the generic envelope: params are checked by the method's own schema. */
export const Request = z.discriminatedUnion('method', [DescribeRequest, CoversRequest, RunRequest]);

export const ErrorResponse = z.strictObject({ jsonrpc: JsonRpc, id: Id, error: ErrorObject });
export const DescribeResultResponse = z.strictObject({ jsonrpc: JsonRpc, id: Id, result: Description });
export const CoversResultResponse = z.strictObject({ jsonrpc: JsonRpc, id: Id, result: CoversResult });
export const RunResultResponse = z.strictObject({ jsonrpc: JsonRpc, id: Id, result: RunResult });

function responseOf<T extends z.ZodType>(result: T) {
  return z.union([z.strictObject({ jsonrpc: JsonRpc, id: Id, result }), ErrorResponse]);
}
/** A response holds exactly one of result or error; its result is one of description, coversResult, result. */
export const Response = responseOf(z.union([Description, CoversResult, RunResult]));
export const DescribeResponse = responseOf(Description);
export const CoversResponse = responseOf(CoversResult);
export const RunResponse = responseOf(RunResult);

/** A line the host writes. */
export const HostMessage = z.union([DescribeRequest, CoversRequest, RunRequest, CancelNotification]);
/** A line the engine writes. */
export const EngineMessage = z.union([ProgressNotification, Response]);

// ---- per-method tables -----------------------------------------------------------------------------

export const METHODS = ['describe', 'covers', 'run'] as const;
export type Method = (typeof METHODS)[number];

export const PARAMS_SCHEMA = { describe: DescribeParams, covers: CoversParams, run: RunParams } as const;
export const RESULT_SCHEMA = { describe: Description, covers: CoversResult, run: RunResult } as const;
export const RESPONSE_SCHEMA = { describe: DescribeResponse, covers: CoversResponse, run: RunResponse } as const;
/** The result-carrying response of each method (a response with `error` is checked by ErrorResponse). */
export const RESULT_RESPONSE_SCHEMA = {
  describe: DescribeResultResponse,
  covers: CoversResultResponse,
  run: RunResultResponse,
} as const;

export function isMethod(value: unknown): value is Method {
  return value === 'describe' || value === 'covers' || value === 'run';
}

// ---- inferred types --------------------------------------------------------------------------------

export type QuestionKind = z.infer<typeof QuestionKind>;
export type Claim = z.infer<typeof Claim>;
export type Strength = z.infer<typeof Strength>;
export type WitnessKind = z.infer<typeof WitnessKind>;
export type BoundName = z.infer<typeof BoundName>;
export type ModelForm = z.infer<typeof ModelForm>;
export type ErrorCode = z.infer<typeof ErrorCode>;
export type Scalar = z.infer<typeof Scalar>;
export type Condition = z.infer<typeof Condition>;
export type ConditionSet = z.infer<typeof ConditionSet>;
export type Pinned = z.infer<typeof Pinned>;
export type FreeInput = z.infer<typeof FreeInput>;
export type Range = z.infer<typeof Range>;
export type Sweep = z.infer<typeof Sweep>;
export type Value = z.infer<typeof Value>;
export type Bound = z.infer<typeof Bound>;
export type Budget = z.infer<typeof Budget>;
export type Input = z.infer<typeof Input>;
export type Witness = z.infer<typeof Witness>;
export type SourceDocument = z.infer<typeof SourceDocument>;
export type Sources = z.infer<typeof Sources>;
export type GraphItem = z.infer<typeof GraphItem>;
export type Graphs = z.infer<typeof Graphs>;
export type Model = z.infer<typeof Model>;
export type Question = z.infer<typeof Question>;
export type DescribeParams = z.infer<typeof DescribeParams>;
export type CoversParams = z.infer<typeof CoversParams>;
export type RunParams = z.infer<typeof RunParams>;
export type CancelParams = z.infer<typeof CancelParams>;
export type ProgressParams = z.infer<typeof ProgressParams>;
export type Description = z.infer<typeof Description>;
export type CoversResult = z.infer<typeof CoversResult>;
export type RunResult = z.infer<typeof RunResult>;
export type ErrorObject = z.infer<typeof ErrorObject>;
export type HostMessage = z.infer<typeof HostMessage>;
export type EngineMessage = z.infer<typeof EngineMessage>;
export type ParamsOf<M extends Method> = z.infer<(typeof PARAMS_SCHEMA)[M]>;
export type ResultOf<M extends Method> = z.infer<(typeof RESULT_SCHEMA)[M]>;

// ---- error text ------------------------------------------------------------------------------------

/** One line per zod issue: `path: message`, the path dotted (`result.bounds.0.limit`). */
export function describeIssues(error: z.ZodError, prefix?: string): string {
  return error.issues
    .map((issue) => {
      const path = [...(prefix ? [prefix] : []), ...issue.path.map(String)].join('.');
      return `${path || '(message)'}: ${issue.message}`;
    })
    .join('; ');
}

/** Strength comparison by the order of STRENGTHS. */
export function strengthRank(strength: Strength): number {
  return STRENGTHS.indexOf(strength);
}
