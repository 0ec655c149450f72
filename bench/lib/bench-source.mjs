// A source type for the bench (`enrich` scenario), loaded by the built server
// with `--source`: it asks the bench's own fake distributor (one search, one
// part per component), within `BENCH_SOURCE_PER_MINUTE` requests a minute (0: none).
import { defineSource } from '@complib/core'
import * as z from 'zod'

const perMinute = Number(process.env.BENCH_SOURCE_PER_MINUTE ?? 0)

export default defineSource({
  type: 'bench-distributor',
  configSchema: z.strictObject({ baseUrl: z.string() }),
  secretFields: [],
  capabilities: { search: true, offers: true, lifecycle: true },
  limits: { requestsPerMinute: perMinute > 0 ? perMinute : null, requestsPerDay: null },
  async search(query, { http, config }, limit) {
    return (await http.json(`${config.baseUrl}/search?q=${encodeURIComponent(query)}`)).slice(0, limit)
  },
  async fetch(ref, { http, config, now }) {
    const part = await http.json(`${config.baseUrl}/part/${encodeURIComponent(ref)}`, { notFoundAsNull: true })
    return part && { ...part, offers: part.offers.map((o) => ({ ...o, fetchedAt: now().toISOString() })) }
  },
})
