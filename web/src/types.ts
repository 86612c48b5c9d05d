// The JSON shapes of the CivicSetu API (docs/API.md) that the UI reads.

export interface Citation {
  id: string;
  title: string;
  label: string;
  quote: string;
  start: number;
  end: number;
}

export interface Suggestion {
  kind: string;
  question: string;
}

export interface Answer {
  query: string;
  answer: string;
  abstained: boolean;
  citations: Citation[];
  notices: string[];
  disclaimer: string;
  query_type: string;
  confidence: string;
  generator: string;
  timings_ms: Record<string, number>;
  cached: boolean;
  suggestions?: Suggestion[];
  research_steps?: { question: string; provisions: string[] }[] | null;
}

export interface Link {
  id: string;
  label: string;
}

export interface EdgeRef {
  id: string;
  type: string;
  text: string;
}

export interface Provision {
  id: string;
  doc_id: string;
  path: string;
  label: string;
  kind: string;
  title: string;
  text: string;
  start: number;
  end: number;
  page: number | null;
  page_end: number | null;
  valid_from: string | null;
  valid_to: string | null;
  footnotes: { marker: string; text: string }[];
  document_title: string;
  breadcrumb: Link[];
  parent: Link | null;
  children: Link[];
  previous: Link | null;
  next: Link | null;
  versions: { valid_from: string | null; valid_to: string | null }[];
  references_out: EdgeRef[];
  references_in: EdgeRef[];
  unresolved: EdgeRef[];
}

export interface DocumentInfo {
  id: string;
  title: string;
  short_title: string;
  source: string;
  jurisdiction: string;
  doc_type: string;
  provisions: number;
  chunks: number;
}

export interface GraphNode {
  id: string;
  doc_id: string;
  path: string;
  label: string;
  title: string;
  kind: "provision" | "document";
  distance?: number | null;
}

export interface GraphEdge {
  source: string;
  target: string;
  type: string;
}

export interface Graph {
  nodes: GraphNode[];
  edges: GraphEdge[];
  truncated: boolean;
}

export interface Job {
  id: string;
  status: "queued" | "running" | "done" | "failed";
  stage: string;
  done: number;
  total: number;
  filename: string;
  result: { doc_id: string; status: string; provisions: number; chunks: number; message: string } | null;
  error: string | null;
}

export interface SearchHit {
  id: string;
  doc_id: string;
  path: string;
  label: string;
  title: string;
  text: string;
  score: number;
}
