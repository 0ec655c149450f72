// Load generation in a process of its own, and the small statistics the bench
// quotes. The generator is autocannon in a child process (the default: it
// comes with `pnpm install`) or wrk (`--load=wrk`, when installed: `apt-get
// install wrk`), which costs a fraction of autocannon's CPU per request. The
// CPU time of the generator and of the processes under test is sampled from
// /proc over the same window, so a row can say whether the generator, not the
// server, was the limit.
import { fork, spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { get } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export type Generator = 'autocannon' | 'wrk'

/** One request the generator sends; the requests are sent in turn, over and over. */
export interface LoadRequest {
  method: 'GET' | 'PATCH' | 'POST'
  path: string
  /** A JSON body; each `{n}` in it becomes a number unique within the round. */
  body?: string
}

export interface LoadOptions {
  generator: Generator
  url: string
  connections: number
  seconds: number
  requests: LoadRequest[]
  /** Headers sent with every request (a credential: `authorization`, `cookie`); none by default. */
  headers?: Record<string, string>
  /** Processes whose CPU is measured over the round beside the generator's (e.g. the server). */
  watch?: Record<string, number>
}

export interface LoadResult {
  /** Requests per second over the round. */
  rps: number
  p50Ms: number
  p99Ms: number
  maxMs: number
  /** CPU time (user + system) over the round, as a share of one core: the generator's and each watched process's. */
  cpu: Record<string, number>
}

/** Runs one round of load; throws if any request errored or answered other than 2xx. */
export async function load(options: LoadOptions): Promise<LoadResult> {
  const child = options.generator === 'wrk' ? _startWrk(options) : _startAutocannon(options)
  const pids = { generator: child.process.pid!, ...options.watch }
  const first = _cpuSample(pids)
  let last = first
  const timer = setInterval(() => {
    const sample = _cpuSample(pids)
    // The generator's /proc entry is gone once it exits: keep the last whole sample.
    if (!Number.isNaN(sample.cpu.generator)) last = sample
  }, 100)
  try {
    const result = await child.result
    const wall = last.at - first.at
    const cpu = Object.fromEntries(Object.keys(pids).map((name) => [name, (last.cpu[name]! - first.cpu[name]!) / wall]))
    return { ...result, cpu }
  } finally {
    clearInterval(timer)
  }
}

/** Whether wrk is on the PATH. */
export function hasWrk(): boolean {
  return !spawnSync('wrk', ['--version'], { stdio: 'ignore' }).error
}

/** A bare node:http server in its own process answering recorded responses (see bytes-server.mjs). */
export async function startBytesServer(routes: Array<[path: string, status: number, headers: Record<string, string>, body: string]>) {
  const child = fork(new URL('./bytes-server.mjs', import.meta.url), { stdio: 'ignore' })
  child.send({ routes })
  const port = await new Promise<number>((resolve) => child.once('message', (m: { port: number }) => resolve(m.port)))
  return { url: `http://127.0.0.1:${port}`, pid: child.pid!, stop: () => void child.kill() }
}

/** Fetches `path` and records it as the bytes server will replay it. */
export async function record(base: string, path: string): Promise<[string, number, Record<string, string>, string]> {
  const res = await fetch(`${base}${path}`)
  const headers: Record<string, string> = {}
  res.headers.forEach((value, name) => {
    if (!['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length'].includes(name)) headers[name] = value
  })
  return [path, res.status, headers, await res.text()]
}

/** CPU time (user + system) a process has used, in milliseconds (Linux: /proc; elsewhere or once it is gone, NaN). */
export function processCpuMs(pid: number): number {
  try {
    // Fields 14 and 15 of /proc/<pid>/stat (utime, stime), in clock ticks of 10 ms; the name in field 2 may hold spaces.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
    return (Number(fields[11]) + Number(fields[12])) * 10
  } catch {
    return Number.NaN
  }
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

/** The nearest-rank percentile: the smallest value with at least `p` of the values at or below it (the p99 of 100 is the 99th, not the largest). */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(sorted.length * p) - 1))]!
}

export const mb = (bytes: number) => `${Math.round(bytes / 1048576)} MB`
export const int = (n: number) => Math.round(n).toLocaleString('en')
export const pct = (share: number) => `${Math.round(share * 100)}%`

/**
 * GET `url` as text on a connection of its own. Parsing a 100,000-component
 * listing blocks this process for seconds, so a pooled keep-alive connection
 * could be reused just as the server closes it for idling (its 5 s
 * keepAliveTimeout): fetch then fails with "other side closed".
 */
