import { ComplibApiError, ComplibNetworkError, createClient, type ComplibClient, type FieldError } from '@complib/client-sdk'

/**
 * sessionStorage only: a key or token given instead of signing in lives as
 * long as the tab (decision 1408). Signing in sets an HttpOnly cookie the
 * page never sees; same-origin requests carry it.
 */
const KEY = 'complib.apiKey'

// Made when first asked for, not on import: the query factories import this
// module and are unit-tested in Node, which has no sessionStorage or location.
let client: ComplibClient | undefined

/** The client every screen uses: same origin (the sign-in cookie goes along), with the tab's key or token when one was given. */
export function api(): ComplibClient {
  return (client ??= _make())
}

export function getApiKey(): string | undefined {
  return sessionStorage.getItem(KEY) ?? undefined
}

/** Keeps the key or token for this tab (or forgets it) and makes a new client with it. */
export function setApiKey(key: string | undefined): void {
  if (key) sessionStorage.setItem(KEY, key)
  else sessionStorage.removeItem(KEY)
  client = _make()
}

/** The client, its writes carrying `comment` as the reason for the change when one is given. */
export function commented(comment: string): ComplibClient {
  const text = comment.trim()
  return text ? api().withComment(text) : api()
}

/** Whether the API refused the request for want of a (right) credential: the page asks to sign in. */
export function isUnauthorized(error: unknown): boolean {
  return error instanceof ComplibApiError && error.status === 401
}

/** What went wrong, in words a person can act on: the problem's `detail` and each field's message. */
export function describeError(error: unknown): { message: string; fields: FieldError[] } {
  if (error instanceof ComplibApiError) return { message: error.detail || error.message, fields: error.errors }
  if (error instanceof ComplibNetworkError) return { message: 'The server did not answer. Is `complib serve` still running?', fields: [] }
  return { message: error instanceof Error ? error.message : String(error), fields: [] }
}

/**
 * Downloads an API resource as a file: through fetch (so a key or token goes
 * in a header, never in a URL; the sign-in cookie goes by itself) and a
 * temporary object URL.
 */
export async function downloadFile(path: string, fileName: string): Promise<void> {
  const key = getApiKey()
  const res = await fetch(path, { headers: key ? { authorization: `Bearer ${key}` } : {} })
  if (!res.ok) {
    const body = (await res.json().catch(() => ({}))) as { detail?: string }
    throw new Error(body.detail ?? `the server answered ${res.status}`)
  }
  const url = URL.createObjectURL(await res.blob())
  const a = document.createElement('a')
  a.href = url
  a.download = fileName
  document.body.append(a)
  a.click()
  a.remove()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}

function _make(): ComplibClient {
  return createClient({ baseUrl: location.origin, apiKey: getApiKey(), retries: 1 })
}
