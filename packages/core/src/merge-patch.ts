/**
 * Applies a JSON merge patch (RFC 7396) to `target`: members of the patch
 * replace those of the target, `null` removes a member, and objects merge
 * member by member; arrays and other values replace. Returns a new value
 * (neither argument is changed).
 *
 * @example
 * mergePatch({ url: 'http://x', cron: '0 * * * *' }, { cron: null, concurrency: 8 })
 * // → { url: 'http://x', concurrency: 8 }
 */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!_isObject(patch)) return patch
  const out: Record<string, unknown> = _isObject(target) ? { ...target } : {}
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key]
    else out[key] = mergePatch(out[key], value)
  }
  return out
}

function _isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}
