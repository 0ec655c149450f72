import { createPushRunner, type PushRunner } from '@complib/connector-webhook'
import { randomBytes } from 'node:crypto'
import { type Storage } from '@complib/core'
import { createPostgresStorage } from '@complib/core/postgres'
import { createSqliteStorage } from '@complib/core/sqlite'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { afterEach, beforeEach, expect } from 'vitest'
import { createApp, type AppOptions } from '../src/app'
import { recordCall } from './route-coverage'
import { ROUTES } from '../src/routes'
import { docsRoutes } from '../src/routes/docs'
import { buildOpenApiDocument } from '../src/routing/openapi'

export interface CallResult<T = any> {
  status: number
  headers: Headers
  body: T
  text: string
}

export interface TestApi {
  storage: Storage
  runner: PushRunner
  /** Sends a request to the app in-process; checks the answer against the OpenAPI document. */
  call<T = any>(method: string, path: string, options?: { body?: unknown; rawBody?: RequestInit['body']; headers?: Record<string, string> }): Promise<CallResult<T>>
  /** Calls and expects `status` (200 by default), returning the body: for the happy path of a test. */
  ok<T = any>(method: string, path: string, body?: unknown, status?: number): Promise<T>
  close(): Promise<void>
}

/**
 * A fresh API (createTestApi) for every test of the calling file, opened before
 * and closed after each. The handle it returns stands for the current one.
 *
 * @example
 * const api = useTestApi()
 * it('lists tags', async () => expect(await api.ok('GET', '/api/tags')).toEqual([]))
 */
export function useTestApi(options: { app?: Partial<AppOptions> } = {}): TestApi {
  let current: TestApi | undefined
  beforeEach(async () => {
    current = await createTestApi(options)
  })
  afterEach(async () => {
    await current?.close()
    current = undefined
  })
  const now = (): TestApi => {
    if (!current) throw new Error('useTestApi: the API exists only while a test runs')
    return current
  }
  return {
    get storage() {
      return now().storage
    },
    get runner() {
      return now().runner
    },
    call: (...args) => now().call(...args),
    ok: (...args) => now().ok(...args),
    close: () => now().close(),
  }
}

/**
 * A fresh in-memory library and app. Every response it returns has been
 * checked: JSON bodies of documented operations validate against the
 * document's own response schema for that status, and every error is
 * application/problem+json. So the tests prove the document true.
 */
export async function createTestApi(options: { dataDir?: string; app?: Partial<AppOptions> } = {}): Promise<TestApi> {
  const storage = await _testStorage(options.dataDir)
  const runner = createPushRunner({ storage })
  const app = createApp({ storage, runner, dataDir: options.dataDir, log: () => {}, ...options.app })
  const validator = await _documentValidator(app)
  const api: TestApi = {
    storage,
    runner,
    async ok(method, path, body, status = 200) {
      const res = await api.call(method, path, body === undefined ? {} : { body })
      expect(res.status, `${method} ${path}: ${res.text}`).toBe(status)
      return res.body
    },
    async call(method, path, { body, rawBody, headers = {} } = {}) {
      const init: RequestInit = { method, headers: { ...headers } }
      if (body !== undefined) {
        init.body = typeof body === 'string' ? body : JSON.stringify(body)
        ;(init.headers as Record<string, string>)['content-type'] ??= 'application/json'
      } else if (rawBody !== undefined) init.body = rawBody
      const res = await app.fetch(new Request(`http://127.0.0.1${path}`, init))
      const text = await res.text()
      const type = res.headers.get('content-type') ?? ''
      const parsed = type.includes('json') && text ? JSON.parse(text) : text
      if (res.status >= 400) {
        expect(type, `${method} ${path} → ${res.status} is not problem+json: ${text}`).toBe('application/problem+json')
        expect(parsed).toMatchObject({ status: res.status, code: expect.any(String), detail: expect.any(String) })
      }
      validator(method, new URL(path, 'http://x').pathname, res.status, type, parsed)
      return { status: res.status, headers: res.headers, body: parsed, text }
    },
    close: async () => {
      await runner.close()
      await storage.close()
    },
  }
  return api
}

type Check = (method: string, path: string, status: number, contentType: string, body: unknown) => void

async function _documentValidator(app: ReturnType<typeof createApp>): Promise<Check> {
  // Built from the routes, as /api/docs serves it: a test app may need credentials to read it.
  void app
  const doc = JSON.parse(JSON.stringify(buildOpenApiDocument([...ROUTES, ...docsRoutes(ROUTES)]))) as {
    paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema?: unknown }> }> }>>
  }
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  addFormats.default(ajv)
  ajv.addSchema({ ...doc, $id: 'openapi' })
  const templates = Object.keys(doc.paths).map((template) => ({
    template,
    regex: new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}$`),
    static: template.split('/').filter((s) => !s.startsWith('{')).length,
  }))
  // Static segments win over parameters, as in the router.
  templates.sort((a, b) => b.static - a.static)
  const cache = new Map<string, ReturnType<Ajv2020['getSchema']>>()
  return (method, path, status, contentType, body) => {
    const match = templates.find((t) => t.regex.test(path))
    if (!match) return
    const operation = doc.paths[match.template]?.[method.toLowerCase()]
    if (!operation) return
    recordCall((operation as unknown as { operationId: string }).operationId, status)
    const response = operation.responses[String(status)]
    expect(response, `${method} ${match.template} answered ${status}, which the document does not list`).toBeDefined()
    const media = contentType.split(';')[0]!.trim()
    if (!response!.content?.[media]?.schema) return
    const pointer = ['paths', match.template, method.toLowerCase(), 'responses', String(status), 'content', media, 'schema']
      .map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1'))
      .join('/')
    const key = `openapi#/${pointer}`
    let validate = cache.get(key)
    if (!validate) {
      validate = ajv.getSchema(key)
      cache.set(key, validate)
    }
    if (validate && !validate(body)) {
      throw new Error(`${method} ${path} → ${status}: body does not match the document: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 500)}`)
    }
  }
}

/**
 * The library under test: SQLite (in memory, or in `dataDir`), or with
 * COMPLIB_TEST_STORAGE=postgres a schema of its own in the PostgreSQL database
 * COMPLIB_TEST_DATABASE_URL names (the local `test` database by default),
 * dropped when the test closes it: the API suite on the second engine
 * (vitest.postgres.config.ts).
 */
async function _testStorage(dataDir: string | undefined): Promise<Storage> {
  if (process.env.COMPLIB_TEST_STORAGE !== 'postgres') return createSqliteStorage(dataDir ? { dir: dataDir } : {})
  const url = process.env.COMPLIB_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
  const storage = await createPostgresStorage({ url, schema: `complib_api_${randomBytes(6).toString('hex')}`, poolSize: 4 })
  return Object.assign(storage, { close: () => storage.dropSchema() })
}
