import type { AnyRoute } from '../routing/define-route'

/** Placeholder: the routes of this group arrive in their own change. */
export const locationRoutes: AnyRoute[] = []
