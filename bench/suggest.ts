// Suggest latency at library size: p50/p99 over a fixed set of queries, some
// matching by prefix, some only by substring, some matching nothing.
import createSqlJsStorage from '../packages/core/src/storage/sqljs.ts'
import { createRandom, makeComponent } from './lib/library-data'

const QUERIES = ['r', 'R 10k', 'cap', 'RES-0001', 'RC0603', 'LM358', 'zzz', 'resistor 0603', '47k', 'x7r', 'smd', 'STM32', 'ne5', 'C 100n']

export async function benchSuggest(options: { quick: boolean }) {
  const size = options.quick ? 20_000 : 100_000
  const storage = await createSqlJsStorage()
  const random = createRandom(42)
  for (let start = 0; start < size; start += 1000) {
    await storage.transaction(async (tx) => {
      for (let i = start; i < start + 1000; i++) await tx.components.create(makeComponent(i, random))
    })
  }
  const times: number[] = []
  for (let round = 0; round < 20; round++) {
    for (const q of QUERIES) {
      const t0 = performance.now()
      await storage.search.suggest('components', q, 5)
      times.push(performance.now() - t0)
    }
  }
  await storage.close()
  times.sort((a, b) => a - b)
  const at = (p: number) => times[Math.min(times.length - 1, Math.floor(times.length * p))]!.toFixed(2)
  return {
    rows: [{ scenario: `suggest at ${size.toLocaleString('en')} components (${QUERIES.length} queries × 20)`, subject: `p50 ${at(0.5)} ms, p99 ${at(0.99)} ms`, baseline: '—', ratio: '—', target: 'p99 ≤ 10 ms' }],
  }
}
