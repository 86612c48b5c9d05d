// The Ask view: a question streams its answer over SSE; the confidence badge, citation chips
// (each opens the provision panel with the quote highlighted), follow-up suggestions, copy,
// research mode and the document / as-of filters.

import { postStream, type SseEvent } from "./api";
import { byId, h, replace, toast } from "./dom";
import { openProvision, onPanelChange } from "./panel";
import type { Answer, Citation, DocumentInfo, Suggestion } from "./types";

const EXAMPLES = [
  "What is the penalty for not registering a real estate project?",
  "When must a promoter refund the amount paid by an allottee?",
  "What is an electronic signature?",
];

let controller: AbortController | null = null;

interface Turn {
  root: HTMLElement;
  text: HTMLElement;
  meta: HTMLElement;
  tail: HTMLElement;
}

function badge(confidence: string, abstained: boolean): HTMLElement {
  if (abstained || !confidence) {
    return h("span", { class: "badge neutral", title: "No provision answers this question well enough" },
      "No answer found");
  }
  const words: Record<string, string> = {
    high: "High confidence", medium: "Medium confidence", low: "Low confidence",
  };
  return h("span", { class: `badge ${confidence}`, title: "How well the quoted provisions match the question" },
    words[confidence] ?? confidence);
}

/** "Section 59(1) · Punishment for …": the unit without the Act's name, and its heading. */
export function shortLabel(c: Citation): string {
  const unit = c.label.replace(/\s+of the\s.*$/i, "").trim() || c.label;
  return c.title ? `${unit} · ${c.title}` : unit;
}

function chipFor(c: Citation, n: number): HTMLButtonElement {
  return h("button", {
    type: "button", class: "chip", "data-citation": n, "data-id": c.id, "aria-pressed": "false",
    "aria-label": `Source ${n}: ${c.label}${c.title ? `, ${c.title}` : ""}. Opens the provision.`,
    onclick: () => void openProvision(c.id, { start: c.start, end: c.end }),
    title: c.label,
  }, h("span", { class: "n" }, `[${n}]`), h("span", { class: "t" }, shortLabel(c)));
}

/** The answer text with each in-range `[N]` marker as a button opening citation N. */
function answerNodes(text: string, citations: Citation[]): (Node | string)[] {
  const out: (Node | string)[] = [];
  let last = 0;
  for (const m of text.matchAll(/\[(\d{1,2})\]/g)) {
    const n = Number(m[1]);
    const c = citations[n - 1];
    if (!c || m.index === undefined) continue;
    out.push(text.slice(last, m.index));
    out.push(h("button", {
      type: "button", class: "cite-ref", "aria-label": `Source ${n}: ${c.label}`,
      onclick: () => void openProvision(c.id, { start: c.start, end: c.end }),
    }, `[${n}]`));
    last = m.index + m[0].length;
  }
  out.push(text.slice(last));
  return out;
}

/** Plain text for the clipboard: the answer and a numbered list of its sources. */
export function copyText(a: Answer): string {
  const sources = a.citations.map((c, i) =>
    `[${i + 1}] ${c.label}${c.title ? ` — ${c.title}` : ""} (${c.id})`);
  const parts = [`Q: ${a.query}`, a.answer.trim()];
  if (sources.length) parts.push(`Sources:\n${sources.join("\n")}`);
  return parts.join("\n\n");
}

async function copy(a: Answer): Promise<void> {
  const text = copyText(a);
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const area = h("textarea", { "aria-hidden": "true", style: "position:fixed;opacity:0" });
    area.value = text;
    document.body.append(area);
    area.select();
    document.execCommand("copy");
    area.remove();
  }
  toast("Answer and citations copied.");
}

function newTurn(question: string): Turn {
  const text = h("div", { class: "answer-text streaming", "aria-busy": "true" });
  const meta = h("div", { class: "turn-meta" }, h("span", { class: "badge neutral" }, "Answering…"));
  const tail = h("div");
  const root = h("article", { class: "turn", "aria-label": `Answer to: ${question}` },
    h("p", { class: "question" }, question), meta, text, tail);
  byId("turns").append(root);
  byId("ask-empty").hidden = true;
  byId("ask-status").textContent = "Answering…";
  root.scrollIntoView({ block: "start", behavior: "smooth" });
  return { root, text, meta, tail };
}

function finish(turn: Turn, a: Answer): void {
  turn.text.classList.remove("streaming");
  turn.text.removeAttribute("aria-busy");
  replace(turn.text, answerNodes(a.answer, a.citations));
  const how = a.generator === "extractive" ? "Quoted from the law" : `Written by ${a.generator}`;
  replace(turn.meta, badge(a.confidence, a.abstained),
    h("span", { class: "muted", title: a.cached ? "Served from the answer cache" : null }, how));
  const n = a.citations.length;
  byId("ask-status").textContent = a.abstained ? "No answer found in the library."
    : `Answer ready, ${a.confidence || "unknown"} confidence, ${n} source${n === 1 ? "" : "s"}.`;
  const suggestions: Suggestion[] = a.suggestions ?? [];
  const notices = a.notices.filter((n) => n !== a.disclaimer && !a.answer.includes(n));
  replace(turn.tail,
    a.citations.length ? h("ul", { class: "chips", "aria-label": "Sources" },
      a.citations.map((c, i) => h("li", {}, chipFor(c, i + 1)))) : null,
    notices.length ? h("ul", { class: "notices", "aria-label": "Notices" },
      notices.map((n) => h("li", {}, n))) : null,
    a.research_steps?.length ? h("details", {}, h("summary", {}, `Research steps (${a.research_steps.length})`),
      h("ol", {}, a.research_steps.map((s) => h("li", {}, s.question)))) : null,
    suggestions.length ? [h("h2", { class: "hint", id: `sugg-${turn.root.dataset.n}` }, "Ask next"),
      h("ul", { class: "suggestions", "aria-labelledby": `sugg-${turn.root.dataset.n}` },
        suggestions.map((s) => h("li", {}, h("button", {
          type: "button", class: "suggestion", "data-kind": s.kind,
          onclick: () => void ask(s.question),
        }, s.question))))] : null,
    h("div", { class: "turn-actions" },
      h("button", { type: "button", class: "ghost copy", onclick: () => void copy(a) },
        "Copy answer with citations")),
    a.disclaimer && !a.answer.includes(a.disclaimer) ? h("p", { class: "disclaimer" }, a.disclaimer) : null,
  );
}

