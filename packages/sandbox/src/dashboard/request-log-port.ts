// The request log as the dashboard reads it: request-log/ implements it (dashboard-reader.ts) and the composition
// root (sandbox.ts) hands it in, so the dashboard imports no feature folder.

export interface DashboardRequestLog {
  /** A page of the organization's logged requests, narrowed by the dashboard's query (a bad filter: a 400). */
  query(org: string, query: URLSearchParams): Promise<unknown>;
  /** Calls `listener` with the organization of every batch kept from now on; answers the function that stops it. */
  subscribe(listener: (org: string) => void): () => void;
}
