import * as z from 'zod'

/*
 * The settings every built-in source's config is made of: the addresses it
 * is pointed at and the credentials it is given.
 */

/** An http(s) URL: a provider's host, API or token endpoint, or a user's own server. */
export const HttpUrl = z.url({ protocol: /^https?$/, error: 'an http(s) URL' })

/** A key, token, client ID or secret as providers issue them: 1 to 200 characters, no spaces (`what` names it in the error: "a client ID"). */
export function credential(what: string, description: string) {
  return z
    .string()
    .min(1)
    .max(200)
    .regex(/^\S+$/, { error: `${what} has no spaces` })
    .meta({ description })
}
