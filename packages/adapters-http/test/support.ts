/**
 * The HTTP application in process: `Http.layer` over the in-memory ports (one shared state per app, so tests can
 * seed and inspect rows), a magic-number `DocumentReader`, a `FieldExtractor` that supports `local` and
 * `gpt-4o-mini`, and `HttpRouter.toWebHandler`. Tokens are minted with jose; log lines are captured as JSON.
 */
import { type Directory, Document, type Extraction, Ports } from "@legible/core"
import { Fake, Fixtures, Memory } from "@legible/testkit"
import { type Context, Effect, Layer, Logger } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { type JWTPayload, SignJWT } from "jose"
import { Http } from "../src/index.js"

/** The HS256 secret of the test apps (48 bytes). */
export const SECRET = "test-secret-of-forty-eight-bytes-0123456789abcde"

/** The start of each supported type, and a few unsupported ones. */
export const SAMPLES = {
  pdf: Fixtures.DOCUMENT,
  png: Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]),
  jpeg: Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0]),
  html: new TextEncoder().encode("<!doctype html><html><body><script>alert(1)</script></body></html>"),
  zip: Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 20, 0, 0, 0, 8, 0]),
  exe: Uint8Array.from([0x4d, 0x5a, 0x90, 0, 3, 0, 0, 0, 4, 0])
} as const

const startsWith = (bytes: Uint8Array, prefix: ReadonlyArray<number>) => prefix.every((b, i) => bytes[i] === b)

/** A `DocumentReader` that identifies PDF, PNG, JPEG and TIFF by their magic numbers (and reads nothing). */
export const reader = Fake.layer(Ports.DocumentReader, {
  identify: (bytes) => {
    if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46, 0x2d])) return Effect.succeed("application/pdf")
    if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return Effect.succeed("image/png")
    if (startsWith(bytes, [0xff, 0xd8, 0xff])) return Effect.succeed("image/jpeg")
    if (startsWith(bytes, [0x49, 0x49, 0x2a, 0]) || startsWith(bytes, [0x4d, 0x4d, 0, 0x2a])) {
      return Effect.succeed("image/tiff")
    }
    return Effect.fail(
      new Document.DocumentError({ reason: "UnsupportedType", message: "not a PDF, PNG, JPEG or TIFF document" })
    )
  }
})

/** A `FieldExtractor` whose configured providers serve `local` and `gpt-4o-mini`. */
export const extractor = Fake.layer(Ports.FieldExtractor, {
  supports: (model) => model === "local" || model === "gpt-4o-mini"
})

/** One in-process application. */
export interface App {
  /** Sends a request to the application (a path is resolved against `http://legible.test`). */
  readonly fetch: (input: string | Request, init?: RequestInit) => Promise<Response>
  readonly state: Memory.State
  /** Every log line written while the app served, as JSON text. */
  readonly logs: Array<string>
  readonly dispose: () => Promise<void>
}

/** How a test changes the application: HTTP options, and ports replaced over the in-memory ones. */
export interface Setup {
  readonly options?: Partial<Http.Options>
  readonly patch?: (services: Context.Context<Memory.Services>) => Context.Context<Memory.Services>
}

/** Builds the application with `Http.layer(options)` (HS256 with `SECRET` unless `auth` is given), seeded. */
export const makeApp = async ({ options = {}, patch = (s) => s }: Setup = {}): Promise<App> => {
  const state = Memory.makeState()
  await Effect.runPromise(Fixtures.seed.pipe(Effect.provideContext(Memory.context(state))))
  const logs: Array<string> = []
  const capture = Logger.map(Logger.formatJson, (line) => {
    logs.push(line)
  })
  const world = Layer.mergeAll(
    Layer.succeedContext(patch(Memory.context(state))),
    reader,
    extractor,
    HttpServer.layerServices
  )
  const app = Http.layer({ auth: { _tag: "Secret", secret: SECRET }, ...options }).pipe(
    Layer.provide(world),
    Layer.merge(Logger.layer([capture]))
  )
  const { handler, dispose } = HttpRouter.toWebHandler(app, { disableLogger: true })
  return {
    fetch: (input, init) =>
      handler(typeof input === "string" ? new Request(new URL(input, "http://legible.test"), init) : input),
    state,
    logs,
    dispose
  }
}

/** Runs `test` against a fresh application and disposes of it. */
export const withApp =
  (test: (app: App) => Promise<void>, setup: Setup = {}) =>
  async (): Promise<void> => {
    const app = await makeApp(setup)
    try {
      await test(app)
    } finally {
      await app.dispose()
    }
  }

/** Signs an HS256 token with `SECRET` (or `secret`) for `user()` unless claims say otherwise; valid for an hour. */
export const token = (
  claims: JWTPayload = {},
  options: { readonly secret?: string; readonly expiresIn?: string } = {}
) => {
  const u = Fixtures.user()
  const jwt = new SignJWT({ client_id: u.clientId, name: u.name, email: u.email, role: u.role, ...claims })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(typeof claims.sub === "string" ? claims.sub : u.id)
    .setIssuedAt()
  // An `exp` among the claims is kept as given.
  if (claims.exp === undefined) jwt.setExpirationTime(options.expiresIn ?? "1h")
  return jwt.sign(new TextEncoder().encode(options.secret ?? SECRET))
}

/** Headers of a JSON request with a bearer token. */
export const bearer = (jwt: string): Record<string, string> => ({
  authorization: `Bearer ${jwt}`,
  "content-type": "application/json"
})

/** Headers of a JSON request with an API key. */
export const apiKey = (key: string): Record<string, string> => ({
  "x-api-key": key,
  "content-type": "application/json"
})

/** Base64 of bytes, as a well-behaved client sends it. */
export const base64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString("base64")

/** A submission body of the invoice skill. */
export const submission = (overrides: Record<string, unknown> = {}): string =>
  JSON.stringify({
    file_name: "factura-0042.pdf",
    skill: "factura-es",
    file_base64: base64(SAMPLES.pdf),
    ...overrides
  })

/** The status and JSON body of a response. */
export const read = async (response: Response): Promise<{ readonly status: number; readonly body: unknown }> => {
  const text = await response.text()
  let body: unknown = text
  try {
    body = JSON.parse(text)
  } catch {
    // Not JSON: the body is returned as text so that the assertion shows it.
  }
  return { status: response.status, body }
}

/** Creates an API key through `POST /api/api-keys/` for `user` (with its role) and returns the full key. */
export const createKey = async (app: App, user: Directory.User, tipo: "live" | "test" = "live"): Promise<string> => {
  const jwt = await token({
    sub: user.id,
    client_id: user.clientId,
    name: user.name,
    email: user.email,
    role: user.role
  })
  const response = await app.fetch("/api/api-keys/", {
    method: "POST",
    headers: bearer(jwt),
    body: JSON.stringify({ nombre: `key of ${user.id}`, tipo })
  })
  if (response.status !== 201) throw new Error(`key creation failed: ${response.status} ${await response.text()}`)
  return ((await response.json()) as { api_key: { key: string } }).api_key.key
}

/** Stores an extraction row (and its document, unless `null`) straight into the in-memory state. */
export const putExtraction = (
  app: App,
  record: Extraction.ExtractionRecord,
  document: Uint8Array | null = Fixtures.DOCUMENT
): Extraction.ExtractionRecord => {
  app.state.extractions.set(record.id, record)
  if (document !== null) app.state.documents.set(record.id, { bytes: document, mimeType: record.mimeType })
  return record
}
