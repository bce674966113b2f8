// A result table's rows in the user's sort order, and as CSV (RFC 4180: comma separated, CRLF line
// ends, fields quoted when they hold a comma, a quote or a line break; headers carry the unit: `Kinetic [J]`).
import type { TableView } from '../host/witness-view-types';
import type { UiState } from './messages';

function field(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Rows in the order given (the panel passes its current sort); raw values, not rounded. */
export function tableCsv(table: TableView, order: readonly number[] = table.rows.map((_, i) => i)): string {
  const header = table.columns.map((c) => field(c.unit ? `${c.name} [${c.unit}]` : c.name));
  const lines = [header.join(',')];
  for (const r of order) {
    const row = table.rows[r]!;
    lines.push(row.map((cell) => field(cell.value === null ? '' : String(cell.value))).join(','));
  }
  return lines.join('\r\n') + '\r\n';
}

/** Row indices in display order: numbers numerically, text by locale, empty cells last. */
export function sortedOrder(t: TableView, sort: UiState['sort']): number[] {
  const order = t.rows.map((_, i) => i);
  if (!sort) return order;
  const key = (r: number) => t.rows[r]![sort.column]?.value ?? null;
  order.sort((a, b) => {
    const x = key(a);
    const y = key(b);
    if (x === null || y === null) return x === null ? (y === null ? 0 : 1) : -1;
    const c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
    return sort.descending ? -c : c;
  });
  return order;
}
