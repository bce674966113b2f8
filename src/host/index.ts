// The host: manifest, engine processes, routing, runs, standing. No vscode here.
export * from './manifest';
export * from './describe-check';
export * from './engine-process';
export * from './standing';
export * from './host';
export * from './compare';
