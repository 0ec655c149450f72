import {
  ComplibError,
  ComponentCreate,
  ComponentPatch,
  foldKey,
  fromZodError,
  isSourceError,
  sourceProblem,
  type Component,
  type EnrichField,
  type EnrichResult,
  type FieldProvenance,
  type SourcePart,
  type Storage,
  type StorageSession,
  type StoredSource,
} from '@complib/core'
import { componentFromPart, diffPart, type FieldDiff, type LibraryShape, type SourceCallOptions, type SourceService } from '@complib/sources'
import { sourceNote, withSourceNote } from './history-note'

/**
 * Parts from a source made into the library's components, and the library's
 * components filled from a source (decisions 1600, 1602 and 1603). Each is
 * one transaction: the component, its datasheet link, its offers and the
 * provenance of its fields land together or not at all.
 */
export interface SourceLibraryServices {
  storage: Storage
  sources: SourceService
}

/** What a caller gives to make a component from a part. */
export interface FromSourceInput {
  sourceId: string
  ref: string
  category?: string | null | undefined
  ipn?: string | undefined
}

export async function createFromSource(services: SourceLibraryServices, input: FromSourceInput, signal?: AbortSignal): Promise<Component> {
  const source = await services.storage.sources.get(input.sourceId)
  const part = await _fetch(services, source, input.ref, { signal })
  const shape = await libraryShape(services.storage, services.sources.typeOf(source.type).title ?? source.type)
  const parsed = ComponentCreate.safeParse(componentFromPart(part, shape, { category: input.category, ipn: input.ipn }))
  if (!parsed.success) throw fromZodError(parsed.error, 'body')
  const at = new Date().toISOString()
  const id = await withSourceNote(sourceNote(source, part.ref), () => services.storage.transaction(async (tx) => {
    const component = await tx.components.create(parsed.data)
    const fields = ['name', 'description', 'status', 'mpns', 'parameters']
    if (parsed.data.category) fields.push('category')
    if (part.datasheetUrl) {
      await _linkDatasheet(tx, component.id, part)
      fields.push('datasheet')
    }
    if (part.offers.length > 0) {
      await tx.offers.replace(component.id, source.id, part.ref, part.offers)
      fields.push('offers')
    }
    await tx.provenance.record(component.id, fields.map((field) => _provenance(source, part, field, at)))
    return component.id
  }))
  return await services.storage.components.get(id)
}

/** What a caller gives to enrich a component. */
export interface EnrichInput {
  sourceId: string
  ref?: string | undefined
  fields?: readonly EnrichField[] | undefined
  dryRun: boolean
  /** Wait for the source's limiter as long as its quota needs (a job), rather than answer 429 after 20 s (a request). */
  waitForQuota?: boolean | undefined
  /** Ask the provider even when the cache holds the part (a scheduled refresh). */
  fresh?: boolean | undefined
  /** The library's shape read once for many components (a job), instead of once per call. */
  shape?: LibraryShape | undefined
}

/** How long a job's request may wait for its turn under the provider's per-minute limit. */
const JOB_WAIT_MS = 10 * 60 * 1000

export async function enrichFromSource(services: SourceLibraryServices, componentId: string, input: EnrichInput, signal?: AbortSignal): Promise<EnrichResult> {
  const { storage } = services
  const component = await storage.components.get(componentId)
  const source = await storage.sources.get(input.sourceId)
  const call = { signal, waitMs: input.waitForQuota ? JOB_WAIT_MS : undefined, fresh: input.fresh }
  const ref = input.ref ?? (await _refByMpn(services, source, component, call))
  const part = await _fetch(services, source, ref, call)
  const shape = input.shape ?? (await libraryShape(storage, services.sources.typeOf(source.type).title ?? source.type))
  const attachments = await storage.attachments.listForComponent(componentId)
  const offers = (await storage.offers.list(componentId)).filter((o) => o.sourceId === source.id)
  const diffs = diffPart({ component, datasheetUrls: attachments.filter((a) => a.kind === 'datasheet' && a.url).map((a) => a.url!), offers }, part, shape)
  const chosen = diffs.filter((d) => d.blocked === null && (!input.fields || input.fields.includes(d.field)))
  const applied = new Set(input.dryRun ? [] : chosen.map((d) => d.field))

  let result = component
  if (applied.size > 0) {
    const at = new Date().toISOString()
    await withSourceNote(sourceNote(source, part.ref), () => storage.transaction(async (tx) => {
      const patch = _patchOf(chosen)
      // At the version read: a change made meanwhile is a 412, and nothing here lands.
      if (patch) await tx.components.update(componentId, patch, { ifVersion: component.version })
      if (applied.has('datasheet')) await _linkDatasheet(tx, componentId, part)
      if (applied.has('offers')) await tx.offers.replace(componentId, source.id, part.ref, part.offers)
      await tx.provenance.record(componentId, [...applied].map((field) => _provenance(source, part, field, at)))
    }))
    result = await storage.components.get(componentId)
  }
  return {
    sourceId: source.id,
    ref: part.ref,
    dryRun: input.dryRun,
    changes: diffs.map((d) => ({ field: d.field, current: d.current, proposed: d.proposed, applied: applied.has(d.field), note: d.blocked })),
    component: result,
  }
}

