// `npx tsx scripts/behavior-corpus.ts [--list]`: asks `outcomes` (free schedule and inputs) of every
// named action and state definition/usage declared in a package of the release's examples, training
// and validation models, and prints how many are answered and the refusals grouped by reason (names
// and places left out). A measure, not a test: test/sysml/behavior/behavior.test.ts holds the floor.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Member } from '../src/sysml/ast';
import { parse } from '../src/sysml';
import { answerBehavior, BehaviorError } from '../src/sysml/behavior';

const CORPUS = join(__dirname, '..', '..', 'shared', 'corpus', 'sysml-release-2026-04');

/**
 * Named action and state definitions/usages in packages and inside structure (a part's exhibited
 * states, a part definition's actions), not those inside another behaviour (its steps).
 */
export function behaviorSubjects(members: readonly Member[] | null, prefix = ''): string[] {
  const out: string[] = [];
  for (const m of members ?? []) {
    if (m.kind === 'Package') out.push(...behaviorSubjects(m.members, `${prefix}'${m.name}'::`));
    if (m.kind !== 'Definition' && m.kind !== 'Usage') continue;
    if (m.name && (m.keyword === 'action' || m.keyword === 'state')) out.push(`${prefix}'${m.name}'`);
    else if (m.name) out.push(...behaviorSubjects(m.body, `${prefix}'${m.name}'::`));
  }
  return out;
}

export function corpusFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const f of readdirSync(dir).sort()) {
      const p = join(dir, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (p.endsWith('.sysml')) files.push(p);
    }
  };
  for (const d of ['examples', 'training', 'validation']) walk(join(CORPUS, d));
  return files;
}

/** A refusal without its place and the names it quotes: what groups refusals by cause. */
export function reasonOf(text: string): string {
  return text.replace(/^[^:]*\.sysml:\d+:\d+: /, '').replace(/'[^']*'/g, "'…'").replace(/\d+/g, 'N');
}

async function main() {
  const list = process.argv.includes('--list');
  let answered = 0;
  const refused = new Map<string, string[]>();
  for (const f of corpusFiles()) {
    const doc = { path: f.split('/').at(-1)!, document: parse(readFileSync(f, 'utf8')).document };
    for (const subject of behaviorSubjects(doc.document.members)) {
      const a = await answerBehavior([doc], { kind: 'outcomes', subject, schedule: 'all', free: ['schedule', 'inputs'] }, { bounds: [{ name: 'steps', limit: 20000 }, { name: 'depth', limit: 200 }] });
      const where = `${relative(CORPUS, f)} ${subject}`;
      if (a instanceof BehaviorError) {
        const r = reasonOf(a.text);
        refused.set(r, [...(refused.get(r) ?? []), `${where}: ${a.text}`]);
      } else {
        answered++;
        if (list) console.log(`answered ${where}: ${a.claim} ${a.strength}`);
      }
    }
  }
  const total = answered + [...refused.values()].reduce((n, x) => n + x.length, 0);
  console.log(`behaviour subjects answered: ${answered}/${total} (${((100 * answered) / total).toFixed(1)}%)`);
  for (const [r, xs] of [...refused].sort((a, b) => b[1].length - a[1].length)) {
    console.log(`${String(xs.length).padStart(4)}  ${r}`);
    if (list) for (const x of xs) console.log(`        ${x}`);
  }
}

if (require.main === module) void main();
