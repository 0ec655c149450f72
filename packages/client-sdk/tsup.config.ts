import { defineConfig } from 'tsup'

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  // The types of @complib/core (inferred from its zod schemas) are bundled
  // into index.d.ts, so the published client needs neither core nor its
  // storage engine: only zod, for the types (decision 0901).
  // tsup's own type resolver reads only `types`/`typings` of a package, and
  // core exports its source in the workspace, so core is mapped by path.
  dts: { compilerOptions: { paths: { '@complib/core': ['../core/src/index.ts'] } } },
  clean: true,
  target: 'node20',
})
