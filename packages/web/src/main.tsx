import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { isUnauthorized } from './api'
import { App } from './app'
import { authEvents } from './auth-state'
import './styles.css'

const queryClient = new QueryClient({
  // A 401 anywhere means no session (or it ended) or a refused key: the app asks to sign in.
  queryCache: new QueryCache({ onError: (error) => isUnauthorized(error) && authEvents.needSignIn() }),
  // A write whose 401 is an answer, not a lost session (a wrong current password), says so in its meta.
  mutationCache: new MutationCache({ onError: (error, _v, _c, mutation) => isUnauthorized(error) && !mutation.meta?.unauthorizedIsAnswer && authEvents.needSignIn() }),
  defaultOptions: {
    queries: { retry: (count, error) => !isUnauthorized(error) && count < 1, refetchOnWindowFocus: false, staleTime: 5_000 },
  },
})

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <App />
    </QueryClientProvider>
  </StrictMode>,
)
