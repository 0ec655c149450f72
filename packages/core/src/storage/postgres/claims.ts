import pg from 'pg'

/** A run this server executes, held against the other servers; `lost` fires if the hold ends unasked. */
export interface RunClaim {
  readonly lost: AbortSignal
  release(): Promise<void>
}

/**
 * Claims on runs, as session-level advisory locks on one connection of this
 * server's own. PostgreSQL drops them when that connection ends, so a server
 * that dies (kill -9, a lost network) frees its runs at once, and another
 * server's next sweep takes them over. If the connection fails while this
 * server lives, every claim's `lost` fires: the server stops those runs, since
 * another may now take them.
 */
export class RunClaims {
  private client: pg.Client | null = null
  private connecting: Promise<pg.Client> | null = null
  private readonly held = new Map<string, AbortController>()
  private closed = false

  constructor(
    private readonly url: string,
    private readonly log?: (message: string) => void,
    /** Advisory locks are per database: the schema keeps libraries in one database apart. */
    private readonly schema = 'public',
  ) {}

  async claim(runId: string): Promise<RunClaim | null> {
    if (this.closed) return null
    const existing = this.held.get(runId)
    if (existing && !existing.signal.aborted) return null
    const client = await this._connect()
    const { rows } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS ok', [this._key(runId)])
    if (!rows[0]?.ok) return null
    const controller = new AbortController()
    this.held.set(runId, controller)
    return {
      lost: controller.signal,
      release: async () => {
        if (this.held.get(runId) !== controller) return
        this.held.delete(runId)
        if (this.client === client && !controller.signal.aborted) {
          await client.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [this._key(runId)]).catch(() => {})
        }
      },
    }
  }

  /** The lock's key: advisory locks are per database, so the schema is part of it. */
  private _key(runId: string): string {
    return `complib-run ${this.schema} ${runId}`
  }

  async close(): Promise<void> {
    this.closed = true
    const client = this.client
    this.client = null
    await client?.end().catch(() => {})
  }

  private _connect(): Promise<pg.Client> {
    if (this.client) return Promise.resolve(this.client)
    this.connecting ??= (async () => {
      const client = new pg.Client({ connectionString: this.url, application_name: 'complib-claims' })
      client.on('error', (error) => this._lose(client, error))
      client.on('end', () => this._lose(client, new Error('connection ended')))
      await client.connect()
      this.client = client
      return client
    })().finally(() => {
      this.connecting = null
    })
    return this.connecting
  }

  private _lose(client: pg.Client, error: Error): void {
    if (this.client !== client) return
    this.client = null
    if (!this.closed) this.log?.(`[storage] the connection holding this server's runs failed (${error.message}); its runs stop and may be taken over`)
    for (const controller of this.held.values()) controller.abort(error)
    this.held.clear()
  }
}
