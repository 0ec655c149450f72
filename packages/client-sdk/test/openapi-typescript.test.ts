import { mkdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startServer, type RunningServer } from '@complib/api-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { exec, tsc } from '@complib/test-support/tools'

const packageRoot = fileURLToPath(new URL('..', import.meta.url))

// "The API must be easy in any language": a client generated from /api/docs by
// openapi-typescript, with openapi-fetch, type-checks a script and runs it.
// The work folder sits under node_modules so the script resolves openapi-fetch.
const work = join(packageRoot, 'node_modules/.cache/openapi-typescript-test')
const cli = join(packageRoot, 'node_modules/openapi-typescript/bin/cli.js')
let server: RunningServer

beforeAll(async () => {
  await rm(work, { recursive: true, force: true })
  await mkdir(work, { recursive: true })
  server = await startServer({ port: 0, dataDir: join(work, 'data'), log: () => {} })
})

afterAll(async () => {
  await server?.close()
  await rm(work, { recursive: true, force: true })
})

const SCRIPT = `
import createClient from 'openapi-fetch'
import type { components, paths } from './complib-api.js'

type Component = components['schemas']['Component']
const api = createClient<paths>({ baseUrl: process.argv[2] })

const created = await api.POST('/api/components', { body: { name: 'RC0603FR-0710KL', tags: ['smd'] } })
if (!created.data) throw new Error(JSON.stringify(created.error))
const id: string = created.data.id
const status: Component['status'] = created.data.status

const listed = await api.GET('/api/components', { params: { query: { limit: 10, tag: 'smd' } } })
const patched = await api.PATCH('/api/components/{id}', {
  params: { path: { id } },
  headers: { 'if-match': '"' + created.data.version + '"' },
  body: { description: 'thick film', status: 'nrnd' },
})
const stale = await api.PATCH('/api/components/{id}', { params: { path: { id } }, headers: { 'if-match': '"1"' }, body: { description: 'lost' } })
const suggested = await api.GET('/api/suggest', { params: { query: { entity: 'components', q: 'rc06' } } })
const invalid = await api.GET('/api/suggest', { params: { query: { entity: 'components', q: 'x', limit: 99 } } })

// The generated types hold the schemas' rules:
// @ts-expect-error no such route
void (() => api.GET('/api/widgets'))
// @ts-expect-error a component needs a name
void (() => api.POST('/api/components', { body: { description: 'x' } }))
// @ts-expect-error not a status
void (() => api.PATCH('/api/components/{id}', { params: { path: { id } }, body: { status: 'retired' } }))
// @ts-expect-error not an entity of suggest
void (() => api.GET('/api/suggest', { params: { query: { entity: 'widgets', q: 'x' } } }))

console.log(JSON.stringify({
  status,
  listed: listed.data?.map((c) => c.name),
  patched: [patched.data?.description, patched.data?.status],
  stale: [stale.response.status, stale.error?.code],
  suggested: suggested.data?.[0]?.label,
  invalid: [invalid.response.status, invalid.error?.errors?.[0]?.path],
}))
`

describe('openapi-typescript client from /api/docs', () => {
  it('generates types that type-check a script, which then runs against the server', async () => {
    // What a user of another toolchain runs: the CLI against the live document.
    await exec(process.execPath, [cli, `${server.url}/api/docs`, '--output', join(work, 'complib-api.d.ts')], { cwd: work })
    await writeFile(join(work, 'script.ts'), SCRIPT)
    await writeFile(
      join(work, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, outDir: 'out', types: ['node'] },
        files: ['script.ts'],
      }),
    )
    await writeFile(join(work, 'package.json'), JSON.stringify({ type: 'module', private: true }))
    const check = await exec(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: work }).catch((e: { stdout: string }) => ({ stdout: e.stdout, failed: true }))
    expect(check.stdout).toBe('')

    const { stdout } = await exec(process.execPath, ['out/script.js', server.url], { cwd: work })
    expect(JSON.parse(stdout)).toEqual({
      status: 'active',
      listed: ['RC0603FR-0710KL'],
      patched: ['thick film', 'nrnd'],
      stale: [412, 'PRECONDITION_FAILED'],
      suggested: expect.stringContaining('RC0603FR-0710KL'),
      invalid: [400, 'query.limit'],
    })
  }, 60_000)
})
