import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { isUnauthorized } from './api'
import { App } from './app'
import { authEvents } from './auth-state'
import './styles.css'

const queryClient = new QueryClient({
  // A 401 anywhere means the key is missing or wrong: the app asks for it again.
  queryCache: new QueryCache({ onError: (error) => isUnauthorized(error) && authEvents.needKey() }),
  mutationCache: new MutationCache({ onError: (error) => isUnauthorized(error) && authEvents.needKey() }),
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
