// Readable text for an answer: claim, standing strength and why, witness steps, values or a table.
import type { EngineCheck, RunOutcome } from '../host';
import type { Question, RunResult, Value, Witness } from '../protocol';
import { engineFailed } from '../host/question-check';

/** Most entries of one list (steps of a schedule, values, table rows, outcomes, inputs) printed as
 * text; the rest is counted, and `--json` prints everything. A witness of a million steps is not
 * something to read in a terminal. */
export const MAX_LISTED = 1000;

/** The first MAX_LISTED items rendered, then one line saying how many were left out. */
function listed<T>(items: readonly T[], render: (item: T, index: number) => string, what: string, prefix: string): string[] {
  const out: string[] = [];
  const shown = Math.min(items.length, MAX_LISTED);
  for (let i = 0; i < shown; i++) out.push(render(items[i]!, i));
  if (items.length > shown) out.push(`${prefix}… ${items.length - shown} more ${what} not shown (--json prints all)`);
  return out;
}

function append(lines: string[], more: readonly string[]): void {
  // No push(...more): a spread of 100k+ arguments overflows the stack.
  for (const line of more) lines.push(line);
}

// Control characters (C0 but tab and newline, DEL, C1) and the bidirectional overrides: an engine's
// reason, a value or a name in a model could otherwise clear the screen, write the clipboard (OSC 52)
// or reorder what is shown.
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;

