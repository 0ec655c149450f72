import { randomBytes } from 'node:crypto'
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { applyMirrored, type MirrorOutcome, type MirrorState, type RunPosition } from './mirror'
import type { Entity } from './verify'

/** What the JSON file holds. */
export interface StoreData {
  /** Components by id, as last pushed. */
  components: Record<string, Entity>
  /** `webhook-id`s already applied, oldest first (the last `MAX_SEEN` kept). */
  seenWebhookIds: string[]
  /** Mirror mode only: the runs under way and the last completed one (see mirror.ts). */
  mirror?: MirrorState
}

/** Enough for 25 pushes of 100,000 components (400 batches each). */
export const MAX_SEEN = 10_000

export interface ApplyResult {
  /** The `webhook-id` was applied before: nothing changed. */
  duplicate: boolean
  upserted: number
  /** Mirror mode, a delivery that named its run: what the run did (see `applyMirrored`). */
  mirror?: MirrorOutcome
}

export interface Store {
  /**
   * Upserts a batch's entities by id, unless its `webhook-id` was applied already.
   * With `run` (mirror mode), also records the batch in its run and, once the
   * run is complete, removes what the run did not carry.
   */
  apply(webhookId: string, entities: Entity[], run?: RunPosition): Promise<ApplyResult>
  read(): StoreData
}

/**
 * A JSON file of components by id. Every batch is one atomic write: the whole
 * file goes to a temporary file beside it, is flushed to disk and renamed over
 * the old one, so a crash leaves the old or the new file, never half of one.
 * The seen `webhook-id`s (and, in mirror mode, the runs' applied batches) are
 * in the same file, so a batch's entities and its id are recorded together or
 * not at all.
 *
 * Writes are queued one after another: the connector sends several batches at
 * once. (Rewriting the whole file per batch is fine for an example; a large
 * library wants a database.)
 */
export async function openStore(file: string): Promise<Store> {
  let data: StoreData = { components: {}, seenWebhookIds: [] }
  try {
    data = JSON.parse(await readFile(file, 'utf8')) as StoreData
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  let seen = new Set(data.seenWebhookIds)
  let queue: Promise<unknown> = Promise.resolve()

  const apply = async (webhookId: string, entities: Entity[], run?: RunPosition): Promise<ApplyResult> => {
    if (seen.has(webhookId)) return { duplicate: true, upserted: 0 }
    const seenWebhookIds = [...data.seenWebhookIds, webhookId].slice(-MAX_SEEN)
    let next: StoreData
    let result: ApplyResult
    if (run) {
      const mirrored = applyMirrored(data.components, data.mirror ?? { runs: {}, lastCompletedRunId: null }, run, entities)
      // The batch number was applied under another webhook-id (the seen list rolled over).
      if ('duplicate' in mirrored) return { duplicate: true, upserted: 0 }
      next = { components: mirrored.components, seenWebhookIds, mirror: mirrored.state }
      result = { duplicate: false, upserted: mirrored.outcome.stale ? 0 : entities.length, mirror: mirrored.outcome }
    } else {
      const components = { ...data.components }
      for (const entity of entities) components[entity.id] = entity
      next = { ...data, components, seenWebhookIds }
      result = { duplicate: false, upserted: entities.length }
    }
    await _writeAtomically(file, JSON.stringify(next, null, 2))
    // Only once the file is on disk does memory move on: a failed write changes nothing.
    data = next
    seen = new Set(seenWebhookIds)
    return result
  }

  return {
    apply(webhookId, entities, run) {
      const result = queue.then(() => apply(webhookId, entities, run))
      queue = result.catch(() => {})
      return result
    },
    read: () => data,
  }
}

async function _writeAtomically(file: string, text: string): Promise<void> {
  const dir = dirname(file)
  await mkdir(dir, { recursive: true })
  const temp = join(dir, `.${basename(file)}.${randomBytes(6).toString('hex')}.tmp`)
  try {
    const handle = await open(temp, 'w')
    try {
      await handle.writeFile(text)
      await handle.sync()
    } finally {
      await handle.close()
    }
    await rename(temp, file)
  } catch (error) {
    await rm(temp, { force: true })
    throw error
  }
}
