/** Records for the extraction contract: one tenant's list world with every filter and sort edge in it. */
import type { Extraction, ListQuery, Ports, Timestamp } from "@legible/core"
import { Fixtures } from "@legible/testkit"
import { exact, idOf, type Tenant } from "./support.js"

/** The n-th extraction id of the suite. */
export const extractionId = (n: number): string => idOf(3, n)

/** The first skill of the list world (`factura`). */
export const skillA = { id: idOf(3, 900), slug: "factura", name: "Factura" } as const
/** The second skill of the list world (`albaran`). */
export const skillB = { id: idOf(3, 901), slug: "albaran", name: "Albarán" } as const

/** The scope of a tenant (live unless `sandbox`). */
export const scopeOf = (tenant: Tenant, sandbox = false): Ports.Scope => ({ clientId: tenant.client.id, sandbox })

/** An extraction of the tenant. */
export const recordOf = (
  tenant: Tenant,
  n: number,
  overrides: Partial<Extraction.ExtractionRecord> = {}
): Extraction.ExtractionRecord =>
  Fixtures.extraction({
    id: extractionId(n),
    clientId: tenant.client.id,
    lastUser: { id: tenant.user.id, name: tenant.user.name, email: tenant.user.email },
    ...overrides
  })

/** A submission of `record` with a small document of its own. */
export const submissionOf = (record: Extraction.ExtractionRecord, maxAttempts = 3): Ports.Submission => ({
  record,
  document: new TextEncoder().encode(`%PDF-1.7 ${record.id}`),
  maxAttempts
})

/** A 200-character file name (the longest search string is 200 characters too). */
export const longName = `${"a".repeat(196)}.pdf`

const entry = (
  n: number,
  originName: string,
  status: Extraction.Status,
  skill: typeof skillA | typeof skillB,
  createdAt: Timestamp.Timestamp,
  archived = false
) => ({ n, originName, status, skill, createdAt, archived })

/**
 * The list world: names with `%`, `_`, `\`, quotes, accents and case; creation times at the very edges of UTC
 * days; ties on `created_at` broken by id; one archived row.
 */
export const listWorld = [
  entry(1, "Factura 001.pdf", "completado", skillA, exact("2026-03-01T00:00:00.000000+00:00")),
  entry(2, "factura_002.pdf", "error", skillA, exact("2026-03-01T12:00:00.000000+00:00")),
  entry(3, "100% pagado.pdf", "en cola", skillB, exact("2026-03-02T23:59:59.999999+00:00")),
  entry(4, "Crème brûlée.PDF", "procesando", skillB, exact("2026-03-03T00:00:00.000000+00:00")),
  entry(5, `O'Brien "quote".pdf`, "incompleto", skillA, exact("2026-02-28T23:59:59.999999+00:00")),
  entry(6, "back\\slash.pdf", "completado", skillA, exact("2026-03-04T08:00:00.000000+00:00")),
  entry(7, "archivado.pdf", "completado", skillB, exact("2026-03-02T10:00:00.000000+00:00"), true),
  entry(8, "CREME-total.pdf", "completado", skillA, exact("2026-03-02T10:00:00.000000+00:00")),
  entry(9, "zeta.pdf", "completado", skillB, exact("2026-03-02T10:00:00.000000+00:00")),
  entry(10, longName, "en cola", skillA, exact("2026-03-05T00:00:00.000000+00:00"))
] as const

/** The records of the list world for `tenant`. */
export const listRecords = (tenant: Tenant): ReadonlyArray<Extraction.ExtractionRecord> =>
  listWorld.map((e) =>
    recordOf(tenant, e.n, {
      originName: e.originName,
      status: e.status,
      skillId: e.skill.id,
      skillSlug: e.skill.slug,
      skillName: e.skill.name,
      createdAt: e.createdAt,
      lastModification: e.createdAt,
      archived: e.archived
    })
  )

/** A list filter with the defaults of `ListQuery.parse` (50 newest, archived left out) and `overrides`. */
export const filterOf = (overrides: Partial<ListQuery.ExtractionFilter> = {}): ListQuery.ExtractionFilter => ({
  limit: 50,
  offset: 0,
  sortBy: "fecha_creacion",
  sortOrder: "desc",
  includeArchived: false,
  ...overrides
})
