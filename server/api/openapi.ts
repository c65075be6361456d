import { z } from 'zod'
import type { Endpoint } from './contract.ts'
import { errorCodes } from './errors.ts'

// The OpenAPI document is generated from the same zod contracts the API validates with, so it
// cannot drift from what the server accepts.
export function openApiDocument(endpoints: Endpoint[], serverUrl = '/api/v1') {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const e of endpoints) (paths[`/${e.path}`] ??= {})[e.method.toLowerCase()] = operationOf(e)
  return {
    openapi: '3.1.0',
    info: {
      title: 'Workneer API',
      version: '1',
      description: 'The JSON API of Workneer, the marketplace for engineering and construction work.',
    },
    servers: [{ url: serverUrl }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      responses: {
        Problem: problemResponse,
      },
    },
  }
}

function operationOf(e: Endpoint) {
  return {
    summary: e.summary,
    tags: [e.tag],
    operationId: `${e.method.toLowerCase()}_${e.path.replace(/[^a-zA-Z0-9]+/g, '_')}`,
    parameters: [...parameters(e.params, 'path'), ...parameters(e.query, 'query')],
    ...(e.body ? { requestBody: requestBodyOf(e, e.body) } : {}),
    responses: {
      '200': {
        description: 'OK',
        content:
          e.responseType === 'text'
            ? { 'text/plain': { schema: { type: 'string' } } }
            : e.responseType === 'file'
              ? { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } }
              : { 'application/json': { schema: jsonSchema(e.response, 'output') } },
      },
      '400': { $ref: '#/components/responses/Problem' },
      ...(e.access !== 'public' ? { '401': { $ref: '#/components/responses/Problem' } } : {}),
      ...(e.access === 'admin' ? { '403': { $ref: '#/components/responses/Problem' } } : {}),
    },
    ...(e.access !== 'public' ? { security: [{ bearer: [] }] } : {}),
  }
}

function requestBodyOf(e: Endpoint, body: z.ZodType) {
  const schema = jsonSchema(body, 'input')
  const multipart = {
    schema: {
      ...schema,
      properties: {
        ...(schema.properties as object),
        files: { type: 'array', items: { type: 'string', format: 'binary' } },
      },
    },
  }
  return {
    required: true,
    content: {
      'application/json': { schema },
      ...(e.multipart ? { 'multipart/form-data': multipart } : {}),
    },
  }
}

function jsonSchema(schema: z.ZodType, io: 'input' | 'output') {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<
    string,
    unknown
  >
  return rest
}

function parameters(schema: z.ZodType | undefined, where: 'path' | 'query') {
  if (!schema) return []
  const js = jsonSchema(schema, 'input') as { properties?: Record<string, unknown>; required?: string[] }
  return Object.entries(js.properties ?? {}).map(([name, s]) => ({
    name,
    in: where,
    required: where === 'path' || (js.required ?? []).includes(name),
    schema: s,
  }))
}

const escape = (s: string) =>
  s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!)

/** A readable, dependency-free page of the same document, grouped by tag. */
export function openApiHtml(endpoints: Endpoint[]) {
  const byTag = Map.groupBy(endpoints, (e) => e.tag)
  const sections = [...byTag].map(
    ([tag, list]) =>
      `<section><h2>${escape(tag)}</h2>${list
        .map((e) => {
          const schema = (label: string, s?: z.ZodType, io: 'input' | 'output' = 'input') =>
            s
              ? `<details><summary>${label}</summary><pre>${escape(JSON.stringify(jsonSchema(s, io), null, 2))}</pre></details>`
              : ''
          return `<article><h3><span class="m m-${e.method}">${e.method}</span> <code>/api/v1/${escape(e.path)}</code></h3><p>${escape(e.summary)}${e.access === 'user' ? ' <em>(sign-in required)</em>' : e.access === 'admin' ? ' <em>(SuperAdmin only)</em>' : ''}</p>${schema('Path parameters', e.params)}${schema('Query', e.query)}${schema('Body', e.body)}${e.responseType === 'text' ? '<p>Answers text/plain.</p>' : e.responseType === 'file' ? "<p>Answers the file's bytes.</p>" : schema('Response', e.response, 'output')}</article>`
        })
        .join('')}</section>`,
  )
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Workneer API v1</title><style>body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1b2430}h3{font-size:1rem}code{font-size:.95rem}.m{display:inline-block;min-width:4.5rem;padding:.1rem .4rem;border-radius:.3rem;color:#fff;background:#1f5f8b;font-size:.8rem;text-align:center}.m-POST{background:#2e7d32}.m-PUT,.m-PATCH{background:#8d5a00}.m-DELETE{background:#b3261e}pre{background:#f3f5f8;padding:.75rem;overflow:auto}article{border-top:1px solid #dde3ea;padding:.5rem 0}</style></head><body><main><h1>Workneer API v1</h1><p>Machine-readable: <a href="/api/v1/openapi.json">openapi.json</a>. Errors share one shape: <code>{ status, code, title, detail, errors: { field: [messages] }, requestId }</code>; decide on <code>code</code>, never on the title.</p>${sections.join('')}</main></body></html>`
}

/** The one shape of every error (server/api/errors.ts). */
const problemResponse = {
  description:
    'An error: the status, a stable machine code, a title for people, a detail and the validation messages by field',
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['status', 'code', 'title', 'detail', 'errors', 'requestId'],
        properties: {
          status: { type: 'integer' },
          code: {
            type: 'string',
            enum: [...errorCodes],
            description: 'What went wrong, for programs: decide on this, not on the title',
          },
          title: { type: 'string' },
          detail: { type: 'string' },
          errors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
          requestId: { type: 'string' },
        },
      },
    },
  },
}
