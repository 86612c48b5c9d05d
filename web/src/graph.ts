// The graph explorer (loaded on demand: Cytoscape.js is the largest part of the UI).
// Provisions are nodes coloured by document; REFERENCES, DERIVED_FROM, DEFINES and HAS_PART
// are typed edges. The topology endpoint caps the node count; fCoSE lays out thousands of
// nodes in seconds; labels appear only when zoomed in so a big graph stays readable.

import cytoscape from "cytoscape";
import type { Core, ElementDefinition, NodeSingular } from "cytoscape";
import fcose from "cytoscape-fcose";
import { getJSON, idPath } from "./api";
import { byId, h, replace, toast } from "./dom";
import { openProvision, onPanelChange } from "./panel";
import { cssVar, isDark, onThemeChange } from "./theme";
import type { DocumentInfo, Graph, GraphNode, SearchHit } from "./types";

cytoscape.use(fcose);

export const EDGE_TYPES = ["REFERENCES", "DERIVED_FROM", "DEFINES", "HAS_PART"] as const;
const EDGE_WORDS: Record<string, string> = {
  REFERENCES: "refers to", DERIVED_FROM: "made under", DEFINES: "defines a term in", HAS_PART: "contains",
};
const EDGE_VARS: Record<string, string> = {
  REFERENCES: "--edge-references", DERIVED_FROM: "--edge-derived", DEFINES: "--edge-defines",
  HAS_PART: "--edge-has-part",
};
const MAX_NODES = 2500;
// Distinct hues readable on both palettes (lightness picked per theme).
const HUES = [210, 28, 140, 280, 350, 180, 50, 310, 95, 240, 10, 160];

let cy: Core | null = null;
let docs: DocumentInfo[] = [];
let loadSeq = 0;

function docColour(docId: string): string {
  const i = Math.max(0, docs.findIndex((d) => d.id === docId));
  const hue = HUES[i % HUES.length];
  return isDark() ? `hsl(${hue}, 70%, 68%)` : `hsl(${hue}, 65%, 40%)`;
}

function style(): cytoscape.StylesheetJson {
  const text = cssVar("--text");
  const bg = cssVar("--surface");
  const focus = cssVar("--focus");
  const edge = (t: string) => cssVar(EDGE_VARS[t]);
  return [
    { selector: "node", style: {
      "background-color": "data(colour)", width: "data(size)", height: "data(size)",
      label: "data(short)", color: text, "font-size": 10, "min-zoomed-font-size": 9,
      "text-valign": "bottom", "text-margin-y": 2, "text-outline-color": bg, "text-outline-width": 2,
    } },
    { selector: "node[kind = 'document']", style: { shape: "round-rectangle", "font-weight": "bold", "font-size": 14 } },
    { selector: "edge", style: {
      width: 1.2, "curve-style": "haystack", opacity: 0.75, "line-color": edge("REFERENCES"),
    } },
    ...EDGE_TYPES.map((t) => ({ selector: `edge[type = '${t}']`, style: {
      "line-color": edge(t), "target-arrow-color": edge(t),
      "line-style": t === "DERIVED_FROM" ? "dashed" : t === "DEFINES" ? "dotted" : "solid",
      width: t === "HAS_PART" ? 0.8 : 1.6, opacity: t === "HAS_PART" ? 0.45 : 0.85,
    } })) as cytoscape.StylesheetJson,
    { selector: "edge[type != 'HAS_PART']", style: { "curve-style": "straight", "target-arrow-shape": "triangle", "arrow-scale": 0.7 } },
    { selector: ".faded", style: { opacity: 0.12 } },
    { selector: "node:selected", style: {
      "border-width": 4, "border-color": focus, label: "data(name)", "font-size": 13,
      "min-zoomed-font-size": 0, "z-index": 10,
    } },
    { selector: "node.near", style: { label: "data(short)", "min-zoomed-font-size": 0 } },
  ] as cytoscape.StylesheetJson;
}

function shortLabel(n: GraphNode): string {
  if (n.kind === "document") return docs.find((d) => d.id === n.doc_id)?.short_title || n.label;
  return n.path || n.label;
}

function elements(g: Graph): ElementDefinition[] {
  const ids = new Set(g.nodes.map((n) => n.id));
  const degree = new Map<string, number>();
  for (const e of g.edges) {
    degree.set(e.source, (degree.get(e.source) ?? 0) + 1);
    degree.set(e.target, (degree.get(e.target) ?? 0) + 1);
  }
  const nodes: ElementDefinition[] = g.nodes.map((n) => ({
    group: "nodes", data: {
      id: n.id, kind: n.kind, doc: n.doc_id, short: shortLabel(n),
      name: n.title ? `${n.label} — ${n.title}` : n.label, colour: docColour(n.doc_id),
      size: n.kind === "document" ? 28 : Math.min(26, 8 + 2 * Math.sqrt(degree.get(n.id) ?? 0)),
    },
  }));
  const edges: ElementDefinition[] = g.edges
    .filter((e) => ids.has(e.source) && ids.has(e.target))
    .map((e) => ({ group: "edges", data: { id: `${e.type}:${e.source}>${e.target}`, source: e.source, target: e.target, type: e.type } }));
  return [...nodes, ...edges];
}

