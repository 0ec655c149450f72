import { defineProject } from 'vitest/config'

export default defineProject({
  test: {
    name: 'client-sdk',
    pool: 'forks',
    testTimeout: 20_000,
    // Set-ups start a server; on a loaded CI machine that can take longer than the default 10 s.
    hookTimeout: 60_000,
  },
})
