// The Library view: the documents with their counts, upload with a progress bar driven by
// the job endpoint, and delete.

import { getJSON, idPath, request } from "./api";
import { byId, h, replace, toast } from "./dom";
import type { DocumentInfo, Job } from "./types";

type DocsListener = (docs: DocumentInfo[]) => void;
const listeners: DocsListener[] = [];
let documents: DocumentInfo[] = [];

/** Be told whenever the document list is (re)loaded. */
export function onDocuments(fn: DocsListener): void {
  listeners.push(fn);
  if (documents.length) fn(documents);
}

export function currentDocuments(): DocumentInfo[] {
  return documents;
}

const TYPE_WORDS: Record<string, string> = {
  act: "Act", rules: "Rules", regulations: "Regulations", contract: "Contract", other: "Other",
};

function render(): void {
  const fmt = new Intl.NumberFormat();
  const table = byId("library-table");
  if (!documents.length) {
    replace(table, h("p", { class: "muted" }, "The library is empty. Upload a document above."));
    return;
  }
  replace(table, h("table", {},
    h("caption", { class: "visually-hidden" }, "Documents in the library"),
    h("thead", {}, h("tr", {},
      h("th", { scope: "col" }, "Document"), h("th", { scope: "col", class: "hide-phone" }, "Type"),
      h("th", { scope: "col", class: "num" }, "Provisions"),
      h("th", { scope: "col", class: "num hide-phone" }, "Passages"),
      h("th", { scope: "col" }, h("span", { class: "visually-hidden" }, "Actions")))),
    h("tbody", {}, documents.map((d) => h("tr", { "data-id": d.id },
      h("td", {}, d.title, h("span", { class: "doc-id" }, d.id)),
      h("td", { class: "hide-phone" }, TYPE_WORDS[d.doc_type] ?? d.doc_type),
      h("td", { class: "num" }, fmt.format(d.provisions)),
      h("td", { class: "num hide-phone" }, fmt.format(d.chunks)),
      h("td", {}, h("button", {
        type: "button", class: "danger", "aria-label": `Delete ${d.title}`,
        onclick: () => void remove(d),
      }, "Delete")))))));
}

/** Reload the document list and tell the listeners. */
export async function loadDocuments(): Promise<DocumentInfo[]> {
  const res = await getJSON<{ documents: DocumentInfo[] }>("/api/v1/documents");
  documents = [...res.documents].sort((a, b) => a.title.localeCompare(b.title));
  render();
  listeners.forEach((fn) => fn(documents));
  return documents;
}

async function remove(d: DocumentInfo): Promise<void> {
  if (!window.confirm(`Delete “${d.title}” and its ${d.provisions} provisions from the library?`)) return;
  try {
    await request(`/api/v1/documents/${idPath(d.id)}`, { method: "DELETE" });
    toast(`Deleted ${d.title}.`);
    await loadDocuments();
    byId("upload-file").focus();
  } catch (err) {
    toast((err as Error).message, "error");
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function upload(file: File): Promise<void> {
  const box = byId("upload-progress");
  const bar = byId<HTMLProgressElement>("upload-bar");
  const stage = byId("upload-stage");
  const submit = byId<HTMLFormElement>("upload-form").querySelector<HTMLButtonElement>("button[type=submit]")!;
  box.hidden = false;
  submit.disabled = true;
  bar.removeAttribute("value");
  stage.textContent = `Uploading ${file.name}…`;
  try {
    const form = new FormData();
    form.append("file", file, file.name);
    const res = await request("/api/v1/documents", { method: "POST", body: form });
    let job = (await res.json()) as Job;
    for (;;) {
      const pct = job.total > 0 ? Math.round((100 * job.done) / job.total) : null;
      if (pct === null) bar.removeAttribute("value");
      else bar.value = pct;
      stage.textContent = `${file.name}: ${job.stage || job.status}${pct === null ? "" : ` (${pct}%)`}`;
      if (job.status === "done" || job.status === "failed") break;
      await sleep(400);
      job = await getJSON<Job>(`/api/v1/jobs/${encodeURIComponent(job.id)}`);
    }
    if (job.status === "failed" || job.result?.status === "failed") {
      throw new Error(job.error || job.result?.message || "The document could not be read.");
    }
    bar.value = 100;
    const r = job.result;
    stage.textContent = r
      ? `${file.name}: ${r.status}, ${r.provisions} provisions, ${r.chunks} passages.`
      : `${file.name}: done.`;
    toast(`Added ${file.name}.`);
    byId<HTMLInputElement>("upload-file").value = "";
    await loadDocuments();
  } catch (err) {
    stage.textContent = `${file.name}: ${(err as Error).message}`;
    toast((err as Error).message, "error");
  } finally {
    submit.disabled = false;
  }
}

export function initLibrary(): void {
  byId<HTMLFormElement>("upload-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const file = byId<HTMLInputElement>("upload-file").files?.[0];
    if (file) void upload(file);
  });
}
