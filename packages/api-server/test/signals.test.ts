import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'

// `kill <pid>` of `npm start`, or of the `complib` bin, once left the real
// server running (a re-exec wrapper that passed no signal on), still listening and
// holding the data folder. SIGTERM and SIGINT to the process the user started stop it.
// The bin, as installed from npm, is tested in pack.test.ts (which builds dist; building
// it here too would race that test's rebuild).

const ROOT = fileURLToPath(new URL('../../..', import.meta.url))
const dirs: string[] = []

afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

/** Starts a command, resolves with its listening URL once it prints it. */
function start(command: string, args: string[]): Promise<{ child: ChildProcess; url: string; data: string; output: () => string }> {
  const data = mkdtempSync(join(tmpdir(), 'complib-signals-'))
  dirs.push(data)
  const child = spawn(command, [...args, '--port', '0', '--data', data], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  return new Promise((resolve, reject) => {
    const onData = (d: Buffer) => {
      out += d
      const match = /listening on (http:\/\/\S+)/.exec(out)
      if (match) resolve({ child, url: match[1]!, data, output: () => out })
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', (d) => (out += d))
    child.on('exit', (code) => reject(new Error(`${command} exited (${code}) before listening:\n${out}`)))
  })
}

/** Whether something accepts connections at the URL's port. */
function listening(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname)
    socket.once('connect', () => (socket.destroy(), resolve(true)))
    socket.once('error', () => resolve(false))
  })
}

async function stoppedWithin(ms: number, url: string, data: string, output: () => string): Promise<void> {
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    if (!(await listening(url)) && !existsSync(join(data, 'complib.lock'))) return
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`still listening on ${url} or holding ${data}/complib.lock after ${ms} ms:\n${output()}`)
}

describe('signals stop the server', () => {
  it('SIGTERM to `npm start` stops it: port and data folder released', async () => {
    const { child, url, data, output } = await start('npm', ['start', '--'])
    expect(await listening(url)).toBe(true)
    child.kill('SIGTERM')
    await stoppedWithin(8_000, url, data, output)
  }, 120_000)
})