function selectedTypes(): string[] {
  return [...document.querySelectorAll<HTMLInputElement>("#edge-types input:checked")].map((i) => i.value);
}

function status(text: string): void {
  byId("graph-status").textContent = text;
}

/** Cytoscape caches where its canvas is; tell it when the page around it moves. */
function watchContainer(core: Core): void {
  let queued = false;
  const observer = new ResizeObserver(() => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => { queued = false; core.resize(); });
  });
  observer.observe(byId("graph-canvas"));
  observer.observe(byId("graph-controls"));
  observer.observe(byId("main"));
}

function runLayout(fit = true): Promise<void> {
  if (!cy) return Promise.resolve();
  cy.resize();
  const n = cy.nodes().length;
  return new Promise((resolve) => {
    const layout = cy!.layout({
      name: "fcose", quality: n > 4000 ? "draft" : "default", randomize: true, animate: false,
      fit, padding: 24, nodeRepulsion: 6000, idealEdgeLength: 60, numIter: n > 1500 ? 1200 : 2500,
      packComponents: true,
    } as cytoscape.LayoutOptions);
    layout.one("layoutstop", () => resolve());
    layout.run();
  });
}

function refreshDatalist(): void {
  if (!cy) return;
  const list = byId("graph-search-list");
  const opts = cy.nodes("[kind = 'provision']").slice(0, 3000).map((n) =>
    h("option", { value: String(n.data("name")) }));
  replace(list, opts);
}

/** Load the capped topology for the current document and edge-type filters. */
export async function loadTopology(): Promise<void> {
  const seq = ++loadSeq;
  const params = new URLSearchParams();
  const doc = byId<HTMLSelectElement>("graph-doc").value;
  if (doc) params.append("doc", doc);
  for (const t of selectedTypes()) params.append("type", t);
  params.set("max_nodes", String(MAX_NODES));
  status("Loading the graph…");
  const g = await getJSON<Graph>(`/api/v1/graph/topology?${params.toString()}`);
  if (seq !== loadSeq || !cy) return;
  cy.elements().remove();
  cy.add(elements(g));
  status(`Laying out ${g.nodes.length.toLocaleString()} provisions…`);
  await runLayout();
  if (seq !== loadSeq) return;
  refreshDatalist();
  legend();
  const capped = g.truncated ? ` (capped at ${MAX_NODES.toLocaleString()}: pick a document to see all of it)` : "";
  status(`${g.nodes.length.toLocaleString()} provisions, ${cy.edges().length.toLocaleString()} links${capped}. ` +
    "Click a node to read it.");
}

/** Add a provision's neighbourhood to the graph and select it. */
export async function expand(id: string, depth = 1): Promise<void> {
  if (!cy) return;
  const params = new URLSearchParams({ depth: String(depth) });
  for (const t of selectedTypes()) params.append("type", t);
  const g = await getJSON<Graph & { center: string }>(`/api/v1/graph/provision/${idPath(id)}?${params.toString()}`);
  const before = cy.nodes().length;
  const fresh = elements(g).filter((el) => cy!.getElementById(String(el.data.id)).empty());
  const added = cy.add(fresh);
  const centre = cy.getElementById(id);
  if (added.nodes().length) {
    const origin = centre.nonempty() && before ? centre.position() : { x: 0, y: 0 };
    added.nodes().forEach((n, i) => {
      const a = (2 * Math.PI * i) / Math.max(1, added.nodes().length);
      n.position({ x: origin.x + 90 * Math.cos(a), y: origin.y + 90 * Math.sin(a) });
    });
    if (!before) await runLayout();
  }
  refreshDatalist();
  select(id);
  const n = added.nodes().length;
  status(`${n ? n : "No"} provision${n === 1 ? "" : "s"} added around ${String(centre.data("name") ?? id)}.`);
}

