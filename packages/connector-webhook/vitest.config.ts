import { defineProject } from 'vitest/config'

export default defineProject({
  test: {
    name: 'connector-webhook',
    pool: 'forks',
    testTimeout: 20_000,
  },
})
