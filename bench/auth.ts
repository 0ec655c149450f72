// What credentials cost. A password check (scrypt, decision 1502) timed in
// this process, with the memory each one needs. Then one cheap read (GET one
// component by id, as reads.ts does) against the built server three ways:
// keyless loopback (no account: no credential is checked), and, on a second
// server (one with an account refuses keyless requests) over a copy of the
// same library, with the API key, an API token (`Authorization: Bearer
// clt_…`) and a sign-in session's cookie. The token's and the session's cost
// is read against the API key's, on the same server: two processes never run
// quite alike. The three alternate (in a rotating order) round by round; the
// credential check's share of a read is worked out per round, from the
// request rates and from the server's CPU per request, and the medians quoted.
// Two processes never run quite alike, so the check itself is also timed in
// this process (CPU per call, with a token against none) and set against the
// keyless read's server CPU per request: the row the goal is read from.
import { randomBytes } from 'node:crypto'
import { rmSync } from 'node:fs'
import { createAuthenticator, hashPassword, newToken, presentedCredential, SCRYPT_PARAMS, secretHash, tokenPrefix, verifyPassword } from '@complib/api-server'
import { createSqliteStorage } from '@complib/core/sqlite'
import type { BenchRow, HttpBenchContext } from './http'
import { createRandom } from './lib/library-data'
import { int, load, median, pct, percentile, type LoadRequest, type LoadResult } from './lib/load'
import { copyLibrary, startServerProcess, type ServerProcess } from './lib/server'

/** The goal: checking a token (or a session) costs under this share of a read. */
const GOAL = 0.05
/** A generator past this share of one core is the bottleneck (as in reads.ts). */
const SATURATED = 0.9

type Way = 'none' | 'key' | 'token' | 'session'

export async function benchAuth(ctx: HttpBenchContext, ids: string[]): Promise<BenchRow[]> {
  const reads = await _readRows(ctx, ids)
  return [await _passwordRow(ctx), ...reads.rows, await _checkRow(ctx, reads.readCpuUs)]
}

/**
 * The token check itself, in this process: what the server does for
 * `Authorization: Bearer clt_…` before a route runs (read the header, hash the
 * token, find what it was believed to be), timed over many calls, against the
 * same for no credential; its share of the keyless read's server CPU per
 * request measured above. Two servers' rates differ by more than this check
 * (two processes never run alike), so this is the figure the goal is read from.
 */
async function _checkRow(ctx: HttpBenchContext, readCpuUs: number): Promise<BenchRow> {
  const storage = await createSqliteStorage()
  try {
    const user = await storage.users.create({ username: 'bench', displayName: 'Bench', role: 'editor', passwordHash: await hashPassword('correct horse battery', { N: 1024, r: 8, p: 1 }) })
    const token = newToken()
    await storage.tokens.create({ name: 'bench', scope: 'read', ownerId: user.id, hash: secretHash(token), prefix: tokenPrefix(token), expiresAt: null })
    // The server's settings: an API key set (compared first), credentials believed for 2 s.
    const authenticator = createAuthenticator({ storage, apiKey: randomBytes(24).toString('base64url'), alwaysRequired: true })
    const header = `Bearer ${token}`
    const calls = ctx.quick ? 20_000 : 200_000
    const time = async (check: () => Promise<unknown>) => {
      const rounds: number[] = []
      for (let r = 0; r < 5; r++) {
        const t0 = process.cpuUsage()
        for (let i = 0; i < calls; i++) await check()
        const used = process.cpuUsage(t0)
        rounds.push((used.user + used.system) / calls)
      }
      return median(rounds)
    }
    const withToken = await time(async () => {
      if (!(await authenticator.authenticate(presentedCredential(header, undefined)))) throw new Error('bench: the token was refused')
    })
    const without = await time(() => authenticator.authenticate(presentedCredential(null, undefined)))
    const cost = withToken - without
    const share = cost / readCpuUs
    ctx.log(`token check in process: ${withToken.toFixed(2)} µs with the token, ${without.toFixed(2)} µs without; a keyless read ${readCpuUs.toFixed(0)} µs of server CPU`)
    return {
      scenario: `token check in process: the header read, the token hashed (SHA-256) and found in the 2 s cache, on a server with an API key (${int(calls)} calls × 5, median)`,
      value: withToken,
      subject: `${withToken.toFixed(2)} µs CPU per request with the token`,
      baseline: `${without.toFixed(2)} µs without a credential; a keyless read: ${readCpuUs.toFixed(0)} µs of server CPU (above)`,
      ratio: (withToken / Math.max(without, 0.01)).toFixed(1),
      target: `the token check under ${pct(GOAL)} of a read: ${(share * 100).toFixed(1)}% (${cost.toFixed(2)} µs of ${readCpuUs.toFixed(0)} µs)${share >= GOAL ? ' (missed)' : ''}`,
    }
  } finally {
    await storage.close()
  }
}