function select(id: string): void {
  if (!cy) return;
  const node = cy.getElementById(id);
  if (node.empty()) return;
  cy.elements().removeClass("faded near").unselect();
  node.select();
  const hood = node.closedNeighborhood();
  hood.nodes().addClass("near");
  cy.elements().not(hood).addClass("faded");
  cy.animate({ center: { eles: node }, zoom: Math.max(cy.zoom(), 1.1) }, { duration: 250 });
  const tools = byId("graph-node-tools");
  tools.hidden = false;
  replace(tools, h("span", {}, String(node.data("name"))),
    h("button", { type: "button", class: "primary", onclick: () => void openProvision(id) }, "Read"),
    h("button", { type: "button", onclick: () => void expand(id).catch(fail) }, "Expand neighbours"),
    h("button", { type: "button", class: "ghost", onclick: clearSelection }, "Clear"));
}

function clearSelection(): void {
  cy?.elements().removeClass("faded near").unselect();
  byId("graph-node-tools").hidden = true;
}

function fail(err: unknown): void {
  status((err as Error).message);
  toast((err as Error).message, "error");
}

async function find(query: string): Promise<void> {
  if (!cy || !query.trim()) return;
  const q = query.trim().toLowerCase();
  const hit = cy.nodes().filter((n: NodeSingular) => String(n.data("name")).toLowerCase() === q)
    .union(cy.nodes().filter((n: NodeSingular) => String(n.data("name")).toLowerCase().includes(q)));
  if (hit.nonempty()) {
    const id = hit.first().id();
    select(id);
    await openProvision(id);
    return;
  }
  const params = new URLSearchParams({ q: query, k: "1" });
  const doc = byId<HTMLSelectElement>("graph-doc").value;
  if (doc) params.append("doc", doc);
  const res = await getJSON<{ hits: SearchHit[] }>(`/api/v1/search?${params.toString()}`);
  const top = res.hits[0];
  if (!top) {
    status(`Nothing matches “${query}”.`);
    return;
  }
  await expand(top.id);
  await openProvision(top.id);
}

function legend(): void {
  const shown = new Set(cy ? cy.nodes().map((n) => String(n.data("doc"))) : []);
  replace(byId("graph-legend"), h("strong", {}, "Links"), EDGE_TYPES.map((t) => h("span", {},
    h("span", { class: `swatch${t === "DERIVED_FROM" ? " dashed" : ""}`, style: `border-top-color: var(${EDGE_VARS[t]})${t === "DEFINES" ? "; border-top-style: dotted" : ""}` }),
    `${t} (${EDGE_WORDS[t]})`)),
  h("details", { class: "doc-legend" }, h("summary", {}, "Documents"),
    h("ul", {}, docs.filter((d) => shown.has(d.id)).map((d) => h("li", {},
      h("span", { class: "dot", style: `background: ${docColour(d.id)}` }), d.short_title || d.title)))));
}

/** Create the graph once; later calls only refresh the document list. */
export async function showGraph(documents: DocumentInfo[], focus?: string): Promise<void> {
  docs = documents;
  const docSelect = byId<HTMLSelectElement>("graph-doc");
  const chosen = docSelect.value;
  replace(docSelect, h("option", { value: "" }, "All documents"),
    documents.map((d) => h("option", { value: d.id, selected: d.id === chosen }, d.title)));
  if (!cy) {
    replace(byId("edge-types"), EDGE_TYPES.map((t) => h("label", {},
      h("input", { type: "checkbox", value: t, checked: true }), t)));
    legend();
    cy = cytoscape({
      container: byId("graph-canvas"), style: style(), wheelSensitivity: 0.3, minZoom: 0.05,
      maxZoom: 4, hideEdgesOnViewport: true, textureOnViewport: true, pixelRatio: 1,
    });
    watchContainer(cy);
    cy.on("tap", "node", (e) => {
      const id = (e.target as NodeSingular).id();
      select(id);
      if ((e.target as NodeSingular).data("kind") === "provision") void openProvision(id);
    });
    cy.on("tap", (e) => { if (e.target === cy) clearSelection(); });
    onThemeChange(() => {
      cy?.nodes().forEach((n) => { n.data("colour", docColour(String(n.data("doc")))); });
      cy?.style(style());
      legend();
    });
    onPanelChange((id) => { if (id && cy?.getElementById(id).nonempty()) select(id); });
    docSelect.addEventListener("change", () => void loadTopology().catch(fail));
    byId("edge-types").addEventListener("change", () => void loadTopology().catch(fail));
    const search = byId<HTMLInputElement>("graph-search");
    search.addEventListener("change", () => void find(search.value).catch(fail));
    search.addEventListener("keydown", (e) => {
      if (e.key === "Enter") { e.preventDefault(); void find(search.value).catch(fail); }
    });
    byId("graph-controls").addEventListener("submit", (e) => e.preventDefault());
    await loadTopology().catch(fail);
  } else {
    cy.resize();
  }
  if (focus) {
    if (cy.getElementById(focus).empty()) await expand(focus).catch(fail);
    else select(focus);
  }
}
