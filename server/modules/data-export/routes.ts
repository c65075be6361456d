import { implement } from '#server/api/handler.ts'
import { dataExportContract as c } from './contract.ts'
import type { DataExports } from './service.ts'

export function dataExportRoutes(exports: DataExports) {
  return [
    implement(c.requestDataExport, ({ ctx }) => exports.request(ctx.caller!)),
    implement(c.dataExport, ({ ctx }) => exports.state(ctx.caller!)),
    implement(c.downloadDataExport, ({ query, ctx }) => exports.download(ctx.caller!, query.token)),
  ]
}
