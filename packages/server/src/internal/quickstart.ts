/**
 * The quick start: on first run, a demo client, user, supplier catalog and Spanish invoice skill; then the service
 * (`all` role) on the configured (by default embedded) settings; then a JWT, an API key (created once: the key is
 * stored only as a hash, so later runs say how to create another) and the shell lines that submit the sample
 * invoice and poll its result.
 */
import { fileURLToPath } from "node:url"
import { ApiKeys, type Directory, type Errors, type Ports, type Skill, Skills } from "@legible/core"
import { Console, Effect, Layer } from "effect"
import { HttpServer } from "effect/http"
import * as Config from "../Config.js"
import * as Jwt from "../Jwt.js"
import * as Layers from "../Layers.js"
import * as Operations from "../Operations.js"
import * as Serve from "../Serve.js"

/** The demo client. */
export const CLIENT: Directory.Client = { id: "demo", name: "Demo S.L." }
/** The demo user (role `user`) the token and the key belong to. */
export const USER: Directory.User = {
  id: "demo-user",
  name: "Demo User",
  email: "demo@example.com",
  role: "user",
  clientId: CLIENT.id
}
/** The name of the key the quick start creates once. */
export const KEY_NAME = "quickstart"
/** The demo skill's slug. */
export const SKILL = "factura-es"
/** The demo catalog's name. */
export const CATALOG = "Proveedores demo"
/** How long the printed token is valid. */
export const TOKEN_TTL_SECONDS = 24 * 3600

/** The sample invoice shipped in the repository (`examples/sample-invoice.pdf`, made by `scripts/sample-invoice.ts`). */
export const samplePath = (): string =>
  fileURLToPath(new URL("../../../../examples/sample-invoice.pdf", import.meta.url))

/** The demo suppliers (fixed ids: importing again replaces them). The first one issued the sample invoice. */
export const SUPPLIERS: ReadonlyArray<{ readonly id: string; readonly cif: string; readonly nombre: string }> = [
  { id: "5d1f0000-0000-4000-8000-000000000001", cif: "B12345674", nombre: "Papelería Ejemplo S.L." },
  { id: "5d1f0000-0000-4000-8000-000000000002", cif: "A28017895", nombre: "Suministros Industriales del Norte S.A." },
  { id: "5d1f0000-0000-4000-8000-000000000003", cif: "B86543210", nombre: "Limpiezas Brillo S.L." },
  { id: "5d1f0000-0000-4000-8000-000000000004", cif: "B64872033", nombre: "Café y Máquinas Levante S.L." },
  { id: "5d1f0000-0000-4000-8000-000000000005", cif: "A08001851", nombre: "Transportes Rápidos Ibéricos S.A." }
]

const simple = (
  name: string,
  order: number,
  type: Skill.SkillField["type"],
  description: string,
  aliases: Array<string>
) => ({ name, order, type, isList: false, description, aliases }) satisfies Skill.SkillField

/** The demo skill's fields; `proveedor` is matched by CIF against the catalog with id `catalogId`. */
export const skillFields = (catalogId: string): ReadonlyArray<Skill.SkillField> => [
  simple("numero", 1, "string", "Número de la factura", ["Número de factura", "Factura nº", "Nº factura"]),
  simple("fecha", 2, "date", "Fecha de emisión de la factura", ["Fecha", "Fecha de emisión"]),
  simple("emisor", 3, "string", "Razón social de quien emite la factura", ["Emisor"]),
  simple("total", 4, "float", "Importe total de la factura, impuestos incluidos", ["Total", "Total factura"]),
  {
    name: "lineas",
    order: 5,
    type: "object",
    isList: true,
    description: "Líneas de detalle de la factura",
    aliases: ["Líneas"],
    fields: [
      simple("descripcion", 1, "string", "Descripción del producto o servicio", ["Descripción"]),
      simple("cantidad", 2, "float", "Unidades", ["Cantidad"]),
      simple("precio", 3, "float", "Precio unitario", ["Precio"]),
      simple("importe", 4, "float", "Importe de la línea", ["Importe"])
    ]
  },
  {
    name: "proveedor",
    order: 6,
    type: "catalog",
    isList: false,
    description: "CIF del emisor, buscado en el catálogo de proveedores",
    aliases: ["CIF"],
    catalog: { catalogId, keyColumns: ["cif"], outputColumns: ["nombre"], method: "aproximada", threshold: 0.85 }
  }
]

/** What the first run created (or found). */
export interface Seeded {
  readonly skill: Skill.Skill
  /** The new key, on the run that created it. */
  readonly key: string | undefined
}

/** Why seeding failed. */
export type SeedError = Errors.StorageError | Errors.InvalidRequest | Errors.CatalogNotFound

