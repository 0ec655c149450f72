import type { SqlExecutor } from './sql-executor'
import { attachmentAccess, attachments } from '../stores/attachment-store'
import { categories, categoryAccess } from '../stores/category-store'
import { componentAccess, components } from '../stores/component-store'
import { connectorAccess, connectors } from '../stores/connector-store'
import { documentAccess, documents } from '../stores/document-store'
import { importRowAccess, importRows } from '../stores/import-row-store'
import { libraryItemAccess, libraryItems } from '../stores/library-item-store'
import { locationAccess, locations } from '../stores/location-store'
import { manufacturerAccess, manufacturers } from '../stores/manufacturer-store'
import { mpnAccess, mpns } from '../stores/mpn-store'
import { parameterAccess, parameters, parameterTypeAccess, parameterTypes } from '../stores/parameter-store'
import type { Access } from '../stores/repo'
import { runAccess, runs } from '../stores/run-store'
import { search, searchAccess } from '../stores/search-store'
import { stats, statsAccess } from '../stores/stats-store'
import { tagAccess, tags } from '../stores/tag-store'
import { userAccess, users } from '../stores/user-store'
import { authSessionAccess, authSessions } from '../stores/auth-session-store'
import { tokenAccess, tokens } from '../stores/token-store'
import { auditAccess, audit } from '../stores/audit-store'
import { settingsAccess, settings } from '../stores/settings-store'
import { savedViewAccess, savedViews } from '../stores/saved-view-store'
import { externalRefAccess, externalRefs } from '../stores/external-ref-store'
import { sourceAccess, sources } from '../stores/source-store'
import { offerAccess, offers } from '../stores/offer-store'
import { provenanceAccess, provenance } from '../stores/provenance-store'
import { currentChange, withChange, type ChangeContext } from '../../change-context'
import type { StorageSession } from '../types'

/**
 * The stores, written once against SqlExecutor, each with its declaration of
 * how every method uses the database (Access); each engine binds them to its
 * own runner (bindSession).
 */
export const STORES = {
  components: { repo: components, access: componentAccess },
  symbols: { repo: libraryItems('symbol'), access: libraryItemAccess },
  footprints: { repo: libraryItems('footprint'), access: libraryItemAccess },
  attachments: { repo: attachments, access: attachmentAccess },
  manufacturers: { repo: manufacturers, access: manufacturerAccess },
  mpns: { repo: mpns, access: mpnAccess },
  parameterTypes: { repo: parameterTypes, access: parameterTypeAccess },
  parameters: { repo: parameters, access: parameterAccess },
  tags: { repo: tags, access: tagAccess },
  categories: { repo: categories, access: categoryAccess },
  locations: { repo: locations, access: locationAccess },
  search: { repo: search, access: searchAccess },
  connectors: { repo: connectors, access: connectorAccess },
  runs: { repo: runs, access: runAccess },
  jobs: { repo: documents('jobs'), access: documentAccess },
  imports: { repo: documents('imports'), access: documentAccess },
  importRows: { repo: importRows, access: importRowAccess },
  users: { repo: users, access: userAccess },
  authSessions: { repo: authSessions, access: authSessionAccess },
  tokens: { repo: tokens, access: tokenAccess },
  audit: { repo: audit, access: auditAccess },
  settings: { repo: settings, access: settingsAccess },
  savedViews: { repo: savedViews, access: savedViewAccess },
  externalRefs: { repo: externalRefs, access: externalRefAccess },
  sources: { repo: sources, access: sourceAccess },
  offers: { repo: offers, access: offerAccess },
  provenance: { repo: provenance, access: provenanceAccess },
}

/**
 * Runs one store call as its store declares it (`access`); `name`
 * (`group.method`) names the call in an engine's messages; `args` are the
 * call's, for an engine that routes by them (the embedded one's reader thread).
 */
export type Runner = <T>(fn: (ex: SqlExecutor) => T | Promise<T>, access: Access, name: string, args: readonly unknown[]) => Promise<T>

/** A StorageSession whose every method runs its store function through `run`. */
export function bindSession(run: Runner): StorageSession {
  const session: Record<string, unknown> = { stats: () => run((ex) => stats(ex), statsAccess, 'stats', []) }
  for (const [group, { repo, access }] of Object.entries(STORES)) {
    const bound: Record<string, unknown> = {}
    const kinds = access as Readonly<Record<string, Access>>
    for (const [method, fn] of Object.entries(repo as Record<string, (ex: SqlExecutor, ...args: unknown[]) => unknown>)) {
      const name = `${group}.${method}`
      const kind = kinds[method]
      // The declarations are checked against the contract at compile time; a method of the repo
      // beyond the contract would have none.
      if (kind === undefined) throw new Error(`[storage] ${name} declares no access (stores/repo.ts, Access)`)
      // The change context (who writes, and why) is taken where the call is made and set
      // again where it runs: an engine may run it from a queue, outside the caller's context.
      bound[method] = (...args: unknown[]) => {
        const change = currentChange()
        return run((ex) => (change ? withChange(change, () => fn(ex, ...args)) : fn(ex, ...args)), kind, name, args)
      }
    }
    session[group] = bound
  }
  return session as unknown as StorageSession
}

/** An executor inside a transaction that can undo one step of it (a savepoint). */
export interface AtomicSqlExecutor extends SqlExecutor {
  atomic<T>(fn: () => T | Promise<T>): Promise<T>
}

/**
 * Runs `fn` with a session bound to one transaction's executor. Calls run one
 * after another (a store call spans several awaits, and its savepoint must not
 * interleave with another's); a failed call undoes its own writes and the
 * transaction can go on. A call that was not awaited still lands inside the
 * transaction; one made after it ended fails loudly instead of writing outside it.
 */
export async function inTransaction<T>(ex: AtomicSqlExecutor, fn: (tx: StorageSession) => Promise<T>, change: ChangeContext | undefined): Promise<T> {
  let open = true
  let tail: Promise<unknown> = Promise.resolve()
  const session = bindSession((f) => {
    if (!open) return Promise.reject(new Error('[storage] the transaction has already ended'))
    const call = tail.then(() => ex.atomic(() => f(ex)))
    tail = call.catch(() => {})
    return call
  })
  try {
    // `change` is the caller's context, taken when it called transaction(): the engine may run this later, from its queue.
    const result = await (change ? withChange(change, () => fn(session)) : fn(session))
    await tail
    return result
  } finally {
    open = false
  }
}
