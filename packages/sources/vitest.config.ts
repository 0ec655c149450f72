import { defineProject } from 'vitest/config'

export default defineProject({
  test: {
    name: 'sources',
    pool: 'forks',
    testTimeout: 20_000,
  },
})
