import { SourceError, isSourceError, type SourceContext } from '@complib/core'
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
 * `invalid_client`, 401) is an `auth` SourceError.
 */
export async function clientCredentialsToken(context: SourceContext<unknown>, options: ClientCredentialsOptions): Promise<string> {
  const key = `${options.tokenUrl}\n${options.clientId}\n${options.clientSecret}\n${options.scope ?? ''}`
  const cached = context.memo.get(MEMO_KEY) as _Token | undefined
  if (cached && cached.key === key && cached.expiresAt > context.now().getTime()) return cached.accessToken

  const tokenUrl = new URL(options.tokenUrl)
  const server: oauth.AuthorizationServer = { issuer: tokenUrl.origin, token_endpoint: tokenUrl.href }
  const client: oauth.Client = { client_id: options.clientId }
  const parameters = new URLSearchParams(options.scope ? { scope: options.scope } : {})
  try {
    const response = await oauth.clientCredentialsGrantRequest(server, client, oauth.ClientSecretPost(options.clientSecret), parameters, {
      [oauth.customFetch]: context.http.fetch,
      // Tests point the token URL at a local fake over plain HTTP; real providers are HTTPS.
      [oauth.allowInsecureRequests]: tokenUrl.protocol === 'http:',
      signal: context.signal,
    })
    const result = await oauth.processClientCredentialsResponse(server, client, response)
    const lifetime = typeof result.expires_in === 'number' ? result.expires_in : 600
    context.memo.set(MEMO_KEY, { accessToken: result.access_token, expiresAt: context.now().getTime() + Math.max(0, lifetime - 60) * 1000, key } satisfies _Token)
    return result.access_token
  } catch (error) {
    throw _tokenError(error, tokenUrl)
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

const MEMO_KEY = 'oauth2-client-credentials'
