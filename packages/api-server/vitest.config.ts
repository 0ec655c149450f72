import { defineProject } from 'vitest/config'

export default defineProject({
  test: {
    name: 'api-server',
    pool: 'forks',
    testTimeout: 20_000,
    globalSetup: ['./test/global-setup.ts'],
  },
})