function fail(turn: Turn, message: string): void {
  byId("ask-status").textContent = message;
  turn.text.classList.remove("streaming");
  turn.text.removeAttribute("aria-busy");
  replace(turn.meta, h("span", { class: "badge low" }, "Error"));
  replace(turn.text, h("span", { class: "error", role: "alert" }, message));
}

function selectedDocuments(): string[] {
  return [...document.querySelectorAll<HTMLInputElement>("#doc-filter input:checked")]
    .map((i) => i.value);
}

function setBusy(busy: boolean): void {
  byId<HTMLButtonElement>("ask-submit").disabled = busy;
  byId("ask-stop").hidden = !busy;
}

function parse(ev: SseEvent): unknown {
  try {
    return JSON.parse(ev.data);
  } catch {
    return ev.data;
  }
}

/** Ask `question`, streaming the answer into a new turn. */
export async function ask(question: string): Promise<void> {
  controller?.abort();
  const ctl = new AbortController();
  controller = ctl;
  const turn = newTurn(question);
  turn.root.dataset.n = String(byId("turns").children.length);
  const asOf = byId<HTMLInputElement>("as-of").value;
  const docs = selectedDocuments();
  const body = {
    question,
    mode: byId<HTMLInputElement>("research").checked ? "research" : "answer",
    documents: docs.length ? docs : null,
    as_of: asOf || null,
  };
  setBusy(true);
  let streamed = "";
  let lastAttempt = 0;
  let pendingSuggestions: Suggestion[] = [];
  let done = false;
  try {
    for await (const ev of postStream("/api/v1/query/stream", body, ctl.signal)) {
      const data = parse(ev);
      const obj = (data && typeof data === "object" ? data : {}) as Record<string, unknown>;
      if (ev.event === "error") {
        fail(turn, String(obj.detail ?? obj.title ?? ev.data));
        done = true;
      } else if ("citations" in obj && typeof obj.answer === "string") {
        const a = obj as unknown as Answer;
        finish(turn, { ...a, suggestions: a.suggestions ?? pendingSuggestions });
        done = true;
      } else if (ev.event === "suggestions" && Array.isArray(data)) {
        pendingSuggestions = data as Suggestion[];
      } else if (ev.event === "answer" && typeof obj.answer === "string") {
        turn.text.textContent = obj.answer; // the text that is shown; citations follow
      } else if (ev.event === "token" && typeof obj.text === "string") {
        const attempt = typeof obj.attempt === "number" ? obj.attempt : 0;
        if (attempt !== lastAttempt) streamed = ""; // a retry replaces the draft
        lastAttempt = attempt;
        streamed += obj.text;
        turn.text.textContent = streamed;
      } else if (ev.event === "status" && typeof obj.stage === "string") {
        replace(turn.meta, h("span", { class: "badge neutral" }, `${obj.stage}…`));
      }
    }
    if (!done) fail(turn, "The answer stream ended early. Try again.");
  } catch (err) {
    if (ctl.signal.aborted) fail(turn, "Stopped.");
    else fail(turn, (err as Error).message);
  } finally {
    if (controller === ctl) {
      controller = null;
      setBusy(false);
    }
  }
}

function updateFilterSummary(): void {
  const n = selectedDocuments().length;
  const asOf = byId<HTMLInputElement>("as-of").value;
  const parts = [n ? `${n} document${n > 1 ? "s" : ""}` : "", asOf ? `as of ${asOf}` : ""].filter(Boolean);
  byId("filter-summary").textContent = parts.length ? `(${parts.join(", ")})` : "";
}

/** Fill the document filter from the library. */
export function setDocuments(docs: DocumentInfo[]): void {
  const box = byId("doc-filter");
  const checked = new Set(selectedDocuments());
  replace(box, docs.length ? docs.map((d) => h("label", {},
    h("input", { type: "checkbox", value: d.id, checked: checked.has(d.id) }), d.title))
    : h("p", { class: "muted" }, "No documents yet: add some in the Library."));
  box.prepend(h("p", { class: "hint" }, "None ticked: search every document."));
  updateFilterSummary();
}

export function initAsk(): void {
  const form = byId<HTMLFormElement>("ask-form");
  const input = byId<HTMLTextAreaElement>("question");
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const q = input.value.trim();
    if (!q) return;
    input.value = "";
    void ask(q);
  });
  input.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      form.requestSubmit();
    }
  });
  byId("ask-stop").addEventListener("click", () => controller?.abort());
  byId("doc-filter").addEventListener("change", updateFilterSummary);
  byId("as-of").addEventListener("change", updateFilterSummary);
  replace(byId("examples"), EXAMPLES.map((q) => h("li", {},
    h("button", { type: "button", onclick: () => void ask(q) }, q))));
  onPanelChange((id) => {
    document.querySelectorAll<HTMLButtonElement>(".chip").forEach((chip) =>
      chip.setAttribute("aria-pressed", String(chip.dataset.id === id)));
  });
}
