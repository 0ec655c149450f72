import { describe, expect, it } from 'vitest'
import { assertValidCron, nextRunAt } from './schedule'

describe('schedule', () => {
  it('computes the next run of every-6-hours', () => {
    expect(nextRunAt('0 */6 * * *', new Date('2026-11-23T07:15:00Z'))).toBe('2026-11-23T12:00:00.000Z')
  })

  it('has no next run without an expression', () => {
    expect(nextRunAt(null)).toBeNull()
  })

  it('rejects an invalid expression with a 400 naming the field', () => {
    expect(() => assertValidCron('61 * * * *')).toThrow(expect.objectContaining({ status: 400, errors: [expect.objectContaining({ path: 'body.config.cron' })] }))
    expect(() => assertValidCron('every day')).toThrow(/not a valid cron expression/)
  })
})
