// Durable write cost against library size: the same fsync'd update
// (a description PATCH) on a library of 1,000 and of 100,000 components,
// measured alternately (A B A B …) in one run, medians compared.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import createSqlJsStorage, { type SqlJsStorage } from '../packages/core/src/storage/sqljs'
import { createRandom, makeComponent } from './lib/library-data'

export interface StorageWriteResult {
  rows: Array<{ scenario: string; subject: string; baseline: string; ratio: string; target: string }>
}

export async function benchStorageWrite(options: { quick: boolean }): Promise<StorageWriteResult> {
  const large = options.quick ? 20_000 : 100_000
  const small = 1_000
  const rounds = options.quick ? 3 : 5
  const writesPerRound = options.quick ? 200 : 400
  const dirs: string[] = []
  const open = async (n: number) => {
    const dir = mkdtempSync(join(tmpdir(), `complib-bench-${n}-`))
    dirs.push(dir)
    const storage = await createSqlJsStorage({ dir })
    const ids = await seed(storage, n)
    await storage.snapshot()
    return { storage, ids }
  }
  try {
    const t0 = performance.now()
    const a = await open(small)
    const b = await open(large)
    log(`seeded ${small} and ${large} components in ${((performance.now() - t0) / 1000).toFixed(1)} s`)

    // One discarded round each: JIT warm-up must not count against whichever runs first.
    await sequential(a.storage, a.ids, writesPerRound)
    await sequential(b.storage, b.ids, writesPerRound)
    const perWrite = { a: [] as number[], b: [] as number[] }
    const throughput = { a: [] as number[], b: [] as number[] }
    for (let r = 0; r < rounds; r++) {
      perWrite.a.push(await sequential(a.storage, a.ids, writesPerRound))
      perWrite.b.push(await sequential(b.storage, b.ids, writesPerRound))
      throughput.a.push(await concurrent(a.storage, a.ids, 16, writesPerRound * 4))
      throughput.b.push(await concurrent(b.storage, b.ids, 16, writesPerRound * 4))
    }
    await a.storage.close()
    await b.storage.close()
    const ms = (x: number) => `${x.toFixed(3)} ms`
    const [wa, wb, ta, tb] = [median(perWrite.a), median(perWrite.b), median(throughput.a), median(throughput.b)]
    return {
      rows: [
        {
          scenario: `durable write, 1 writer: ${large.toLocaleString('en')} vs ${small.toLocaleString('en')} components`,
          subject: ms(wb),
          baseline: ms(wa),
          ratio: (wb / wa).toFixed(2),
          target: '≤ 1.2',
        },
        {
          scenario: `durable writes/s, 16 writers, ${large.toLocaleString('en')} components`,
          subject: `${Math.round(tb)}/s`,
          baseline: `${Math.round(ta)}/s at ${small.toLocaleString('en')}`,
          ratio: (ta / tb).toFixed(2),
          target: '≥ 1,000/s; ratio ≤ 1.2',
        },
      ],
    }
  } finally {
    for (const d of dirs) rmSync(d, { recursive: true, force: true })
  }
}

async function seed(storage: SqlJsStorage, n: number): Promise<string[]> {
  const random = createRandom(42)
  const ids: string[] = []
  for (let start = 0; start < n; start += 1000) {
    const batch = await storage.transaction(async (tx) => {
      const out: string[] = []
      for (let i = start; i < Math.min(n, start + 1000); i++) out.push((await tx.components.create(makeComponent(i, random))).id)
      return out
    })
    ids.push(...batch)
  }
  return ids
}

// Every write sets a description never used before: an update that changes
// nothing is answered without writing, and would measure nothing.
let serial = 0

/** Mean milliseconds of one durable update, one writer at a time. */
async function sequential(storage: SqlJsStorage, ids: string[], count: number): Promise<number> {
  const random = createRandom(serial)
  const t0 = performance.now()
  for (let i = 0; i < count; i++) {
    const updated = await storage.components.update(ids[Math.floor(random() * ids.length)]!, { description: `bench ${serial++}` })
    if (updated.description !== `bench ${serial - 1}`) throw new Error('bench: an update did not write')
  }
  return (performance.now() - t0) / count
}

/** Durable updates per second with `writers` concurrent writers. */
async function concurrent(storage: SqlJsStorage, ids: string[], writers: number, count: number): Promise<number> {
  const random = createRandom(serial + 1)
  let next = 0
  const t0 = performance.now()
  await Promise.all(
    Array.from({ length: writers }, async () => {
      while (next < count) {
        next++
        await storage.components.update(ids[Math.floor(random() * ids.length)]!, { description: `bench ${serial++}` })
      }
    }),
  )
  return count / ((performance.now() - t0) / 1000)
}

function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y)
  return sorted[Math.floor(sorted.length / 2)]!
}

function log(message: string): void {
  process.stderr.write(`  ${message}\n`)
}
