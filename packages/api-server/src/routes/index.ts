import type { AnyRoute } from '../routing/define-route'
import { systemRoutes } from './system'

/** Every route of the API, in the order of the groups. */
export const ROUTES: readonly AnyRoute[] = [...systemRoutes]
