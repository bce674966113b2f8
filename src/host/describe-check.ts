// The describe check: the engine's description must agree with every field its manifest entry declares.
import type { BoundName, Description, ModelForm, QuestionKind, Strength, WitnessKind } from '../protocol';
import { DESCRIBED_FIELDS, type ManifestEntry } from './manifest';

/** What the host relies on once an engine passed the describe check (defaults filled in). */
export interface EngineCapabilities {
  name: string;
  version: string;
  protocol: number;
  answers: QuestionKind[];
  /** Absent: any subject kind. */
  subjects?: string[];
  bounds: BoundName[];
  witness?: WitnessKind;
  model: ModelForm[];
  authority: Strength;
  concurrent: boolean;
}

/** Protocol versions this host serves (sent in describe). */
export const SERVED_PROTOCOLS = [1];

/** Each field where description and entry differ, as `field: entry says X, engine says Y`. */
export function describeMismatches(entry: ManifestEntry, description: Description): string[] {
  const mismatches: string[] = [];
  if (description.name !== entry.name) {
    mismatches.push(`name: entry says ${JSON.stringify(entry.name)}, engine says ${JSON.stringify(description.name)}`);
  }
  if (!SERVED_PROTOCOLS.includes(description.protocol)) {
    mismatches.push(`protocol: the host serves ${SERVED_PROTOCOLS.join(', ')}, engine says ${description.protocol}`);
  }
  for (const field of DESCRIBED_FIELDS) {
    const declared = entry[field];
    if (declared === undefined) continue;
    const described = description[field];
    if (!sameValue(declared, described)) {
      mismatches.push(`${field}: entry says ${show(declared)}, engine says ${show(described)}`);
    }
  }
  return mismatches;
}

/** The capabilities the host uses: the description, with the protocol's defaults for absent fields. */
export function capabilitiesOf(description: Description): EngineCapabilities {
  return {
    name: description.name,
    version: description.version,
    protocol: description.protocol,
    answers: description.answers,
    ...(description.subjects ? { subjects: description.subjects } : {}),
    bounds: description.bounds ?? [],
    ...(description.witness ? { witness: description.witness } : {}),
    // An engine that names no model form reads sources, the form every host serves.
    model: description.model ?? ['sources'],
    // No authority declared: the engine's claims are not capped beyond the rest of the policy.
    authority: description.authority ?? 'proved',
    concurrent: description.concurrent ?? false,
  };
}

function sameValue(a: unknown, b: unknown): boolean {
  // Lists are compared as sets: the order of answers or bounds carries no meaning.
  if (Array.isArray(a) && Array.isArray(b)) {
    const left = new Set(a.map(String));
    const right = new Set(b.map(String));
    return left.size === right.size && [...left].every((x) => right.has(x));
  }
  return a === b;
}

function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return `[${value.join(', ')}]`;
  return JSON.stringify(value);
}