/** `text` with every control character shown as an escape (`\x1b`, `\u202e`), safe for a terminal. */
export function terminalSafe(text: string): string {
  return text.replace(CONTROL, (c) => {
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16)}`;
  });
}

export function formatOutcome(question: Question, outcome: RunOutcome, elapsedMs: number): string {
  return terminalSafe(outcomeText(question, outcome, elapsedMs));
}



function outcomeText(question: Question, outcome: RunOutcome, elapsedMs: number): string {
  const asked = `${question.kind} ${question.subject}`;
  switch (outcome.status) {
    case 'answered':
      return formatAnswer(asked, outcome.engine, outcome.result, outcome.standing, elapsedMs);
    case 'not covered':
      return [
        engineFailed(outcome)
          ? `${asked}: engine error — ${outcome.reasons.length === 1 ? `engine "${outcome.reasons[0]!.engine}" failed` : 'every engine that could answer failed'}`
          : `${asked}: not covered — no engine covers this question`,
        ...outcome.reasons.map((r) => `  ${r.engine}: ${indent(r.reason, '    ')}`),
      ].join('\n') + '\n';
    case 'cancelled':
      return `${asked}: cancelled — ${outcome.message}\n`;
    case 'budget':
      return `${asked}: out of budget — ${outcome.message}\n`;
    case 'error':
      return `${asked}: failed — ${outcome.message}\n`;
  }
}

function formatAnswer(
  asked: string,
  engine: string,
  result: RunResult,
  standing: { claimed: string; strength: string; reasons: string[] },
  elapsedMs: number,
): string {
  const lines: string[] = [];
  lines.push(`${asked}: ${result.claim}`);
  lines.push(`  engine:   ${engine} (${seconds(result.elapsed ?? elapsedMs)})`);
  if (standing.strength === standing.claimed) {
    lines.push(`  strength: ${standing.strength}`);
  } else {
    lines.push(`  strength: ${standing.strength} (the engine claimed ${standing.claimed})`);
    for (const reason of standing.reasons) lines.push(`    because ${reason}`);
  }
  if (result.reason) lines.push(`  reason:   ${indent(result.reason, '            ')}`);
  if (result.bounds && result.bounds.length > 0) {
    lines.push(`  bounds:   ${result.bounds.map((b) => `${b.name} ${b.limit === 0 ? 'open' : b.limit}${b.reached ? ' (reached)' : ''}`).join(', ')}`);
  }
  if (result.assumptions && result.assumptions.length > 0) {
    lines.push('  assumptions:');
    append(lines, listed(result.assumptions, (a) => `    ${a}`, 'assumptions', '    '));
  }
  if (result.inputs && result.inputs.length > 0) {
    lines.push('  inputs:');
    append(lines, listed(result.inputs, (input) => {
      const how = input.free ? `free over ${input.domain ?? input.type ?? 'its domain'}` : `= ${input.value ?? '?'}`;
      return `    ${input.name}${input.type ? `: ${input.type}` : ''} ${how}${input.value !== undefined && input.free ? ` (chosen ${input.value})` : ''}`;
    }, 'inputs', '    '));
  }
  if (result.witness) append(lines, formatWitness('witness', result.witness));
  if (result.values && result.values.length > 0) {
    append(lines, result.claim === 'table' ? formatTable(result.values) : formatValues(result.values));
  }
  if (result.executions && result.executions.length > 0) {
    const shown = Math.min(result.executions.length, MAX_LISTED);
    for (let i = 0; i < shown; i++) append(lines, formatWitness(`outcome ${i + 1}`, result.executions[i]!));
    if (result.executions.length > shown) lines.push(`  … ${result.executions.length - shown} more outcomes not shown (--json prints all)`);
  }
  return lines.join('\n') + '\n';
}

function formatWitness(title: string, witness: Witness): string[] {
  const lines = [`  ${title}:`];
  (witness.schedules ?? []).forEach((schedule, index, all) => {
    if (all.length > 1) lines.push(`    schedule ${index + 1}:`);
    // Only the steps shown are cut out; the rest is counted (a split of a million-step schedule took seconds).
    const shown: string[] = [];
    let total = 0;
    for (let from = 0; from <= schedule.length; ) {
      let end = schedule.indexOf('\n', from);
      if (end < 0) end = schedule.length;
      const step = schedule.slice(from, end);
      if (step.trim() !== '') {
        total++;
        if (shown.length < MAX_LISTED) shown.push(step);
      }
      from = end + 1;
    }
    if (total === 0) lines.push('      (no moves)');
    append(lines, shown.map((step) => `      ${step}`));
    if (total > shown.length) lines.push(`      … ${total - shown.length} more steps not shown (--json prints all)`);
  });
  if (witness.at !== undefined) lines.push(`    violated at move ${witness.at}`);
  if (witness.feature) lines.push(`    diverges on ${witness.feature}`);
  append(lines, listed(witness.inputs ?? [], (input) => `    ${input.name} = ${valueText(input)}`, 'inputs', '    '));
  return lines;
}

function formatValues(values: Value[]): string[] {
  return ['  values:', ...listed(values, (v) => `    ${v.name} = ${valueText(v)}`, 'values', '    ')];
}

/** Values named `<column>@<row>` become rows; `<stat>(<column>)` become summary lines. */
function formatTable(values: Value[]): string[] {
  const columns: string[] = [];
  const rows = new Map<number, Map<string, string>>();
  const summaries: Value[] = [];
  const others: Value[] = [];
  for (const v of values) {
    const cell = /^(.*)@([1-9][0-9]*)$/.exec(v.name);
    if (cell) {
      const [, column, row] = cell as unknown as [string, string, string];
      if (!columns.includes(column)) columns.push(column);
      const r = Number(row);
      if (!rows.has(r)) rows.set(r, new Map());
      rows.get(r)!.set(column, valueText(v));
    } else if (/^(min|max|mean|p5|p95)\(.+\)$/.test(v.name)) {
      summaries.push(v);
    } else {
      others.push(v);
    }
  }
  const lines: string[] = [];
  if (columns.length > 0) {
    const ordered = [...rows.keys()].sort((a, b) => a - b);
    const shown = ordered.slice(0, MAX_LISTED);
    const table = [['#', ...columns], ...shown.map((r) => [String(r), ...columns.map((c) => rows.get(r)!.get(c) ?? '')])];
    const widths = table[0]!.map((_, i) => table.reduce((w, row) => Math.max(w, row[i]!.length), 0));
    lines.push('  table:');
    for (const row of table) lines.push('    ' + row.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd());
    if (ordered.length > shown.length) lines.push(`    … ${ordered.length - shown.length} more rows not shown (--json prints all)`);
  }
  if (summaries.length > 0) {
    lines.push('  summary:');
    append(lines, listed(summaries, (v) => `    ${v.name} = ${valueText(v)}`, 'summaries', '    '));
  }
  if (others.length > 0) append(lines, formatValues(others));
  return lines;
}

function valueText(v: { value: unknown; unit?: string }): string {
  const text = typeof v.value === 'string' ? v.value : JSON.stringify(v.value);
  return v.unit ? `${text} [${v.unit}]` : text;
}

function indent(text: string, prefix: string): string {
  return text.replace(/\n/g, `\n${prefix}`);
}

function seconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(2)} s`;
}

export function formatEngineChecks(checks: EngineCheck[]): string {
  const lines: string[] = [];
  for (const check of checks) {
    const command = [check.entry.command, ...(check.entry.args ?? [])].join(' ');
    if (check.ok && check.capabilities) {
      const c = check.capabilities;
      lines.push(`${check.name} ${c.version}: ok`);
      lines.push(`  command:    ${command}`);
      lines.push(`  answers:    ${c.answers.join(', ')}`);
      if (c.subjects) lines.push(`  subjects:   ${c.subjects.join(', ')}`);
      lines.push(`  model:      ${c.model.join(', ')}`);
      if (c.bounds.length > 0) lines.push(`  bounds:     ${c.bounds.join(', ')}`);
      if (c.witness) lines.push(`  witness:    ${c.witness}`);
      lines.push(`  authority:  ${c.authority}`);
      lines.push(`  concurrent: ${c.concurrent ? 'yes' : 'no (one run at a time)'}`);
    } else {
      lines.push(`${check.name}: not usable`);
      lines.push(`  command:    ${command}`);
      lines.push(`  problem:    ${indent(check.problem ?? 'unknown', '              ')}`);
    }
  }
  return terminalSafe(lines.join('\n') + '\n');
}
