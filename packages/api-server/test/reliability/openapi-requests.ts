import fc from 'fast-check'
import { hostileString, invalid, toJsonText, validish, type Schema, type ValueContext } from './schema-arbitraries'

export interface Param {
  name: string
  schema: Schema
  required: boolean
}

/** One operation of the OpenAPI document, with what the generators need to know about it. */
export interface Operation {
  operationId: string
  method: string
  template: string
  pathParams: Param[]
  queryParams: Param[]
  /** JSON body schema, when the operation takes one. */
  body: Schema | undefined
  /** Takes a raw body (an upload or an import file) rather than JSON. */
  raw: boolean
  /** Reads If-Match (documents 412 for one record). */
  ifMatch: boolean
  /** Largest body the route reads, in bytes. */
  bodyLimit: number
  /** Who may call it (`x-permission`): `public` needs no credential. */
  permission: string
}

/** A request as sent, with why it was made. */
export interface GeneratedRequest {
  op: string
  /** What is wrong with it (`random` when it may be valid). */
  defect: string
  /** An invalid write: the server must answer 4xx and change nothing. */
  mustFail: boolean
  method: string
  path: string
  headers: Record<string, string>
  body?: string | Uint8Array | undefined
  declaredLength?: number | undefined
}

/** Operations whose body is not JSON: the upload (bytes or multipart) and the import file. */
export const RAW_BODY_OPERATIONS = new Set(['uploadAttachment', 'createImport'])

/** Every operation of the document; `limits` gives each one's body limit (operationId → bytes). */
export function readOperations(doc: any, limits: Record<string, number>): Operation[] {
  const ops: Operation[] = []
  for (const [template, item] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      const params: any[] = op.parameters ?? []
      const toParam = (p: any): Param => ({ name: p.name, schema: p.schema ?? {}, required: Boolean(p.required) })
      ops.push({
        operationId: op.operationId,
        method: method.toUpperCase(),
        template,
        pathParams: params.filter((p) => p.in === 'path').map(toParam),
        queryParams: params.filter((p) => p.in === 'query').map(toParam),
        body: op.requestBody?.content?.['application/json']?.schema,
        raw: RAW_BODY_OPERATIONS.has(op.operationId),
        // 412 on a single record's route comes from If-Match; the bulk route's 412 is per item (`ifVersion`).
        ifMatch: Boolean(op.responses?.['412']) && params.some((p) => p.in === 'path'),
        bodyLimit: limits[op.operationId] ?? 1024 * 1024,
        permission: op['x-permission'],
      })
    }
  }
  return ops
}

/** Resolves `$ref`s of the document. */
export function documentContext(doc: any, ids: Record<string, string[]>, ipns: string[]): ValueContext {
  const resolve = (schema: Schema): Schema => {
    let s = schema
    while (s && typeof s.$ref === 'string') {
      const name = s.$ref.replace('#/components/schemas/', '')
      const target = doc.components.schemas[name]
      if (!target) throw new Error(`unresolved ${s.$ref}`)
      s = target
    }
    return s ?? {}
  }
  return { resolve, ids, ipns }
}

/**
 * Requests for one operation. `invalid`: each carries at least one defect the
 * server must refuse (a bad or unknown id, an unknown or bad query parameter,
 * malformed/empty/wrong-root/oversized/wrongly typed JSON, a body value the
 * schema refuses, a stale or malformed If-Match, a broken upload), so a write
 * that succeeds is itself a failure. `random`: plausible requests with hostile
 * values, valid or not, and the defects too.
 */
export function requestArbitrary(op: Operation, ctx: ValueContext, mode: 'invalid' | 'random'): fc.Arbitrary<GeneratedRequest> {
  const base = _baseParts(op, ctx)
  const defects = _defects(op, ctx, base)
  const write = op.method !== 'GET'
  const randomReq = base.map((p) => _build(op, p, 'random', false))
  if (mode === 'invalid' && write) return fc.oneof(...defects.map(([label, arb]) => arb.map((p) => _build(op, p, label, true))))
  const bad = defects.map(([label, arb]) => arb.map((p) => _build(op, p, label, false)))
  return fc.oneof({ weight: bad.length || 1, arbitrary: randomReq }, ...bad.map((arbitrary) => ({ weight: 1, arbitrary })))
}

