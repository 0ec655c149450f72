/**
 * The connector code a new webhook connector starts with: a simple, bounded
 * policy (decision 0716). Up to 3 attempts per batch, 1000 ms before the second, doubling,
 * then an error carrying the receiver's status (which fails the batch).
 * Users edit it through `PUT /api/connectors/:id/code`.
 */
export const DEFAULT_WEBHOOK_CODE = `// Called once per batch of at most 250 components.
// helpers.sendWebhook(url, entities) makes one signed POST and returns { ok, status, retryAfter }.
async function push(entities, config, helpers) {
  const attempts = 3
  let delay = 1000
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const res = await helpers.sendWebhook(config.url, entities)
    if (res.ok) return
    if (attempt === attempts) {
      // Status 0: no answer came (timeout, refused, reset).
      const what = res.status ? 'receiver answered ' + res.status : 'no answer from the receiver'
      const error = new Error(what + ' after ' + attempts + ' attempts')
      error.status = res.status
      throw error
    }
    await helpers.sleep(delay)
    delay *= 2
  }
}
`
