import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const cli = fileURLToPath(new URL('../src/cli.ts', import.meta.url))

/** Runs `complib …` from source; resolves with the first line matching `until`, or the exit. */
export function runCli(args: string[], env: Record<string, string> = {}, until?: RegExp, stdin?: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', cli, ...args], {
    env: { ...process.env, ...env },
    stdio: [stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  })
  if (stdin !== undefined) child.stdin!.end(stdin)
  let out = ''
  let err = ''
  const done = new Promise<{ code: number | null; out: string; err: string; match?: RegExpMatchArray }>((resolve) => {
    child.stdout!.on('data', (d) => {
      out += d
      const match = until && out.match(until)
      if (match) resolve({ code: null, out, err, match })
    })
    child.stderr!.on('data', (d) => (err += d))
    child.on('exit', (code) => resolve({ code, out, err }))
  })
  return { child, done }
}


/** `kill -9`: no handler runs, nothing is flushed; resolves once the process is gone. */
export function killHard(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    child.once('exit', () => resolve())
    child.kill('SIGKILL')
  })
}
