import { ComplibError } from '@complib/core'
import { Cron } from 'croner'

/**
 * Checks a cron expression (5 or 6 fields, croner syntax); an invalid one is
 * a 400 naming `field`.
 */
export function assertValidCron(expression: string, field = 'body.config.cron'): void {
  try {
    new Cron(expression, { paused: true }).stop()
  } catch (error) {
    const message = `not a valid cron expression: ${(error as Error).message}`
    throw new ComplibError('VALIDATION_FAILED', `${field}: ${message}`, { errors: [{ path: field, message }] })
  }
}

/** When a cron expression fires next (ISO 8601), or null for none. */
export function nextRunAt(expression: string | null | undefined, after: Date = new Date()): string | null {
  if (!expression) return null
  const job = new Cron(expression, { paused: true })
  try {
    return job.nextRun(after)?.toISOString() ?? null
  } finally {
    job.stop()
  }
}
