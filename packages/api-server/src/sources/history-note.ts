import { currentChange, withChange } from '@complib/core'

/**
 * Runs `fn` with a comment on the history it writes saying where the values
 * came from (`from Mouser (mouser) 595-LM358DR`), so a component's history
 * names the source of a change as its provenance does (decision 1603). A
 * comment the caller sent (`Complib-Comment`) is kept as it is.
 */
export function withSourceNote<T>(note: string, fn: () => T): T {
  const context = currentChange()
  if (!context || context.comment) return fn()
  return withChange({ ...context, comment: note.slice(0, 500) }, fn)
}

/** The note of a write made from one part at a source. */
export function sourceNote(source: { name: string; type: string }, ref?: string): string {
  return `from ${source.name} (${source.type})${ref ? ` ${ref}` : ''}`
}

/** The note of a pull's commit (an import session of preset `pull`, named after its source); other imports write none. */
export function withPullNote<T>(session: { preset?: string | undefined; fileName: string | null }, fn: () => T): T {
  return session.preset === 'pull' ? withSourceNote(`pulled from ${session.fileName ?? 'a peer'}`, fn) : fn()
}
