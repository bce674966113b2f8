// What the bundled reference engine declares about itself. The host's built-in manifest entry and the
// engine's own `describe` answer are both built from this, so they agree by construction; the host's
// field-by-field describe check still catches a stale or foreign dist/engine.js.
export const REFERENCE_ENGINE_NAME = 'assay-reference';

export const REFERENCE_ENGINE = {
  name: REFERENCE_ENGINE_NAME,
  protocol: 1,
  answers: ['evaluate', 'outcomes', 'holds', 'sensitive', 'satisfiable', 'sweep', 'compute'],
  subjects: ['action', 'analysis', 'attribute', 'calc', 'constraint', 'item', 'occurrence', 'part', 'requirement', 'state', 'verification'],
  bounds: ['depth', 'steps', 'runs', 'memory'],
  model: ['sources'],
  authority: 'proved',
  concurrent: true,
} as const;

/** The standard-library version the host embeds and sends as `sources.library`. */
export const EMBEDDED_LIBRARY_VERSION = '2026-04';
