import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startServer } from '@complib/api-server'

/** A real complib server on a temporary data folder, spoken to over HTTP. */
export interface Complib {
  url: string
  /** Sends JSON with the API key, expects a 2xx, returns the parsed body. */
  call<T = any>(method: string, path: string, body?: unknown): Promise<T>
  close(): Promise<void>
}

export async function startComplib(options: { apiKey?: string } = {}): Promise<Complib> {
  const dataDir = await mkdtemp(join(tmpdir(), 'complib-example-'))
  const server = await startServer({ port: 0, dataDir, apiKey: options.apiKey, log: () => {} })
  return {
    url: server.url,
    async call(method, path, body) {
      const headers: Record<string, string> = options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}
      if (body !== undefined) headers['content-type'] = 'application/json'
      const res = await fetch(server.url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
      const text = await res.text()
      if (!res.ok) throw new Error(`${method} ${path} → ${res.status}: ${text}`)
      return text ? JSON.parse(text) : undefined
    },
    async close() {
      await server.close()
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}

/** Every component, deleted ones included, by id: to compare before and after. */
export async function allComponents(complib: Complib): Promise<Record<string, { id: string; name: string; description: string | null; version: number } & Record<string, unknown>>> {
  const list: Array<{ id: string; name: string; description: string | null; version: number }> = await complib.call('GET', '/api/components?limit=100000&includeDeleted=true')
  return Object.fromEntries(list.map((c) => [c.id, c]))
}
