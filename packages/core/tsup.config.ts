import { defineConfig } from 'tsup'

export default defineConfig({
  // One entry per engine (decision 0108): importing @complib/core loads neither driver.
  entry: {
    index: 'src/index.ts',
    sqlite: 'src/storage/sqlite/index.ts',
    postgres: 'src/storage/postgres/index.ts',
    'testing/index': 'src/testing/index.ts',
  },
  format: ['esm'],
  dts: true,
  clean: true,
  target: 'node20',
  // Peer dependencies stay outside the bundle: the drivers, and vitest for the shared suites under ./testing.
  external: ['vitest', 'better-sqlite3', 'better-sqlite3-napi', 'pg'],
})