/** Requests no route answers: unknown paths, traversal, wrong methods on known paths. */
export function unroutedArbitrary(ops: Operation[]): fc.Arbitrary<GeneratedRequest> {
  const known = new Set(ops.map((o) => `${o.method} ${o.template}`))
  const templates = [...new Set(ops.map((o) => o.template))]
  const wrongMethod = fc
    .tuple(fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE'), fc.constantFrom(...templates))
    .filter(([m, t]) => !known.has(`${m} ${t}`))
    .map(([method, template]) => ({ method, path: template.replace(/\{\w+\}/g, 'cmp_01JD7W3T9X4QF5B8S2M6K0N1PZ') }))
  const traversal = fc.tuple(
    fc.constantFrom('GET', 'POST', 'DELETE'),
    fc.constantFrom(
      '/api/../../../../etc/passwd', '/api/docs/ui/..%2F..%2F..%2Fpackage.json', '/api/docs/ui/%2e%2e%2f%2e%2e%2fpackage.json', '/%2e%2e/%2e%2e/etc/passwd',
      '/api/attachments/..%2F..%2Fcomplib.sqlite/content', '/api/kicad/v1/parts/..%2F..%2Fcomplib.sqlite', '/api/docs/ui/..\\..\\package.json',
      // (`/api/components/` is the components route: the router ignores a trailing slash.)
      '/api', '/', '/api/', '/api//components', '/API/COMPONENTS', '/api/components;x', '/api/%00', '/api/%', '/api/%ZZ', '/favicon.ico',
    ),
  ).map(([method, path]) => ({ method, path }))
  const garbage = fc
    .tuple(fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE'), fc.array(hostileString(0, 40), { minLength: 1, maxLength: 4 }))
    .map(([method, segments]) => ({ method, path: `/api/${segments.map(_encodeSegment).join('/')}` }))
  return fc.oneof(wrongMethod, traversal, garbage).map(({ method, path }): GeneratedRequest => ({
    op: '(no route)',
    defect: 'unrouted',
    mustFail: method !== 'GET',
    method,
    path,
    headers: method === 'GET' ? {} : ({ 'content-type': 'application/json' } as Record<string, string>),
    body: method === 'GET' ? undefined : '{"name":"should not be created"}',
  }))
}

interface Parts {
  /** Path segment per parameter: `text` is encoded, `raw` is sent as written. */
  path: Array<{ text: string } | { raw: string }>
  query: Array<[string, string]>
  rawQuery?: string
  headers: Record<string, string>
  /** JSON value (serialized with toJsonText), or the exact text/bytes to send. */
  body?: { json: unknown } | { text: string } | { bytes: Uint8Array } | undefined
  declaredLength?: number
}

function _build(op: Operation, p: Parts, defect: string, mustFail: boolean): GeneratedRequest {
  let i = 0
  const path = op.template.replace(/\{\w+\}/g, () => {
    const v = p.path[i++]!
    return 'raw' in v ? v.raw : _encodeSegment(v.text)
  })
  const query = p.query.map(([k, v]) => `${_encodeSegment(k)}=${_encodeSegment(v)}`)
  if (p.rawQuery) query.push(p.rawQuery)
  const body = p.body === undefined ? undefined : 'json' in p.body ? toJsonText(p.body.json) : 'text' in p.body ? p.body.text : p.body.bytes
  return { op: op.operationId, defect, mustFail, method: op.method, path: query.length ? `${path}?${query.join('&')}` : path, headers: p.headers, body, declaredLength: p.declaredLength }
}

function _baseParts(op: Operation, ctx: ValueContext): fc.Arbitrary<Parts> {
  const path = fc.tuple(...op.pathParams.map((p) => _goodPathValue(p, ctx)))
  const query = fc.subarray(op.queryParams).chain((params) =>
    fc.tuple(...params.map((p) => validish(p.schema, ctx, p.name).map((v) => (Array.isArray(v) ? v.map((x) => [p.name, String(x)] as [string, string]) : [[p.name, String(v)] as [string, string]])))),
  )
  const headers = op.ifMatch ? fc.option(fc.constantFrom('"1"', '*', 'W/"2"'), { nil: undefined }).map((m) => (m ? { 'if-match': m } : {})) : fc.constant({})
  let body: fc.Arbitrary<Parts['body']> = fc.constant(undefined)
  let contentType: fc.Arbitrary<string | undefined> = fc.constant(undefined)
  if (op.body) {
    body = validish(op.body, ctx).map((json) => ({ json }))
    contentType = fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', undefined)
  } else if (op.operationId === 'uploadAttachment') {
    body = fc.uint8Array({ minLength: 1, maxLength: 4096 }).map((bytes) => ({ bytes }))
    contentType = fc.constantFrom('application/pdf', 'text/plain', 'image/svg+xml', 'text/html', 'application/octet-stream')
  } else if (op.operationId === 'createImport') {
    const cell = hostileString(0, 30).map((s) => `"${s.replace(/"/g, '""')}"`)
    const csv = fc.array(fc.array(cell, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 5 }).map((rows) => ({ text: `ipn,Name,Description,Tags\n${rows.map((r) => r.join(',')).join('\n')}\n` }))
    const json = fc.array(fc.dictionary(fc.constantFrom('ipn', 'name', 'Name', 'tags', 'status'), fc.jsonValue({ maxDepth: 2 })), { maxLength: 4 }).map((rows) => ({ text: JSON.stringify(rows) }))
    body = fc.oneof(csv, json)
    contentType = fc.constantFrom('text/csv', 'application/json', undefined)
  }
  return fc.record({ path, query: query.map((q) => q.flat()), headers, body, contentType }).map(({ path, query, headers, body, contentType }) => ({
    path,
    query,
    headers: contentType ? { ...headers, 'content-type': contentType } : headers,
    body,
  }))
}

function _goodPathValue(p: Param, ctx: ValueContext): fc.Arbitrary<{ text: string }> {
  const prefix = /^\^(\w+)_\[/.exec(p.schema.pattern ?? '')?.[1]
  const known = prefix ? ctx.ids[prefix] : p.name === 'ipn' ? ctx.ipns : p.name === 'file' ? (ctx.ids.cmp ?? []).map((id) => `${id}.json`) : undefined
  const any = validish(p.schema, ctx, p.name).map((v) => String(v))
  return (known?.length ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...known) }, { weight: 1, arbitrary: any }) : any).map((text) => ({ text }))
}

