import type { moduleTestApi } from '../../integration/module-api.ts'

type Raw = ReturnType<typeof moduleTestApi>['raw']

/** Asks to be verified as a browser's form does (decision 332): a multipart POST of `kind` and one file. */
export async function askVerification(
  raw: Raw,
  token: string,
  file: { name: string; bytes: Buffer },
  kind = 'identity',
) {
  const boundary = '----workneer-verification-test'
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="kind"\r\n\r\n${kind}\r\n`),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    file.bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ])
  const response = await raw('POST', 'verification', {
    token,
    body,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  })
  const text = await response.text()
  return { status: response.status, text, json: text ? JSON.parse(text) : undefined }
}
