import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import type { Kysely, Transaction } from 'kysely'
import type { Database } from '#server/db/schema.ts'
import { appSecret } from '#server/db/app-secrets.ts'

// Identity documents at rest (decision 332): each document is encrypted with AES-256-GCM under a
// key of its own; that key is kept only wrapped (encrypted with AES-256-GCM) by the platform's
// verification key, an app secret made once and shared by every instance. Deleting a document's
// row deletes its bytes and its key together. The request's id is the additional data of both, so
// a row copied onto another request does not open.

type Executor = Kysely<Database> | Transaction<Database>

const SECRET = 'verification-documents'
const ALGORITHM = 'aes-256-gcm'

/** The platform's key for documents: made once, kept in the database. */
const platformKey = async (executor: Executor) => Buffer.from(await appSecret(executor, SECRET), 'base64url')

function encrypt(key: Buffer, plain: Buffer, aad: string) {
  const iv = randomBytes(12)
  const cipher = createCipheriv(ALGORITHM, key, iv)
  cipher.setAAD(Buffer.from(aad))
  const ciphertext = Buffer.concat([cipher.update(plain), cipher.final()])
  return { iv, tag: cipher.getAuthTag(), ciphertext }
}

function decrypt(key: Buffer, sealed: { iv: Buffer; tag: Buffer; ciphertext: Buffer }, aad: string) {
  const decipher = createDecipheriv(ALGORITHM, key, sealed.iv)
  decipher.setAAD(Buffer.from(aad))
  decipher.setAuthTag(sealed.tag)
  return Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()])
}

const aadOf = (verificationId: number) => `workneer verification ${verificationId}`

/** The document's columns: its ciphertext, and its own key wrapped by the platform's key. */
export async function seal(executor: Executor, verificationId: number, plain: Buffer) {
  const dataKey = randomBytes(32)
  const aad = aadOf(verificationId)
  const body = encrypt(dataKey, plain, aad)
  const wrapped = encrypt(await platformKey(executor), dataKey, aad)
  dataKey.fill(0)
  return {
    wrapped_key: Buffer.concat([wrapped.iv, wrapped.tag, wrapped.ciphertext]).toString('base64'),
    iv: body.iv.toString('base64'),
    tag: body.tag.toString('base64'),
    ciphertext: body.ciphertext,
  }
}

/** The document's bytes, from its row (a row that was altered does not open: GCM checks it). */
export async function unseal(
  executor: Executor,
  verificationId: number,
  row: { wrapped_key: string; iv: string; tag: string; ciphertext: Uint8Array },
) {
  const aad = aadOf(verificationId)
  const wrapped = Buffer.from(row.wrapped_key, 'base64')
  const dataKey = decrypt(
    await platformKey(executor),
    { iv: wrapped.subarray(0, 12), tag: wrapped.subarray(12, 28), ciphertext: wrapped.subarray(28) },
    aad,
  )
  try {
    return decrypt(
      dataKey,
      {
        iv: Buffer.from(row.iv, 'base64'),
        tag: Buffer.from(row.tag, 'base64'),
        ciphertext: Buffer.from(row.ciphertext),
      },
      aad,
    )
  } finally {
    dataKey.fill(0)
  }
}
