// Behaviour semantics: compile a subject to an execution model, run and explore it, answer the
// behaviour questions, replay witness schedules. See docs/execution-semantics.md.
export { compileBehavior } from './compile';
export { BehaviorError, type ExecutionModel, type ExecNode, type ExecTransition, type FeatureDecl } from './model';
export { Runtime, type BehaviorState, type Move, type Token, type EndStatus, type RuntimeOptions, type StateView } from './machine';
export { parseSchedule, replay, stepLine, type ReplayResult, type ReplayStep, type ScheduleStep } from './schedule';
export { explore, parsePolicy, scheduleText, type ExploreHooks, type ExploreOptions, type ExploreReport, type Limits, type Policy, type Progress } from './explore';
export {
  answerBehavior, boundKeys, conditionsOf, prepareBehavior, type BehaviorAnswer, type BehaviorKind, type BehaviorQuestion, type BehaviorRunOptions, type PreparedBehavior,
} from './questions';
export type { BehaviorDocument } from './scope';
export { constructOf, INERT_CONSTRUCTS, MODELED_CONSTRUCTS, MODELED_RELATIONS, type ConstructRule, type Place } from './constructs';
export { recheckAnswer, replayWitness, witnessInputs, type Recheck } from './witness';
export type { ProtocolValue, WitnessObject, BoundObject } from './questions';
