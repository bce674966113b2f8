// Placeholder until the SysML front end lands (issue 3).
export async function runParseCommand(_argv: string[]): Promise<number> {
  process.stderr.write('assay parse: not built yet\n');
  return 1;
}
