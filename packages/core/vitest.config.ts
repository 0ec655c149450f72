import { defineProject } from 'vitest/config'

export default defineProject({
  test: {
    name: 'core',
    pool: 'forks',
    execArgv: ['--no-node-snapshot'],
    testTimeout: 20_000,
  },
})
