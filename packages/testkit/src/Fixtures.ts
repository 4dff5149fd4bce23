/**
 * Deterministic fixtures: explicit values for clients, users, keys, a Spanish invoice skill, a supplier catalog and
 * extraction records, with fixed UUIDs and timestamps. Builders take overrides; nothing here is random.
 */
import {
  type ApiKey,
  type ApiKeys,
  type Catalog,
  type Directory,
  type Errors,
  type Extraction,
  type Extractions,
  type Field,
  Ports,
  type Skill
} from "@legible/core"
import { Effect } from "effect"
import { uuid } from "./TestIds.js"
import * as TestTime from "./TestTime.js"

/** The n-th fixture UUID: `00000000-0000-4000-8000-f0000000000n`, apart from the `TestIds.layer` sequence. */
export const fixtureId = (n: number): string => uuid(0xf000_0000_0000 + n)

/** Fixed ids of the fixtures. */
export const ids = {
  liveKey: fixtureId(1),
  testKey: fixtureId(2),
  otherLiveKey: fixtureId(3),
  skill: fixtureId(10),
  catalog: fixtureId(20),
  recordAcme: fixtureId(21),
  recordGlobex: fixtureId(22),
  recordInitech: fixtureId(23),
  extraction: fixtureId(30)
} as const

/** The main client. */
export const client: Directory.Client = { id: "client-acme", name: "Acme Distribuciones S.L." }
/** Another client, whose rows the main client must never see. */
export const otherClient: Directory.Client = { id: "client-globex", name: "Globex Ibérica S.A." }

/** A user of `client`, with the role `user`. */
export const user = (overrides: Partial<Directory.User> = {}): Directory.User => ({
  id: "user-ana",
  name: "Ana García",
  email: "ana.garcia@acme.example",
  role: "user",
  clientId: client.id,
  ...overrides
})
/** A user of `otherClient`. */
export const otherUser = (overrides: Partial<Directory.User> = {}): Directory.User =>
  user({
    id: "user-bruno",
    name: "Bruno Díaz",
    email: "bruno.diaz@globex.example",
    clientId: otherClient.id,
    ...overrides
  })
/** A `global_admin` of `otherClient`, who may act on `client`'s extractions by naming it. */
export const admin = (overrides: Partial<Directory.User> = {}): Directory.User =>
  user({
    id: "user-root",
    name: "Root Admin",
    email: "root@globex.example",
    role: "global_admin",
    clientId: otherClient.id,
    ...overrides
  })

/** A well-formed live key (43 base62 characters after the prefix). */
export const LIVE_KEY = "pk_live_BmNyZAlMxY9kLwX8jKvW7iJuV6hItU5gHsT4fGrS3eF"
/** SHA-256 (hex) of `LIVE_KEY`, computed independently of `ApiKey.hash`. */
export const LIVE_KEY_HASH = "42c1127afdcb96d075a3102f7c165b2f60c22dcd6943d0d3565440880b8f960f"
/** A well-formed test (sandbox) key. */
export const TEST_KEY = "pk_test_Fe3SrGf4TsHg5UtIh6VuJi7WvKj8XwLk9YxMlAZyNmB"
/** SHA-256 (hex) of `TEST_KEY`. */
export const TEST_KEY_HASH = "8fe3244f29b63b3605024f39e776c849a8f0915abbdea84fd8192006d063756d"

/** A stored key row: `LIVE_KEY` of `user()` unless overridden. Holds the hash and preview, never the key. */
export const storedKey = (overrides: Partial<ApiKey.StoredApiKey> = {}): ApiKey.StoredApiKey => ({
  id: ids.liveKey,
  clientId: client.id,
  userId: user().id,
  nombre: "Integración ERP",
  tipo: "live",
  hash: LIVE_KEY_HASH,
  preview: "pk_live_BmNy…S3eF",
  createdAt: TestTime.now,
  lastUsed: null,
  revokedAt: null,
  ...overrides
})

/** The stored row of `TEST_KEY` (sandbox) of `user()`. */
export const storedTestKey = (overrides: Partial<ApiKey.StoredApiKey> = {}): ApiKey.StoredApiKey =>
  storedKey({
    id: ids.testKey,
    nombre: "Pruebas",
    tipo: "test",
    hash: TEST_KEY_HASH,
    preview: "pk_test_Fe3S…yNmB",
    ...overrides
  })

/** The principal of a `/v1` call made with `LIVE_KEY` (or, overridden, another key). */
export const caller = (overrides: Partial<ApiKeys.Caller> = {}): ApiKeys.Caller => {
  const u = user()
  return {
    clientId: client.id,
    sandbox: false,
    keyId: ids.liveKey,
    user: { id: u.id, name: u.name, email: u.email },
    role: u.role,
    ...overrides
  }
}

