import { SourceError, isSourceError, statusError, type SourceAnswer } from '@complib/core'
import type * as z from 'zod'

/*
 * What every built-in source says when a provider's answer is not what it
 * should be: an answer outside the documented shapes or our own bounds is a
 * `bad-answer`, a refusal is read by its status with what the provider said
 * quoted on one line, and no credential is ever repeated in a message.
 */

/** A value of ours checked against the contract: one out of its bounds came from an answer outside the provider's documented ones. */
export function conform<T>(provider: string, schema: z.ZodType<T>, value: T, what: string): T {
  const checked = schema.safeParse(value)
  if (!checked.success) throw new SourceError('bad-answer', `${provider} answered ${what} out of bounds (at ${issuePath(checked.error)})`)
  return checked.data
}

/** A provider's answer as its documented `schema` reads it, else a `bad-answer` saying `said` and where the answer left the schema. */
export function readAnswer<T>(schema: z.ZodType<T>, answer: unknown, said: string): T {
  const parsed = schema.safeParse(answer)
  if (!parsed.success) throw new SourceError('bad-answer', `${said} (at ${issuePath(parsed.error)})`)
  return parsed.data
}

/** Where a zod check failed, for a message: `Products.0.Name`, or the answer as a whole. */
export function issuePath(error: z.ZodError): string {
  const issue = error.issues[0]
  return issue && issue.path.length > 0 ? issue.path.join('.') : 'its top level'
}

/** Whether an answer's status is a success (2xx). */
export function answeredOk(answer: SourceAnswer): boolean {
  return answer.status >= 200 && answer.status <= 299
}

/** The SourceError a refusal's status stands for (`statusError`), quoting `said` (already scrubbed) after the status. */
export function refusal(answer: SourceAnswer, where: string, said: string): SourceError {
  return statusError(answer.status, answer.headers, `${where} answered ${answer.status}${said ? `: ${said}` : ''}`)
}

/** Text on one line, its white space folded, at most 200 characters: what a message quotes of a provider. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim().slice(0, 200)
}

/** A provider's words (a title and a detail, say), each trimmed, each once, joined by " — ", at most 200 characters. */
export function joinWords(words: readonly (string | null | undefined)[]): string {
  return [...new Set(words.map((w) => w?.trim()).filter((w): w is string => !!w))].join(' — ').slice(0, 200)
}

/** Host and path of a URL, for messages (never its query or body, which may carry a credential); `fallback` when it is not a URL. */
export function hostAndPath(url: string, fallback: string): string {
  try {
    const u = new URL(url)
    return `${u.host}${u.pathname}`
  } catch {
    return fallback
  }
}

/** `text` with every credential (of four characters or more) replaced by `…`: providers repeat what they were sent. */
export function scrub(text: string, secrets: readonly string[]): string {
  return secrets.filter((s) => s.length >= 4).reduce((out, secret) => out.split(secret).join('…'), text)
}

/**
 * Runs a call, taking `secrets` out of any SourceError's message: the HTTP
 * client scrubs what it is told, but a token helper's and the provider's own
 * words pass through here whatever the client was told.
 */
export async function scrubbed<T>(secrets: readonly string[], call: () => Promise<T>): Promise<T> {
  try {
    return await call()
  } catch (error) {
    if (!isSourceError(error)) throw error
    const message = scrub(error.message, secrets)
    if (message === error.message) throw error
    throw new SourceError(error.kind, message, { retryAfter: error.retryAfter, cause: error })
  }
}