/** verifyPassword's time, one at a time and as many at once as libuv's pool runs. */
async function _passwordRow(ctx: HttpBenchContext): Promise<BenchRow> {
  const { N, r, p } = SCRYPT_PARAMS
  const password = 'correct horse battery staple'
  const runs = ctx.quick ? 5 : 30
  const hashes: number[] = []
  const checks: number[] = []
  const stored = await hashPassword(password) // warm-up, untimed
  for (let i = 0; i < runs; i++) {
    let t0 = performance.now()
    await hashPassword(password)
    hashes.push(performance.now() - t0)
    t0 = performance.now()
    if (!(await verifyPassword(password, stored))) throw new Error('bench: verifyPassword refused the password it hashed')
    checks.push(performance.now() - t0)
  }
  // scrypt runs on libuv's thread pool: that many checks at once is what one process can do.
  const pool = Number(process.env.UV_THREADPOOL_SIZE) || 4
  const rates: number[] = []
  for (let b = 0; b < (ctx.quick ? 1 : 3); b++) {
    const t0 = performance.now()
    await Promise.all(Array.from({ length: pool }, () => verifyPassword(password, stored)))
    rates.push((pool * 1000) / (performance.now() - t0))
  }
  // scrypt's large array is 128·N·r bytes (p lanes run one after another here).
  const memory = 128 * N * r
  const mib = (bytes: number) => `${Math.round(bytes / 1048576)} MiB`
  ctx.log(`password check (verifyPassword): ${checks.map((t) => t.toFixed(0)).join(', ')} ms; hash: ${hashes.map((t) => t.toFixed(0)).join(', ')} ms`)
  ctx.log(`password checks ${pool} at once: ${rates.map((x) => x.toFixed(1)).join(', ')} per second`)
  return {
    scenario: `password check: verifyPassword, scrypt N=2^${Math.log2(N)}, r=${r}, p=${p} (${runs} runs, in the bench's process)`,
    subject:
      `median ${median(checks).toFixed(0)} ms, p95 ${percentile(checks, 0.95).toFixed(0)} ms (hashPassword: median ${median(hashes).toFixed(0)} ms); ` +
      `${median(rates).toFixed(1)} checks/s ${pool} at once on ${pool} pool threads; memory 128·N·r = ${mib(memory)} per check, ${mib(memory * pool)} with ${pool} at once`,
    baseline: '—',
    ratio: '—',
    target: '— (a sign-in’s cost, measured; tokens are what scripts use)',
  }
}