/** A supplier catalog of `client`, searched by `cif`. */
export const catalog = (overrides: Partial<Catalog.Catalog> = {}): Catalog.Catalog => ({
  id: ids.catalog,
  clientId: client.id,
  name: "Proveedores",
  columns: ["cif", "nombre", "ciudad"],
  createdAt: TestTime.now,
  ...overrides
})

/** The records of `catalog()`. */
export const catalogRecords: ReadonlyArray<Catalog.CatalogRecord> = [
  { id: ids.recordAcme, values: { cif: "B12345678", nombre: "Suministros Acme S.L.", ciudad: "Madrid" } },
  { id: ids.recordGlobex, values: { cif: "A87654321", nombre: "Papelería Globex S.A.", ciudad: "Sevilla" } },
  { id: ids.recordInitech, values: { cif: "B11223344", nombre: "Initech Oficinas S.L.", ciudad: "València" } }
]

const field = (
  name: string,
  order: number,
  type: Field.FieldType,
  description: string,
  extra: Partial<Skill.SkillField> = {}
): Skill.SkillField => ({ name, order, type, isList: false, description, aliases: [], ...extra })

/** The fields of the Spanish invoice skill, in skill order. */
export const invoiceFields: ReadonlyArray<Skill.SkillField> = [
  field("numero", 1, "string", "Número de factura", { aliases: ["nº factura", "factura n.º"] }),
  field("fecha", 2, "date", "Fecha de expedición"),
  field("emisor", 3, "string", "Razón social del emisor"),
  field("total", 4, "float", "Importe total con IVA", { aliases: ["total factura"] }),
  field("lineas", 5, "object", "Líneas de detalle", {
    isList: true,
    fields: [
      field("descripcion", 1, "string", "Concepto"),
      field("cantidad", 2, "integer", "Unidades"),
      field("importe", 3, "float", "Importe de la línea")
    ]
  }),
  field("proveedor", 6, "catalog", "CIF del proveedor", {
    catalog: { catalogId: ids.catalog, keyColumns: ["cif"], outputColumns: ["nombre"], method: "exacta", threshold: 1 }
  })
]

/** The Spanish invoice skill (`factura-es`, version 1) of `client`. */
export const skill = (overrides: Partial<Skill.Skill> = {}): Skill.Skill => ({
  id: ids.skill,
  clientId: client.id,
  slug: "factura-es",
  name: "Factura española",
  version: 1,
  instructions: "Extrae los datos de la factura tal como aparecen.",
  fields: invoiceFields,
  createdAt: TestTime.now,
  updatedAt: TestTime.now,
  ...overrides
})

/** What a client sends to create the invoice skill (`SkillStore.put`). */
export const skillInput = (overrides: Partial<Ports.SkillInput> = {}): Ports.SkillInput => {
  const { clientId, slug, name, instructions, fields } = skill()
  return { clientId, slug, name, instructions, fields, ...overrides }
}

const simple = (
  id: string,
  type: Field.SimpleType,
  literal: string,
  parsed: Field.Parsed,
  wordIds: ReadonlyArray<string>
): Field.DetailedSimpleValue => ({ literal, parsed, word_ids: wordIds, id, type })

/** The detailed fields of a processed invoice, in skill order (already sorted by `order`). */
export const invoiceResultFields: ReadonlyArray<Field.DetailedField> = [
  { name: "numero", order: 1, type: "string", value: simple("v1", "string", "F-2026/0042", "F-2026/0042", ["w2"]) },
  { name: "fecha", order: 2, type: "date", value: simple("v2", "date", "12/03/2026", "2026-03-12", ["w4"]) },
  {
    name: "emisor",
    order: 3,
    type: "string",
    value: simple("v3", "string", "Suministros Acme S.L.", "Suministros Acme S.L.", ["w5", "w6", "w7"])
  },
  { name: "total", order: 4, type: "float", value: simple("v4", "float", "1.234,56 €", 1234.56, ["w9", "w10"]) },
  {
    name: "lineas",
    order: 5,
    type: "object",
    value: [
      {
        descripcion: simple("v5", "string", "Papel A4", "Papel A4", []),
        cantidad: simple("v6", "integer", "10", 10, []),
        importe: simple("v7", "float", "45,00", 45, [])
      }
    ]
  },
  {
    name: "proveedor",
    order: 6,
    type: "catalog",
    value: {
      type: "catalog",
      matching: {
        status: "found",
        method: "exacta",
        score: 1,
        threshold_used: null,
        extracted_values: { cif: "B12345678" },
        catalog_record_id: ids.recordAcme,
        key_columns: ["cif"]
      },
      catalog_values: { cif: "B12345678", nombre: "Suministros Acme S.L." },
      catalog_info: { id: ids.catalog, name: "Proveedores", output_columns: ["nombre"] }
    }
  }
]

