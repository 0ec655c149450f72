import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { allComponents, type Complib, createToken, startComplib } from '@complib/example-test-support'

const SCRIPT = fileURLToPath(new URL('../bulk_edit.py', import.meta.url))
const API_KEY = 'bulk-edit-test-key'
const MATCH = '^R \\d+ 0603'
const TEMPLATE = 'Thick film resistor, {name} ({ipn})'

let complib: Complib
let deleted: string[]

beforeAll(async () => {
  complib = await startComplib({ apiKey: API_KEY })
  // 530 components, 3 of them deleted: 527 listed, over 6 pages of 100.
  const items = Array.from({ length: 530 }, (_, i) => ({
    name: i % 5 === 0 ? `R ${i} 0603 ±1 %` : i % 5 === 1 ? `R ${i} 0805` : `C ${i} 0603`,
    description: i % 3 === 0 ? null : `part ${i}`,
    tags: i % 2 === 0 ? ['smd'] : [],
    mpns: i % 5 === 0 ? [{ manufacturer: 'Yageo', partNumber: `RC0603FR-07${i}L` }] : [],
  }))
  await complib.call('POST', '/api/bulk/components', { items })
  const resistors = Object.values(await allComponents(complib)).filter((c) => / 0603 ±/.test(c.name))
  deleted = resistors.slice(0, 3).map((c) => c.id)
  for (const id of deleted) await complib.call('DELETE', `/api/components/${id}`)
})

afterAll(async () => {
  await complib?.close()
})

/** Runs bulk_edit.py in a python3 process (asynchronously: the server answers from this same process). */
function run(args: string[], { env = { COMPLIB_URL: complib.url, COMPLIB_API_KEY: API_KEY } as Record<string, string> } = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const { COMPLIB_URL: _, COMPLIB_API_KEY: __, COMPLIB_TOKEN: ___, ...inherited } = process.env
    const child = spawn('python3', [SCRIPT, ...args], { env: { ...inherited, ...env, PYTHONDONTWRITEBYTECODE: '1' } })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (c: Buffer) => (stdout += c))
    child.stderr.on('data', (c: Buffer) => (stderr += c))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

const isMatch = (c: { name: string; deletedAt?: unknown }) => !c.deletedAt && new RegExp(MATCH, 'i').test(c.name)