export function getFresh(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    get(url, { agent: false }, (res) => {
      if (res.statusCode !== 200) {
        res.resume()
        return reject(new Error(`bench: GET ${url} answered ${res.statusCode}`))
      }
      res.setEncoding('utf8')
      let text = ''
      res.on('data', (chunk: string) => (text += chunk))
      res.on('end', () => resolve(text))
      res.on('error', reject)
    }).on('error', reject)
  })
}

type Running = { process: ChildProcess; result: Promise<Omit<LoadResult, 'cpu'>> }

function _startAutocannon(options: LoadOptions): Running {
  const child = fork(new URL('./autocannon-process.mjs', import.meta.url), { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] })
  child.send({ url: options.url, connections: options.connections, seconds: options.seconds, requests: options.requests, headers: options.headers })
  const result = new Promise<Omit<LoadResult, 'cpu'>>((resolve, reject) => {
    child.once('message', (m: { error?: string; rps: number; p50Ms: number; p99Ms: number; maxMs: number; errors: number; non2xx: number }) => {
      if (m.error) return reject(new Error(`bench: autocannon: ${m.error}`))
      if (m.errors || m.non2xx) return reject(new Error(`bench: ${options.url} load saw ${m.errors} errors and ${m.non2xx} non-2xx answers`))
      resolve({ rps: m.rps, p50Ms: m.p50Ms, p99Ms: m.p99Ms, maxMs: m.maxMs })
    })
    child.once('exit', (code) => reject(new Error(`bench: the autocannon process exited (${code}) without a result`)))
  })
  return { process: child, result }
}

// One thread: on two cores the server, the baseline and the generator share them already.
function _startWrk(options: LoadOptions): Running {
  const dir = mkdtempSync(join(tmpdir(), 'complib-wrk-'))
  const script = join(dir, 'requests.lua')
  writeFileSync(script, _wrkScript(options.requests, options.headers ?? {}))
  const child = spawn('wrk', ['-t1', `-c${options.connections}`, `-d${options.seconds}s`, '--timeout', '10s', '-s', script, options.url], { stdio: ['ignore', 'pipe', 'inherit'] })
  let out = ''
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk))
  const result = new Promise<Omit<LoadResult, 'cpu'>>((resolve, reject) => {
    child.once('exit', (code) => {
      rmSync(dir, { recursive: true, force: true })
      const line = out.split('\n').find((l) => l.startsWith('complib-bench '))
      if (code !== 0 || !line) return reject(new Error(`bench: wrk exited (${code}): ${out}`))
      const m = JSON.parse(line.slice('complib-bench '.length)) as { requests: number; seconds: number; errors: number; p50: number; p99: number; max: number }
      if (m.errors) return reject(new Error(`bench: ${options.url} load saw ${m.errors} errors or non-2xx answers (wrk)`))
      resolve({ rps: m.requests / m.seconds, p50Ms: m.p50 / 1000, p99Ms: m.p99 / 1000, maxMs: m.max / 1000 })
    })
  })
  return { process: child, result }
}

/** A wrk script sending `requests` in turn, each with `headers`; `{n}` in a body becomes thread id × 10⁹ + a counter. */
function _wrkScript(requests: LoadRequest[], headers: Record<string, string>): string {
  const lua = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`
  const extra = Object.entries(headers).map(([name, value]) => `[${lua(name)}] = ${lua(value)}`)
  const list = requests.map((r) => `{${lua(r.method)},${lua(r.path)},${r.body === undefined ? 'nil' : lua(r.body)}}`).join(',\n')
  return `local requests = {
${list}
}
local threads = {}
function setup(thread)
  thread:set("tid", #threads)
  table.insert(threads, thread)
end
local i, n = 0, 0
local plain = { ${extra.join(', ')} }
local json = { ${['["content-type"] = "application/json"', ...extra].join(', ')} }
function request()
  i = i % #requests + 1
  local r = requests[i]
  if r[3] == nil then return wrk.format(r[1], r[2], plain) end
  n = n + 1
  local body = string.gsub(r[3], "{n}", tostring(tid * 1000000000 + n))
  return wrk.format(r[1], r[2], json, body)
end
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('complib-bench {"requests":%d,"seconds":%f,"errors":%d,"p50":%d,"p99":%d,"max":%d}\\n',
    summary.requests, summary.duration / 1e6, e.connect + e.read + e.write + e.status + e.timeout,
    latency:percentile(50), latency:percentile(99), latency.max))
end
`
}

function _cpuSample(pids: Record<string, number>): { at: number; cpu: Record<string, number> } {
  return { at: performance.now(), cpu: Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, processCpuMs(pid)])) }
}
