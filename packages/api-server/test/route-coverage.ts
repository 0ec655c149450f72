import { appendFileSync, existsSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * Route coverage: every documented operation must be exercised by the tests
 * with at least one success (2xx/3xx) and one failure (4xx). The harness
 * records what each call hit; the global teardown checks the whole run.
 */
const FILE = join(tmpdir(), `complib-route-coverage-${process.ppid}.jsonl`)

export function recordCall(operationId: string, status: number): void {
  appendFileSync(process.env.COMPLIB_ROUTE_COVERAGE ?? FILE, `${JSON.stringify([operationId, status])}\n`)
}

export function readCoverage(file: string): Map<string, Set<number>> {
  const seen = new Map<string, Set<number>>()
  if (!existsSync(file)) return seen
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line) continue
    const [op, status] = JSON.parse(line) as [string, number]
    if (!seen.has(op)) seen.set(op, new Set())
    seen.get(op)!.add(status)
  }
  rmSync(file, { force: true })
  return seen
}
