import { defineConfig } from 'vite'

// The page is served by `complib serve` at `/`, from this package's dist/
// (packages/api-server/src/http/web-ui.ts). Nothing is fetched from the internet.
export default defineConfig({
  base: '/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'react' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // The bundle-size test reads it: which files the page loads first.
    manifest: true,
    chunkSizeWarningLimit: 700,
    rolldownOptions: {
      // React Query marks its hooks "use client" for server components; meaningless in a browser bundle.
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning)
      },
    },
  },
})
