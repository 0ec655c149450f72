import { defineProject } from 'vitest/config'

export default defineProject({
  test: {
    name: 'core',
    pool: 'forks',
    testTimeout: 20_000,
  },
})
