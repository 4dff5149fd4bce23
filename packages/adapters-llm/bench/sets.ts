/**
 * The labelled sets of the extractor benchmarks (`local.run.ts`, `confidence.run.ts`): each set's documents, the
 * skill fields it is scored on, and the generated set's options; read by path under `LEGIBLE_DATA`.
 */
import { readFileSync } from "node:fs"
import type { Document, Skill } from "@legible/core"
import {
  type Entry,
  invoice2data,
  invoicesAr,
  invoicesArJpeg,
  receiptsDe,
  receiptsEs,
  sroieImages,
  sroieLines
} from "./datasets.js"
import { generatedSet } from "./generated.js"
import type { ReadResult } from "./ocr.js"
import type { ItemNames } from "./truth.js"

const simple = (
  name: string,
  order: number,
  type: Skill.SkillField["type"],
  description: string,
  aliases: ReadonlyArray<string> = []
): Skill.SkillField => ({ name, order, type, isList: false, description, aliases })

const items = (
  name: string,
  order: number,
  description: string,
  sub: ItemNames,
  descriptions: ReadonlyArray<string>
) => ({
  name,
  order,
  type: "object" as const,
  isList: true,
  description,
  aliases: [],
  fields: [
    simple(sub.description, 1, "string", descriptions[0] ?? ""),
    simple(sub.quantity, 2, "float", descriptions[1] ?? ""),
    simple(sub.unitPrice, 3, "float", descriptions[2] ?? ""),
    simple(sub.lineTotal, 4, "float", descriptions[3] ?? "")
  ]
})

const ENGLISH_ITEMS: ItemNames = {
  description: "description",
  quantity: "quantity",
  unitPrice: "unit_price",
  lineTotal: "line_total"
}
const SPANISH_ITEMS: ItemNames = {
  description: "descripcion",
  quantity: "cantidad",
  unitPrice: "precio",
  lineTotal: "importe"
}

/** A set: its documents, and each scored field's truth key and skill field. */
export interface BenchSet {
  readonly title: string
  readonly folder: string
  readonly entries: () => ReadonlyArray<Entry> | undefined
  readonly fields: ReadonlyArray<readonly [string, Skill.SkillField]>
  readonly ocr?: boolean
  /** Keep the entries' order for the halves (generated: by index); otherwise sorted by id. */
  readonly ordered?: boolean
}

const sroieFields: BenchSet["fields"] = [
  ["company", simple("company", 1, "string", "Company (seller) name")],
  ["date", simple("date", 2, "date", "Date of the receipt")],
  ["address", simple("address", 3, "string", "Address of the company")],
  ["total", simple("total", 4, "float", "Total amount paid")]
]

export const invoiceFields: BenchSet["fields"] = [
  ["issuer", simple("issuer", 1, "string", "Name of the company that issued the invoice")],
  ["number", simple("number", 2, "string", "Invoice number")],
  ["date", simple("date", 3, "date", "Invoice date")],
  ["total", simple("total", 4, "float", "Total amount due")],
  ["items", items("items", 5, "Line items", ENGLISH_ITEMS, ["Description", "Quantity", "Unit price", "Line total"])]
]

