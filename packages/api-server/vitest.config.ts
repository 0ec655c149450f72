import { defineProject } from 'vitest/config'

export default defineProject({
  test: {
    name: 'api-server',
    pool: 'forks',
    execArgv: ['--no-node-snapshot'],
    testTimeout: 20_000,
    globalSetup: ['./test/global-setup.ts'],
  },
})
