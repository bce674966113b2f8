// Engine Protocol v1: schemas (types inferred from them) and the NDJSON transport for both sides.
export * from './schema';
export * from './transport';
export { LineSplitter, excerpt, DEFAULT_MAX_LINE_BYTES, type LineSink } from './lines';
export * from './reference-engine';