function _badPathValue(p: Param, ctx: ValueContext): fc.Arbitrary<{ text: string } | { raw: string }> {
  const known = new Set(Object.values(ctx.ids).flat())
  const options: fc.Arbitrary<{ text: string } | { raw: string }>[] = [
    // A whole segment of `.` or `..` (or `%2e%2e`) is a dot segment: URL parsing resolves it to another
    // path, which is a different request (`DELETE /api/components/x/tags/..` deletes component x), not a bad id.
    hostileString(1, 300)
      .filter((t) => !/^(\.|%2e){1,2}$/i.test(t) && !(p.schema.pattern && new RegExp(p.schema.pattern).test(t)))
      .map((text) => ({ text })),
    fc
      .constantFrom('..%2F..%2Fetc%2Fpasswd', '%2e%2e%2f%2e%2e%2f', '%00', '%', '%E0%A4%A', '%ZZ', '%ED%A0%80', '%C0%AF', 'a%2Fb', '..;', '%252e%252e', '%FF%FE')
      .map((raw) => ({ raw })),
    fc.integer({ min: 1000, max: 6000 }).map((n) => ({ text: 'x'.repeat(n) })),
  ]
  if (p.schema.pattern) options.push(fc.stringMatching(new RegExp(p.schema.pattern)).filter((v) => !known.has(v)).map((text) => ({ text })))
  return fc.oneof(...options)
}