/** The library's parameter types and categories, which a part is mapped onto. */
export async function libraryShape(storage: Storage, sourceTitle: string): Promise<LibraryShape> {
  const rules: LibraryShape['rules'][number][] = []
  let cursor: string | undefined
  do {
    const page = await storage.parameterTypes.list({ limit: 1000, cursor })
    for (const t of page.items) rules.push({ name: t.name, unit: t.unit, kind: t.kind, choices: t.choices, min: t.min, max: t.max })
    cursor = page.nextCursor ?? undefined
  } while (cursor)
  const categories = (await storage.categories.list()).map((c) => c.path)
  return { rules, categories, sourceTitle }
}

/** A provider's failure as the problem it stands for; anything else as it is. */
export function asProblem(error: unknown, source: StoredSource): unknown {
  return isSourceError(error) ? sourceProblem(error, source.name) : error
}

async function _fetch(services: SourceLibraryServices, source: StoredSource, ref: string, call: SourceCallOptions): Promise<SourcePart> {
  try {
    return (await services.sources.fetch(source, ref, call)).value
  } catch (error) {
    throw asProblem(error, source)
  }
}

/** The part at the source whose MPN is the component's first, when the caller named no ref. */
async function _refByMpn(services: SourceLibraryServices, source: StoredSource, component: Component, call: SourceCallOptions): Promise<string> {
  const mpn = component.mpns[0]?.partNumber
  if (!mpn) throw new ComplibError('VALIDATION_FAILED', 'body.ref: the component has no part number to look up; give the ref of the part at the source', { errors: [{ path: 'body.ref', message: 'required: the component has no part number' }] })
  let candidates
  try {
    candidates = (await services.sources.search(source, mpn, 10, call)).value
  } catch (error) {
    throw asProblem(error, source)
  }
  const match = candidates.find((c) => foldKey(c.mpn) === foldKey(mpn))
  if (!match) throw new ComplibError('NOT_FOUND', `source "${source.name}" has no part numbered ${mpn}; give the ref of the part at the source`)
  return match.ref
}

/** The component fields of the chosen changes as a patch, or null when none are component fields. */
function _patchOf(chosen: readonly FieldDiff[]) {
  const patch: Record<string, unknown> = {}
  for (const d of chosen) if (d.field === 'description' || d.field === 'mpns' || d.field === 'parameters' || d.field === 'status') patch[d.field] = d.proposed
  if (Object.keys(patch).length === 0) return null
  const parsed = ComponentPatch.safeParse(patch)
  if (!parsed.success) throw fromZodError(parsed.error, 'source')
  return parsed.data
}

/** The part's datasheet as a link on the component (its bytes stay at the manufacturer's). */
async function _linkDatasheet(tx: StorageSession, componentId: string, part: SourcePart): Promise<void> {
  const url = part.datasheetUrl!
  const name = `${part.mpn} datasheet`.replace(/[/\\\u0000]/g, '-').slice(0, 255)
  const contentType = /\.pdf(?:$|[?#])/i.test(url) ? 'application/pdf' : 'application/octet-stream'
  await tx.attachments.create({ componentId, name, kind: 'datasheet', contentType, size: null, sha256: null, url })
}

function _provenance(source: StoredSource, part: SourcePart, field: string, at: string): FieldProvenance & { sourceId: string } {
  return { field, sourceId: source.id, sourceType: source.type, sourceName: source.name, ref: part.ref, at }
}
