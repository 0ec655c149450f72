import { createHash, timingSafeEqual } from 'node:crypto'

/**
 * Whether `given` is the API key, in constant time: both sides are hashed
 * first, so neither the guess's length nor how much of it matches shows in
 * the time taken.
 */
export function isApiKey(given: string, apiKey: string): boolean {
  return timingSafeEqual(_digest(given), _digest(apiKey))
}

function _digest(text: string): Buffer {
  return createHash('sha256').update(text).digest()
}
