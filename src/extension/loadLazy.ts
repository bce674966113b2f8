// Loads dist/extension-lazy.js (src/extension/lazy.ts) once, on first use.
import { join } from 'node:path';
import type * as Lazy from './lazy';

let loaded: Promise<typeof Lazy> | undefined;

export function lazy(): Promise<typeof Lazy> {
  // On a later turn of the event loop, never inside the caller's turn: activate() starts the language
  // client through here, and activation must not wait for the compile.
  return (loaded ??= new Promise((resolve, reject) => {
    setImmediate(() => {
      try {
        // A computed path, so that esbuild leaves this require to run time instead of bundling lazy.ts here.
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        resolve(require(join(__dirname, 'extension-lazy.js')) as typeof Lazy);
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  }));
}
