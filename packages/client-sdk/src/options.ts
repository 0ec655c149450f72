/** What `createClient` takes. */
export interface ClientOptions {
  /** Base address of the service, e.g. `http://127.0.0.1:4000` (the `/api` prefix is added). */
  baseUrl: string
  /** Needed when the server listens off loopback; sent as `Authorization: Bearer <key>`. */
  apiKey?: string | undefined
  /** A fetch implementation (tests inject one). Defaults to the global fetch. */
  fetch?: typeof fetch | undefined
  /**
   * Retries of a network error or a 5xx answer (default 2), after 250 ms, then
   * 500 ms, … (or a 503's `Retry-After`). Only requests that are safe to send
   * twice are retried: reads, PUT, PATCH, DELETE and the POSTs that change
   * nothing (searches, dry runs). Creating, pushing, restoring are not.
   */
  retries?: number | undefined
  /** First retry delay in ms (default 250), doubling after each retry. */
  retryDelayMs?: number | undefined
  /** Abort a request that takes longer (ms). Default: no limit (a full listing may take a while). */
  timeoutMs?: number | undefined
}
