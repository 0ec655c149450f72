import { useQuery } from '@tanstack/react-query'
import { lazy, Suspense, useEffect, useRef } from 'react'
import { useSignInNeeded } from './auth-state'
import { href, useRoute, type Route } from './router'
import { authQueries, can, type Permission } from './queries/auth'
import { serverQueries } from './queries/server'
import { LibraryScreen } from './screens/library'
import { SignIn } from './screens/sign-in'
import { SelectionProvider } from './selection'
import { ErrorBox } from './ui/error-box'
import { UserMenu } from './ui/user-menu'

// Screens past the first are loaded when opened: the library's first rows come sooner.
const ComponentScreen = lazy(() => import('./screens/component'))
const BulkScreen = lazy(() => import('./screens/bulk'))
const ImportScreen = lazy(() => import('./screens/import'))
const ConnectorsScreen = lazy(() => import('./screens/connectors'))
const ConnectorScreen = lazy(() => import('./screens/connector'))
const SourcesScreen = lazy(() => import('./screens/sources'))
const FromSourceScreen = lazy(() => import('./screens/from-source'))
const LocationsScreen = lazy(() => import('./screens/locations'))
const KicadScreen = lazy(() => import('./screens/kicad'))
const TemplatesScreen = lazy(() => import('./screens/templates'))
const TokensScreen = lazy(() => import('./screens/tokens'))
const PasswordScreen = lazy(() => import('./screens/password'))
const UsersScreen = lazy(() => import('./screens/users'))
const AuditScreen = lazy(() => import('./screens/audit'))
const SettingsScreen = lazy(() => import('./screens/settings'))

/** The screens in the header, each shown only to a caller with its permission. */
const NAV: Array<{ path: string; label: string; match: Route['name'][]; needs?: Permission }> = [
  { path: '/', label: 'Library', match: ['library', 'component', 'new-component', 'from-source'] },
  { path: '/bulk', label: 'Bulk edit', match: ['bulk'], needs: 'library:write' },
  { path: '/import', label: 'Import & export', match: ['import'] },
  { path: '/connectors', label: 'Connectors', match: ['connectors', 'connector', 'new-connector'], needs: 'connectors:read' },
  { path: '/sources', label: 'Sources', match: ['sources'], needs: 'sources:read' },
  { path: '/locations', label: 'Locations & stock', match: ['locations'] },
  { path: '/templates', label: 'Parameters', match: ['templates'] },
  { path: '/kicad', label: 'KiCad', match: ['kicad'] },
  { path: '/users', label: 'Users', match: ['users'], needs: 'users:admin' },
  { path: '/audit', label: 'Audit', match: ['audit'], needs: 'audit:read' },
  { path: '/settings', label: 'Settings', match: ['settings'], needs: 'settings:admin' },
]

/** Screens that are not in the header, with their titles. */
const OTHER_TITLES: Partial<Record<Route['name'], string>> = { tokens: 'API tokens', password: 'Change password' }

/** What a screen needs beyond reading the library; a caller without it is told so, not shown controls that fail. */
const SCREEN_NEEDS: Partial<Record<Route['name'], Permission>> = {
  'new-component': 'library:write',
  // Searching comes first on it (the Create button also needs library:write, which every role with search holds).
  'from-source': 'sources:search',
  sources: 'sources:read',
  bulk: 'library:write',
  connectors: 'connectors:read',
  connector: 'connectors:read',
  'new-connector': 'connectors:admin',
  users: 'users:admin',
  audit: 'audit:read',
  settings: 'settings:admin',
}

export function App() {
  // Signed out, nothing of the library is asked for: the sign-in page alone.
  return useSignInNeeded() ? <SignIn /> : <Shell />
}

function Shell() {
  const route = useRoute()
  const me = useQuery(authQueries.me())
  const health = useQuery(serverQueries.health())
  const main = useRef<HTMLElement>(null)
  const permissions = me.data?.permissions

  // A new screen: its title, and focus moved to it (a screen reader hears where it is).
  useEffect(() => {
    const label = NAV.find((n) => n.match.includes(route.name))?.label ?? OTHER_TITLES[route.name] ?? 'Not found'
    document.title = `${label} · complib`
    main.current?.focus({ preventScroll: true })
  }, [route])

  const needs = SCREEN_NEEDS[route.name]
  return (
    <SelectionProvider>
      <a className="skip-link" href="#main" onClick={(e) => (e.preventDefault(), main.current?.focus())}>
        Skip to content
      </a>
      <header className="top">
        <span className="brand" aria-hidden="true">
          complib
        </span>
        <nav aria-label="Screens">
          <ul>
            {NAV.filter((n) => !n.needs || can(permissions, n.needs)).map((n) => (
              <li key={n.path}>
                <a href={href(n.path)} aria-current={n.match.includes(route.name) ? 'page' : undefined}>
                  {n.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <a className="api-link" href="/api/docs/ui">
          API reference
        </a>
        {me.data && <UserMenu me={me.data} />}
      </header>
      <main id="main" ref={main} tabIndex={-1}>
        {health.isError && (
          <p role="alert" className="error-box">
            The server did not answer: is <code>complib serve</code> running?
          </p>
        )}
        {/* The screens are drawn for the caller's permissions: none before they are known. */}
        {me.isPending ? (
          <p className="muted">Loading…</p>
        ) : me.error ? (
          <ErrorBox error={me.error} title="Who you are could not be read" />
        ) : needs && !can(permissions, needs) ? (
          <section>
            <h1>Not allowed</h1>
            <p>
              Your role ({me.data.role}) does not allow this screen. <a href={href('/')}>Back to the library</a>.
            </p>
          </section>
        ) : (
          <Suspense fallback={<p className="muted">Loading…</p>}>
            <Screen route={route} />
          </Suspense>
        )}
      </main>
    </SelectionProvider>
  )
}

function Screen({ route }: { route: Route }) {
  switch (route.name) {
    case 'library':
      return <LibraryScreen />
    case 'component':
      return <ComponentScreen key={route.id} id={route.id} />
    case 'new-component':
      return <ComponentScreen key="new" id={undefined} />
    case 'from-source':
      return <FromSourceScreen />
    case 'bulk':
      return <BulkScreen />
    case 'import':
      return <ImportScreen />
    case 'connectors':
      return <ConnectorsScreen />
    case 'connector':
      return <ConnectorScreen key={route.id} id={route.id} />
    case 'new-connector':
      return <ConnectorScreen key="new" id={undefined} />
    case 'sources':
      return <SourcesScreen />
    case 'locations':
      return <LocationsScreen />
    case 'kicad':
      return <KicadScreen />
    case 'templates':
      return <TemplatesScreen />
    case 'tokens':
      return <TokensScreen />
    case 'password':
      return <PasswordScreen />
    case 'users':
      return <UsersScreen />
    case 'audit':
      return <AuditScreen />
    case 'settings':
      return <SettingsScreen />
    case 'not-found':
      return (
        <section>
          <h1>Not found</h1>
          <p>
            Nothing lives at <code>{route.path}</code>. <a href={href('/')}>Back to the library</a>.
          </p>
        </section>
      )
  }
}
