// Placeholder until the host core lands (issue 2).
export async function runAskCommand(_argv: string[]): Promise<number> {
  process.stderr.write('assay: not built yet\n');
  return 1;
}
