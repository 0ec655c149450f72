import { SourceError, isSourceError, statusError, type SourceContext } from '@complib/core'
import * as oauth from 'oauth4webapi'

export interface ClientCredentialsOptions {
  tokenUrl: string
  clientId: string
  clientSecret: string
  /** Space-separated scopes, when the provider wants them. */
  scope?: string | undefined
}

interface _Token {
  accessToken: string
  /** Epoch ms after which the token is not used any more (a minute before it expires). */
  expiresAt: number
  /** Which credentials it was got with: a changed config gets a new one. */
  key: string
}

/**
 * An access token by the OAuth2 client-credentials grant (RFC 6749 §4.4),
 * from oauth4webapi, kept in the configured source's memo until a minute
 * before it expires. The token request goes through the source's bounded
 * fetch, so it is paced and timed like every other request. A refusal (400
 * `invalid_client`, 401) is an `auth` SourceError; a `quota` or
 * `unavailable` one carries the token endpoint's `Retry-After`.
 */
export async function clientCredentialsToken(context: SourceContext<unknown>, options: ClientCredentialsOptions): Promise<string> {
  const key = `${options.tokenUrl}\n${options.clientId}\n${options.clientSecret}\n${options.scope ?? ''}`
  const cached = context.memo.get(MEMO_KEY) as _Token | undefined
  if (cached && cached.key === key && cached.expiresAt > context.now().getTime()) return cached.accessToken

  const tokenUrl = new URL(options.tokenUrl)
  const server: oauth.AuthorizationServer = { issuer: tokenUrl.origin, token_endpoint: tokenUrl.href }
  const client: oauth.Client = { client_id: options.clientId }
  const parameters = new URLSearchParams(options.scope ? { scope: options.scope } : {})
  // The token endpoint's answer, watched for its `Retry-After`: oauth4webapi's errors do not carry it.
  let last: Response | undefined
  const watched: typeof globalThis.fetch = async (input, init) => (last = await context.http.fetch(input, init))
  try {
    const response = await oauth.clientCredentialsGrantRequest(server, client, oauth.ClientSecretPost(options.clientSecret), parameters, {
      [oauth.customFetch]: watched,
      // Tests point the token URL at a local fake over plain HTTP; real providers are HTTPS.
      [oauth.allowInsecureRequests]: tokenUrl.protocol === 'http:',
      signal: context.signal,
    })
    const result = await oauth.processClientCredentialsResponse(server, client, response)
    const lifetime = typeof result.expires_in === 'number' ? result.expires_in : 600
    context.memo.set(MEMO_KEY, { accessToken: result.access_token, expiresAt: context.now().getTime() + Math.max(0, lifetime - 60) * 1000, key } satisfies _Token)
    return result.access_token
  } catch (error) {
    throw _withRetryAfter(_tokenError(error, tokenUrl), last)
  }
}

/** Forgets the token (the provider refused it: the next call gets a new one). */
export function forgetToken(context: SourceContext<unknown>): void {
  context.memo.delete(MEMO_KEY)
}

function _tokenError(error: unknown, tokenUrl: URL): SourceError {
  if (isSourceError(error)) return error
  const where = `${tokenUrl.host}${tokenUrl.pathname}`
  if (error instanceof oauth.ResponseBodyError) {
    const status = error.status
    if (status === 400 || status === 401 || status === 403) return new SourceError('auth', `${where} refused the client credentials (${error.error})`)
    if (status === 429) return new SourceError('quota', `${where} answered 429`)
    return new SourceError('unavailable', `${where} answered ${status} (${error.error})`)
  }
  if (error instanceof oauth.WWWAuthenticateChallengeError) return new SourceError('auth', `${where} refused the client credentials`)
  if (error instanceof oauth.OperationProcessingError) {
    const status = (error.cause as Response | undefined)?.status
    if (status === 401 || status === 403) return new SourceError('auth', `${where} refused the client credentials`)
    if (status === 429) return new SourceError('quota', `${where} answered 429`)
    if (typeof status === 'number' && status >= 500) return new SourceError('unavailable', `${where} answered ${status}`)
    return new SourceError('bad-answer', `${where} answered a token response that is not OAuth2's: ${error.message}`)
  }
  return new SourceError('unavailable', `${where} could not be reached`, { cause: error })
}

/** The error with the answer's `Retry-After`, when it has none yet and the answer's status is of its kind (429 `quota`, 5xx `unavailable`). */
function _withRetryAfter(error: SourceError, answer: Response | undefined): SourceError {
  if (error.retryAfter !== undefined || !answer) return error
  const said = statusError(answer.status, answer.headers, error.message)
  if (said.kind !== error.kind || said.retryAfter === undefined) return error
  return new SourceError(error.kind, error.message, { retryAfter: said.retryAfter, cause: error })
}

const MEMO_KEY = 'oauth2-client-credentials'
