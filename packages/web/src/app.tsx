import { useQuery } from '@tanstack/react-query'
import { lazy, Suspense, useEffect, useRef } from 'react'
import { useAuthState } from './auth-state'
import { href, useRoute, type Route } from './router'
import { serverQueries } from './queries/server'
import { KeyPrompt } from './screens/key-prompt'
import { LibraryScreen } from './screens/library'
import { SelectionProvider } from './selection'

// Screens past the first are loaded when opened: the library's first rows come sooner.
const ComponentScreen = lazy(() => import('./screens/component'))
const BulkScreen = lazy(() => import('./screens/bulk'))
const ImportScreen = lazy(() => import('./screens/import'))
const ConnectorsScreen = lazy(() => import('./screens/connectors'))
const ConnectorScreen = lazy(() => import('./screens/connector'))
const LocationsScreen = lazy(() => import('./screens/locations'))
const KicadScreen = lazy(() => import('./screens/kicad'))

const NAV: Array<{ path: string; label: string; match: Route['name'][] }> = [
  { path: '/', label: 'Library', match: ['library', 'component', 'new-component'] },
  { path: '/bulk', label: 'Bulk edit', match: ['bulk'] },
  { path: '/import', label: 'Import & export', match: ['import'] },
  { path: '/connectors', label: 'Connectors', match: ['connectors', 'connector', 'new-connector'] },
  { path: '/locations', label: 'Locations & stock', match: ['locations'] },
  { path: '/kicad', label: 'KiCad', match: ['kicad'] },
]

export function App() {
  const route = useRoute()
  const auth = useAuthState()
  const health = useQuery({ ...serverQueries.health(), enabled: !auth.needed })
  const main = useRef<HTMLElement>(null)

  // A new screen: its title, and focus moved to it (a screen reader hears where it is).
  useEffect(() => {
    const label = NAV.find((n) => n.match.includes(route.name))?.label ?? 'Not found'
    document.title = `${label} · complib`
    main.current?.focus({ preventScroll: true })
  }, [route])

  if (auth.needed) return <KeyPrompt refused={auth.refused} />
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
            {NAV.map((n) => (
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
      </header>
      <main id="main" ref={main} tabIndex={-1}>
        {health.isError && !auth.needed && (
          <p role="alert" className="error-box">
            The server did not answer: is <code>complib serve</code> running?
          </p>
        )}
        <Suspense fallback={<p className="muted">Loading…</p>}>
          <Screen route={route} />
        </Suspense>
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
    case 'locations':
      return <LocationsScreen />
    case 'kicad':
      return <KicadScreen />
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
