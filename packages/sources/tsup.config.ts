import { defineConfig } from 'tsup'

export default defineConfig({
  // The fakes (test/fakes) are built too, as `@complib/sources/testing`, for the server's and the web interface's tests.
  entry: { index: 'src/index.ts', 'testing/index': 'src/testing/index.ts' },
  format: ['esm'],
  dts: { entry: { index: 'src/index.ts', 'testing/index': 'src/testing/index.ts' } },
  // vitest is the suite's (failures.ts): left to whoever runs the tests.
  external: ['vitest'],
  clean: true,
  target: 'node20',
})
