import { useSyncExternalStore } from 'react'

/** Whether the page must ask for the API key (the API answered 401). */
let needed = false
let refused = false
const listeners = new Set<() => void>()
const emit = () => listeners.forEach((l) => l())

export const authEvents = {
  /** The API answered 401: ask for the key; a key given before was wrong. */
  needKey(): void {
    if (needed) return
    needed = true
    emit()
  },
  /** The key works. */
  accepted(): void {
    needed = false
    refused = false
    emit()
  },
  /** The key typed was refused. */
  refused(): void {
    refused = true
    needed = true
    emit()
  },
}

export function useAuthState(): { needed: boolean; refused: boolean } {
  const snapshot = useSyncExternalStore(
    (l) => {
      listeners.add(l)
      return () => listeners.delete(l)
    },
    () => `${needed}|${refused}`,
  )
  const [n, r] = snapshot.split('|')
  return { needed: n === 'true', refused: r === 'true' }
}
