import fs from 'node:fs'
import path from 'node:path'
import { machinesMarkdown } from './machines.ts'

// Writes docs/state-machines.md from the machines in code: node server/modules/projects/machines-doc.ts
export const docPath = path.resolve(import.meta.dirname, '../../../docs/state-machines.md')
if (import.meta.main) {
  fs.writeFileSync(docPath, machinesMarkdown())
  console.log(`wrote ${docPath}`)
}
