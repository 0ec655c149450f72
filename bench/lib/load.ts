// Load generation with autocannon, and the small statistics the bench quotes.
import autocannon from 'autocannon'
import { fork } from 'node:child_process'
import { get } from 'node:http'

export interface LoadResult {
  /** Requests per second (autocannon's per-second average). */
  rps: number
  p99Ms: number
  errors: number
  non2xx: number
}

export interface LoadOptions {
  url: string
  connections: number
  seconds: number
  /** Builds each request: a path (GET) or a full request. */
  next: () => string | { method: 'PATCH' | 'POST'; path: string; body: string }
}

/** Runs autocannon for `seconds`; throws if any request errored or answered non-2xx. */
export async function load(options: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.seconds,
    requests: [
      {
        setupRequest: (req) => {
          const next = options.next()
          if (typeof next === 'string') return { ...req, method: 'GET', path: next }
          return { ...req, method: next.method, path: next.path, body: next.body, headers: { ...req.headers, 'content-type': 'application/json' } }
        },
      },
    ],
  })
  const out = { rps: result.requests.average, p99Ms: result.latency.p99, errors: result.errors + result.timeouts, non2xx: result.non2xx }
  if (out.errors || out.non2xx) throw new Error(`bench: ${options.url} load saw ${out.errors} errors and ${out.non2xx} non-2xx answers`)
  return out
}

/** A bare node:http server in its own process answering recorded responses (see bytes-server.mjs). */
export async function startBytesServer(routes: Array<[path: string, status: number, headers: Record<string, string>, body: string]>) {
  const child = fork(new URL('./bytes-server.mjs', import.meta.url), { stdio: 'ignore' })
  child.send({ routes })
  const port = await new Promise<number>((resolve) => child.once('message', (m: { port: number }) => resolve(m.port)))
  return { url: `http://127.0.0.1:${port}`, stop: () => void child.kill() }
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

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!
}

export const mb = (bytes: number) => `${Math.round(bytes / 1048576)} MB`
export const int = (n: number) => Math.round(n).toLocaleString('en')

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
