// Tiny DOM helpers. Text is only ever set through text nodes: law text contains `<`, `&` and
// `[brackets]`, and must be shown exactly as stored, so nothing here touches innerHTML.

export type Child = Node | string | number | null | undefined | false;
type Attrs = Record<string, string | number | boolean | null | undefined | EventListener>;

/** Create an element; string children become text nodes, `on*` attrs become listeners. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") {
      el.addEventListener(name.slice(2).toLowerCase(), value);
    } else if (name === "class") {
      el.className = String(value);
    } else if (value === true) {
      el.setAttribute(name, "");
    } else {
      el.setAttribute(name, String(value));
    }
  }
  append(el, children);
  return el;
}

/** Append children (flattened; strings as text nodes). */
export function append(el: Element | DocumentFragment, children: (Child | Child[])[]): void {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(typeof child === "string" || typeof child === "number" ? String(child) : child);
  }
}

/** Replace all children of `el`. */
export function replace(el: Element, ...children: (Child | Child[])[]): void {
  el.replaceChildren();
  append(el, children);
}

/** The element with this id, typed; throws when the page is missing it. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`missing #${id}`);
  return el as T;
}

/** Announce a short message to screen readers and show it as a toast. */
export function toast(message: string, kind: "info" | "error" = "info"): void {
  const box = byId("toast");
  box.dataset.kind = kind;
  box.textContent = message;
  box.hidden = false;
  window.clearTimeout(Number(box.dataset.timer ?? 0));
  box.dataset.timer = String(window.setTimeout(() => { box.hidden = true; }, 6000));
}
