import type { Component, ComponentPatch } from '@complib/core'

/** One edit of `patchMany`: which component, the merge patch, and optionally the version it was read at. */
export interface PatchManyItem {
  id: string
  patch: ComponentPatch
  /** The version the edit was computed from: a component changed since fails with a 412 instead of being overwritten. */
  ifMatch?: number | string | undefined
}

export interface PatchManyProgress {
  /** Items finished so far (patched or failed). */
  done: number
  /** Items in all, when known (an array was given); null for an iterator. */
  total: number | null
  patched: number
  failed: number
  /** The item just finished, and its outcome. */
  id: string
  component?: Component | undefined
  error?: Error | undefined
}

export interface PatchManyOptions {
  /** Requests in flight at most (1–64, default 4). */
  concurrency?: number | undefined
  /** Called after each item, in the order items finish. */
  onProgress?: ((progress: PatchManyProgress) => void) | undefined
  /** Stop taking new items after the first failure (the ones in flight finish). Default false: go on and collect failures. */
  stopOnError?: boolean | undefined
  /** Aborting stops taking new items; the ones in flight finish. */
  signal?: AbortSignal | undefined
}

export interface PatchManyResult {
  patched: number
  failed: Array<{ id: string; error: Error }>
  /** True when it stopped before the end (stopOnError or the signal). */
  stopped: boolean
}

/**
 * Runs `send` for every item with at most `concurrency` in flight. A few
 * workers pull from one shared iterator, so an async source (a listing being
 * paged) is read only as fast as edits go out and is never held in memory whole.
 */
export async function patchMany(
  send: (item: PatchManyItem) => Promise<Component>,
  items: Iterable<PatchManyItem> | AsyncIterable<PatchManyItem>,
  options: PatchManyOptions = {},
): Promise<PatchManyResult> {
  const concurrency = options.concurrency ?? 4
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64) {
    throw new RangeError(`[complib] patchMany: concurrency must be an integer from 1 to 64, not ${concurrency}`)
  }
  const total = Array.isArray(items) ? items.length : null
  const iterator = Symbol.asyncIterator in items ? items[Symbol.asyncIterator]() : (items as Iterable<PatchManyItem>)[Symbol.iterator]()
  const result: PatchManyResult = { patched: 0, failed: [], stopped: false }
  let done = 0
  let halt = false

  const worker = async () => {
    try {
      while (!halt) {
        if (options.signal?.aborted) {
          result.stopped = halt = true
          return
        }
        const next = await iterator.next()
        if (next.done) return
        const item = next.value
        let component: Component | undefined
        let error: Error | undefined
        try {
          component = await send(item)
          result.patched++
        } catch (e) {
          error = e instanceof Error ? e : new Error(String(e))
          result.failed.push({ id: item.id, error })
          if (options.stopOnError) result.stopped = halt = true
        }
        done++
        options.onProgress?.({ done, total, patched: result.patched, failed: result.failed.length, id: item.id, component, error })
      }
    } catch (e) {
      // The source failing or onProgress throwing stops the other workers too.
      halt = true
      throw e
    }
  }

  const outcomes = await Promise.allSettled(Array.from({ length: concurrency }, worker))
  const crash = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected')
  if (crash) throw crash.reason
  return result
}
