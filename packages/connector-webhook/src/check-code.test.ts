import { describe, expect, it } from 'vitest'
import { checkConnectorCode } from './check-code'
import { DEFAULT_WEBHOOK_CODE } from './default-code'

describe('checkConnectorCode', () => {
  it('accepts the default code', () => {
    expect(() => checkConnectorCode(DEFAULT_WEBHOOK_CODE)).not.toThrow()
  })

  it('names the line of a syntax error', () => {
    const code = 'async function push(entities, config, helpers) {\n  const x = \n}\n'
    expect(() => checkConnectorCode(code)).toThrow(/body\.code: .*line 3/)
  })

  it('rejects code without a push function', () => {
    expect(() => checkConnectorCode('function send() {}')).toThrow(/function named push/)
  })

  it('does not run the code while checking it', () => {
    const code = 'globalThis.__ran = true\nasync function push() {}'
    checkConnectorCode(code)
    expect((globalThis as { __ran?: boolean }).__ran).toBeUndefined()
  })
})