/** GET /api/components/:id keyless, with a token and with a session, alternating. */
async function _readRows(ctx: HttpBenchContext, ids: string[]): Promise<{ rows: BenchRow[]; readCpuUs: number }> {
  const random = createRandom(7)
  const requests: LoadRequest[] = Array.from({ length: ctx.quick ? 200 : 2000 }, () => ({ method: 'GET', path: `/api/components/${ids[Math.floor(random() * ids.length)]}` }))
  const noneDir = copyLibrary(ctx.library)
  const keyedDir = copyLibrary(ctx.library)
  const servers: ServerProcess[] = []
  try {
    const none = await startServerProcess(noneDir)
    servers.push(none)
    const apiKey = randomBytes(24).toString('base64url')
    const keyed = await startServerProcess(keyedDir, ['--api-key', apiKey])
    servers.push(keyed)
    const { token, cookie } = await _credentials(keyed.url, apiKey, requests[0]!.path)
    const ways: Record<Way, { server: ServerProcess; headers?: Record<string, string> }> = {
      none: { server: none },
      // The API key on the same server as the token and the session: its check is one hash and a
      // compare, so what a token or session adds to it is what their lookups cost, in one process.
      key: { server: keyed, headers: { authorization: `Bearer ${apiKey}` } },
      token: { server: keyed, headers: { authorization: `Bearer ${token}` } },
      session: { server: keyed, headers: { cookie } },
    }
    const seconds = ctx.quick ? 2 : 5
    const run = (way: Way) => {
      const { server, headers } = ways[way]
      return load({ generator: ctx.generator, url: server.url, connections: 10, seconds, requests, ...(headers ? { headers } : {}), watch: { server: server.pid } })
    }
    const order: Way[] = ['none', 'key', 'token', 'session']
    // Warm-up, untimed: each server reads every component once (the keyed one would otherwise be
    // warmed twice, by the token's and the session's rounds), then a whole round each way (after
    // shorter ones, the first timed round ran at half speed: servers this young still settle).
    for (const way of ['none', 'token'] as const) await _readAll(ways[way].server.url, requests, ways[way].headers ?? {})
    for (const way of order) await run(way)
    const results: Record<Way, LoadResult[]> = { none: [], key: [], token: [], session: [] }
    const rounds = ctx.quick ? 3 : 9
    for (let round = 0; round < rounds; round++) {
      // Each round starts with another of the three, so none of them always follows the same one.
      for (let i = 0; i < order.length; i++) {
        const way = order[(round + i) % order.length]!
        results[way].push(await run(way))
      }
    }
    const perRequest = (l: LoadResult) => (l.cpu.server! * 1e6) / l.rps
    for (const way of order) {
      const list = results[way]
      ctx.log(`read one, ${way}: ${list.map((l) => `${int(l.rps)} (server ${pct(l.cpu.server!)}, ${ctx.generator} ${pct(l.cpu.generator!)})`).join(', ')} req/s; server CPU per request ${list.map((l) => perRequest(l).toFixed(0)).join(', ')} µs`)
    }
    const base = _medianRound(results.key)
    const keyless = _medianRound(results.none)
    const name = `read one: GET /api/components/:id, random ids, ${int(ctx.size)} components`
    const readCpuUs = median(results.none.map(perRequest))
    const rows = (['token', 'session'] as const).map((way) => {
      const s = _medianRound(results[way])
      // Each round's three ran side by side in time, so the shares are taken round by round (the
      // machine's other load drifts between rounds) and their median quoted. A read's time is
      // 1/rps: the credential's share is what it adds to the time of the same read with the API key,
      // on the same server (the keyless server is another process, quoted for reference).
      const shares = results[way].map((l, r) => results.key[r]!.rps / l.rps - 1)
      const cpuShares = results[way].map((l, r) => perRequest(l) / perRequest(results.key[r]!) - 1)
      const share = median(shares)
      const spread = `rounds ${_signed(Math.min(...shares))} to ${_signed(Math.max(...shares))}`
      const limited = [s, base].find(_generatorBound)
      return {
        scenario: `${name}, ${way === 'token' ? 'with an API token (Authorization: Bearer clt_…)' : 'with a sign-in session (the complib_session cookie)'} (${rounds} rounds)`,
        value: s.rps,
        subject: `${int(s.rps)} req/s (p99 ${s.p99Ms.toFixed(1)} ms); CPU: server ${pct(s.cpu.server!)}, ${ctx.generator} ${pct(s.cpu.generator!)}`,
        baseline: `${int(base.rps)} req/s with the API key, same server; CPU: server ${pct(base.cpu.server!)}, ${ctx.generator} ${pct(base.cpu.generator!)} (keyless, another server: ${int(keyless.rps)} req/s)`,
        ratio: (1 / (1 + share)).toFixed(2),
        target:
          `the ${way} check under ${pct(GOAL)} of a read: ${_signed(share)} by request rate (${spread})${share >= GOAL ? ' (missed)' : ''}, ` +
          `${_signed(median(cpuShares))} by server CPU per request` +
          (limited ? ` (the generator was the limit: ${pct(limited.cpu.generator!)} of a core against the ${limited === s ? `${way} read` : 'API-key read'}'s ${pct(limited.cpu.server!)}; the rates measure it)` : ''),
      }
    })
    return { rows, readCpuUs }
  } finally {
    for (const server of servers) await server.stop()
    rmSync(noneDir, { recursive: true, force: true })
    rmSync(keyedDir, { recursive: true, force: true })
  }
}

