import { defineConfig } from 'vitest/config'

// isolated-vm needs --no-node-snapshot on Node >= 20, and native addons are
// not safe in worker threads: every project runs in forked processes.
export default defineConfig({
  test: {
    projects: ['packages/*', 'examples/*'],
  },
})
