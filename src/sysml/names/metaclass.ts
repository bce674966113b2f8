// The SysML metaclass an element of the model is an instance of, read from its declaration (the
// metaclasses are the library's SysML::Systems metadata definitions).
import type { Definition, Usage } from '../ast';

/** SysML's metaclasses of usages and definitions by keyword (SysML.sysml, package Systems). */
const USAGE_METACLASSES: Readonly<Record<string, string>> = {
  ref: 'ReferenceUsage', attribute: 'AttributeUsage', enum: 'EnumerationUsage', occurrence: 'OccurrenceUsage', item: 'ItemUsage',
  part: 'PartUsage', port: 'PortUsage', connection: 'ConnectionUsage', interface: 'InterfaceUsage', allocation: 'AllocationUsage',
  flow: 'FlowUsage', 'succession flow': 'SuccessionFlowUsage', action: 'ActionUsage', state: 'StateUsage', calc: 'CalculationUsage',
  constraint: 'ConstraintUsage', requirement: 'RequirementUsage', concern: 'ConcernUsage', case: 'CaseUsage', analysis: 'AnalysisCaseUsage',
  verification: 'VerificationCaseUsage', 'use case': 'UseCaseUsage', view: 'ViewUsage', viewpoint: 'ViewpointUsage',
  rendering: 'RenderingUsage', metadata: 'MetadataUsage',
};
const DEFINITION_METACLASSES: Readonly<Record<string, string>> = {
  attribute: 'AttributeDefinition', enum: 'EnumerationDefinition', occurrence: 'OccurrenceDefinition', item: 'ItemDefinition',
  part: 'PartDefinition', port: 'PortDefinition', connection: 'ConnectionDefinition', flow: 'FlowDefinition',
  interface: 'InterfaceDefinition', allocation: 'AllocationDefinition', action: 'ActionDefinition', state: 'StateDefinition',
  calc: 'CalculationDefinition', constraint: 'ConstraintDefinition', requirement: 'RequirementDefinition', concern: 'ConcernDefinition',
  case: 'CaseDefinition', analysis: 'AnalysisCaseDefinition', verification: 'VerificationCaseDefinition', 'use case': 'UseCaseDefinition',
  view: 'ViewDefinition', viewpoint: 'ViewpointDefinition', rendering: 'RenderingDefinition', metadata: 'MetadataDefinition',
};

/**
 * The name of the SysML metaclass an element is an instance of, where its declaration alone says which:
 * a definition by its keyword; a usage by its keyword when written, with no direction and no role but
 * `variant` (a role or a direction makes another metaclass: PerformActionUsage, a parameter …).
 * Undefined otherwise.
 */
export function metaclassName(node: unknown): string | undefined {
  const n = node as { kind: string } | null;
  if (!n) return undefined;
  if (n.kind === 'Definition') return DEFINITION_METACLASSES[(n as Definition).keyword];
  if (n.kind !== 'Usage') return undefined;
  const u = n as Usage;
  if (u.isKeywordImplicit || u.direction !== null || (u.role !== null && u.role !== 'variant') || u.ends !== null) return undefined;
  return USAGE_METACLASSES[u.keyword];
}
