// The bench command: `pnpm bench` (full, 100,000 components), `pnpm bench
// --size=1000000` (full, 10,000 to 1,000,000 components) or `pnpm bench
// --quick` (the smoke version CI runs, 5,000). The server runs as users
// run it: the built `complib serve`, in its own process, on a generated
// library. Every figure is printed beside a baseline measured in the same
// run, and the table is written to bench-results/latest.md.
// `--only=reads,push` runs some scenarios (cold start always runs: it starts the server);
// the scenarios are listing, filters, reads, auth, suggest, kicad, web, newcomer, writes, checkpoints, postgres, push, fairness and imports.
// `--load=wrk` drives the load scenarios with wrk instead of autocannon (both in
// a process of their own; wrk must be installed: `apt-get install wrk`).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { BULK_BODY_LIMIT, BULK_MAX_CHILDREN, BULK_MAX_ITEMS, COMPONENT_LIMITS } from '@complib/core'
import { IMPORT_CHUNK_ROWS } from '@complib/api-server'
import { benchAuth } from './auth'
import { benchFairness } from './fairness'
import { benchFilters } from './filters'
import { benchImports } from './imports'
import { benchKicad } from './kicad'
import { benchColdStart, benchFullListing, benchSuggest, type BenchRow, type HttpBenchContext } from './http'
import { hasWrk, type Generator } from './lib/load'
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

const sizeArg = process.argv.find((a) => a.startsWith('--size='))?.slice('--size='.length)
const size = quick ? 5_000 : sizeArg === undefined ? 100_000 : Number(sizeArg)
if (!Number.isInteger(size) || size < (quick ? 1 : 10_000) || size > 1_000_000) throw new Error(`bench: --size is a whole number from 10000 to 1000000, not ${sizeArg}`)
if (quick && sizeArg !== undefined) throw new Error('bench: --quick runs at 5,000 components; leave --size out')
buildServer()
const ctx: HttpBenchContext = { quick, size, generator, library: await libraryFolder(size, log), smallLibrary: await libraryFolder(1_000, log), log }

const load0 = loadavg()[0]!
const rows: BenchRow[] = []
const cold = await benchColdStart(ctx, quick ? 1 : 3)
rows.push(...cold.rows)
let server = cold.server
try {
  const listing = await benchFullListing(ctx, server)
  if (wanted('listing')) rows.push(...listing.rows)
  if (wanted('filters')) rows.push(...(await benchFilters(ctx, server)))
  if (wanted('reads')) rows.push(...(await benchReads(ctx, server, listing.ids)))
  if (wanted('auth')) rows.push(...(await benchAuth(ctx, listing.ids)))
  if (wanted('suggest')) rows.push(...(await benchSuggest(ctx, server)))
  if (wanted('kicad')) rows.push(...(await benchKicad(ctx, server)))
  if (wanted('web')) rows.push(...(await benchWeb(ctx, server)))
  if (wanted('newcomer')) rows.push(...(await benchNewcomer(ctx)))
  if (wanted('writes')) rows.push(...(await benchWrites(ctx, server, listing.ids)))
  if (wanted('checkpoints')) rows.push(...(await benchCheckpoints(ctx, server, listing.ids)))
  if (wanted('postgres')) rows.push(...(await benchPostgres(ctx, server, listing.ids)))
  if (wanted('push')) {
    // The push's memory is compared with a server at rest: started afresh, so that the
    // heap the full listing and the load scenarios grew is not counted as the push's.
    await server.stop()
    server = await startServerProcess(cold.dir)
    rows.push(...(await benchPush(ctx, server)))
  }
  if (wanted('fairness')) {
    const limits = { bulkItems: BULK_MAX_ITEMS, bulkChildren: BULK_MAX_CHILDREN, bulkBodyBytes: BULK_BODY_LIMIT, ...COMPONENT_LIMITS, importRows: IMPORT_CHUNK_ROWS, importCells: IMPORT_CHUNK_ROWS * 20, importBodyBytes: 2 * 1024 * 1024 }
    // The largest import committed in one transaction (one chunk, decision 0616); a larger one is a job, benched by `imports`.
    rows.push(...(await benchFairness(ctx, server, limits)))
  }
  if (wanted('imports')) rows.push(...(await benchImports(ctx)))
} finally {
  await server.stop()
  rmSync(cold.dir, { recursive: true, force: true })
}

const header = '| scenario | subject | baseline (same run) | ratio | target |\n|---|---|---|---|---|'
const table = [header, ...rows.map((r) => `| ${r.scenario} | ${r.subject} | ${r.baseline} | ${r.ratio} | ${r.target} |`)].join('\n')
const machine =
  `Node ${process.version}, ${cpus().length} cores, ${quick ? 'quick' : 'full'} run, load from ${generator}, ` +
  `load average ${load0.toFixed(2)} at the start and ${loadavg()[0]!.toFixed(2)} at the end, ${new Date().toISOString()}`
console.log(`\n${table}\n\n${machine}`)
mkdirSync('bench-results', { recursive: true })
writeFileSync('bench-results/latest.md', `${table}\n\n${machine}\n`)
