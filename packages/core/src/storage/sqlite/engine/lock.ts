import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs'
import { join } from 'node:path'

const LOCK = 'complib.lock'
const held = new Map<string, number>()

/**
 * One server per data folder: `complib.lock` holds the owner's pid. A lock
 * whose process is gone (a crash, a `kill -9`) is taken over.
 */
export function takeLock(dir: string): void {
  const path = join(dir, LOCK)
  try {
    const fd = openSync(path, 'wx')
    writeSync(fd, String(process.pid))
    held.set(dir, fd)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    const pid = Number(readFileSync(path, 'utf8').trim())
    if (pid && (pid === process.pid ? held.has(dir) : _alive(pid))) {
      throw new Error(`[storage] the data folder ${dir} is in use by process ${pid}`)
    }
    rmSync(path, { force: true })
    takeLock(dir)
  }
}

export function releaseLock(dir: string): void {
  const fd = held.get(dir)
  if (fd === undefined) return
  held.delete(dir)
  closeSync(fd)
  rmSync(join(dir, LOCK), { force: true })
}

function _alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
