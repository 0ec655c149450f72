import { defineProject } from 'vitest/config'

export default defineProject({
  test: {
    name: 'connector-webhook',
    pool: 'forks',
    execArgv: ['--no-node-snapshot'],
    testTimeout: 20_000,
  },
})
