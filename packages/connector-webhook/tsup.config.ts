import { defineConfig } from 'tsup'

export default defineConfig({
  // The sandbox's worker is a file of its own: src/sandbox.ts starts it by URL (./_internal/sandbox-worker.js).
  entry: { index: 'src/index.ts', '_internal/sandbox-worker': 'src/_internal/sandbox-worker.js' },
  format: ['esm'],
  dts: { entry: { index: 'src/index.ts' } },
  clean: true,
  target: 'node20',
})