function _defects(op: Operation, ctx: ValueContext, base: fc.Arbitrary<Parts>): Array<[string, fc.Arbitrary<Parts>]> {
  const out: Array<[string, fc.Arbitrary<Parts>]> = []
  const names = new Set(op.queryParams.map((q) => q.name))
  if (op.pathParams.length) {
    const bad = fc.constantFrom(...op.pathParams.keys()).chain((i) => _badPathValue(op.pathParams[i]!, ctx).map((v) => [i, v] as const))
    out.push(['bad path parameter', fc.tuple(base, bad).map(([p, [i, v]]) => ({ ...p, path: p.path.map((x, j) => (j === i ? v : x)) }))])
  }
  const unknownKey = fc.oneof(fc.constantFrom('limt', '__proto__', 'constructor', 'dryrun', 'limit ', 'ID', ''), hostileString(1, 30)).filter((k) => !names.has(k))
  out.push(['unknown query parameter', fc.tuple(base, unknownKey, hostileString(0, 20)).map(([p, k, v]) => ({ ...p, query: [...p.query, [k, v]] }))])
  const badQuery = op.queryParams.map((q) => [q, _invalidQueryValue(q.schema, ctx)] as const).filter((x): x is [Param, fc.Arbitrary<string>] => x[1] !== null)
  if (badQuery.length) {
    const pick = fc.constantFrom(...badQuery).chain(([q, arb]) => arb.map((v) => [q.name, v] as [string, string]))
    out.push(['bad query value', fc.tuple(base, pick).map(([p, [k, v]]) => ({ ...p, query: [...p.query.filter(([n]) => n !== k), [k, v]] }))])
  }
  if (op.body) {
    const json = (parts: Parts, text: string, type = 'application/json'): Parts => ({ ...parts, headers: { ...parts.headers, 'content-type': type }, body: { text } })
    const notJson = fc.oneof(
      fc.constantFrom('{', '{"a":', "{'name':'x'}", '[1,]', 'NaN', '{"name":"x"}}', '\u0000', 'undefined', '{"name":"\\ud800', '{"name":"x",}', '<xml/>', '\uFEFF\uFEFF{}'),
      hostileString(1, 200),
    ).filter((t) => !_parses(t))
    out.push(['malformed JSON', fc.tuple(base, notJson).map(([p, t]) => json(p, t))])
    out.push(['empty body', fc.tuple(base, fc.constantFrom('', ' ', '\r\n\t')).map(([p, t]) => json(p, t))])
    // Roots of a JSON type the body schema does not take (most bodies are objects; a few are arrays).
    const rootType = ctx.resolve(op.body).type
    const roots = [
      ...(rootType !== 'array' ? ['[]', '[{"name":"x"}]'] : []),
      ...(rootType !== 'object' ? ['{}', '{"items":[]}'] : []),
      '1', '"x"', 'null', 'true', '-0', '1e400',
    ]
    const deep = fc.integer({ min: 100, max: 300_000 }).map((n) => (rootType === 'array' ? `${'{"a":'.repeat(n)}1${'}'.repeat(n)}` : `${'['.repeat(n)}${']'.repeat(n)}`))
    out.push(['wrong JSON root', fc.tuple(base, fc.oneof(fc.constantFrom(...roots), deep)).map(([p, t]) => json(p, t))])
    out.push(['unsupported content type', fc.tuple(base, fc.constantFrom('multipart/form-data; boundary=x', 'image/png', 'application/octet-stream')).map(([p, t]) => ({ ...p, headers: { ...p.headers, 'content-type': t } }))])
    out.push(['oversized body', _oversized(op, base)])
    const badBody = invalid(op.body, ctx)
    if (badBody) out.push(['body value the schema refuses', fc.tuple(base, badBody).map(([p, b]) => ({ ...p, headers: { ...p.headers, 'content-type': 'application/json' }, body: { json: b } }))])
  }
  if (op.ifMatch) {
    out.push(['stale If-Match', base.map((p) => ({ ...p, headers: { ...p.headers, 'if-match': '"987654"' } }))])
    out.push(['malformed If-Match', fc.tuple(base, fc.constantFrom('abc', '"x"', 'W/"', '"1", "2"', '-1', '"1.5"', '""')).map(([p, m]) => ({ ...p, headers: { ...p.headers, 'if-match': m } }))])
  }
  if (op.operationId === 'uploadAttachment') {
    const form = (body: string, boundary = 'XyZ') => ({ 'content-type': `multipart/form-data; boundary=${boundary}`, body })
    const brokenForms = fc.constantFrom(
      form('garbage without boundaries'),
      form('--XyZ\r\nContent-Disposition: form-data; name="other"\r\n\r\nno file here\r\n--XyZ--\r\n'),
      form('--XyZ\r\nContent-Disposition: form-data; name="file"; filename="../../../etc/passwd"\r\nContent-Type: text/plain\r\n\r\nroot\r\n--XyZ--\r\n'),
      form('--XyZ\r\nContent-Disposition: form-data; name="file"; filename="ok.txt"\r\n\r\nx\r\n--XyZ\r\nContent-Disposition: form-data; name="name"\r\n\r\n..\\..\\win.ini\r\n--XyZ--\r\n'),
      form('--XyZ\r\nContent-Disposition: form-data; name="file"; filename="ok.txt"\r\n\r\nx\r\n--XyZ\r\nContent-Disposition: form-data; name="kind"\r\n\r\nexecutable\r\n--XyZ--\r\n'),
      form('--XyZ\r\nContent-Disposition: form-data; name="file"; filename="..%2F..%2Fx"\r\n\r\nx'),
      { 'content-type': 'multipart/form-data', body: '--\r\n' },
    )
    out.push(['broken multipart upload', fc.tuple(base, brokenForms).map(([p, f]) => ({ ...p, query: [], headers: { 'content-type': f['content-type'] }, body: { text: f.body } }))])
    out.push(['empty upload', fc.tuple(base, fc.constantFrom('text/plain', 'application/pdf')).map(([p, t]) => ({ ...p, query: [['name', 'empty.txt']], headers: { 'content-type': t }, body: { text: '' } }))])
    out.push(['raw upload without a name', base.map((p) => ({ ...p, query: p.query.filter(([k]) => k !== 'name'), headers: { 'content-type': 'text/plain' }, body: { text: 'bytes' } }))])
    const traversalNames = fc.constantFrom('../../../etc/passwd', '..', '.', 'a/b', '..\\..\\x', '/abs', 'x\u0000.pdf', '')
    out.push(['traversal in the file name', fc.tuple(base, traversalNames).map(([p, n]) => ({ ...p, query: [...p.query.filter(([k]) => k !== 'name'), ['name', n]] }))])
    out.push(['oversized body', _oversized(op, base)])
  }
  if (op.operationId === 'createImport') {
    out.push(['oversized body', _oversized(op, base)])
  }
  return out
}

