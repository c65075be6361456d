import { implement } from '#server/api/handler.ts'
import { filesContract as c } from './contract.ts'
import type { FileService } from './service.ts'

export function filesRoutes(files: FileService) {
  return [implement(c.download, ({ params, ctx }) => files.download(params.id, ctx.caller, ctx.request))]
}