describe('python bulk_edit.py against a real complib server', () => {
  it('dry run: lists every page, reports what would change, and changes nothing', async () => {
    const before = await allComponents(complib)
    const expected = Object.values(before).filter(isMatch)
    expect(expected).toHaveLength(103)
    const { code, stdout, stderr } = await run(['--match', MATCH, '--set', TEMPLATE, '--dry-run', '--page-size', '100'])
    expect(code, stdout + stderr).toBe(0)
    expect(stderr.trim().split('\n')).toEqual(['listed 100/527', 'listed 200/527', 'listed 300/527', 'listed 400/527', 'listed 500/527', 'listed 527/527'])
    expect(stdout).toContain('dry run: nothing is changed')
    expect(stdout).toContain('527 components, 103 match')
    expect(stdout.match(/: would set /g)).toHaveLength(103)
    expect(stdout).toContain('done: 103 matched, 103 would change, 0 already so, 0 failed')
    expect(await allComponents(complib)).toEqual(before)
  })

  it('real run: changes exactly the matching components, each once', async () => {
    const before = await allComponents(complib)
    const { code, stdout, stderr } = await run(['--match', MATCH, '--set', TEMPLATE, '--page-size', '100'])
    expect(code, stdout + stderr).toBe(0)
    expect(stdout).toContain('done: 103 matched, 103 changed, 0 already so, 0 failed')
    const after = await allComponents(complib)
    expect(Object.keys(after)).toEqual(Object.keys(before))
    for (const [id, old] of Object.entries(before)) {
      if (isMatch(old)) {
        expect(after[id]).toMatchObject({ description: `Thick film resistor, ${old.name} (${old.ipn})`, version: old.version + 1 })
      } else {
        expect(after[id], `${old.name} should be untouched`).toEqual(old)
      }
    }
    for (const id of deleted) expect(after[id]!.description).toBe(before[id]!.description)
  })

  it('running it again changes nothing: every match is already so', async () => {
    const before = await allComponents(complib)
    const { code, stdout } = await run(['--match', MATCH, '--set', TEMPLATE])
    expect(code).toBe(0)
    expect(stdout).toContain('done: 103 matched, 0 changed, 103 already so, 0 failed')
    expect(await allComponents(complib)).toEqual(before)
  })

  it('matches part numbers and ipns too', async () => {
    const byPart = await run(['--match', '^rc0603fr', '--set', TEMPLATE, '--dry-run'])
    expect(byPart.stdout).toContain('527 components, 103 match')
    const [one] = Object.values(await allComponents(complib)).filter((c) => !c.deletedAt)
    const byIpn = await run(['--match', `^${one!.ipn}$`, '--set', TEMPLATE, '--dry-run'])
    expect(byIpn.stdout).toContain('527 components, 1 match')
    expect(byIpn.stdout).toContain(one!.id)
  })

  it('filters by tag (on the server) and empty description', async () => {
    const before = await allComponents(complib)
    const expected = Object.values(before).filter((c) => !c.deletedAt && (c.tags as string[]).includes('smd') && !c.description)
    expect(expected.length).toBeGreaterThan(10)
    const { code, stdout } = await run(['--tag', 'SMD', '--only-empty', '--set', 'SMD part {name}'])
    expect(code, stdout).toBe(0)
    expect(stdout).toContain(`done: ${expected.length} matched, ${expected.length} changed`)
    const after = await allComponents(complib)
    const changed = Object.keys(after).filter((id) => after[id]!.version !== before[id]!.version)
    expect(changed.sort()).toEqual(expected.map((c) => c.id).sort())
    for (const c of expected) expect(after[c.id]!.description).toBe(`SMD part ${c.name}`)
  })

  it('explains a problem+json error, naming the field, and goes on with the others', async () => {
    const before = await allComponents(complib)
    const { code, stdout } = await run(['--match', '^C 1[0-9] 0603$', '--set', 'x'.repeat(10_001)])
    expect(code).toBe(1)
    expect(stdout).toMatch(/PATCH \/api\/components\/cmp_\w+: 400 .*\[VALIDATION_FAILED\]/)
    expect(stdout).toContain('body.description: ')
    expect(stdout).toMatch(/done: 6 matched, 0 changed, 0 already so, 6 failed/)
    expect(await allComponents(complib)).toEqual(before)
  })

  it('needs a credential: a clear 401 without it; COMPLIB_API_KEY or --api-key', async () => {
    const without = await run(['--set', 'x', '--dry-run'], { env: { COMPLIB_URL: complib.url } })
    expect(without.code).toBe(1)
    expect(without.stderr).toMatch(/error: GET \/api\/components: 401 .*\[UNAUTHORIZED\]: \S/)
    const wrong = await run(['--set', 'x', '--dry-run', '--api-key', 'wrong'], { env: { COMPLIB_URL: complib.url } })
    expect(wrong.code).toBe(1)
    const flag = await run(['--set', 'x', '--dry-run', '--api-key', API_KEY, '--base-url', complib.url], { env: {} })
    expect(flag.code, flag.stderr).toBe(0)
    expect(flag.stdout).toContain('527 components, 527 match')
  })

  it('signs in with COMPLIB_TOKEN (before COMPLIB_API_KEY); --comment goes into the history, under the token owner', async () => {
    const token = await createToken(complib, { username: 'grace', role: 'editor', scope: 'write' })
    const [one] = Object.values(await allComponents(complib)).filter((c) => !c.deletedAt)
    const args = ['--match', `^${one!.ipn}$`, '--set', 'checked against rev C', '--comment', 'Datasheet rev C, p. 3: 1 % → 5 %']
    const { code, stdout, stderr } = await run(args, { env: { COMPLIB_URL: complib.url, COMPLIB_TOKEN: token, COMPLIB_API_KEY: 'wrong' } })
    expect(code, stdout + stderr).toBe(0)
    expect(stdout).toContain('done: 1 matched, 1 changed')
    const [latest] = await complib.call('GET', `/api/components/${one!.id}/history?limit=1`)
    expect(latest).toMatchObject({ comment: 'Datasheet rev C, p. 3: 1 % → 5 %', actor: { kind: 'token', name: expect.stringContaining('grace') } })
  })

  it('says when the server cannot be reached, and refuses bad arguments with exit code 2', async () => {
    const unreachable = await run(['--set', 'x', '--url', 'http://127.0.0.1:9'])
    expect(unreachable.code).toBe(1)
    expect(unreachable.stderr).toMatch(/error: cannot reach http:\/\/127\.0\.0\.1:9: .*refused/i)
    for (const [args, message] of [
      [['--set', '{nam}'], /--set: unknown field \{nam\}/],
      [['--set', 'x', '--match', '('], /--match: /],
      [['--set', 'x', '--page-size', '0'], /--page-size: 1 to 100000/],
      [[], /the following arguments are required: --set/],
    ] as const) {
      const result = await run([...args])
      expect(result.code, args.join(' ')).toBe(2)
      expect(result.stderr).toMatch(message)
    }
  })
})
