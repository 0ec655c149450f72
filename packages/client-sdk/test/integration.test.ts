import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startServer, type RunningServer } from '@complib/api-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ComplibApiError, ConflictError, NotFoundError, PreconditionFailedError, ValidationError, createClient, type ComplibClient, type PatchManyProgress } from '../src/index'

// One real server on a temporary data folder for the whole file: the client
// against the HTTP API as scripts see it (real Link headers, ETags, problems).
let server: RunningServer
let dataDir: string
let client: ComplibClient
let inFlight = 0
let maxInFlight = 0

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'complib-sdk-'))
  server = await startServer({ port: 0, dataDir, log: () => {} })
  // Counts requests in flight, to check the bound of patchMany against the real server.
  const counting: typeof fetch = async (input, init) => {
    maxInFlight = Math.max(maxInFlight, ++inFlight)
    try {
      return await fetch(input, init)
    } finally {
      inFlight--
    }
  }
  client = createClient({ baseUrl: server.url, fetch: counting })
})

afterAll(async () => {
  await server?.close()
  await rm(dataDir, { recursive: true, force: true })
})

describe('client-sdk against a running server', () => {
  it('creates, gets, lists and iterates components across pages', async () => {
    const created = []
    for (let i = 1; i <= 7; i++) created.push(await client.components.create({ name: `R ${i}k 0603`, category: 'Resistors', tags: i % 2 ? ['odd'] : [] }))
    expect(created[0]).toMatchObject({ ipn: 'CMP-00001', version: 1, status: 'active' })
    expect((await client.components.get(created[2]!.id)).name).toBe('R 3k 0603')

    const page = await client.components.list({ limit: 3 })
    expect(page.items).toHaveLength(3)
    expect(page.total).toBe(7)
    expect(page.nextCursor).toEqual(expect.any(String))

    const names: string[] = []
    for await (const c of client.components.iterate({ limit: 2 })) names.push(c.name)
    expect(names).toEqual(created.map((c) => c.name))
    const odd: string[] = []
    for await (const c of client.components.iterate({ tag: 'odd', limit: 1 })) odd.push(c.name)
    expect(odd).toEqual(['R 1k 0603', 'R 3k 0603', 'R 5k 0603', 'R 7k 0603'])
  })

  it('patches with ifMatch; a stale version is a typed 412 and changes nothing', async () => {
    const c = await client.components.create({ name: 'C 100n 0402' })
    const patched = await client.components.patch(c.id, { description: 'X7R' }, { ifMatch: c.version })
    expect(patched).toMatchObject({ description: 'X7R', version: c.version + 1 })

    const stale = await client.components.patch(c.id, { description: 'overwritten' }, { ifMatch: c.version }).catch((e: unknown) => e)
    expect(stale).toBeInstanceOf(PreconditionFailedError)
    expect(stale).toMatchObject({ status: 412, code: 'PRECONDITION_FAILED' })
    expect((await client.components.get(c.id)).description).toBe('X7R')
  })

  it('deletes softly and restores', async () => {
    const c = await client.components.create({ name: 'U LM358' })
    await client.components.delete(c.id)
    await expect(client.components.get(c.id)).rejects.toBeInstanceOf(NotFoundError)
    expect((await client.components.get(c.id, { includeDeleted: true })).deletedAt).toEqual(expect.any(String))
    const restored = await client.components.restore(c.id)
    expect(restored.deletedAt).toBeNull()
    expect((await client.components.history(c.id)).items.map((h) => h.op)).toEqual(['restore', 'delete', 'create'])
  })

  it('answers bad input with typed errors naming the field', async () => {
    const invalid = await client.components.create({ name: 'x', ipn: 'has space' }).catch((e: unknown) => e)
    expect(invalid).toBeInstanceOf(ValidationError)
    expect((invalid as ValidationError).errors.map((e) => e.path)).toContain('body.ipn')
    await client.components.create({ name: 'dup', ipn: 'DUP-1' })
    await expect(client.components.create({ name: 'dup again', ipn: 'dup-1' })).rejects.toBeInstanceOf(ConflictError)
    // @ts-expect-error a typo the types catch; the server refuses it too
    await expect(client.components.patch((await client.components.getByIpn('DUP-1')).id, { descripton: 'x' })).rejects.toBeInstanceOf(ValidationError)
    await expect(client.suggest('components', '')).rejects.toMatchObject({ status: 400, errors: [expect.objectContaining({ path: 'query.q' })] })
  })

  it('suggests, best match first', async () => {
    await client.components.create({ name: 'RC0603FR-0710KL', mpns: [{ manufacturer: 'Yageo', partNumber: 'RC0603FR-0710KL' }] })
    const suggestions = await client.suggest('components', 'RC0603', { limit: 3 })
    expect(suggestions[0]).toMatchObject({ entity: 'components', label: expect.stringContaining('RC0603FR-0710KL') })
    expect((await client.search('Yageo')).manufacturers[0]!.label).toBe('Yageo')
  })

  it('patchMany edits every matching component with bounded concurrency and progress', async () => {
    const targets = []
    for await (const c of client.components.iterate({ category: 'Resistors' })) targets.push({ id: c.id, patch: { description: `${c.name}, thick film` }, ifMatch: c.version })
    expect(targets).toHaveLength(7)
    maxInFlight = 0
    const progress: PatchManyProgress[] = []
    const result = await client.components.patchMany(targets, { concurrency: 2, onProgress: (p) => progress.push(p) })
    expect(result).toEqual({ patched: 7, failed: [], stopped: false })
    expect(maxInFlight).toBeLessThanOrEqual(2)
    expect(progress.map((p) => p.done)).toEqual([1, 2, 3, 4, 5, 6, 7])
    for await (const c of client.components.iterate({ category: 'Resistors' })) expect(c.description).toBe(`${c.name}, thick film`)

    // The same edits again carry stale versions now: every one is a 412, nothing is overwritten.
    const again = await client.components.patchMany(targets, { concurrency: 3 })
    expect(again.patched).toBe(0)
    expect(again.failed.every((f) => f.error instanceof PreconditionFailedError)).toBe(true)
  })

  it('covers the other groups a script uses: tags, stock, bulk dry run, connectors, exports', async () => {
    const c = await client.components.create({ name: 'D 1N4148' })
    expect((await client.tags.setOnComponent(c.id, ['diode', 'smd'])).tags).toEqual(['diode', 'smd'])
    const shelf = await client.locations.create({ name: 'Shelf A' })
    await client.stock.set(c.id, shelf.id, 100)
    await client.stock.adjust({ componentId: c.id, locationId: shelf.id, delta: -30 })
    expect((await client.stock.forComponent(c.id))[0]).toMatchObject({ locationId: shelf.id, quantity: 70 })

    // The category tree: a rename keeps the id and moves the components with it.
    const passives = await client.categories.create({ name: 'Passives' })
    const resistors = await client.categories.create({ name: 'Resistors', parentId: passives.id })
    const r = await client.components.create({ name: 'R 1k', category: 'Passives/Resistors' })
    await client.categories.patch(passives.id, { name: 'Passive parts' })
    expect((await client.components.get(r.id)).category).toBe('Passive parts/Resistors')
    expect((await client.categories.get(resistors.id)).path).toBe('Passive parts/Resistors')
    expect((await client.categories.list()).map((x) => x.path).filter((p) => p.startsWith('Passive'))).toEqual(['Passive parts', 'Passive parts/Resistors'])
    await expect(client.categories.delete(resistors.id)).rejects.toBeInstanceOf(ConflictError)

    // Templates: the category's parameters, checked on every write; the report lists what a write would refuse.
    const resistance = await client.parameterTypes.create({ name: 'Resistance', unit: 'Ω', kind: 'number', min: 0 })
    expect(await client.categories.setTemplates(passives.id, [{ parameterType: 'Resistance', required: true, isValue: true }])).toMatchObject([{ parameterType: 'Resistance', required: true, isValue: true }])
    expect(await client.categories.templates(resistors.id)).toMatchObject([{ categoryId: passives.id, parameterTypeId: resistance.id }])
    await expect(client.categories.setTemplates(resistors.id, [{ parameterType: 'Ohms' }])).rejects.toBeInstanceOf(ValidationError)
    await expect(client.components.create({ name: 'R bad', category: 'Passive parts/Resistors', parameters: [{ type: 'Resistance', value: 'ten kilo' }] })).rejects.toBeInstanceOf(ValidationError)
    expect((await client.parameterTypes.report({ limit: 5 })).missingRequired).toMatchObject({ total: 1, items: [{ componentId: r.id, missing: ['Resistance'] }] })
    await expect(client.parameterTypes.delete(resistance.id)).rejects.toBeInstanceOf(ConflictError)
    await client.categories.setTemplates(passives.id, [])

    const dry = await client.bulk.patch({ items: [{ id: c.id, patch: { status: 'obsolete' } }], dryRun: true })
    expect(dry).toMatchObject({ dryRun: true, count: 1, jobId: null })
    expect((await client.components.get(c.id)).status).toBe('active')

    const connector = await client.connectors.create({ name: 'ERP', config: { url: 'http://127.0.0.1:9/hooks' } })
    expect((await client.connectors.getCode(connector.id)).isDefault).toBe(true)
    expect((await client.connectors.types()).map((t) => t.type)).toContain('webhook')
    expect((await client.connectors.list()).items.map((x) => x.name)).toEqual(['ERP'])

    const exported = await client.exports.components()
    expect(exported.map((x) => x.id)).toContain(c.id)
    expect((await client.stats()).components).toBe(exported.length)
  })
})

