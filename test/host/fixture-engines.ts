// Test helpers: manifest entries for the fixture engines and a check that none is left running.
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EngineEntry } from '../../src/host';

export const FIXTURES = join(__dirname, '..', 'fixtures', 'engines');

/** Collects the pids the fixture engines write to a file. */
export class PidTracker {
  readonly file: string;
  constructor() {
    this.file = join(mkdtempSync(join(tmpdir(), 'assay-pids-')), 'pids');
  }
  pids(): number[] {
    if (!existsSync(this.file)) return [];
    return readFileSync(this.file, 'utf8').split('\n').filter(Boolean).map(Number);
  }
  /** Asserts that every fixture process has ended (waits briefly for the OS to reap them). */
  async assertNoneRunning(): Promise<void> {
    const until = Date.now() + 3000;
    let alive = this.alive();
    while (alive.length > 0 && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 25));
      alive = this.alive();
    }
    assert.deepEqual(alive, [], `engine processes left running: ${alive.join(', ')}`);
  }
  private alive(): number[] {
    return this.pids().filter((pid) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    });
  }
}

export function fixtureEntry(
  file: string,
  pids: PidTracker,
  options: { name?: string; config?: unknown; env?: Record<string, string>; entry?: Partial<EngineEntry> } = {},
): EngineEntry {
  const name = options.name ?? file.replace(/\.js$/, '');
  return {
    name,
    command: process.execPath,
    args: [join(FIXTURES, file)],
    env: {
      FIXTURE_NAME: name,
      FIXTURE_PIDS: pids.file,
      ...(options.config !== undefined ? { FIXTURE_CONFIG: JSON.stringify(options.config) } : {}),
      ...(options.env ?? {}),
    },
    ...(options.entry ?? {}),
  };
}
