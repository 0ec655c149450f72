import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import module from 'node:module'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { exec, repoRoot } from '@complib/test-support/tools'

// What a user gets from a clone (`npm run pack`; no package is on a registry):
// @complib/api-server (with core, connector-webhook and sources) packed, installed with npm
// into a project outside the workspace (better-sqlite3 12, optional, is downloaded
// prebuilt or compiled there), and `complib serve` started from its bin: it answers,
// the web interface included, and SIGTERM stops it with the port and the data
// folder released.

const dirs: string[] = []
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true })
})

describe('the packed @complib/api-server', () => {
  it('installs with npm outside the workspace; `complib serve` answers (API and page), and SIGTERM or SIGINT stops it cleanly', { timeout: 600_000 }, async () => {
    const work = await mkdtemp(join(tmpdir(), 'complib-server-pack-'))
    dirs.push(work)
    // `npm run pack`'s script, as the README has it: prepack builds each package's dist first.
    await exec(process.execPath, [join(repoRoot, 'scripts/pack.mjs'), '--out', work, 'core', 'connector-webhook', 'sources', 'api-server'], { maxBuffer: 64 * 1024 * 1024 })
    const tarballs = (await readdir(work)).filter((f) => f.endsWith('.tgz')).map((f) => join(work, f))
    expect(tarballs).toHaveLength(4)

    const project = join(work, 'project')
    await mkdir(project)
    await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'complib-install', private: true }))
    await exec('npm', ['install', ...tarballs, '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], { cwd: project, maxBuffer: 64 * 1024 * 1024 })
    const bin = join(project, 'node_modules/.bin/complib')
    expect(existsSync(bin)).toBe(true)
    // The bin keeps the compiled modules in a cache on disk where Node can (22.1 and later), in the temporary folder.
    const temp = join(work, 'tmp')
    await mkdir(temp)
    const env = { ...process.env, TMPDIR: temp, NODE_COMPILE_CACHE: undefined, NODE_DISABLE_COMPILE_CACHE: undefined }

    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const data = join(work, `data-${signal}`)
      const child = spawn(bin, ['serve', '--port', '0', '--data', data], { cwd: project, env, stdio: ['ignore', 'pipe', 'pipe'] })
      let out = ''
      child.stderr.on('data', (d) => (out += d))
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (d) => {
          out += d
          const match = /listening on (http:\/\/\S+)/.exec(out)
          if (match) resolve(match[1]!)
        })
        child.once('exit', (code) => reject(new Error(`complib serve exited (${code}):\n${out}`)))
      })
      const health = (await (await fetch(`${url}/api/health`)).json()) as { status: string; storage: string; version: string }
      expect(health).toMatchObject({ status: 'ok', storage: 'sqlite' })
      // The page comes with the package (its build copies packages/web's bundle into dist/web).
      const page = await fetch(`${url}/`)
      expect(page.status).toBe(200)
      expect(page.headers.get('content-type')).toMatch(/^text\/html/)
      const html = await page.text()
      const script = /<script[^>]+src="([^"]+\.js)"/.exec(html)?.[1]
      expect(script, html).toMatch(/^\/assets\//)
      const bundle = await fetch(new URL(script!, url))
      expect(bundle.status).toBe(200)
      expect(bundle.headers.get('content-type')).toMatch(/^text\/javascript/)
      expect((await bundle.text()).length).toBeGreaterThan(10_000)
      const created = await fetch(`${url}/api/components`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"from the packed server"}' })
      expect(created.status).toBe(201)

      const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)))
      child.kill(signal)
      expect(await exited, `${signal}: ${out}`).toBe(0)
      const { hostname, port } = new URL(url)
      const refused = await new Promise<boolean>((resolve) => {
        const socket = connect(Number(port), hostname)
        socket.once('connect', () => (socket.destroy(), resolve(false)))
        socket.once('error', () => resolve(true))
      })
      expect(refused, signal).toBe(true)
      expect(existsSync(join(data, 'complib.lock')), signal).toBe(false)
    }
    const cached = existsSync(join(temp, 'node-compile-cache')) ? await readdir(join(temp, 'node-compile-cache'), { recursive: true }) : []
    if (typeof (module as { enableCompileCache?: unknown }).enableCompileCache === 'function') expect(cached.length, `Node ${process.version}`).toBeGreaterThan(0)
    else expect(cached).toEqual([])
  })
})
