import { defineProject } from 'vitest/config'

// The test starts a complib server in-process, which loads isolated-vm:
// forked processes with --no-node-snapshot, as in packages/*.
export default defineProject({
  test: {
    name: 'example-bulk-edit-descriptions',
    pool: 'forks',
    execArgv: ['--no-node-snapshot'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
})
