/**
 * A small client of a served legible: tokens minted with the server's own `Jwt.sign`, JSON requests with a bearer
 * token or an API key, and polling an extraction until it is final.
 */
import { readFileSync } from "node:fs"
import * as Path from "node:path"
import type { Api } from "@legible/adapters-http"
import * as Quickstart from "../../src/internal/quickstart.js"
import * as Jwt from "../../src/Jwt.js"
import { ROOT, SECRET, waitFor } from "./process.js"
import { type Typed, typed } from "./typed.js"

/** The sample invoice shipped in the repository. */
export const SAMPLE_PDF: Uint8Array = readFileSync(Path.join(ROOT, "examples/sample-invoice.pdf"))
/** Its scanned copy. */
export const SAMPLE_SCAN: Uint8Array = readFileSync(Path.join(ROOT, "examples/sample-invoice-scan.jpg"))

/** A user for tokens. */
export interface TokenUser {
  readonly sub: string
  readonly clientId: string
  readonly name?: string
  readonly email?: string
  readonly role?: "user" | "global_admin"
}

/** An HS256 token signed with `secret` (default the tests' `SECRET`), valid `ttl` seconds (negative: expired). */
export const token = (user: TokenUser, options: { readonly secret?: string; readonly ttl?: number } = {}): string =>
  Jwt.sign(options.secret ?? SECRET, user, Math.floor(Date.now() / 1000), options.ttl ?? 3600)

/** A response's status, headers and body (parsed as JSON when it is JSON). */
export interface Reply {
  readonly status: number
  readonly headers: Headers
  readonly body: unknown
}

/** Any JSON object, for assertions. */
export type Json = Record<string, unknown>

const reply = async (response: Response): Promise<Reply> => {
  const text = await response.text()
  let body: unknown = text
  if ((response.headers.get("content-type") ?? "").includes("json")) {
    try {
      body = JSON.parse(text)
    } catch {
      // left as text: the assertion shows it
    }
  }
  return { status: response.status, headers: response.headers, body }
}

/** The members of a submission body besides the file (`skill` defaults to `factura-es`). */
export type SubmitExtra = Partial<Omit<typeof Api.SubmitBody.Type, "file_base64" | "file_name">>

// The raw requests, and the helpers (key creation, submission, polling) written with the typed client.
const rawClient = (base: string, typedClients: Typed) => {
  const { as, send: sendTyped } = typedClients
  const send = async (method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Reply> =>
    reply(
      await fetch(`${base}${path}`, {
        method,
        headers: body === undefined ? headers : { "content-type": "application/json", ...headers },
        ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) })
      })
    )
  return {
    base,
    /** A request with a bearer token (none when `jwt` is undefined). */
    jwt: (method: string, path: string, jwt: string | undefined, body?: unknown) =>
      send(method, path, jwt === undefined ? {} : { authorization: `Bearer ${jwt}` }, body),
    /** A request with an API key (none when `key` is undefined). */
    key: (method: string, path: string, key: string | undefined, body?: unknown) =>
      send(method, path, key === undefined ? {} : { "x-api-key": key }, body),
    /** A raw fetch. */
    raw: (path: string, init?: RequestInit) => fetch(`${base}${path}`, init),
    /** Creates a key with a token; returns the full key. */
    createKey: async (jwt: string, nombre = "test", tipo: "live" | "test" = "live"): Promise<string> => {
      const created = await sendTyped(as({ token: jwt }).keys.create({ payload: { nombre, tipo } }))
      if (created.value === undefined)
        throw new Error(`key creation failed: ${created.status} ${JSON.stringify(created.body)}`)
      return created.value.api_key.key
    },
    /** Submits a document; returns the extraction id (fails unless 202). */
    submit: async (key: string, document: Uint8Array, fileName: string, extra: SubmitExtra = {}): Promise<string> => {
      const payload = {
        file_name: fileName,
        skill: "factura-es",
        file_base64: Buffer.from(document).toString("base64"),
        ...extra
      }
      const submitted = await sendTyped(as({ apiKey: key }).extractions.submit({ payload, headers: {} }))
      if (submitted.value === undefined)
        throw new Error(`submission failed: ${submitted.status} ${JSON.stringify(submitted.body)}`)
      return submitted.value.body.extraction_id
    },
    /** Polls the extraction until it is final; returns its read (as the server sent it). */
    awaitFinal: (key: string, id: string, timeoutMs = 60_000): Promise<Json> =>
      waitFor(
        `extraction ${id} to be final`,
        async () => {
          const read = await sendTyped(as({ apiKey: key }).extractions.read({ params: { extraction_id: id } }))
          const status = read.value?.status
          return status === "completado" || status === "incompleto" || status === "error"
            ? (read.body as Json)
            : undefined
        },
        timeoutMs,
        50
      )
  }
}

type RawClient = ReturnType<typeof rawClient>

/**
 * A client of one server: the typed client of the contract (`as`, `send`, see `typed.ts`) for what the contract can
 * express, raw JSON requests (`jwt`, `key`, `raw`) for what it cannot (malformed bodies, unknown routes).
 */
export interface Client extends RawClient, Typed {}

/** A client of one server. */
export const client = (base: string): Client => {
  const typedClients = typed(base)
  return { ...rawClient(base, typedClients), ...typedClients }
}

/** The reply's body when its status is `status`; otherwise fails naming the step, the status and the body. */
export const must = async (
  what: string,
  reply: Promise<{ status: number; body: unknown }>,
  status = 200
): Promise<Json> => {
  const r = await reply
  if (r.status !== status) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`)
  return r.body as Json
}

/**
 * The demo invoice skill (`factura-es`, with its supplier catalog) for the token's client; returns the skill id.
 * The token's user must exist (create a key first).
 */
export const seedSkill = async (api: Client, jwt: string): Promise<string> => {
  const operator = api.as({ token: jwt })
  const catalog = await must(
    "catalog",
    api.send(operator.catalogs.create({ payload: { name: Quickstart.CATALOG, columns: ["cif", "nombre"] } })),
    201
  )
  await must(
    "records",
    api.send(
      operator.catalogs.importRecords({ params: { catalog_id: catalog.id as string }, payload: Quickstart.SUPPLIERS })
    )
  )
  const skill = await must(
    "skill",
    api.send(
      operator.skills.create({
        payload: {
          slug: Quickstart.SKILL,
          name: "Factura (España)",
          fields: Quickstart.skillFields(catalog.id as string)
        }
      })
    ),
    201
  )
  return skill.id as string
}
