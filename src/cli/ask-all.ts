// `assay <kind> <subject> --engine all`: the question goes to every engine that covers it, and the
// answers are printed as one table with the verdict (agree, decided by a reproduced witness, or an
// unresolved disagreement, exit code 5). With --json, exactly one object holds every engine's result.
import { askAll, differenceText, type Comparison, type ComparedRow, type EngineEntry } from '../host';
import type { SourceDocument } from '../protocol';
import type { AskArgs } from './ask-args';
import { EXIT, exitCodeOf, newHost, type AskDependencies, type AskOutput, type Interrupts } from './ask';
import { formatOutcome, terminalSafe } from './format';

/** The `--engine` value that asks every engine. */
export const ALL_ENGINES = 'all';

export async function askAllEngines(
  args: AskArgs,
  entries: EngineEntry[],
  documents: SourceDocument[],
  deps: AskDependencies,
  output: AskOutput,
  interrupts: Interrupts,
): Promise<number> {
  const host = newHost(entries, deps, output);
  const all = askAll(host, { question: args.question, documents, budget: args.budget });
  interrupts.handle((count) => {
    if (count === 1 && all.runs.some(({ run }) => !run.outcome)) {
      output.err('\nassay: cancelling every engine (Ctrl-C again to stop them at once)\n');
      all.cancel();
    } else {
      for (const engine of host.engines) void engine.kill(count === 1 ? 'the user interrupted the shutdown' : 'the user interrupted twice');
    }
  });
  if (!args.json && output.interactive) {
    host.onEvent((event) => {
      if (event.type === 'settled') {
        const engine = all.runs.find(({ run }) => run.id === event.run)?.engine ?? '?';
        output.err(terminalSafe(`${engine}: ${event.outcome.status === 'answered' ? event.outcome.result.claim : event.outcome.status}\n`));
      }
    });
  }
  let comparison: Comparison;
  try {
    comparison = await all.settled;
  } finally {
    await host.shutdown();
  }
  if (args.json) output.out(JSON.stringify(jsonOfComparison(comparison)) + '\n');
  else output.out(formatComparison(comparison));
  return exitCodeOfComparison(comparison);
}

/**
 * 5 for an unresolved disagreement; 0 when an answer stands; otherwise the most telling failure:
 * 1 an engine failed, 4 cancelled or out of budget, 3 nothing covered it (or nothing stands).
 */
export function exitCodeOfComparison(comparison: Comparison): number {
  if (comparison.verdict.status === 'unresolved') return EXIT.unresolved;
  const codes = comparison.rows.map((row) => exitCodeOf(row.outcome));
  for (const code of [EXIT.answered, EXIT.failure, EXIT.cancelled]) if (codes.includes(code)) return code;
  return EXIT.notCovered;
}

export function jsonOfComparison(comparison: Comparison): unknown {
  return {
    question: comparison.question,
    engines: comparison.rows.map((row) => {
      const o = row.outcome;
      const common = { engine: row.engine, status: row.status, elapsedMs: row.elapsedMs };
      switch (o.status) {
        case 'answered':
          return { ...common, result: o.result, standing: { claimed: o.standing.claimed, strength: o.standing.strength, reasons: o.standing.reasons, ...(o.standing.witnessCheck ? { witnessCheck: o.standing.witnessCheck } : {}) } };
        case 'not covered':
          return { ...common, reason: row.reason };
        default:
          return { ...common, message: o.message };
      }
    }),
    verdict: comparison.verdict,
  };
}

const STATUS_TEXT: Record<ComparedRow['status'], string> = {
  answered: '', 'not covered': 'not covered', cancelled: 'cancelled', budget: 'out of budget', error: 'failed',
};

export function formatComparison(comparison: Comparison): string {
  const { question, rows, verdict } = comparison;
  const lines: string[] = [];
  lines.push(`${question.kind} ${question.subject} on ${rows.length} ${rows.length === 1 ? 'engine' : 'engines'}: ${verdictTitle(comparison)}`);
  const table = [
    ['engine', 'claim', 'strength', 'time', 'reason'],
    ...rows.map((row) => [
      row.engine,
      row.claim ?? `(${STATUS_TEXT[row.status]})`,
      row.strength === undefined ? '' : row.strength === row.claimed ? row.strength : `${row.claimed} → ${row.strength}`,
      row.status === 'not covered' ? '' : seconds(row.elapsedMs),
      // The standing's last reason (the comparison's, if any) comes first: it is why the row reads as it does.
      [...row.standingReasons].reverse().concat(row.reason ? [row.reason] : []).join('; ').replace(/\s*\n\s*/g, ' '),
    ]),
  ];
  const widths = table[0]!.map((_, i) => (i === 4 ? 0 : table.reduce((w, r) => Math.max(w, r[i]!.length), 0)));
  for (const row of table) lines.push('  ' + row.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd());
  lines.push(`verdict: ${verdict.message}`);
  if (verdict.status === 'unresolved') {
    for (const d of verdict.differences.slice(0, 20)) lines.push(`  ${differenceText(d)}`);
    const more = verdict.differences.length - 20 + (verdict.moreDifferences ?? 0);
    if (more > 0) lines.push(`  … ${more} more differences (--json lists the first 100)`);
  }
  // The answer that stands in full (its witness, values, table): the deciding engine's, or the first agreeing one's.
  const shown = verdict.status === 'decided' ? verdict.by[0] : verdict.status === 'agree' ? verdict.engines[0] : undefined;
  const row = rows.find((r) => r.engine === shown);
  if (row) lines.push('', formatOutcome(question, row.outcome, row.elapsedMs).trimEnd());
  return terminalSafe(lines.join('\n')) + '\n';
}

function verdictTitle({ verdict }: Comparison): string {
  switch (verdict.status) {
    case 'agree':
      return `${verdict.claim} (${verdict.engines.length === 1 ? 'one answer' : 'agreed'})`;
    case 'decided':
      return `${verdict.claim} (disagreement decided by a replayed witness)`;
    case 'unresolved':
      return 'UNRESOLVED DISAGREEMENT';
    case 'no answer':
      return 'no answer stands';
  }
}

function seconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(2)} s`;
}
