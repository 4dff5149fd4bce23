/**
 * The OpenAPI document as a new user meets it on `/docs`: every request body carries an example that its endpoint's
 * schema accepts (no `"model": ""`), every body member and parameter a description; the submission example is
 * accepted by the API; `GET /` leads to the docs.
 */
import { describe, expect, it } from "@effect/vitest"
import { Fixtures } from "@legible/testkit"
import { Schema } from "effect"
import { HttpApi } from "effect/http-api"
import { Api } from "../src/index.js"
import { apiKey, read, withApp } from "./support.js"

interface Media {
  readonly schema: JsonSchema
}
interface Operation {
  readonly parameters?: ReadonlyArray<{ readonly name: string; readonly schema?: { readonly description?: string } }>
  readonly requestBody?: { readonly content: Record<string, Media> }
}
interface JsonSchema {
  readonly $ref?: string
  readonly description?: string
  readonly examples?: ReadonlyArray<unknown>
  readonly properties?: Record<string, JsonSchema>
}
interface Document {
  readonly paths: Record<string, Record<string, Operation>>
  readonly components: { readonly schemas: Record<string, JsonSchema> }
}

/** The payload schemas of every endpoint, by `METHOD /path/{param}` and content type. */
const payloadSchemas = (): Map<string, Map<string, ReadonlyArray<Schema.Top>>> => {
  const found = new Map<string, Map<string, ReadonlyArray<Schema.Top>>>()
  HttpApi.reflect(Api.Api, {
    onGroup: () => {},
    onEndpoint: ({ endpoint }) => {
      const path = endpoint.path.replace(/:(\w+)/g, "{$1}")
      const byType = new Map<string, ReadonlyArray<Schema.Top>>()
      for (const [contentType, payload] of endpoint.payload) byType.set(contentType, payload.schemas)
      found.set(`${endpoint.method} ${path}`, byType)
    }
  })
  return found
}

const served = async (fetch: (path: string) => Promise<Response>): Promise<Document> =>
  (await (await fetch("/openapi.json")).json()) as Document

/** A schema of the document, following a `$ref` into `components`. */
const resolver =
  (spec: Document) =>
  (s: JsonSchema): JsonSchema =>
    s.$ref === undefined ? s : (spec.components.schemas[s.$ref.split("/").pop() ?? ""] ?? s)

describe("the OpenAPI document", () => {
  it(
    "has an example on every request body, and each one decodes with its endpoint's payload schema",
    withApp(async (app) => {
      const spec = await served(app.fetch)
      const schemas = payloadSchemas()
      const resolve = resolver(spec)
      let checked = 0
      for (const [path, operations] of Object.entries(spec.paths)) {
        for (const [method, operation] of Object.entries(operations)) {
          for (const [contentType, media] of Object.entries(operation.requestBody?.content ?? {})) {
            const where = `${method.toUpperCase()} ${path} (${contentType})`
            const examples = resolve(media.schema).examples
            expect(examples, where).toBeDefined()
            const candidates = schemas.get(`${method.toUpperCase()} ${path}`)?.get(contentType) ?? []
            expect(candidates.length, where).toBeGreaterThan(0)
            for (const example of examples ?? []) {
              const accepted = candidates.some((schema) => Schema.is(Schema.toType(schema))(example))
              expect(accepted, `${where}: ${JSON.stringify(example).slice(0, 120)}`).toBe(true)
              checked++
            }
          }
        }
      }
      // Keys, submission, status, skills (2), catalogs, records (CSV and JSON), quotas.
      expect(checked).toBeGreaterThanOrEqual(9)
    })
  )

  it(
    "describes every member of every request body and every parameter",
    withApp(async (app) => {
      const spec = await served(app.fetch)
      const resolve = resolver(spec)
      const missing: Array<string> = []
      for (const [path, operations] of Object.entries(spec.paths)) {
        for (const [method, operation] of Object.entries(operations)) {
          for (const parameter of operation.parameters ?? []) {
            if (parameter.schema?.description === undefined) missing.push(`${method} ${path} ?${parameter.name}`)
          }
          for (const media of Object.values(operation.requestBody?.content ?? {})) {
            for (const [name, member] of Object.entries(resolve(media.schema).properties ?? {})) {
              if (resolve(member).description === undefined && member.description === undefined) {
                missing.push(`${method} ${path} .${name}`)
              }
            }
          }
        }
      }
      expect(missing).toEqual([])
    })
  )

  it(
    "the submission example is accepted as it is: 202",
    withApp(async (app) => {
      const spec = await served(app.fetch)
      const media = spec.paths["/v1/extractions"]?.post?.requestBody?.content["application/json"]
      const example = (media === undefined ? [] : (resolver(spec)(media.schema).examples ?? []))[0]
      expect(example).toMatchObject({ model: "local" })
      const response = await app.fetch("/v1/extractions", {
        method: "POST",
        headers: apiKey(Fixtures.LIVE_KEY),
        body: JSON.stringify(example)
      })
      expect((await read(response)).status).toBe(202)
    })
  )

  it(
    "GET / redirects to the docs page",
    withApp(async (app) => {
      const response = await app.fetch("/", { redirect: "manual" })
      expect(response.status).toBe(302)
      expect(response.headers.get("location")).toBe("/docs")
    })
  )
})
