/// <reference lib="dom" />
// Building DOM without innerHTML: every text the panel shows comes from a model or an engine, so it is
// always set as text, never parsed as markup.

type Child = Node | string | number | null | undefined | false;
type Attributes = Record<string, string | number | boolean | undefined | ((event: Event) => void)>;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Attributes = {}, ...children: (Child | Child[])[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') element.addEventListener(name.replace(/^on/, ''), value);
    else if (value === true) element.setAttribute(name, '');
    else element.setAttribute(name, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(typeof child === 'object' ? child : String(child));
  }
  return element;
}

/** A codicon glyph (the font is loaded by the page). */
export function icon(name: string, label?: string): HTMLElement {
  return h('span', { class: `codicon codicon-${name}`, 'aria-hidden': label ? undefined : 'true', 'aria-label': label, role: label ? 'img' : undefined });
}

export function chip(text: string, kind: string, title?: string): HTMLElement {
  return h('span', { class: `chip ${kind}`, title }, text);
}
