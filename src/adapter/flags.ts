// Flag parsing in the convention of the adapter clients agents already call (Go's flag package):
// one or two dashes, `-flag value` or `-flag=value`; boolean flags take no separate value but accept
// `-flag=true|false`; the last occurrence of a flag wins; `--` ends the flags.
import { parseDuration } from './duration';
import { UsageError } from './outcome';

export type FlagKind = 'string' | 'boolean' | 'duration';

export interface FlagSpec {
  name: string;
  kind: FlagKind;
  /** Shown in usage; for durations, also the default value when given. */
  default?: string;
  description: string;
}

export type FlagValue = string | boolean | number;

export interface ParsedFlags {
  /** Values of the flags given on the command line, durations in milliseconds. */
  values: Map<string, FlagValue>;
  /** -h, -help, --help (or `help` after the subcommand) was present. */
  help: boolean;
}

const helpFlags = new Set(['h', 'help']);

function parseBool(flag: string, text: string): boolean {
  if (['1', 't', 'T', 'true', 'TRUE', 'True'].includes(text)) return true;
  if (['0', 'f', 'F', 'false', 'FALSE', 'False'].includes(text)) return false;
  throw new UsageError(`invalid boolean value "${text}" for flag -${flag} (use true or false)`);
}

export function convertFlagValue(spec: FlagSpec, text: string): FlagValue {
  if (spec.kind === 'boolean') return parseBool(spec.name, text);
  if (spec.kind === 'duration') {
    const ms = parseDuration(text);
    if (typeof ms !== 'number') throw new UsageError(`${ms.error} for flag -${spec.name}`);
    return ms;
  }
  return text;
}

export function parseFlags(args: readonly string[], specs: readonly FlagSpec[]): ParsedFlags {
  const byName = new Map(specs.map((s) => [s.name, s]));
  const values = new Map<string, FlagValue>();
  let help = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      if (i + 1 < args.length) throw new UsageError(`unexpected argument "${args[i + 1]}"`);
      break;
    }
    if (arg === 'help') {
      help = true;
      continue;
    }
    if (!arg.startsWith('-') || arg === '-') throw new UsageError(`unexpected argument "${arg}" (flags start with - or --)`);
    const body = arg.startsWith('--') ? arg.slice(2) : arg.slice(1);
    const eq = body.indexOf('=');
    const name = eq === -1 ? body : body.slice(0, eq);
    if (helpFlags.has(name)) {
      help = true;
      continue;
    }
    const spec = byName.get(name);
    if (!spec || name === '' || name.startsWith('-')) {
      const known = specs.map((s) => `-${s.name}`).join(', ');
      throw new UsageError(`unknown flag "${arg}"${known ? ` (this subcommand takes ${known})` : ' (this subcommand takes no flags)'}`);
    }
    let text: string;
    if (eq !== -1) text = body.slice(eq + 1);
    else if (spec.kind === 'boolean') text = 'true';
    else {
      if (i + 1 >= args.length) throw new UsageError(`flag -${name} needs a value`);
      text = args[++i]!;
    }
    values.set(name, convertFlagValue(spec, text));
  }
  return { values, help };
}
