// A result table as CSV (RFC 4180: comma separated, CRLF line ends, fields quoted when they hold a
// comma, a quote or a line break). Headers carry the unit: `Kinetic [J]`.
import type { TableView } from '../host/witness-view-types';

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
