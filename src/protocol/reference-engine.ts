// What the bundled reference engine declares about itself. The host's built-in manifest entry and the
// engine's own `describe` answer are both built from this, so they agree by construction; the host's
// field-by-field describe check still catches a stale or foreign dist/engine.js.
export const REFERENCE_ENGINE_NAME = 'assay-reference';

export const REFERENCE_ENGINE = {
  name: REFERENCE_ENGINE_NAME,
  protocol: 1,
  answers: ['evaluate', 'outcomes', 'holds', 'sensitive', 'satisfiable', 'sweep', 'compute'],
  subjects: ['action', 'analysis', 'attribute', 'calc', 'constraint', 'item', 'occurrence', 'part', 'ref', 'requirement', 'state', 'verification'],
  bounds: ['depth', 'steps', 'runs', 'memory'],
  model: ['sources'],
  authority: 'proved',
  concurrent: true,
} as const;

/** The description the bundled engine gives of itself (and the host's built-in entry declares). */
export function referenceEngineDescription(version: string) {
  return {
    name: REFERENCE_ENGINE.name,
    version,
    protocol: REFERENCE_ENGINE.protocol,
    answers: [...REFERENCE_ENGINE.answers],
    subjects: [...REFERENCE_ENGINE.subjects],
    bounds: [...REFERENCE_ENGINE.bounds],
    model: [...REFERENCE_ENGINE.model],
    authority: REFERENCE_ENGINE.authority,
    concurrent: REFERENCE_ENGINE.concurrent,
  };
}

/** The standard-library version the host embeds and sends as `sources.library`. */
export const EMBEDDED_LIBRARY_VERSION = '2026-04';
