/**
 * A turn-taker for long loops inside one request (a bulk request's items, an
 * import's rows): call it between steps and await what it returns. Once
 * `sliceMs` of work has passed since the last turn it gives the event loop
 * one (`setImmediate`), so other requests, health checks first, are answered
 * in the meantime instead of after the whole loop (decision 1103).
 * Between turns it returns undefined, which costs nothing to await.
 *
 * @example
 * const yieldTurn = createYielder()
 * for (const item of items) {
 *   await work(item)
 *   await yieldTurn()
 * }
 */
export function createYielder(sliceMs = 20): () => Promise<void> | undefined {
  let since = performance.now()
  return () => {
    if (performance.now() - since < sliceMs) return undefined
    return new Promise((resolve) =>
      setImmediate(() => {
        since = performance.now()
        resolve()
      }),
    )
  }
}
