import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createSqliteStorage } from '@complib/core/sqlite'
import { createApp } from '../src/app'
import { readCoverage } from './route-coverage'

/** Gives the run one coverage file; at the end, fails it when an operation lacks a success or a failure test. */
export default function setup() {
  // `npm test` runs the API suite as two projects, each with this set-up (decision 0013): the first
  // one to start gives the run its file and judges it at the end; the other records into the same file.
  const owner = globalThis as { [OWNED]?: true }
  if (owner[OWNED]) return
  owner[OWNED] = true
  const file = join(tmpdir(), `complib-route-coverage-${process.pid}.jsonl`)
  process.env.COMPLIB_ROUTE_COVERAGE = file
  return async () => {
    const seen = readCoverage(file)
    // Only a full run of the api-server tests can judge coverage (not `-t` or one file).
    if (process.env.COMPLIB_CHECK_ROUTE_COVERAGE !== '1') return
    const storage = await createSqliteStorage()
    const doc = (await (await createApp({ storage }).fetch(new Request('http://x/api/docs'))).json()) as { paths: Record<string, Record<string, { operationId: string }>> }
    await storage.close()
    const gaps: string[] = []
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const statuses = [...(seen.get(op.operationId) ?? [])]
        if (!statuses.some((s) => s < 400)) gaps.push(`${method.toUpperCase()} ${path} (${op.operationId}): no success test`)
        if (!statuses.some((s) => s >= 400 && s < 500)) gaps.push(`${method.toUpperCase()} ${path} (${op.operationId}): no failure test`)
      }
    }
    if (gaps.length) {
      // vitest logs a teardown error without failing the run: fail it ourselves.
      process.exitCode = 1
      throw new Error(`route coverage: ${gaps.length} gaps\n${gaps.join('\n')}`)
    }
  }
}

const OWNED = Symbol.for('complib.routeCoverage')
