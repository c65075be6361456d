import type { Kysely, Transaction } from 'kysely'
import type { z } from 'zod'
import type { Database } from '#server/db/schema.ts'
import type { DB } from '#server/db/database.ts'
import type { Dialect } from '#server/db/migrations/helpers.ts'
import { ApiError } from '#server/api/errors.ts'
import type { FileService } from '../files/service.ts'
import type { SearchIndex } from './search-index.ts'
import type { bodies } from './contract.ts'

// What every profile use case is given: the database, its dialect (a few queries differ), the
// file service for images and documents, and the freelancers' full-text index.
export interface ProfilesDeps {
  db: DB
  dialect: Dialect
  files: FileService
  index: SearchIndex
}

/** A connection or a transaction: the use cases read and write through whichever they are handed. */
export type Trx = Kysely<Database> | Transaction<Database>
/** The parsed body of one of the profile editor's sections. */
export type Body<K extends keyof typeof bodies> = z.output<(typeof bodies)[K]>
export type ClientKind = 'individual' | 'company'

export const nowIso = () => new Date().toISOString()

/** A 400 naming the field, as the API's schema errors do, for rules that need the database to check. */
export const fieldError = (field: string, message: string) =>
  new ApiError(400, 'Invalid Info', `${field}: ${message}`, { [field]: [message] })