function _oversized(op: Operation, base: fc.Arbitrary<Parts>): fc.Arbitrary<Parts> {
  const declared = fc.tuple(base, fc.integer({ min: op.bodyLimit + 1, max: op.bodyLimit * 4 })).map(([p, n]): Parts => ({ ...p, declaredLength: n, body: { text: '{"name":' } }))
  // Streamed for real (no Content-Length), for routes with the default limit: the server must count.
  if (op.bodyLimit > 1024 * 1024) return declared
  const streamed = base.map((p): Parts => ({ ...p, headers: { ...p.headers, 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, body: { text: `{"name":"${'x'.repeat(op.bodyLimit)}"}` } }))
  return fc.oneof({ weight: 4, arbitrary: declared }, { weight: 1, arbitrary: streamed })
}

function _invalidQueryValue(schema: Schema, ctx: ValueContext): fc.Arbitrary<string> | null {
  const s = ctx.resolve(schema)
  const union: Schema[] = (s.anyOf ?? s.oneOf ?? [s]).map((b: Schema) => ctx.resolve(b))
  const scalar = union.find((b) => b.type !== 'array') ?? union[0]!
  const options: string[] = []
  if (Array.isArray(scalar.enum)) options.push('bogus', `${scalar.enum[0]}!`)
  if (scalar.type === 'integer' || scalar.type === 'number') {
    options.push('abc', 'NaN', 'Infinity', '1e400', '7px')
    if (scalar.type === 'integer') options.push('1.5')
    if (typeof scalar.minimum === 'number') options.push(String(scalar.minimum - 1))
    if (typeof scalar.maximum === 'number') options.push(String(scalar.maximum + 1))
  }
  if (scalar.type === 'string' && !scalar.enum) {
    if (typeof scalar.maxLength === 'number' && scalar.maxLength <= 4000) options.push('x'.repeat(scalar.maxLength + 1))
    if (scalar.pattern) options.push(...['a/b', 'a b', '../x', 'cmp_0', 'x\u0000'].filter((v) => !new RegExp(scalar.pattern).test(v)))
    if (scalar.format === 'date-time') options.push('yesterday', '2026-13-45T00:00:00Z')
  }
  return options.length ? fc.constantFrom(...options) : null
}

function _parses(text: string): boolean {
  try {
    JSON.parse(text.replace(/^\uFEFF/, ''))
    return true
  } catch {
    return false
  }
}

/** Percent-encodes one path segment; a lone surrogate becomes its (invalid) WTF-8 bytes, as a sloppy client would send it. */
function _encodeSegment(text: string): string {
  let out = ''
  for (const ch of text) {
    const code = ch.codePointAt(0)!
    if (code >= 0xd800 && code <= 0xdfff) out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('')
    else out += encodeURIComponent(ch)
  }
  return out
}
