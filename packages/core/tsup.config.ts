import { defineConfig } from 'tsup'

export default defineConfig({
  entry: ['src/index.ts', 'src/testing/index.ts'],
  format: ['esm'],
  dts: true,
  clean: true,
  target: 'node20',
  // vitest is only needed by the shared test suites under ./testing
  external: ['vitest'],
})
