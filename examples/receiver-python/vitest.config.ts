import { defineProject } from 'vitest/config'

// The tests start a complib server in-process, which loads
// isolated-vm: forked processes with --no-node-snapshot, as in packages/*.
export default defineProject({
  test: {
    name: 'example-receiver-python',
    pool: 'forks',
    execArgv: ['--no-node-snapshot'],
    testTimeout: 30_000,
    // beforeAll starts a server, seeds hundreds of components and may spawn python3.
    hookTimeout: 60_000,
  },
})
