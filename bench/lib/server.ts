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
import createSqliteStorage from '../../packages/core/src/storage/sqlite'
import { seedLibrary } from './library-data'

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
 * node_modules/.cache (keyed by the generator, the schema and the file format,
 * so a change to any makes a new one). Never written to: see copyLibrary.
 */
export async function libraryFolder(size: number, log: (line: string) => void): Promise<string> {
  const key = createHash('sha256')
    .update(readFileSync(join(ROOT, 'bench/lib/library-data.ts')))
    .update(readFileSync(join(ROOT, 'packages/core/src/storage/sqlite/schema.ts')))
    .update(readFileSync(join(ROOT, 'packages/core/src/storage/_internal/durable-database.ts')))
    .digest('hex')
    .slice(0, 12)
  const dir = join(CACHE, `library-${size}-${key}`)
  if (existsSync(join(dir, 'complib.sqlite'))) return dir
  const t0 = performance.now()
  const building = `${dir}.building-${process.pid}`
  rmSync(building, { recursive: true, force: true })
  mkdirSync(building, { recursive: true })
  const storage = await createSqliteStorage({ dir: building })
  await seedLibrary(storage, size)
  await storage.close()
  rmSync(join(building, 'complib.lock'), { force: true })
  renameSync(building, dir)
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
  /** Resident set size now, in bytes (Linux: /proc; elsewhere NaN). */
  rss(): number
  /** Peak resident set size since start or the last resetPeak(), in bytes. */
  peakRss(): number
  resetPeak(): void
  /** CPU time (user + system) the server process has used, in milliseconds (Linux: /proc; elsewhere NaN). */
  cpuMs(): number
  stop(): Promise<void>
}

/** Starts the built `complib serve` on `dir` and waits for /api/health. */
export async function startServerProcess(dir: string): Promise<ServerProcess> {
  const port = await _freePort()
  const t0 = performance.now()
  const child = spawn(process.execPath, ['--no-node-snapshot', '--conditions=complib-built', BIN, 'serve', '--data', dir, '--port', String(port)], {
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  createInterface({ input: child.stderr! }).on('line', (line) => {
    stderr += `${line}\n`
    // Snapshots and other storage events explain jumps in the figures (a snapshot copies the whole database).
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
  return {
    url,
    pid,
    startMs,
    rss: () => _procStatus(pid, 'VmRSS'),
    peakRss: () => _procStatus(pid, 'VmHWM'),
    resetPeak: () => {
      // Writing 5 to clear_refs resets the peak (VmHWM) to the current RSS (Linux ≥ 4.0).
      if (existsSync(`/proc/${pid}/clear_refs`)) writeFileSync(`/proc/${pid}/clear_refs`, '5')
    },
    cpuMs: () => _procCpuMs(pid),
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

function _procCpuMs(pid: number): number {
  try {
    // Fields 14 and 15 of /proc/<pid>/stat (utime, stime), in clock ticks of 10 ms; the name in field 2 may hold spaces.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
    return (Number(fields[11]) + Number(fields[12])) * 10
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
