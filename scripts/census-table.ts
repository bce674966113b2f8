// The census of constructs: every construct the real models in ../shared use (the release's library,
// examples, training and validation models, and the peer's conformance cases), how often, and what each
// evaluation layer does with it (src/sysml/support.ts). `npm run census` writes docs/census.md; the census
// test (test/sysml/census.test.ts) fails when a model holds a construct nobody classified, or when the
// table in the docs is not the one the models give.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { languageOfPath, parse } from '../src/sysml';
import { censusInfo, censusOf } from '../src/sysml/support';

export const CENSUS_ROOTS = [
  '../shared/corpus/sysml-release-2026-04/library',
  '../shared/corpus/sysml-release-2026-04/examples',
  '../shared/corpus/sysml-release-2026-04/training',
  '../shared/corpus/sysml-release-2026-04/validation',
  '../shared/conformance/opensysml',
];

function modelFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    const st = statSync(p);
    if (st.isDirectory()) modelFiles(p, out);
    else if (st.isFile() && /\.(sysml|kerml)$/.test(name)) out.push(p);
  }
  return out;
}

export interface Census {
  readonly files: number;
  readonly counts: Map<string, number>;
  /** Keys nobody classified: the census test fails on any. */
  readonly unknown: string[];
}

export function takeCensus(repoRoot: string): Census {
  const counts = new Map<string, number>();
  let files = 0;
  for (const root of CENSUS_ROOTS) {
    const dir = resolve(repoRoot, root);
    for (const f of modelFiles(dir)) {
      files++;
      const r = parse(readFileSync(f, 'utf8'), { language: languageOfPath(f) });
      censusOf(r.document, counts);
    }
  }
  const unknown = [...counts.keys()].filter((k) => censusInfo(k) === undefined).sort();
  return { files, counts, unknown };
}

const STATUS: Record<string, string> = { modeled: 'modeled', inert: 'inert', refused: '**refused**' };

export function censusMarkdown(c: Census): string {
  const rows = [...c.counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const lines = [
    '# Construct census',
    '',
    '<!-- Written by `npm run census` (scripts/census.ts); test/sysml/census.test.ts checks it. Do not edit by hand. -->',
    '',
    `Every construct that the ${c.files} model files under \`${CENSUS_ROOTS.join('`, `')}\` hold, how often, and`,
    'what each evaluation layer of the reference engine does with it (`src/sysml/support.ts`; see',
    '[semantics.md](semantics.md#soundness)). *modeled*: the layer gives it its semantics; *inert*: it cannot change',
    "that layer's answer (the note says why); **refused**: a question whose closure meets it there ends with",
    '`unsupported` naming it at file:line:col. Layers: *values* (reading the features of an instance), *checks*',
    "(a structure's constraints, what `evaluate`/`satisfiable` of a part check), *calc* (a calc, constraint,",
    'requirement or analysis body). Behaviours (`outcomes`, `holds`, `sensitive`) have their own table in',
    '[execution-semantics.md](execution-semantics.md).',
    '',
    '| construct | key | uses | values | checks | calc | why |',
    '|---|---|---:|---|---|---|---|',
  ];
  for (const [key, n] of rows) {
    const info = censusInfo(key);
    if (!info) {
      lines.push(`| ? | \`${key}\` | ${n} | ? | ? | ? | not classified |`);
      continue;
    }
    lines.push(`| ${info.what} | \`${key}\` | ${n} | ${STATUS[info.values]} | ${STATUS[info.checks]} | ${STATUS[info.calc]} | ${info.note.replace(/\|/g, '\\|')} |`);
  }
  lines.push('');
  return lines.join('\n');
}
