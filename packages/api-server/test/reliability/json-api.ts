// Helpers of the crash, full-disk and push tests: JSON requests to a server, and
// servers started on a data folder that are killed when a test file ends.
import type { ChildProcess } from 'node:child_process'
import { killHard } from '../cli-process'
import { startServe, type ServeProcess } from './server-process'

/** An answer other than the one a test expected (a network failure stays fetch's own TypeError). */
export class UnexpectedStatus extends Error {}

/** One request with a JSON body (or raw bytes); the answer's status, content type and parsed body (null when empty). */
export async function callJson(base: string, method: string, path: string, body?: unknown, contentType = 'application/json') {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': contentType },
    body: body === undefined ? undefined : body instanceof Uint8Array ? body : JSON.stringify(body),
  })
  const text = await res.text()
  return { status: res.status, type: res.headers.get('content-type'), body: text ? (JSON.parse(text) as any) : null }
}

/** `callJson` expecting `status` (any 2xx when omitted); returns the body, throws UnexpectedStatus otherwise. */
export async function okJson(base: string, method: string, path: string, body?: unknown, status?: number): Promise<any> {
  const res = await callJson(base, method, path, body)
  if (status === undefined ? res.status >= 300 : res.status !== status) {
    throw new UnexpectedStatus(`${method} ${path} answered ${res.status}${status === undefined ? '' : `, not ${status}`}: ${JSON.stringify(res.body)}`)
  }
  return res.body
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Polls a connector run until it is neither queued nor running; returns its record. */
export async function settledRun(base: string, runId: string): Promise<any> {
  for (;;) {
    const run = await okJson(base, 'GET', `/api/connector-runs/${runId}`)
    if (run.status !== 'running' && run.status !== 'queued') return run
    await sleep(100)
  }
}

const started = new Set<ChildProcess>()

/** `complib serve` on `dataDir` (kept), remembered so that `killServers()` leaves none behind when a test fails. */
export async function serveOn(dataDir: string): Promise<ServeProcess> {
  const server = await startServe({ dataDir })
  started.add(server.child)
  return server
}

/** Kills (-9) every server `serveOn` started that is still running: call in `afterAll`. */
export async function killServers(): Promise<void> {
  await Promise.all([...started].map(killHard))
  started.clear()
}
