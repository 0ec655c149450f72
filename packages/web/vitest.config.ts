import { defineProject } from 'vitest/config'

export default defineProject({
  test: {
    name: 'web',
    pool: 'forks',
    include: ['test/**/*.test.ts'],
    // A real browser against a real server, one screen after another.
    testTimeout: 60_000,
    hookTimeout: 180_000,
    // One browser at a time: the machines that run CI have few cores.
    fileParallelism: false,
  },
})
