import fs from 'node:fs'
import path from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

// Migrations are frozen (decision 100): each carries the SQL of its own date, so what it does
// never changes with today's modules. The one way to break that is an import, so every module
// specifier of every file in the migrations folder (static, type-only, re-export, dynamic,
// require) is read with TypeScript's own scanner: kysely, or a file of the folder itself.
const folder = path.join(import.meta.dirname, 'migrations')

/** The specifiers a file imports that a migration may not: anything but kysely and the folder's own files. */
function couplings(source: string, files: ReadonlySet<string>) {
  return ts
    .preProcessFile(source, true, true)
    .importedFiles.map((f) => f.fileName)
    .filter((name) => !(name === 'kysely' || (/^\.\/[^/]+$/.test(name) && files.has(name.slice(2)))))
}

describe('frozen migrations', () => {
  const files = new Set(fs.readdirSync(folder).filter((f) => f.endsWith('.ts')))

  it.each([...files])('%s imports only kysely and the migrations folder', (file) => {
    expect(couplings(fs.readFileSync(path.join(folder, file), 'utf8'), files)).toEqual([])
  })

  it('reads every way a file can reach outside the folder', () => {
    const own = new Set(['helpers.ts', '0018-project-index.ts'])
    const source = [
      "import { sql } from 'kysely'",
      "import type { Migration } from './helpers.ts'",
      "import { rebuildProjectIndex } from './0018-project-index.ts'",
      "import { createProjectSearchIndex } from '../../modules/projects/search-index.ts'",
      "import type { Database } from '../schema.ts'",
      "export { fold } from '../../modules/projects/rules.ts'",
      "export * from './migrations/../../schema.ts'",
      "const fs = await import('node:fs')",
      "const pg = require('pg')",
      "import './0019-not-here.ts'",
      "import { Migrator } from 'kysely/migration'",
    ].join('\n')
    expect(couplings(source, own)).toEqual([
      '../../modules/projects/search-index.ts',
      '../schema.ts',
      '../../modules/projects/rules.ts',
      './migrations/../../schema.ts',
      'node:fs',
      'pg',
      './0019-not-here.ts',
      'kysely/migration',
    ])
  })
})
