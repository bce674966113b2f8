// What the comparison panel's webview may send: a request to open one run's witness. Checked before
// use (a webview is a page, its messages are input); in the lazily loaded bundle, with zod.
import { z } from 'zod';

export const FromCompareWebview = z.strictObject({ type: z.literal('openWitness'), run: z.int().positive() });
export type FromCompareWebview = z.infer<typeof FromCompareWebview>;

/** The message, or undefined when it is not one the panel sends. */
export function checkCompareMessage(message: unknown): FromCompareWebview | undefined {
  const checked = FromCompareWebview.safeParse(message);
  return checked.success ? checked.data : undefined;
}
