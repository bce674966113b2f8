// The witness panel's HTML: a strict Content Security Policy (nothing but our own script, stylesheets
// and font, each script by nonce), the codicon font and theme colours. No vscode import: the webview
// test serves the same page outside the editor.
import { randomBytes } from 'node:crypto';

export interface WitnessHtmlResources {
  /** The webview's `cspSource` (origin of resources it may load). */
  cspSource: string;
  script: string;
  styles: string[];
  nonce?: string;
}

export function newNonce(): string {
  return randomBytes(18).toString('base64').replace(/[^A-Za-z0-9]/g, '');
}

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

export function witnessHtml(r: WitnessHtmlResources): string {
  const nonce = r.nonce ?? newNonce();
  const csp = [
    "default-src 'none'",
    `img-src ${r.cspSource} data:`,
    `style-src ${r.cspSource} 'nonce-${nonce}'`,
    `font-src ${r.cspSource}`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escape(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
${r.styles.map((s) => `<link rel="stylesheet" href="${escape(s)}" nonce="${nonce}">`).join('\n')}
<title>Assay Witness</title>
</head>
<body>
<main id="root" aria-live="polite"><p class="loading">Loading the witness…</p></main>
<script nonce="${nonce}" src="${escape(r.script)}"></script>
</body>
</html>
`;
}
