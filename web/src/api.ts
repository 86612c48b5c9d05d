// The HTTP client: every call goes through `request`, which adds the API key as a Bearer
// header (never in a URL), asks for the key once when the server answers 401, and turns
// RFC 9457 problem+json bodies into ApiError with a readable message.

const KEY_STORAGE = "civicsetu.apiKey";

export class ApiError extends Error {
  constructor(public status: number, public title: string, public detail: string) {
    super(detail ? `${title}: ${detail}` : title);
  }
}

type KeyPrompt = (retry: boolean) => Promise<string | null>;
let promptForKey: KeyPrompt | null = null;
let pendingPrompt: Promise<string | null> | null = null;

/** Install the function that asks the user for an API key (a dialog). */
export function setKeyPrompt(fn: KeyPrompt): void {
  promptForKey = fn;
}

export function apiKey(): string | null {
  return sessionStorage.getItem(KEY_STORAGE);
}

export function forgetKey(): void {
  sessionStorage.removeItem(KEY_STORAGE);
}

function withAuth(headers?: HeadersInit): Headers {
  const out = new Headers(headers);
  const key = apiKey();
  if (key) out.set("Authorization", `Bearer ${key}`);
  return out;
}

async function askKeyOnce(retry: boolean): Promise<string | null> {
  if (!promptForKey) return null;
  // Concurrent 401s share one dialog.
  pendingPrompt ??= promptForKey(retry).finally(() => { pendingPrompt = null; });
  return pendingPrompt;
}

async function toError(res: Response): Promise<ApiError> {
  let title = res.statusText || `HTTP ${res.status}`;
  let detail = "";
  try {
    const body: unknown = await res.json();
    if (body && typeof body === "object") {
      const b = body as Record<string, unknown>;
      if (typeof b.title === "string") title = b.title;
      if (typeof b.detail === "string") detail = b.detail;
      else if (Array.isArray(b.detail)) detail = JSON.stringify(b.detail);
    }
  } catch {
    /* not JSON: keep the status text */
  }
  if (res.status === 429) {
    const wait = res.headers.get("Retry-After");
    if (wait) detail = `${detail} Try again in ${wait} s.`.trim();
  }
  return new ApiError(res.status, title, detail);
}

/** fetch() with the key, one key prompt on 401, and problem+json errors. */
export async function request(path: string, init: RequestInit = {}): Promise<Response> {
  let hadKey = apiKey() !== null;
  for (;;) {
    const res = await fetch(path, { ...init, headers: withAuth(init.headers) });
    if (res.status !== 401) {
      if (!res.ok) throw await toError(res);
      return res;
    }
    const key = await askKeyOnce(hadKey);
    if (!key) throw await toError(res);
    sessionStorage.setItem(KEY_STORAGE, key);
    hadKey = true;
  }
}

export async function getJSON<T>(path: string, signal?: AbortSignal): Promise<T> {
  const res = await request(path, { signal, headers: { Accept: "application/json" } });
  return (await res.json()) as T;
}

export async function postJSON<T>(path: string, body: unknown, signal?: AbortSignal): Promise<T> {
  const res = await request(path, {
    method: "POST",
    signal,
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(body),
  });
  return (await res.json()) as T;
}

export interface SseEvent {
  event: string;
  data: string;
}

/** POST a JSON body and yield Server-Sent Events as they arrive (fetch, so the key is a header). */
export async function* postStream(
  path: string,
  body: unknown,
  signal: AbortSignal,
): AsyncGenerator<SseEvent> {
  const res = await request(path, {
    method: "POST",
    signal,
    headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
    body: JSON.stringify(body),
  });
  if (!res.body) throw new ApiError(res.status, "Empty stream", "The server sent no events.");
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value.replace(/\r\n?/g, "\n");
    let cut: number;
    while ((cut = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const parsed = parseBlock(block);
      if (parsed) yield parsed;
    }
  }
  const last = parseBlock(buffer);
  if (last) yield last;
}

function parseBlock(block: string): SseEvent | null {
  let event = "message";
  const data: string[] = [];
  for (const line of block.split("\n")) {
    if (!line || line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") event = value;
    else if (field === "data") data.push(value);
  }
  return data.length || event !== "message" ? { event, data: data.join("\n") } : null;
}

/** A provision id (`doc#s.18(1)`) as one URL path segment. */
export function idPath(id: string): string {
  return encodeURIComponent(id);
}
