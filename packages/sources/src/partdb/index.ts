import { PeerPart, SourceCandidate, SourceError, SourcePart, defineSource } from '@complib/core'
import { conform } from '../_internal/errors'
import { ListedPart } from './answers'
import { PartdbConfig } from './config'
import { candidate, lookups, mpnOf, peerPart, sourcePart } from './part'
import { needsBaseCurrency, readAll, readBaseCurrency, readPage, readPart, readTree } from './read'

export { partdbAttachmentKind, partdbLifecycle, partdbParameterValue, partdbStatus, partdbTags, partdbUnitPrice } from './fields'

/*
 * Part-DB, a self-hosted parts library (https://github.com/Part-DB/Part-DB-server),
 * read through its REST API, coded against its documentation and the source it
 * is generated from (API Platform), as of commit 1521c63c (2026-08-19). Each
 * file here cites what it relies on: answers.ts the entities' fields, read.ts
 * the requests, part.ts and fields.ts what the fields mean.
 * - https://docs.part-db.de/api/intro.html (docs/api/intro.md) — LIKE filters
 *   where `%` is the wildcard (`/api/parts.jsonld?name=BC%25`); `order[...]`;
 * - src/Entity/Parts/Part.php — orderdetails with their prices, parameters,
 *   attachments and EDA fields come only with the single part GET
 *   /api/parts/{id} (and parameters have no collection endpoint at all,
 *   src/Entity/Parameters/AbstractParameter.php): a pull lists the parts and
 *   reads each one. Filters: LikeFilter on `name`, `ipn`,
 *   `manufacturer_product_number`; OrderFilter on `id`.
 */

/** At most this many candidates per search (one page of each filter). */
const MAX_SEARCH = 50

export const partdbSource = defineSource({
  type: 'partdb',
  title: 'Part-DB',
  description: 'Parts of a Part-DB server (an API token from its user settings): search and fetch one, or pull the whole library.',
  documentation: 'https://docs.part-db.de/api/intro.html',
  configSchema: PartdbConfig,
  secretFields: ['token'],
  capabilities: { search: true, offers: true, lifecycle: true, pull: true },
  // Part-DB documents no rate limit. It is a PHP application on the user's own
  // server, often a small one, and a pull reads every part one request at a
  // time: ten a second keeps a pull of a few thousand parts within minutes
  // without crowding out the people using its web interface.
  limits: { requestsPerMinute: 600, requestsPerDay: null },

  async search(query, context, limit) {
    const text = query.trim().slice(0, 200)
    const wanted = Math.min(Math.floor(limit), MAX_SEARCH)
    if (!text || !(wanted >= 1)) return []
    // A part is found by a part of its name, else of its MPN (the two filters would AND in one request).
    const pattern = `%${text}%`
    const found = await readPage(context, '/api/parts', ListedPart, { name: pattern, 'order[id]': 'asc', page: '1', itemsPerPage: String(wanted) })
    if (found.items.length < wanted) {
      const byMpn = await readPage(context, '/api/parts', ListedPart, { manufacturer_product_number: pattern, 'order[id]': 'asc', page: '1', itemsPerPage: String(wanted) })
      found.items.push(...byMpn.items)
    }
    const seen = new Set<number>()
    const out: SourceCandidate[] = []
    for (const part of found.items) {
      const mpn = mpnOf(part)
      if (seen.has(part.id) || !mpn) continue
      seen.add(part.id)
      out.push(conform('Part-DB', SourceCandidate, candidate(part, mpn), 'a part of its search'))
      if (out.length === wanted) break
    }
    return out
  },

  async fetch(ref, context) {
    const wanted = ref.trim()
    if (!/^\d{1,12}$/.test(wanted)) return null
    const part = await readPart(context, Number(wanted))
    if (!part) return null
    const baseCurrency = needsBaseCurrency(part) ? await readBaseCurrency(context, false) : null
    const mpn = mpnOf(part)
    if (!mpn) throw new SourceError('bad-answer', `Part-DB answered part ${wanted} without a name`)
    return conform('Part-DB', SourcePart, sourcePart(part, mpn, lookups(context, baseCurrency)), `part ${wanted}`)
  },

  async *pull(context, onProgress) {
    // The small collections first, whole, to build paths and names in memory.
    const baseCurrency = await readBaseCurrency(context, true)
    const categories = await readTree(context, '/api/categories')
    const locations = await readTree(context, '/api/storage_locations')
    const attachmentTypes = await readTree(context, '/api/attachment_types')
    const l = lookups(context, baseCurrency, { categories, locations, attachmentTypes })
    const listed = await readAll(context, '/api/parts', ListedPart, { 'order[id]': 'asc' })
    const ids = [...new Set(listed.map((p) => p.id))].sort((a, b) => a - b)
    let total = ids.length
    let done = 0
    onProgress?.(done, total)
    for (const id of ids) {
      const part = await readPart(context, id)
      if (!part) {
        // Deleted since the listing: one fewer to read.
        onProgress?.(done, --total)
        continue
      }
      const peer = conform('Part-DB', PeerPart, peerPart(part, l), `part ${id}`)
      onProgress?.(++done, total)
      yield peer
    }
  },
})
