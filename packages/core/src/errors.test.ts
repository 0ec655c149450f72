import * as z from 'zod'
import { describe, expect, it } from 'vitest'
import { ComplibError, fromZodError, toComplibError } from './errors'

describe('errors', () => {
  it('names every offending field under its location, and says "required" for a missing one', () => {
    const result = z.object({ q: z.string(), limit: z.number().max(20) }).safeParse({ limit: 21 })
    const error = fromZodError(result.error!, 'query')
    expect(error.status).toBe(400)
    expect(error.errors).toEqual([
      { path: 'query.q', message: 'required' },
      { path: 'query.limit', message: expect.stringContaining('20') },
    ])
    expect(error.detail).toBe('query.q: required')
  })

  it('serialises as RFC 9457 problem details with a stable code', () => {
    expect(new ComplibError('PRECONDITION_FAILED', 'stale').toProblem()).toEqual({
      type: 'urn:complib:problem:precondition-failed',
      title: 'Precondition failed',
      status: 412,
      detail: 'stale',
      code: 'PRECONDITION_FAILED',
    })
  })

  it('turns an unknown error into a 500 that does not leak its message', () => {
    const e = toComplibError(new Error('secret database path /var/x'))
    expect(e.status).toBe(500)
    expect(JSON.stringify(e.toProblem())).not.toContain('/var/x')
  })
})