/** What processing the invoice produces. */
export const invoiceResult = (overrides: Partial<Extraction.ExtractionResult> = {}): Extraction.ExtractionResult => ({
  fields: invoiceResultFields,
  usage: { tokens_consumidos: 1530, prompt_tokens: 1200, response_tokens: 330, duration: 2.5, model: "local" },
  words: {
    "1": [
      { id: "w1", word: "Factura", x0: 40, y0: 40, x1: 95, y1: 52, page: 1 },
      { id: "w2", word: "F-2026/0042", x0: 100, y0: 40, x1: 180, y1: 52, page: 1 }
    ]
  },
  fullText: "Factura F-2026/0042 Fecha 12/03/2026 Suministros Acme S.L. Total 1.234,56 €",
  numPages: 1,
  ...overrides
})

/** An extraction of the invoice by `user()` of `client`, queued (`en cola`) at `TestTime.now`. */
export const extraction = (overrides: Partial<Extraction.ExtractionRecord> = {}): Extraction.ExtractionRecord => {
  const u = user()
  const s = skill()
  return {
    id: ids.extraction,
    clientId: client.id,
    skillId: s.id,
    skillSlug: s.slug,
    skillName: s.name,
    skillVersion: s.version,
    originName: "factura-0042.pdf",
    mimeType: "application/pdf",
    sizeBytes: DOCUMENT.byteLength,
    sandbox: false,
    model: "local",
    mode: "ocr_pdf",
    status: "en cola",
    errorMessage: null,
    createdAt: TestTime.now,
    lastModification: TestTime.now,
    lastUser: { id: u.id, name: u.name, email: u.email },
    archived: false,
    attempts: 0,
    result: null,
    ...overrides
  }
}

/** A processed (`completado`) extraction carrying `invoiceResult()`. */
export const completedExtraction = (
  overrides: Partial<Extraction.ExtractionRecord> = {}
): Extraction.ExtractionRecord =>
  extraction({ status: "completado", attempts: 1, result: invoiceResult(), ...overrides })

/** What an Argentine invoice's AFIP QR code states (RG 4892), as the reader decodes it. */
export const afipFacts: Extraction.CodeFacts = {
  issuerTaxId: "30-71556647-4",
  buyerTaxId: null,
  documentNumber: "0003-00001475",
  issueDate: "2023-02-11",
  total: 44000,
  currency: "ARS",
  iban: null
}

/** An AFIP QR code found on page 1, decoded to `afipFacts`. */
export const afipCode = (overrides: Partial<Extraction.ReadCode> = {}): Extraction.ReadCode => ({
  page: 1,
  box: { x0: 28.5, y0: 690.25, x1: 104, y1: 765.75 },
  format: "QRCode",
  text: "https://www.afip.gob.ar/fe/qr/?p=eyJ2ZXIiOjF9",
  kind: "Afip",
  facts: afipFacts,
  problems: [],
  ...overrides
})

/** The bytes of a tiny fixed PDF document. */
export const DOCUMENT: Uint8Array = new TextEncoder().encode("%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n")

/** A validated submission of the invoice document with the `factura-es` skill. */
export const submitInput = (overrides: Partial<Extractions.SubmitInput> = {}): Extractions.SubmitInput => ({
  fileName: "factura-0042.pdf",
  skill: "factura-es",
  document: DOCUMENT,
  mimeType: "application/pdf",
  model: "local",
  mode: "ocr_pdf",
  maxAttempts: 3,
  ...overrides
})

/**
 * Stores the standard world through the ports: both clients, `user()`, `otherUser()`, `admin()`, the live and
 * test keys of `user()`, the catalog with its records and the invoice skill (returned as stored).
 */
export const seed: Effect.Effect<
  Skill.Skill,
  Errors.StorageError | Errors.InvalidRequest,
  Ports.Directory | Ports.ApiKeyStore | Ports.CatalogStore | Ports.SkillStore
> = Effect.gen(function* () {
  const directory = yield* Ports.Directory
  yield* directory.upsertClient(client)
  yield* directory.upsertClient(otherClient)
  for (const u of [user(), otherUser(), admin()]) yield* directory.upsertUser(u)
  const keys = yield* Ports.ApiKeyStore
  yield* keys.insert(storedKey())
  yield* keys.insert(storedTestKey())
  const catalogs = yield* Ports.CatalogStore
  yield* catalogs.create(catalog())
  yield* catalogs.upsertRecords(client.id, ids.catalog, catalogRecords)
  return yield* (yield* Ports.SkillStore).put(skillInput(), TestTime.now)
})
