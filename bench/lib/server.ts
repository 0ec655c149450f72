// The server as users run it: the built `complib serve` in its own process,
// on a data folder holding a generated library. Library folders are made once
// per size and generator version and copied for every server that writes to one.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { createHash } from 'node:crypto'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { createSqliteStorage } from '@complib/core/sqlite'
import { seedLibrary } from './library-data'
import { processCpuMs } from './load'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const CACHE = join(ROOT, 'node_modules/.cache/complib-bench')
const BIN = join(ROOT, 'packages/api-server/bin/complib.mjs')

/** Builds the packages the server needs (turbo caches an unchanged build). */
export function buildServer(): void {
  const res = spawnSync('pnpm', ['exec', 'turbo', 'run', 'build', '--filter=@complib/api-server...', '--output-logs=errors-only'], { cwd: ROOT, stdio: 'inherit' })
  if (res.status !== 0) throw new Error('bench: building the server failed')
}

/**
 * A data folder with `size` generated components, made once and kept in
 * node_modules/.cache (keyed by the generator, the schema and the engine's
 * settings, so a change to any makes a new one). Never written to: see copyLibrary.
 */
export async function libraryFolder(size: number, log: (line: string) => void): Promise<string> {
  const key = createHash('sha256')
    .update(readFileSync(join(ROOT, 'bench/lib/library-data.ts')))
    .update(readFileSync(join(ROOT, 'packages/core/src/storage/sqlite/schema.ts')))
    .update(readFileSync(join(ROOT, 'packages/core/src/storage/sqlite/engine/database.ts')))
    .digest('hex')
    .slice(0, 12)
  const dir = join(CACHE, `library-${size}-${key}`)
  if (existsSync(join(dir, 'complib.db'))) return dir
  const t0 = performance.now()
  const building = `${dir}.building-${process.pid}`
  rmSync(building, { recursive: true, force: true })
  mkdirSync(building, { recursive: true })
  const storage = await createSqliteStorage({ dir: building })
  await seedLibrary(storage, size)
  // The word indexes merged, as a server leaves them a moment after its writes (index-merge.ts).
  await storage.indexMerges.settled()
  await storage.close()
  rmSync(join(building, 'complib.lock'), { force: true })
  // Another bench process may have made the same library meanwhile: the first one made is kept.
  if (existsSync(join(dir, 'complib.db'))) rmSync(building, { recursive: true, force: true })
  else renameSync(building, dir)
  log(`generated a library of ${size.toLocaleString('en')} components in ${((performance.now() - t0) / 1000).toFixed(1)} s (cached in ${dir})`)
  return dir
}

/** A private copy of a library folder, for a server that will write to it. */
export function copyLibrary(source: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'complib-bench-'))
  cpSync(source, dir, { recursive: true })
  return dir
}

export interface ServerProcess {
  url: string
  pid: number
  /** Milliseconds from spawn to the first 200 from /api/health. */
  startMs: number
  /** Resident set size right after that first 200, in bytes. */
  startRss: number
  /** Resident set size now, in bytes (Linux: /proc; elsewhere NaN). */
  rss(): number
  /** Peak resident set size since start or the last resetPeak(), in bytes. */
  peakRss(): number
  resetPeak(): void
  /** CPU time (user + system) the server process has used, in milliseconds (Linux: /proc; elsewhere NaN). */
  cpuMs(): number
  /** Samples the server's event-loop delay from `start` to `stop` (the bench hook in the api-server's cli.ts). */
  eventLoopDelay: { start(): Promise<void>; stop(): Promise<EventLoopDelay> }
  /**
   * Runs a checkpoint in the server now (`storage.database.checkpoint`); resolves with what it
   * did, its time on the worker and when it started (epoch ms, `performance.timeOrigin` based).
   */
  checkpoint(mode?: 'PASSIVE' | 'TRUNCATE'): Promise<{ walFrames: number; checkpointed: number; ms: number; startedAt: number }>
  stop(): Promise<void>
}

export interface EventLoopDelay {
  p50Ms: number
  p99Ms: number
  maxMs: number
  samples: number
}

/**
 * Starts the built `complib serve` on `dir` and waits for /api/health. It runs
 * with COMPLIB_BENCH_HOOKS=1 and an IPC channel: the bench asks it for its
 * event-loop delay and for checkpoints through that (see cli.ts).
 */
export async function startServerProcess(dir: string, args: readonly string[] = []): Promise<ServerProcess> {
  const port = await _freePort()
  const t0 = performance.now()
  const child = spawn(process.execPath, ['--conditions=complib-built', BIN, 'serve', '--data', dir, '--port', String(port), ...args], {
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    env: { ...process.env, COMPLIB_BENCH_HOOKS: '1' },
  })
  let nextId = 0
  const waiting = new Map<number, (m: Record<string, unknown>) => void>()
  child.on('message', (m: { id: number }) => {
    waiting.get(m.id)?.(m)
    waiting.delete(m.id)
  })
  const ask = <T>(message: object) =>
    new Promise<T>((resolve, reject) => {
      const id = nextId++
      waiting.set(id, (m) => (m.error ? reject(new Error(`bench: the server's hook: ${m.error}`)) : resolve(m as T)))
      child.send({ id, ...message })
    })
  let stderr = ''
  createInterface({ input: child.stderr! }).on('line', (line) => {
    stderr += `${line}\n`
    // Storage events (a failed flush or checkpoint, a conversion) explain odd figures.
    if (line.startsWith('[storage]')) console.log(`bench: server: ${line}`)
  })
  // A server that dies mid-run says why, instead of leaving only the client's "other side closed".
  let stopping = false
  child.once('exit', (code, signal) => {
    if (!stopping) console.error(`bench: the server on ${dir} exited (${signal ?? code}) while in use:\n${stderr}`)
  })
  const url = `http://127.0.0.1:${port}`
  for (;;) {
    if (child.exitCode !== null) throw new Error(`bench: the server exited (${child.exitCode}): ${stderr}`)
    const ok = await fetch(`${url}/api/health`).then(
      (r) => r.status === 200,
      () => false,
    )
    if (ok) break
    await new Promise((r) => setTimeout(r, 5))
  }
  const startMs = performance.now() - t0
  const pid = child.pid!
  const startRss = _procStatus(pid, 'VmRSS')
  return {
    url,
    pid,
    startMs,
    startRss,
    rss: () => _procStatus(pid, 'VmRSS'),
    peakRss: () => _procStatus(pid, 'VmHWM'),
    resetPeak: () => {
      // Writing 5 to clear_refs resets the peak (VmHWM) to the current RSS (Linux ≥ 4.0).
      if (existsSync(`/proc/${pid}/clear_refs`)) writeFileSync(`/proc/${pid}/clear_refs`, '5')
    },
    cpuMs: () => processCpuMs(pid),
    eventLoopDelay: {
      start: () => ask<object>({ op: 'delay-start' }).then(() => {}),
      stop: () => ask<EventLoopDelay>({ op: 'delay-stop' }),
    },
    checkpoint: (mode = 'PASSIVE') =>
      ask<{ result: { walFrames: number; checkpointed: number; ms: number }; startedAt: number }>({ op: 'checkpoint', mode }).then((m) => ({ ...m.result, startedAt: m.startedAt })),
    stop: () => {
      stopping = true
      return _stop(child)
    },
  }
}

function _stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    child.once('exit', () => resolve())
    child.kill('SIGTERM')
  })
}

function _procStatus(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const match = readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'))
    return match ? Number(match[1]) * 1024 : Number.NaN
  } catch {
    return Number.NaN
  }
}

function _freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}
