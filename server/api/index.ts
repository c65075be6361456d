import type { Config } from '../config.ts'
import type { Db } from '../db/database.ts'
import type { Logger } from '../log.ts'
import { createCatalogueService } from '../modules/catalogue/service.ts'
import { catalogueRoutes } from '../modules/catalogue/routes.ts'
import { createApiHandler } from './handler.ts'
import { openApiDocument, openApiHtml } from './openapi.ts'

// Wires each module's service to its routes. Services are built once per process and shared by
// the API and the real-time hubs.
export function createApi({ database, log, config }: { database: Db; log: Logger; config: Config }) {
  const services = { catalogue: createCatalogueService(database.db) }
  const implementations = [...catalogueRoutes(services.catalogue)]
  const endpoints = implementations.map((i) => i.endpoint)
  let document: ReturnType<typeof openApiDocument> | undefined
  let html: string | undefined
  const handler = createApiHandler({
    implementations,
    log,
    authenticate: async () => null,
    validateResponses: !config.isProduction,
    extra: (request, path) => {
      if (request.method !== 'GET') return null
      if (path === 'openapi.json') return Response.json((document ??= openApiDocument(endpoints)), { headers: { 'cache-control': 'public, max-age=60' } })
      if (path === 'docs') return new Response((html ??= openApiHtml(endpoints)), { headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'public, max-age=60' } })
      return null
    },
  })
  return { handler, endpoints, services }
}

export type Api = ReturnType<typeof createApi>
