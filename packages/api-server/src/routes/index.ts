import type { AnyRoute } from '../routing/define-route'
import { attachmentRoutes } from './attachments'
import { bulkRoutes } from './bulk'
import { categoryRoutes } from './categories'
import { componentRoutes } from './components'
import { connectorRoutes } from './connectors'
import { sourceComponentRoutes } from './source-components'
import { sourcePullRoutes } from './source-pulls'
import { sourceRoutes } from './sources'
import { docsUiRoutes } from './docs-ui'
import { importExportRoutes } from './import-export'
import { kicadRoutes } from './kicad'
import { kicadRemoteRoutes } from './kicad-remote'
import { libraryItemRoutes } from './library-items'
import { locationRoutes } from './locations'
import { manufacturerRoutes } from './manufacturers'
import { mpnRoutes } from './mpns'
import { parameterRoutes } from './parameters'
import { searchRoutes } from './search'
import { systemRoutes } from './system'
import { tagRoutes } from './tags'
import { authRoutes } from './auth'
import { userRoutes } from './users'
import { tokenRoutes } from './tokens'
import { auditRoutes } from './audit'
import { settingsRoutes } from './settings'
import { viewRoutes } from './views'

/** Every route of the API, in the order of the groups (docs routes are added by createApp). */
export const ROUTES: readonly AnyRoute[] = [
  ...systemRoutes,
  ...docsUiRoutes,
  ...componentRoutes,
  ...sourceComponentRoutes,
  ...libraryItemRoutes,
  ...attachmentRoutes,
  ...manufacturerRoutes,
  ...mpnRoutes,
  ...parameterRoutes,
  ...tagRoutes,
  ...categoryRoutes,
  ...locationRoutes,
  ...searchRoutes,
  ...bulkRoutes,
  ...importExportRoutes,
  ...kicadRoutes,
  ...kicadRemoteRoutes,
  ...connectorRoutes,
  ...sourceRoutes,
  ...sourcePullRoutes,
  ...authRoutes,
  ...userRoutes,
  ...tokenRoutes,
  ...auditRoutes,
  ...settingsRoutes,
  ...viewRoutes,
]
