import { PeerPart, SourceCandidate, SourcePart, defineSource } from '@complib/core'
import { conform } from '../_internal/errors'
import { InventreeConfig } from './config'
import { candidate, peerPart, sourcePart } from './part'
import { readLibrary, readManufacturerParts, readPartRecords, searchParts } from './read'

export { inventreeAttachmentKind, inventreeTags } from './fields'
export { INVENTREE_NO_LOCATION } from './part'

/*
 * InvenTree's REST API, coded against InvenTree's own documentation and
 * source (https://docs.inventree.org/en/stable/api/, github.com/inventree/InvenTree).
 * Each file here cites what it relies on: read.ts the endpoints, filters,
 * pages and versions, answers.ts the serializers' fields, part.ts and
 * fields.ts what the fields mean.
 */

export const inventreeSource = defineSource({
  type: 'inventree',
  title: 'InvenTree',
  description: 'Parts of an InvenTree server — categories, parameters, manufacturer and supplier parts with prices, stock and attachments — to search, or to pull as a whole library and sync again (an API token).',
  documentation: 'https://docs.inventree.org/en/stable/api/',
  configSchema: InventreeConfig,
  secretFields: ['token'],
  capabilities: { search: true, offers: true, lifecycle: false, pull: true },
  // InvenTree documents no rate limit: it is the user's own server. Ten
  // requests a second lets a pull of a large library (a few hundred pages)
  // finish in about a minute without crowding out the people using it.
  limits: { requestsPerMinute: 600, requestsPerDay: null },

  async search(query, context, limit) {
    const text = query.trim().slice(0, 200)
    const wanted = Math.min(Math.floor(limit), 50)
    if (!text || !(wanted >= 1)) return []
    const parts = await searchParts(context, text, wanted)
    const out: SourceCandidate[] = []
    for (const part of parts.slice(0, wanted)) {
      // The candidate's MPN is the one a fetch gives: one request per part for its manufacturer parts.
      const mpns = await readManufacturerParts(context, part.pk)
      out.push(conform('InvenTree', SourceCandidate, candidate(part, mpns, context.config), `part ${part.pk} of its search`))
    }
    return out
  },

  async fetch(ref, context) {
    const wanted = ref.trim()
    if (!/^[1-9]\d{0,14}$/.test(wanted)) return null
    const pk = Number(wanted)
    const records = await readPartRecords(context, pk)
    if (records === null) return null
    return conform('InvenTree', SourcePart, sourcePart(pk, records, context), `part ${pk}`)
  },

  async *pull(context, onProgress) {
    const library = await readLibrary(context)
    const parts = [...library.parts].sort((a, b) => a.pk - b.pk)
    onProgress?.(0, parts.length)
    for (const [i, part] of parts.entries()) {
      yield conform('InvenTree', PeerPart, peerPart(part, library, context), `part ${part.pk}`)
      onProgress?.(i + 1, parts.length)
    }
  },
})
