/** What `createClient` takes. */
export interface ClientOptions {
  /** Base address of the service, e.g. `http://127.0.0.1:4000` (the `/api` prefix is added). */
  baseUrl: string
  /**
   * An API token (`clt_…`, made in the web interface or with
   * `client.tokens.create`): the account it belongs to, within the token's
   * scope. Sent as `Authorization: Bearer <token>`. Needed once the server has
   * accounts, and always off loopback. Wins over `apiKey` when both are given.
   */
  token?: string | undefined
  /**
   * The server's bootstrap key (`complib serve --api-key`): acts as an admin
   * that is no account, to make the first accounts. Sent as
   * `Authorization: Bearer <key>`; prefer a `token` for everyday scripts, so
   * their changes carry a person's name.
   */
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
