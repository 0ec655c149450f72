import { execFileSync, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runCli } from '../cli-process'

/** Whether the suite runs at full size (`npm run test:full`) or in CI's bounded form. */
export const FULL = process.env.COMPLIB_FULL === '1'

export interface ServeProcess {
  url: string
  child: ChildProcess
  dataDir: string
  /** Everything the process printed so far, stdout and stderr interleaved in arrival order. */
  output(): string
  /** Null while the process runs. */
  exitCode(): number | null
  /** Resident set size of the server process in bytes (Linux /proc, else `ps`). */
  rss(): number
  /** SIGTERM, then waits for the exit; removes the data folder unless `keepData`. */
  stop(options?: { keepData?: boolean }): Promise<number | null>
}

/**
 * Starts `complib serve` from source as a real process on a free loopback port
 * with its own data folder, and keeps what it prints (for the log checks).
 */
export async function startServe(options: { args?: string[]; env?: Record<string, string>; dataDir?: string } = {}): Promise<ServeProcess> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'complib-reliability-'))
  const { child, done } = runCli(['serve', '--port', '0', '--data', dataDir, ...(options.args ?? [])], options.env ?? {}, /listening on (http:\/\/\S+)/)
  let log = ''
  child.stdout!.on('data', (d) => (log += d))
  child.stderr!.on('data', (d) => (log += d))
  const started = await done
  if (!started.match) throw new Error(`complib serve did not start (exit ${started.code}):\n${started.out}\n${started.err}`)
  let code: number | null = null
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      code = child.exitCode ?? -1
      resolve()
    }
    child.once('exit', (c, signal) => {
      code = c ?? (signal ? -1 : null)
      resolve()
    })
  })
  return {
    url: started.match[1]!,
    child,
    dataDir,
    output: () => log,
    exitCode: () => code,
    rss: () => readRss(child.pid!),
    async stop({ keepData = false } = {}) {
      if (code === null) child.kill('SIGTERM')
      await exited
      if (!keepData && !options.dataDir) rmSync(dataDir, { recursive: true, force: true })
      return code
    },
  }
}

/** Resident set size of a process in bytes. */
export function readRss(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const kb = /VmRSS:\s+(\d+)\s+kB/.exec(status)
    if (kb) return Number(kb[1]) * 1024
  } catch {
    // Not Linux: fall through to ps.
  }
  return Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).trim()) * 1024
}