/** Creates the demo data that is missing (idempotent), and the quick-start key unless one is still active. */
export const seed: () => Effect.Effect<Seeded, SeedError, Ports.StorageServices> = Effect.fn("Quickstart.seed")(
  function* () {
    yield* Operations.ensureClient(CLIENT.id, CLIENT.name)
    const { catalog } = yield* Operations.importCatalog({
      clientId: CLIENT.id,
      name: CATALOG,
      text: JSON.stringify(SUPPLIERS),
      format: "json",
      columns: ["cif", "nombre"]
    })
    const existing = yield* Skills.list(CLIENT.id)
    const skill =
      existing.find((s) => s.slug === SKILL) ??
      (yield* Skills.apply(CLIENT.id, SKILL, {
        name: "Factura (España)",
        instructions: "Factura española: número, fecha, emisor, total, líneas de detalle y el CIF del proveedor.",
        fields: skillFields(catalog.id)
      }))
    const keys = yield* ApiKeys.list(USER)
    if (keys.some((k) => k.nombre === KEY_NAME)) return { skill, key: undefined } satisfies Seeded
    const created = yield* Operations.createKey({ user: USER, nombre: KEY_NAME, tipo: "live" })
    return { skill, key: created.key } satisfies Seeded
  }
)

/** The base URL clients on this machine use (a wildcard bind address is reached through loopback). */
export const baseUrl = (address: HttpServer.HttpServer["Service"]["address"]): string =>
  HttpServer.formatAddress(address).replace("//0.0.0.0:", "//127.0.0.1:").replace("//[::]:", "//[::1]:")

/** The shell lines that submit the sample invoice with `key` and poll until its extraction is final. */
export const curlLines = (base: string, key: string, sample: string): ReadonlyArray<string> => [
  `KEY='${key}'`,
  `ID=$(curl -s ${base}/v1/extractions -H "x-api-key: $KEY" -H 'content-type: application/json' ` +
    `-d "{\\"file_name\\":\\"sample-invoice.pdf\\",\\"skill\\":\\"${SKILL}\\",` +
    `\\"file_base64\\":\\"$(base64 < '${sample}' | tr -d '\\n')\\"}" | sed -E 's/.*"extraction_id":"([^"]+)".*/\\1/')`,
  `until curl -s ${base}/v1/extractions/$ID -H "x-api-key: $KEY" | grep -Eq '"status":"(completado|incompleto|error)"'; do sleep 1; done`,
  `curl -s ${base}/v1/extractions/$ID -H "x-api-key: $KEY"`
]

/** The text printed once the service listens. */
export const instructions = (options: {
  readonly base: string
  readonly settings: Config.Settings
  readonly token: string
  readonly key: string | undefined
  readonly sample: string
}): string => {
  const { base, settings, token, key, sample } = options
  const where = Config.isEmbedded(settings) ? `embedded database in ${settings.dataDir}` : "PostgreSQL"
  const keyText =
    key === undefined
      ? [
          `The quick-start API key was created on the first run and is stored only as a hash. Create another with:`,
          `  curl -s ${base}/api/api-keys/ -H "authorization: Bearer $TOKEN" -H 'content-type: application/json' -d '{"nombre":"otra"}'`,
          `(or stop the service and run \`node packages/server/dist/bin.js keys create --client ${CLIENT.id} --user ${USER.id}\`)`
        ]
      : ["API key (shown once; only its hash is stored):", `  ${key}`]
  return [
    "",
    `legible is running at ${base} (${where}; default model ${settings.defaultModel})`,
    `Docs: ${base}/docs   OpenAPI: ${base}/openapi.json   Review console: ${base}/console`,
    "",
    `JWT for ${USER.id} of client ${CLIENT.id} (valid 24 h):`,
    `  TOKEN='${token}'`,
    ...keyText,
    "",
    "Submit the sample invoice and poll its result:",
    ...curlLines(base, key ?? "<your API key>", sample).map((line) => `  ${line}`),
    ""
  ].join("\n")
}

/** Runs the quick start until the process is interrupted. */
export const run = (settings: Config.Settings): Effect.Effect<never, SeedError | Serve.StartError> =>
  Effect.gen(function* () {
    const seeded = yield* seed()
    const token = yield* Jwt.mint(
      settings,
      { sub: USER.id, clientId: USER.clientId, name: USER.name, email: USER.email, role: USER.role },
      TOKEN_TTL_SECONDS
    )
    const server = yield* HttpServer.HttpServer
    yield* Console.log(
      instructions({ base: baseUrl(server.address), settings, token, key: seeded.key, sample: samplePath() })
    )
    return yield* Effect.never
  }).pipe(
    Effect.provide(
      Layer.merge(Serve.api(settings), Serve.worker(settings)).pipe(Layer.provideMerge(Layers.all(settings)))
    ),
    Effect.annotateLogs({ role: "all" }),
    Effect.provide(Serve.logging(settings))
  )
