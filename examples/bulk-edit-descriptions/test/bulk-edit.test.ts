import { execFile } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { startServer, type RunningServer } from '@complib/api-server'
import { createClient, type Component } from '@complib/client-sdk'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isMatch, render } from '../src/bulk-edit'

const exec = promisify(execFile)
const root = fileURLToPath(new URL('..', import.meta.url))

/** Runs the script as a newcomer would (through tsx), answering its exit code and output. */
async function runScript(args: string[]): Promise<{ code: number; out: string; err: string }> {
  try {
    const { stdout, stderr } = await exec(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], { cwd: root, timeout: 20_000 })
    return { code: 0, out: stdout, err: stderr }
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string }
    return { code: e.code, out: e.stdout, err: e.stderr }
  }
}

let server: RunningServer
let dataDir: string
const client = () => createClient({ baseUrl: server.url })
const byIpn = async () => {
  const all = new Map<string, Component>()
  for await (const c of client().components.iterate({ includeDeleted: true })) all.set(c.ipn, c)
  return all
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'complib-bulk-edit-'))
  server = await startServer({ port: 0, dataDir, log: () => {} })
  const c = client()
  await c.components.create({ ipn: 'R-1', name: 'RC0603FR-0710KL', category: 'Resistors' })
  await c.components.create({ ipn: 'R-2', name: '4k7 0603', category: 'Resistors', mpns: [{ manufacturer: 'Yageo', partNumber: 'RC0603FR-074K7L' }] })
  await c.components.create({ ipn: 'R-3', name: 'rc0603 100R', category: 'Resistors', description: 'rc0603 100R, thick film chip resistor' })
  await c.components.create({ ipn: 'C-1', name: 'CL10B104KB8NNNC', category: 'Capacitors', description: 'MLCC' })
  const gone = await c.components.create({ ipn: 'R-4', name: 'RC0603FR-071KL', category: 'Resistors' })
  await c.components.delete(gone.id)
})

afterAll(async () => {
  await server?.close()
  await rm(dataDir, { recursive: true, force: true })
})

const ARGS = () => ['--base-url', server.url, '--match', 'rc0603', '--set', '{name}, thick film chip resistor']

describe('bulk-edit-descriptions', () => {
  it('a dry run prints what would change and changes nothing', async () => {
    const before = await byIpn()
    const run = await runScript([...ARGS(), '--dry-run'])
    expect(run.code, run.err).toBe(0)
    expect(run.out).toContain('4 components listed, 3 match /rc0603/i, 2 to change (dry run: nothing is sent)')
    expect(run.out).toContain('would change R-1: null → "RC0603FR-0710KL, thick film chip resistor"')
    expect(run.out).toContain('would change R-2: null → "4k7 0603, thick film chip resistor"')
    const after = await byIpn()
    for (const [ipn, c] of before) expect(after.get(ipn)!.version, ipn).toBe(c.version)
  })

  it('a real run changes exactly the matching components, with progress and the comment given', async () => {
    const before = await byIpn()
    const run = await runScript([...ARGS(), '--concurrency', '2', '--comment', 'Datasheets rev C: thick film, ±1 %'])
    expect(run.code, run.err).toBe(0)
    expect(run.out).toMatch(/\[1\/2\] R-[12] changed/)
    expect(run.out).toMatch(/\[2\/2\] R-[12] changed/)
    expect(run.out).toContain('2 changed, 0 failed, 1 already up to date')

    const after = await byIpn()
    expect(after.get('R-1')!.description).toBe('RC0603FR-0710KL, thick film chip resistor')
    expect(after.get('R-2')!.description).toBe('4k7 0603, thick film chip resistor')
    for (const ipn of ['R-1', 'R-2']) expect(after.get(ipn)!.version).toBe(before.get(ipn)!.version + 1)
    // Not matching, already up to date, or deleted: untouched.
    for (const ipn of ['R-3', 'C-1', 'R-4']) expect(after.get(ipn)!.version, ipn).toBe(before.get(ipn)!.version)
    expect(after.get('R-4')!.description).toBeNull()
    for (const ipn of ['R-1', 'R-2']) expect((await client().components.history(after.get(ipn)!.id)).items[0]!.comment).toBe('Datasheets rev C: thick film, ±1 %')
  })

  it('refuses a run without --set, with the usage', async () => {
    const run = await runScript(['--match', 'x'])
    expect(run.code).toBe(2)
    expect(run.err).toContain('--match and --set are required')
  })

  it('reports an unreachable server instead of a stack trace', async () => {
    const run = await runScript(['--base-url', 'http://127.0.0.1:9', '--match', 'x', '--set', 'y'])
    expect(run.code).toBe(1)
    expect(run.err).toMatch(/GET \/components: no answer/)
  })
})

describe('the filter and the template', () => {
  const c = { name: 'R 10k', ipn: 'RES-1', category: null, description: null, mpns: [{ manufacturer: 'Yageo', partNumber: 'RC0603FR-0710KL' }] } as unknown as Component

  it('matches name, ipn or a part number', () => {
    expect(isMatch(c, /res-1/i)).toBe(true)
    expect(isMatch(c, /0710kl/i)).toBe(true)
    expect(isMatch(c, /yageo/i)).toBe(false)
  })

  it('fills placeholders, keeps unknown ones, trims', () => {
    expect(render('{description} {name} ({ipn}) {category}', c)).toBe('R 10k (RES-1)')
    expect(render('{nope}', c)).toBe('{nope}')
  })
})
