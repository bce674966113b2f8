// `npm run census`: writes docs/census.md from the models in ../shared (see scripts/census-table.ts).
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { censusMarkdown, takeCensus } from './census-table';

const root = resolve(__dirname, '..');
const c = takeCensus(root);
writeFileSync(resolve(root, 'docs/census.md'), censusMarkdown(c));
console.log(`docs/census.md: ${c.counts.size} constructs in ${c.files} files${c.unknown.length ? `; NOT CLASSIFIED: ${c.unknown.join(', ')}` : ''}`);
process.exitCode = c.unknown.length > 0 ? 1 : 0;
