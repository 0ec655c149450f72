// The bench command: `pnpm bench` (full, 100,000 components), `pnpm bench
// --size=1000000` (full, 10,000 to 1,000,000 components) or `pnpm bench
// --quick` (the smoke version CI runs, 5,000). The server runs as users
// run it: the built `complib serve`, in its own process, on a generated
// library. Every figure is printed beside a baseline measured in the same
// run, and the table is written to bench-results/latest.md.
// `--only=reads,push` runs some scenarios (cold start always runs: it starts the server);
// the scenarios are listing, filters, reads, auth, suggest, kicad, web, newcomer, writes, checkpoints, postgres, push, fairness, imports and enrich.
// `--load=wrk` drives the load scenarios with wrk instead of autocannon (both in
// a process of their own; wrk must be installed: `apt-get install wrk`).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { BULK_BODY_LIMIT, BULK_MAX_CHILDREN, BULK_MAX_ITEMS, COMPONENT_LIMITS } from '@complib/core'
import { IMPORT_CHUNK_ROWS } from '@complib/api-server'
import { benchAuth } from './auth'
import { benchFairness } from './fairness'
import { benchEnrich } from './enrich'
import { benchFilters } from './filters'
import { benchImports } from './imports'
import { benchKicad } from './kicad'
import { benchColdStart, benchFullListing, benchSuggest, type BenchRow, type HttpBenchContext } from './http'
import { hasWrk, int, type Generator } from './lib/load'
import { buildServer, libraryFolder, startServerProcess } from './lib/server'
import { benchNewcomer } from './newcomer'
import { benchPostgres } from './postgres'
import { benchPush } from './push'
import { benchReads } from './reads'
import { benchWeb } from './web'
import { benchCheckpoints, benchWrites } from './writes'

const quick = process.argv.includes('--quick')
const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length).split(',')
const generator = (process.argv.find((a) => a.startsWith('--load='))?.slice('--load='.length) ?? 'autocannon') as Generator
const wanted = (name: string) => !only || only.includes(name)
const log = (line: string) => console.log(`bench: ${line}`)
if (generator !== 'autocannon' && generator !== 'wrk') throw new Error(`bench: --load is autocannon or wrk, not ${generator}`)
if (generator === 'wrk' && !hasWrk()) throw new Error('bench: --load=wrk needs wrk on the PATH (Debian: apt-get install wrk)')

/** The size every other is compared with (`--size`). */
const REFERENCE_SIZE = 100_000
const sizeArg = process.argv.find((a) => a.startsWith('--size='))?.slice('--size='.length)
const size = quick ? 5_000 : sizeArg === undefined ? 100_000 : Number(sizeArg)
if (!Number.isInteger(size) || size < (quick ? 1 : 10_000) || size > 1_000_000) throw new Error(`bench: --size is a whole number from 10000 to 1000000, not ${sizeArg}`)
if (quick && sizeArg !== undefined) throw new Error('bench: --quick runs at 5,000 components; leave --size out')
buildServer()
const ctx: HttpBenchContext = { quick, size, generator, library: await libraryFolder(size, log), smallLibrary: await libraryFolder(1_000, log), log }

const load0 = loadavg()[0]!
const rows = await measure(ctx)
// At another size, every scenario again at 100,000 in the same run: each row's growth is the ratio of its figures.
const growthColumn = !quick && size !== REFERENCE_SIZE
if (growthColumn) {
  log(`the same scenarios at ${REFERENCE_SIZE.toLocaleString('en')} components, for the growth column`)
  const reference = await measure({ ...ctx, size: REFERENCE_SIZE, library: await libraryFolder(REFERENCE_SIZE, log) })
  for (const [i, row] of rows.entries()) row.growth = _growth(row, reference[i])
}

/** Every scenario asked for, against a server on a copy of `at.library`. */
async function measure(at: HttpBenchContext): Promise<BenchRow[]> {
  const out: BenchRow[] = []
  const cold = await benchColdStart(at, quick ? 1 : 3)
  out.push(...cold.rows)
  let server = cold.server
  try {
    const listing = await benchFullListing(at, server)
    if (wanted('listing')) out.push(...listing.rows)
    if (wanted('filters')) out.push(...(await benchFilters(at, server)))
    if (wanted('reads')) out.push(...(await benchReads(at, server, listing.ids)))
    if (wanted('auth')) out.push(...(await benchAuth(at, listing.ids)))
    if (wanted('suggest')) out.push(...(await benchSuggest(at, server)))
    if (wanted('kicad')) out.push(...(await benchKicad(at, server)))
    if (wanted('web')) out.push(...(await benchWeb(at, server)))
    if (wanted('newcomer')) out.push(...(await benchNewcomer(at)))
    if (wanted('writes')) out.push(...(await benchWrites(at, server, listing.ids)))
    if (wanted('checkpoints')) out.push(...(await benchCheckpoints(at, server, listing.ids)))
    if (wanted('postgres')) out.push(...(await benchPostgres(at, server, listing.ids)))
    if (wanted('push')) {
      // The push's memory is compared with a server at rest: started afresh, so that the
      // heap the full listing and the load scenarios grew is not counted as the push's.
      await server.stop()
      server = await startServerProcess(cold.dir)
      out.push(...(await benchPush(at, server)))
    }
    if (wanted('fairness')) {
      const limits = { bulkItems: BULK_MAX_ITEMS, bulkChildren: BULK_MAX_CHILDREN, bulkBodyBytes: BULK_BODY_LIMIT, ...COMPONENT_LIMITS, importRows: IMPORT_CHUNK_ROWS, importCells: IMPORT_CHUNK_ROWS * 20, importBodyBytes: 2 * 1024 * 1024 }
      // The largest import committed in one transaction (one chunk, decision 0616); a larger one is a job, benched by `imports`.
      out.push(...(await benchFairness(at, server, limits)))
    }
    if (wanted('imports')) out.push(...(await benchImports(at)))
    if (wanted('enrich')) out.push(...(await benchEnrich(at)))
  } finally {
    await server.stop()
    rmSync(cold.dir, { recursive: true, force: true })
  }
  return out
}

/** `×1.42`: this row's figure over the same row's at 100,000 (matched by its scenario, sizes aside). */
function _growth(row: BenchRow, reference: BenchRow | undefined): string {
  const unsized = (scenario: string) => scenario.replaceAll(int(size), 'N').replaceAll(int(REFERENCE_SIZE), 'N')
  if (!reference || unsized(reference.scenario) !== unsized(row.scenario)) return '—'
  if (!row.value || !reference.value) return '—'
  return `×${(row.value / reference.value).toFixed(2)}`
}

const header = growthColumn
  ? `| scenario | subject | baseline (same run) | ratio | target | growth from ${int(REFERENCE_SIZE)} |\n|---|---|---|---|---|---|`
  : '| scenario | subject | baseline (same run) | ratio | target |\n|---|---|---|---|---|'
const table = [header, ...rows.map((r) => `| ${r.scenario} | ${r.subject} | ${r.baseline} | ${r.ratio} | ${r.target} |${growthColumn ? ` ${r.growth ?? '—'} |` : ''}`)].join('\n')
const machine =
  `Node ${process.version}, ${cpus().length} cores, ${quick ? 'quick' : 'full'} run, load from ${generator}, ` +
  `load average ${load0.toFixed(2)} at the start and ${loadavg()[0]!.toFixed(2)} at the end, ${new Date().toISOString()}`
console.log(`\n${table}\n\n${machine}`)
mkdirSync('bench-results', { recursive: true })
writeFileSync('bench-results/latest.md', `${table}\n\n${machine}\n`)
