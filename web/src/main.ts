// Entry point: hash routing between Ask, Graph and Library, the API-key dialog, and the
// wiring between views (documents feed the filters; "Show in the graph" opens the graph).

import "./style.css";
import { setKeyPrompt } from "./api";
import { initAsk, setDocuments } from "./ask";
import { byId, toast } from "./dom";
import { currentDocuments, initLibrary, loadDocuments, onDocuments } from "./library";
import { closePanel, initPanel } from "./panel";
import { initTheme } from "./theme";

type View = "ask" | "graph" | "library";
const VIEWS: View[] = ["ask", "graph", "library"];

function keyPrompt(retry: boolean): Promise<string | null> {
  const dialog = byId<HTMLDialogElement>("key-dialog");
  const input = byId<HTMLInputElement>("key-input");
  byId("key-message").textContent = retry
    ? "That API key was not accepted. Check it, or ask the server's administrator for a new one."
    : "This server needs an API key. Ask its administrator for one (civicsetu keys create). " +
      "It is kept only for this browser tab.";
  input.value = "";
  return new Promise((resolve) => {
    const done = (value: string | null) => {
      dialog.removeEventListener("close", onClose);
      byId("key-cancel").removeEventListener("click", onCancel);
      resolve(value);
    };
    const onClose = () => done(dialog.returnValue === "ok" && input.value.trim() ? input.value.trim() : null);
    const onCancel = () => { dialog.close("cancel"); };
    dialog.addEventListener("close", onClose);
    byId("key-cancel").addEventListener("click", onCancel);
    dialog.returnValue = "";
    dialog.showModal();
    input.focus();
  });
}

let first = true; // the first load leaves focus at the top, so Tab reaches "Skip to content"

async function route(): Promise<void> {
  const hash = decodeURIComponent(location.hash.replace(/^#\/?/, ""));
  const [head, ...rest] = hash.split("/");
  const view: View = VIEWS.includes(head as View) ? (head as View) : "ask";
  for (const v of VIEWS) byId(`view-${v}`).hidden = v !== view;
  document.querySelectorAll<HTMLAnchorElement>(".tabs a").forEach((a) => {
    if (a.dataset.view === view) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  });
  document.body.classList.toggle("graph-view", view === "graph");
  document.title = `${view === "ask" ? "Ask" : view === "graph" ? "Graph" : "Library"} · CivicSetu`;
  if (view === "graph") {
    const focus = rest.join("/") || undefined;
    byId("graph-status").textContent = "Loading the graph…";
    try {
      const { showGraph } = await import("./graph");
      await showGraph(currentDocuments().length ? currentDocuments() : await loadDocuments(), focus);
    } catch (err) {
      byId("graph-status").textContent = (err as Error).message;
    }
  } else if (view === "ask" && !first) {
    byId("question").focus({ preventScroll: true });
  }
  first = false;
}

function trackTopbar(): void {
  const bar = document.querySelector<HTMLElement>(".topbar")!;
  const set = () => document.documentElement.style.setProperty("--topbar-h", `${bar.offsetHeight}px`);
  new ResizeObserver(set).observe(bar);
  set();
}

function init(): void {
  trackTopbar();
  setKeyPrompt(keyPrompt);
  initTheme();
  initPanel();
  initAsk();
  initLibrary();
  onDocuments(setDocuments);
  byId("key-form").addEventListener("submit", () => { /* method=dialog closes with "ok" */ });
  document.querySelectorAll<HTMLAnchorElement>(".tabs a").forEach((a) =>
    a.addEventListener("click", () => { if (window.innerWidth <= 720) closePanel(); }));
  window.addEventListener("hashchange", () => void route());
  loadDocuments().catch((err: Error) => toast(err.message, "error"));
  void route();
}

init();
