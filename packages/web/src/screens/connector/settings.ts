import type { Connector } from '@complib/client-sdk'

/** A connector's settings as the form holds them (numbers as typed). */
export interface Settings {
  name: string
  url: string
  enabled: boolean
  requestsPerSecond: string
  concurrency: string
  cron: string
}

export const NEW_SETTINGS: Settings = { name: '', url: '', enabled: true, requestsPerSecond: '10', concurrency: '4', cron: '' }

export function toSettings(c: Connector): Settings {
  return {
    name: c.name,
    url: String(c.config.url ?? ''),
    enabled: c.enabled,
    requestsPerSecond: String(c.config.requestsPerSecond ?? 10),
    concurrency: String(c.config.concurrency ?? 4),
    cron: typeof c.config.cron === 'string' ? c.config.cron : '',
  }
}

/** The settings as the API's config. */
export function toConfig(form: Settings) {
  return { url: form.url.trim(), requestsPerSecond: Number(form.requestsPerSecond), concurrency: Number(form.concurrency), cron: form.cron.trim() || null }
}

/** `whsec_` + base64 of 32 random bytes, made in the browser. */
export function newSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32))
  return `whsec_${btoa(String.fromCharCode(...bytes))}`
}
