// The team feed client (docs/feed.md): HTTP calls, the live channel, the list a view shows, and the run ↔
// post mapping. No vscode import: tested in plain Node against real feed servers (test/feed-client/).
export * from './errors';
export * from './http';
export * from './live';
export * from './posts';
export * from './runs';
