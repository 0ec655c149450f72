import { defineProject } from 'vitest/config'

// The end-to-end test starts a complib server in-process, which loads
// isolated-vm: forked processes with --no-node-snapshot, as in packages/*.
export default defineProject({
  test: {
    name: 'example-custom-connector',
    pool: 'forks',
    execArgv: ['--no-node-snapshot'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
})