describe('client-sdk with accounts: the API key makes a user, who signs in and makes a token a script uses', () => {
  let keyed: RunningServer
  let keyedDir: string

  beforeAll(async () => {
    keyedDir = await mkdtemp(join(tmpdir(), 'complib-sdk-accounts-'))
    keyed = await startServer({ port: 0, dataDir: keyedDir, apiKey: 'bootstrap-key', log: () => {} })
  })

  afterAll(async () => {
    await keyed?.close()
    await rm(keyedDir, { recursive: true, force: true })
  })

  it('creates a user, signs in, makes a token; the token writes with a comment that history and the audit trail keep; a revoked token stops', async () => {
    const admin = createClient({ baseUrl: keyed.url, apiKey: 'bootstrap-key' })
    const ada = await admin.users.create({ username: 'Ada', password: 'a long passphrase', role: 'editor' })
    expect(ada).toMatchObject({ username: 'ada', displayName: 'ada', role: 'editor', disabled: false })
    expect((await admin.users.list({ q: 'ad' })).items.map((u) => u.id)).toEqual([ada.id])

    // The session cookie, kept by hand: Node's fetch holds none, a browser would.
    let cookie: string | undefined
    const withCookies: typeof fetch = async (input, init) => {
      const req = new Request(input, init)
      if (cookie) req.headers.set('cookie', cookie)
      const res = await fetch(req)
      for (const set of res.headers.getSetCookie()) cookie = set.split(';')[0]
      return res
    }
    const browser = createClient({ baseUrl: keyed.url, fetch: withCookies })
    await expect(browser.auth.login({ username: 'ada', password: 'wrong password' })).rejects.toMatchObject({ status: 401 })
    expect((await browser.auth.login({ username: 'ada', password: 'a long passphrase' })).user?.id).toBe(ada.id)
    expect(cookie).toMatch(/^complib_session=./)
    const made = await browser.tokens.create({ name: 'nightly', scope: 'write' })
    expect(made).toMatchObject({ name: 'nightly', scope: 'write', owner: { id: ada.id, username: 'ada' }, token: expect.stringMatching(/^clt_/) })

    const script = createClient({ baseUrl: keyed.url, token: made.token })
    expect(await script.auth.me()).toMatchObject({ user: { id: ada.id }, actor: { kind: 'token' }, role: 'editor', authRequired: true })
    const c = await script.components.create({ name: 'R 10k 0603' })
    const why = 'Datasheet rev C: 1% tolerance, Ω'
    const patched = await script.withComment(why).components.patch(c.id, { description: 'thick film' }, { ifMatch: c.version })
    expect((await script.components.history(c.id)).items[0]).toMatchObject({ version: patched.version, comment: why, actor: { kind: 'token', name: expect.stringContaining('ada') } })
    const reverted = await script.withComment('back to the first version').components.revert(c.id, 1, { ifMatch: patched.version })
    expect(reverted).toMatchObject({ version: patched.version + 1, description: null })
    const entries = (await admin.audit.list({ targetId: c.id })).items
    expect(entries.slice(0, 2).map((e) => [e.actor.kind, e.comment])).toEqual([
      ['token', 'back to the first version'],
      ['token', why],
    ])
    expect((await admin.audit.verify()).intact).toBe(true)
    // A script's token cannot do what its scope leaves out, whatever its owner may do.
    await expect(script.users.list()).rejects.toMatchObject({ status: 403 })

    expect((await browser.tokens.list()).items.map((t) => t.id)).toEqual([made.id])
    await browser.tokens.revoke(made.id)
    await expect(script.components.get(c.id)).rejects.toSatisfy((e) => e instanceof ComplibApiError && e.status === 401)
    await browser.auth.logout()
    await expect(browser.auth.me()).rejects.toMatchObject({ status: 401 })
  })
})