/**
 * An admin account made with the API key, signed in (the session cookie) and
 * given a read token by that session; checks that the keyed server refuses
 * the read without a credential and answers it with either.
 */
async function _credentials(url: string, apiKey: string, readPath: string): Promise<{ token: string; cookie: string }> {
  const username = 'bench-admin'
  const password = randomBytes(18).toString('base64url')
  const send = async (method: string, path: string, headers: Record<string, string>, body?: object) => {
    const res = await fetch(`${url}${path}`, { method, headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}) })
    return { res, text: await res.text() }
  }
  const expect = (what: string, got: { res: Response; text: string }, status: number) => {
    if (got.res.status !== status) throw new Error(`bench: ${what} answered ${got.res.status}, not ${status}: ${got.text}`)
  }
  expect('POST /api/users with the API key', await send('POST', '/api/users', { authorization: `Bearer ${apiKey}` }, { username, password, role: 'admin' }), 201)
  const login = await send('POST', '/api/auth/login', {}, { username, password })
  expect('POST /api/auth/login', login, 200)
  const session = login.res.headers.getSetCookie().find((c) => c.startsWith('complib_session='))
  if (!session) throw new Error(`bench: POST /api/auth/login set no complib_session cookie (set-cookie: ${login.res.headers.getSetCookie().join(' | ') || 'none'})`)
  const cookie = session.split(';')[0]!
  const created = await send('POST', '/api/tokens', { cookie }, { name: 'bench', scope: 'read' })
  expect('POST /api/tokens with the session cookie', created, 201)
  const token = (JSON.parse(created.text) as { token: string }).token
  expect(`GET ${readPath} without a credential on the keyed server`, await send('GET', readPath, {}), 401)
  expect(`GET ${readPath} with the token`, await send('GET', readPath, { authorization: `Bearer ${token}` }), 200)
  expect(`GET ${readPath} with the session cookie`, await send('GET', readPath, { cookie }), 200)
  return { token, cookie }
}

/** GETs each distinct path once, ten at a time; throws on an answer other than 200. */
async function _readAll(url: string, requests: LoadRequest[], headers: Record<string, string>): Promise<void> {
  const paths = [...new Set(requests.map((r) => r.path))]
  for (let i = 0; i < paths.length; i += 10) {
    await Promise.all(
      paths.slice(i, i + 10).map(async (path) => {
        const res = await fetch(`${url}${path}`, { headers })
        await res.arrayBuffer()
        if (res.status !== 200) throw new Error(`bench: GET ${path} answered ${res.status} while warming up`)
      }),
    )
  }
}

/** Whether the generator, not the server it loaded, limited a round (reads.ts says why). */
function _generatorBound(round: LoadResult): boolean {
  return round.cpu.generator! >= SATURATED || round.cpu.generator! >= round.cpu.server!
}

/** The round with the median request rate (its CPU figures belong to it). */
function _medianRound(rounds: LoadResult[]): LoadResult {
  const rate = median(rounds.map((r) => r.rps))
  return rounds.find((r) => r.rps === rate)!
}

/** A share as a signed percentage: a negative one is noise larger than the cost. */
function _signed(share: number): string {
  return `${share >= 0 ? '+' : '−'}${Math.abs(share * 100).toFixed(1)}%`
}