export const SETS: ReadonlyArray<BenchSet> = [
  { title: "SROIE receipts, ground-truth OCR lines", folder: "sroie", entries: sroieLines, fields: sroieFields },
  {
    title: "SROIE receipts, OCR of the images (ocr-onnx)",
    folder: "sroie",
    entries: sroieImages,
    fields: sroieFields,
    ocr: true
  },
  {
    title: "invoices-ar, ocr-onnx reader (text layer; OCR for the scan)",
    folder: "invoices-ar",
    entries: invoicesAr,
    fields: [
      ["issuer_cuit", simple("cuit_emisor", 1, "string", "CUIT del emisor")],
      ["issuer", simple("emisor", 2, "string", "Razón social de quien emite la factura", ["Emisor"])],
      ["number", simple("numero", 3, "string", "Número de la factura", ["Número de factura", "Factura nº"])],
      ["date", simple("fecha", 4, "date", "Fecha de emisión de la factura", ["Fecha", "Fecha de emisión"])],
      ["total", simple("total", 5, "float", "Importe total de la factura, impuestos incluidos", ["Total"])]
    ]
  },
  {
    title: "invoices-ar, page 1 as a 150 DPI JPEG (ocr-onnx: OCR and the QR code)",
    folder: "invoices-ar",
    entries: invoicesArJpeg,
    fields: [
      ["issuer_cuit", simple("cuit_emisor", 1, "string", "CUIT del emisor")],
      ["number", simple("numero", 2, "string", "Número de la factura", ["Número de factura", "Factura nº"])],
      ["date", simple("fecha", 3, "date", "Fecha de emisión de la factura", ["Fecha", "Fecha de emisión"])],
      ["total", simple("total", 4, "float", "Importe total de la factura, impuestos incluidos", ["Total"])]
    ],
    ocr: true
  },
  {
    title: "receipts-es, ocr-onnx reader (text layer)",
    folder: "receipts-es",
    entries: receiptsEs,
    fields: [
      ["date", simple("fecha", 1, "date", "Fecha del ticket", ["Fecha"])],
      ["total", simple("total", 2, "float", "Importe total pagado", ["Total"])],
      ["store", simple("tienda", 3, "string", "Nombre de la tienda o empresa", ["Tienda"])],
      [
        "items",
        items("lineas", 4, "Líneas del ticket", SPANISH_ITEMS, [
          "Descripción",
          "Cantidad",
          "Precio unitario",
          "Importe"
        ])
      ]
    ]
  },
  {
    title: "invoice2data, ocr-onnx reader (text layer; Orlen.txt as text)",
    folder: "invoice2data",
    entries: invoice2data,
    fields: [
      ...invoiceFields.filter(([name]) => name !== "items"),
      ["currency", simple("currency", 6, "string", "Currency of the amounts (ISO 4217 code)")]
    ]
  },
  {
    title: "receipts-de, OCR of the scans (ocr-onnx)",
    folder: "receipts-de",
    entries: receiptsDe,
    fields: [
      ["date", simple("date", 1, "date", "Date of the receipt")],
      ["total", simple("total", 2, "float", "Total amount paid")]
    ],
    ocr: true
  }
]

export const numberOf = (name: string, fallback: number) => {
  const n = Number(process.env[name] ?? fallback)
  return Number.isInteger(n) && n >= 0 ? n : fallback
}

/** The document of an entry: given, or read (through the cache) from its bytes or file. */
export const documentOf = async (
  entry: Entry,
  read: (bytes: Uint8Array) => Promise<ReadResult>
): Promise<Document.ReadDocument | string> => {
  if (entry.document !== undefined) return entry.document
  const bytes = entry.bytes ?? (entry.file === undefined ? undefined : new Uint8Array(readFileSync(entry.file)))
  return bytes === undefined ? "nothing to read" : read(bytes)
}

export const itemNamesOf = (field: Skill.SkillField): ItemNames | undefined => {
  const [description, quantity, unitPrice, lineTotal] = (field.fields ?? []).map((f) => f.name)
  return description === undefined || quantity === undefined || unitPrice === undefined || lineTotal === undefined
    ? undefined
    : { description, quantity, unitPrice, lineTotal }
}

/**
 * The generated set with the benchmark's options (`BENCH_GENERATED`, `BENCH_GENERATED_OCR`, `BENCH_GENERATED_SCAN`,
 * `BENCH_SEED`).
 */
export const generatedSets = (ocr: boolean): ReadonlyArray<readonly [BenchSet, ReadonlyArray<Entry>]> => {
  const generated = generatedSet({
    perLanguage: numberOf("BENCH_GENERATED", 40),
    ocrPerLanguage: ocr ? numberOf("BENCH_GENERATED_OCR", 5) : 0,
    scanPerLanguage: ocr ? numberOf("BENCH_GENERATED_SCAN", 4) : 0,
    seed: numberOf("BENCH_SEED", 17)
  })
  const set = (title: string, entries: ReadonlyArray<Entry>): BenchSet => ({
    title,
    folder: "",
    entries: () => entries,
    fields: [...invoiceFields, ["address", simple("address", 6, "string", "Address of the company")]],
    ordered: true
  })
  return [
    [set("generated, PDF text layer (ocr-onnx reader)", generated.text), generated.text] as const,
    ...(generated.ocr.length === 0
      ? []
      : [[set("generated, rasterised and read by OCR (ocr-onnx)", generated.ocr), generated.ocr] as const]),
    ...(generated.scanned.length === 0
      ? []
      : [[set("generated, worn scans read by OCR (ocr-onnx)", generated.scanned), generated.scanned] as const])
  ]
}
