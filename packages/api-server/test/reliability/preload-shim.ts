import { execFileSync } from 'node:child_process'
import { join } from 'node:path'

/**
 * Compiles `fixtures/<name>.c` into a shared object for `LD_PRELOAD` in
 * `outDir`; returns its path, or why it cannot be built here (the test is then
 * skipped, saying so). Linux only; needs a C compiler, as the native build of
 * better-sqlite3 does.
 */
export function buildPreloadShim(name: string, outDir: string): { shim: string } | { unavailable: string } {
  if (process.platform !== 'linux') return { unavailable: 'LD_PRELOAD is a Linux loader feature' }
  const shim = join(outDir, `${name}.so`)
  try {
    execFileSync('cc', ['-shared', '-fPIC', '-O2', '-o', shim, join(import.meta.dirname, 'fixtures', `${name}.c`), '-ldl', '-lpthread'], { stdio: 'pipe' })
    return { shim }
  } catch (error) {
    return { unavailable: `no C compiler to build ${name}.c (${(error as Error).message.split('\n')[0]})` }
  }
}
