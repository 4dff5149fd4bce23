/** The shapes of the API responses the console reads (spec 2.2–2.7 and the detailed read's extensions). */

export type Status = "en cola" | "procesando" | "completado" | "incompleto" | "error"

export const STATUSES: ReadonlyArray<Status> = ["en cola", "procesando", "completado", "incompleto", "error"]

export interface Summary {
  readonly id: string
  readonly origin_name: string
  readonly extraction_date: string
  readonly last_modification: string
  readonly status: Status
  readonly skill_name: string
}

export interface ListResponse {
  readonly extractions: ReadonlyArray<Summary>
  readonly count: number
}

export interface Reason {
  readonly code: string
  readonly message: string
}

export interface SimpleValue {
  readonly literal: string
  readonly parsed: string | number | boolean | null
  readonly word_ids?: ReadonlyArray<string>
  readonly id?: string
  readonly confidence?: number | null
  readonly reasons?: ReadonlyArray<Reason>
}

export interface CatalogValue {
  readonly type: "catalog"
  readonly matching: {
    readonly status: "found" | "not_found"
    readonly method: string
    readonly score: number
    readonly extracted_values: Readonly<Record<string, string>>
  }
  readonly catalog_values: Readonly<Record<string, string>>
  readonly catalog_info: { readonly name: string }
  readonly confidence?: number | null
  readonly reasons?: ReadonlyArray<Reason>
}

export type ListItem = SimpleValue | CatalogValue | Readonly<Record<string, SimpleValue | CatalogValue>>

export interface Field {
  readonly name: string
  readonly order: number
  readonly type: string
  readonly value: SimpleValue | CatalogValue | ReadonlyArray<Field> | ReadonlyArray<ListItem> | null
}

export interface Word {
  readonly id: string
  readonly word: string
  readonly x0: number
  readonly y0: number
  readonly x1: number
  readonly y1: number
  readonly page: number
}

export interface Detailed {
  readonly id: string
  readonly origin_name: string
  readonly status: Status
  readonly skill_name: string
  readonly error_message?: string
  readonly fields?: ReadonlyArray<Field>
  readonly words?: Readonly<Record<string, ReadonlyArray<Word>>>
  readonly num_pages?: number
}

export const isSimple = (v: unknown): v is SimpleValue =>
  typeof v === "object" && v !== null && !Array.isArray(v) && "literal" in v && "parsed" in v

export const isCatalog = (v: unknown): v is CatalogValue =>
  typeof v === "object" && v !== null && !Array.isArray(v) && "matching" in v && "catalog_values" in v

export const isField = (v: unknown): v is Field =>
  typeof v === "object" && v !== null && "name" in v && "order" in v && "value" in v
