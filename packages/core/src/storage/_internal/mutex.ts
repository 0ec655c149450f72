/**
 * A FIFO lock. The embedded engine has one connection, so a transaction that awaits between
 * statements must keep every other caller out until it commits.
 * `acquire()` returns undefined when the lock was free (no promise, no tick).
 */
export class Mutex {
  private locked = false
  private readonly waiters: Array<() => void> = []

  acquire(): Promise<void> | undefined {
    if (!this.locked) {
      this.locked = true
      return undefined
    }
    return new Promise((resolve) => this.waiters.push(resolve))
  }

  release(): void {
    const next = this.waiters.shift()
    if (next) next()
    else this.locked = false
  }
}
