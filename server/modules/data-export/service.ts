import type { Caller } from '#server/api/handler.ts'
import { createDataExportSweep, dataExportOutboxHandlers } from './build.ts'
import { downloadExport, exportState, requestExport, type DataExportDeps } from './requests.ts'

// A person's export of their own data (issue 42 item 2, decision 331): the use cases bound to their
// dependencies, the outbox topic that builds the archive, and the hourly sweep that removes it.
export function createDataExports(deps: DataExportDeps) {
  return {
    request: (caller: Caller) => requestExport(deps, caller),
    state: (caller: Caller) => exportState(deps, caller),
    download: (caller: Caller, token?: string) => downloadExport(deps, caller, token),
    outboxHandlers: dataExportOutboxHandlers(deps),
    sweep: createDataExportSweep(deps),
    /** Where the archives are kept (tests look there). */
    archives: deps.archives,
  }
}
export type DataExports = ReturnType<typeof createDataExports>
