import { z } from 'zod'
import { endpoint, recordId } from '#server/api/contract.ts'

const id = recordId

export const filesContract = {
  download: endpoint({
    method: 'GET',
    path: 'files/{id}/download',
    summary: 'The bytes of a stored file, if the caller may read it',
    tag: 'Files',
    access: 'public',
    params: z.object({ id }),
    response: z.any(),
    responseType: 'file',
  }),
}
