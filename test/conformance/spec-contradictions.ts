// Cases whose upstream expectation contradicts the SysML v2 / KerML specification (release 2026-04,
// ../shared/corpus/sysml-release-2026-04/). The specification wins: the harness scores the
// spec-correct expectation (`expect` replaces the upstream fields) and prints why.
import type { Expected } from './harness';

export interface SpecContradiction {
  /** What the specification says, with the clause. */
  why: string;
  /** The spec-correct outcome, in words. */
  outcome: string;
  /** Fields replacing the upstream expectation; absent when only the reading of the case changes. */
  expect?: Partial<Expected>;
}

export const SPEC_CONTRADICTIONS: Record<string, SpecContradiction> = {};
