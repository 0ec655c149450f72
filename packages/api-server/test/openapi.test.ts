import { createConfig, lintFromString } from '@redocly/openapi-core'
import { Validator } from '@seriousme/openapi-schema-validator'
import { createSqliteStorage } from '@complib/core/sqlite'
import { describe, expect, it } from 'vitest'
import { createApp } from '../src/app'
import { GROUPS } from '../src/routing/define-route'

describe('OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document by an independent validator', async () => {
    const storage = await createSqliteStorage()
    const app = createApp({ storage })
    const res = await app.fetch(new Request('http://x/api/docs'))
    expect(res.status).toBe(200)
    const doc = (await res.json()) as any
    const validator = new Validator()
    const result = await validator.validate(doc)
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)
    expect(doc.openapi).toBe('3.1.0')
    await storage.close()
  })

  it('has one tag per group and every operation in one of them, with a unique operationId', async () => {
    const storage = await createSqliteStorage()
    const doc = (await (await createApp({ storage }).fetch(new Request("http://x/api/docs"))).json()) as any
    expect(doc.tags.map((t: { name: string }) => t.name)).toEqual(Object.keys(GROUPS))
    const ids = new Set<string>()
    for (const item of Object.values(doc.paths) as Record<string, { tags: string[]; operationId: string }>[]) {
      for (const op of Object.values(item)) {
        expect(op.tags).toHaveLength(1)
        expect(Object.keys(GROUPS)).toContain(op.tags[0])
        expect(ids.has(op.operationId)).toBe(false)
        ids.add(op.operationId)
      }
    }
    await storage.close()
  })

  it('is complete for generators: servers, If-Match where it is honoured, and the upload and import bodies', async () => {
    const storage = await createSqliteStorage()
    const doc = (await (await createApp({ storage }).fetch(new Request('http://x/api/docs'))).json()) as any
    await storage.close()
    expect(doc.servers).toEqual([{ url: '/', description: expect.any(String) }])
    const operations = Object.values(doc.paths).flatMap((item) => Object.values(item as Record<string, any>))
    const withIfMatch = operations.filter((op) => (op.parameters ?? []).some((p: any) => p.in === 'header' && p.name === 'if-match'))
    expect(withIfMatch.map((op) => op.operationId).sort()).toEqual(
      ['deleteComponent', 'deleteFootprint', 'deleteSymbol', 'patchAttachment', 'patchCategory', 'patchComponent', 'patchConnector', 'patchFootprint', 'patchImport', 'patchLocation', 'patchManufacturer', 'patchMpn', 'patchParameter', 'patchParameterType', 'patchSource', 'patchSymbol', 'patchTag', 'patchUser', 'patchView', 'putConnectorCode', 'revertComponent'].sort(),
    )
    for (const op of withIfMatch) expect(op.responses['412'], op.operationId).toBeDefined()
    const upload = doc.paths['/api/attachments'].post.requestBody
    expect(Object.keys(upload.content)).toEqual(['multipart/form-data', 'application/octet-stream', '*/*'])
    expect(upload.content['multipart/form-data'].schema.properties.file).toMatchObject({ type: 'string', format: 'binary' })
    expect(Object.keys(doc.paths['/api/imports'].post.requestBody.content)).toEqual(['text/csv', 'application/json'])
    // Every operation with a body says what it takes.
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item as Record<string, any>)) {
        if (['post', 'put', 'patch'].includes(method) && op.requestBody) expect(Object.keys(op.requestBody.content).length, `${method} ${path}`).toBeGreaterThan(0)
      }
    }
  })

  it("passes Redocly's recommended ruleset with no error; the one exception is KiCad's path, which must end with /", async () => {
    const storage = await createSqliteStorage()
    const source = await (await createApp({ storage }).fetch(new Request('http://x/api/docs'))).text()
    await storage.close()
    const problems = await lintFromString({ source, absoluteRef: 'complib-openapi.json', config: await createConfig({ extends: ['recommended'] }) })
    const errors = problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`)
    // KiCad's HTTP library client appends `parts/…` and `categories.json` to the root URL it is given,
    // so the root must end with a slash (root README, "KiCad").
    expect(errors).toEqual(['no-path-trailing-slash at #/paths/~1api~1kicad~1v1~1: `/api/kicad/v1/` should not have a trailing slash.'])
  })
})
