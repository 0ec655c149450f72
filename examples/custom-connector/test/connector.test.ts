import { startServer, type RunningServer } from '@complib/api-server'
import { testConnector } from '@complib/core/testing'
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import jsonFolder from '../index.js'

const MODULE = fileURLToPath(new URL('../index.js', import.meta.url))
const temp: string[] = []
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'complib-custom-connector-'))
  temp.push(dir)
  return dir
}
afterAll(() => {
  for (const dir of temp) rmSync(dir, { recursive: true, force: true })
})
const idsIn = (folder: string) => (existsSync(folder) ? readdirSync(folder).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -'.json'.length)) : [])

// The contract every connector type passes (the built-in webhook one too).
const folder = join(tempDir(), 'out')
testConnector(jsonFolder, { config: () => ({ folder }), invalidConfig: { folder: 'relative/path' }, received: () => idsIn(folder) })

describe('a complib server with the json-folder connector loaded', () => {
  const servers: RunningServer[] = []
  afterAll(async () => {
    for (const s of servers) await s.close()
  })
  const start = async (options: Parameters<typeof startServer>[0]) => {
    const server = await startServer({ port: 0, log: () => {}, ...options })
    servers.push(server)
    return server
  }
  const api = async (server: RunningServer, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.url}${path}`, { method, ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }) })
    return { status: res.status, body: res.status === 204 ? null : ((await res.json()) as any) }
  }

  /** Starts a push and polls its run until it has finished. */
  const pushAndWait = async (server: RunningServer, connectorId: string) => {
    const run = (await api(server, 'POST', `/api/connectors/${connectorId}/push`)).body
    for (;;) {
      await new Promise((r) => setTimeout(r, 50))
      const done = (await api(server, 'GET', `/api/connector-runs/${run.id}`)).body
      if (done.status !== 'running' && done.status !== 'queued') return done
    }
  }

  it('lists the type, pushes every live component into the folder, and refuses code for it', async () => {
    // The package folder, as the README loads it (`--connector ./examples/custom-connector`).
    const server = await start({ dataDir: tempDir(), connectors: [dirname(MODULE)] })
    const types = await api(server, 'GET', '/api/connectors/types')
    const type = types.body.find((t: { type: string }) => t.type === 'json-folder')
    expect(type).toMatchObject({ title: 'Components → JSON folder', defaultCode: null })
    expect(type.configSchema.properties.folder).toMatchObject({ type: 'string' })

    const ids: string[] = []
    for (let i = 0; i < 260; i++) ids.push((await api(server, 'POST', '/api/components', { name: `C ${i}` })).body.id)
    await api(server, 'DELETE', `/api/components/${ids[0]}`)
    const out = join(tempDir(), 'export')
    const bad = await api(server, 'POST', '/api/connectors', { type: 'json-folder', name: 'bad', config: { folder: 'relative' } })
    expect(bad.status).toBe(400)
    expect(bad.body.errors[0].path).toBe('body.config.folder')
    const connector = (await api(server, 'POST', '/api/connectors', { type: 'json-folder', name: 'files', config: { folder: out } })).body
    expect((await api(server, 'GET', `/api/connectors/${connector.id}/code`)).status).toBe(409)
    expect((await api(server, 'POST', `/api/connectors/${connector.id}/test`)).status).toBe(409)
    expect((await api(server, 'POST', '/api/connectors', { type: 'json-folder', name: 'x', config: { folder: out }, code: 'async function push() {}' })).status).toBe(400)

    const done = await pushAndWait(server, connector.id)
    expect(done).toMatchObject({ status: 'succeeded', batchesTotal: 2, batchesSucceeded: 2, entitiesSent: 259 })
    expect(idsIn(out).sort()).toEqual(ids.slice(1).sort())
    expect(done.logs.some((l: string) => /wrote 250 components/.test(l))).toBe(true)
  })

  it('loads connector modules named in <data>/complib.config.json', async () => {
    const dataDir = tempDir()
    writeFileSync(join(dataDir, 'complib.config.json'), JSON.stringify({ connectors: [MODULE] }))
    const server = await start({ dataDir })
    const types = (await api(server, 'GET', '/api/connectors/types')).body.map((t: { type: string }) => t.type)
    expect(types).toEqual(['webhook', 'json-folder'])
  })

  it('refuses to start with a module that exports no connector, or a type loaded twice, naming the module', async () => {
    const dir = tempDir()
    const notAConnector = join(dir, 'nothing.mjs')
    writeFileSync(notAConnector, 'export default { type: "x" }\n')
    await expect(start({ dataDir: tempDir(), connectors: [notAConnector] })).rejects.toThrow(/nothing\.mjs" exports no connector/)
    await expect(start({ dataDir: tempDir(), connectors: [MODULE, MODULE] })).rejects.toThrow(/"json-folder" is already loaded/)
    const badConfig = tempDir()
    writeFileSync(join(badConfig, 'complib.config.json'), JSON.stringify({ connectors: 'x' }))
    await expect(start({ dataDir: badConfig })).rejects.toThrow(/complib\.config\.json: connectors/)
  })

  it('fails the run of a connector whose type is no longer loaded, with a clear error', async () => {
    const dataDir = tempDir()
    const first = await start({ dataDir, connectors: [MODULE] })
    await api(first, 'POST', '/api/components', { name: 'C' })
    const connector = (await api(first, 'POST', '/api/connectors', { type: 'json-folder', name: 'files', config: { folder: join(tempDir(), 'x') } })).body
    await first.close()
    servers.splice(servers.indexOf(first), 1)
    const second = await start({ dataDir })
    const done = await pushAndWait(second, connector.id)
    expect(done.status).toBe('failed')
    expect(done.error).toMatch(/no connector type "json-folder" loaded/)
  })
})
