// The provision side panel: the whole provision as stored, the cited span highlighted, its
// path, validity, previous/next, children and graph neighbours, each one click away.

import { getJSON, idPath } from "./api";
import { byId, h, replace, toast } from "./dom";
import type { EdgeRef, Link, Provision } from "./types";

export interface Highlight {
  start: number; // offsets into the document text, as citations carry them
  end: number;
}

type Listener = (id: string | null) => void;
const listeners: Listener[] = [];
let current: string | null = null;
let returnFocus: HTMLElement | null = null;
let loadSeq = 0;

/** Be told when the panel opens a provision (id) or closes (null). */
export function onPanelChange(fn: Listener): void {
  listeners.push(fn);
}

export function currentProvision(): string | null {
  return current;
}

// Where a line break in the stored text starts a new clause, proviso or explanation, the
// reader sees a new line; other single line breaks (page-width wraps in the source) flow as
// spaces, blank lines stay paragraph breaks. The characters themselves are never changed:
// the element's textContent is exactly the stored text.
const NEW_LINE_BEFORE = /^(?:\(\w{1,6}\)|\[?\d+\[?\.|Provided|Explanation|Illustration|[A-Z][A-Z ]{3,}$)/;

function breaksOf(text: string): Map<number, "line" | "para"> {
  const out = new Map<number, "line" | "para">();
  for (const m of text.matchAll(/[ \t]*\n\s*/g)) {
    const at = (m.index ?? 0) + m[0].length;
    if (at >= text.length) continue;
    if ((m[0].match(/\n/g) ?? []).length > 1) out.set(at, "para");
    else if (NEW_LINE_BEFORE.test(text.slice(at, at + 40))) out.set(at, "line");
  }
  return out;
}

function pieceNodes(text: string, from: number, to: number, breaks: Map<number, string>): Node[] {
  const nodes: Node[] = [];
  let last = from;
  for (const [at, kind] of breaks) {
    if (at <= from || at >= to) continue;
    nodes.push(document.createTextNode(text.slice(last, at)));
    nodes.push(kind === "para" ? h("span", { class: "para-break", "aria-hidden": "true" }) : h("br"));
    last = at;
  }
  nodes.push(document.createTextNode(text.slice(last, to)));
  return nodes;
}

/** The provision's text as text nodes, with the highlight (document offsets) in one <mark>. */
export function highlighted(p: Provision, hl: Highlight | null): Node[] {
  const text = p.text;
  const breaks = new Map([...breaksOf(text)].sort((a, b) => a[0] - b[0]));
  let from = hl ? Math.max(0, hl.start - p.start) : 0;
  let to = hl ? Math.min(text.length, hl.end - p.start) : 0;
  if (!hl || to <= from) {
    from = to = text.length;
  }
  return [...pieceNodes(text, 0, from, breaks),
    h("mark", { id: from < to ? "quote-mark" : null, hidden: from >= to }, pieceNodes(text, from, to, breaks)),
    ...pieceNodes(text, to, text.length, breaks)];
}

function validity(p: Provision): string {
  const from = p.valid_from ? `in force from ${p.valid_from}` : "commencement date not recorded";
  const to = p.valid_to ? `until ${p.valid_to}` : "no end date recorded";
  return `${from}; ${to}`;
}

function pages(p: Provision): string | null {
  if (p.page == null) return null;
  return p.page_end != null && p.page_end !== p.page ? `pages ${p.page}–${p.page_end}` : `page ${p.page}`;
}

const EDGE_WORDS: Record<string, [string, string]> = {
  REFERENCES: ["refers to", "referred to by"],
  DERIVED_FROM: ["made under", "source of"],
  DEFINES: ["defines a term used in", "uses a term defined in"],
  HAS_PART: ["contains", "part of"],
};

function linkButton(link: Link, extra?: string): HTMLButtonElement {
  return h("button", { type: "button", "data-id": link.id, onclick: () => void openProvision(link.id) },
    extra ? h("span", { class: "visually-hidden" }, `${extra}: `) : null, link.label);
}

function edgeList(edges: EdgeRef[], direction: 0 | 1, docId: string): HTMLLIElement[] {
  return edges.map((e) => {
    const word = (EDGE_WORDS[e.type] ?? [e.type, e.type])[direction];
    return h("li", {}, h("button", {
      type: "button", class: "neighbour", "data-id": e.id, "data-type": e.type,
      onclick: () => void openProvision(e.id),
    }, h("span", { class: `type ${e.type}`, title: word }, word),
    h("span", {}, labelOf(e.id, docId)),
    e.text && e.type === "REFERENCES" ? h("span", { class: "muted quote" }, `“${e.text}”`) : null));
  });
}

/** A readable label for an id we only know as DOC#PATH. */
export function labelOf(id: string, sameDoc = ""): string {
  const [doc, path] = id.split("#", 2);
  const name = doc.replace(/-/g, " ").replace(/\b(\w)/g, (c) => c.toUpperCase());
  if (!path) return name;
  const m = /^(s|r|reg|art|sch)\.(.*)$/.exec(path);
  const kind: Record<string, string> = { s: "Section", r: "Rule", reg: "Regulation", art: "Article", sch: "Schedule" };
  const unit = m ? `${kind[m[1]] ?? m[1]} ${m[2]}` : path;
  return doc === sameDoc ? unit : `${unit} · ${name}`;
}


function render(p: Provision, hl: Highlight | null): void {
  const crumbs = byId("panel-crumbs");
  const trail = p.breadcrumb.length ? p.breadcrumb : [{ id: p.doc_id, label: p.document_title }];
  replace(crumbs, h("ol", {}, trail.map((c, i) => {
    const last = i === trail.length - 1;
    const isDoc = i === 0 && !c.id.includes("#");
    if (last) return h("li", { "aria-current": "location" }, c.label);
    if (isDoc) return h("li", {}, c.label);
    return h("li", {}, linkButton(c));
  })));

  const body = byId("panel-body");
  const meta = [p.document_title, validity(p), pages(p)].filter(Boolean) as string[];
  const outgoing = [...p.references_out];
  const incoming = [...p.references_in];
  replace(body,
    h("h2", { id: "panel-title" }, p.label, p.title ? ` — ${p.title}` : ""),
    h("p", { class: "prov-meta" }, meta.map((m) => h("span", {}, m))),
    hl ? h("p", { class: "hint" }, "The highlighted words are the ones the answer quotes.") : null,
    h("div", { class: "prov-text", id: "provision-text", lang: "en" }, highlighted(p, hl)),
    p.footnotes.length ? h("ol", { class: "footnotes", "aria-label": "Footnotes" },
      p.footnotes.map((f) => h("li", { value: /^\d+$/.test(f.marker) ? f.marker : null }, f.text))) : null,
    h("div", { class: "prov-nav" },
      p.previous ? h("button", { type: "button", class: "prev", onclick: () => void openProvision(p.previous!.id) },
        "← ", h("span", { class: "visually-hidden" }, "Previous: "), p.previous.label) : h("span"),
      p.next ? h("button", { type: "button", class: "next", onclick: () => void openProvision(p.next!.id) },
        h("span", { class: "visually-hidden" }, "Next: "), p.next.label, " →") : h("span")),
    p.parent ? h("p", {}, "Part of ", linkButton(p.parent, "Parent")) : null,
    p.children.length ? [h("h3", {}, `Contains (${p.children.length})`),
      h("ul", { class: "links" }, p.children.map((c) => h("li", {}, linkButton(c))))] : null,
    h("h3", { id: "neighbours-heading" }, "Connected provisions"),
    outgoing.length + incoming.length
      ? h("ul", { class: "links", "aria-labelledby": "neighbours-heading", id: "neighbours" },
        edgeList(outgoing, 0, p.doc_id), edgeList(incoming, 1, p.doc_id))
      : h("p", { class: "muted" }, "No references to or from this provision."),
    p.unresolved.length ? [h("h3", {}, "Mentions documents not in the library"),
      h("ul", { class: "footnotes" }, p.unresolved.map((u) => h("li", {}, u.text || u.id)))] : null,
    p.versions.length > 1 ? [h("h3", {}, "Versions"), h("ul", { class: "footnotes" },
      p.versions.map((v) => h("li", {}, `${v.valid_from ?? "…"} to ${v.valid_to ?? "today"}`)))] : null,
    h("p", {}, h("a", { href: `#/graph/${encodeURIComponent(p.id)}` }, "Show in the graph")),
  );
}

/** Open a provision in the side panel; with `hl`, mark and scroll to the quoted span. */
export async function openProvision(id: string, hl: Highlight | null = null): Promise<void> {
  const panel = byId("panel");
  if (panel.hidden) returnFocus = document.activeElement as HTMLElement | null;
  const seq = ++loadSeq;
  panel.hidden = false;
  panel.setAttribute("aria-busy", "true");
  document.body.classList.add("panel-open");
  try {
    const p = await getJSON<Provision>(`/api/v1/provisions/${idPath(id)}`);
    if (seq !== loadSeq) return;
    render(p, hl);
    current = id;
    listeners.forEach((fn) => fn(id));
    const body = byId("panel-body");
    body.scrollTop = 0;
    body.focus({ preventScroll: true });
    document.getElementById("quote-mark")?.scrollIntoView({ block: "center" });
  } catch (err) {
    if (seq !== loadSeq) return;
    replace(byId("panel-body"), h("h2", { id: "panel-title" }, "Could not open this provision"),
      h("p", { class: "error" }, String((err as Error).message)));
    toast(String((err as Error).message), "error");
  } finally {
    if (seq === loadSeq) panel.removeAttribute("aria-busy");
  }
}

export function closePanel(): void {
  const panel = byId("panel");
  if (panel.hidden) return;
  panel.hidden = true;
  document.body.classList.remove("panel-open");
  current = null;
  listeners.forEach((fn) => fn(null));
  if (returnFocus?.isConnected) returnFocus.focus();
  returnFocus = null;
}

export function initPanel(): void {
  byId("panel-close").addEventListener("click", closePanel);
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && !byId("panel").hidden && !document.querySelector("dialog[open]")) {
      closePanel();
    }
  });
}
