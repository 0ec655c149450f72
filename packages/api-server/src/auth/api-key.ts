import { createHash, timingSafeEqual } from 'node:crypto'

/**
 * A check of the API key, in constant time: both sides are hashed, so
 * neither the guess's length nor how much of it matches shows in the time
 * taken. The key's own digest is made once.
 */
export function createApiKeyCheck(apiKey: string): (given: string) => boolean {
  const expected = _digest(apiKey)
  return (given) => timingSafeEqual(_digest(given), expected)
}

/** Whether `given` is the API key (createApiKeyCheck, for one comparison). */
export function isApiKey(given: string, apiKey: string): boolean {
  return createApiKeyCheck(apiKey)(given)
}

function _digest(text: string): Buffer {
  return createHash('sha256').update(text).digest()
}
