/**
 * The real documents of the local benchmark, by path under the data root (`LEGIBLE_DATA`, default `../shared/data`
 * from the repository root), never copied: each set's files and their truth, in the benchmark's terms
 * (`truth.ts`). Reading them is the caller's (the OCR reader through its cache); SROIE also comes as documents
 * built from its ground-truth OCR lines, and `Orlen.txt` as a document of its text lines.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join, resolve } from "node:path"
import type { Document } from "@legible/core"
import * as mupdf from "mupdf"
import type { Truth } from "./truth.js"

/** The data root: `LEGIBLE_DATA`, or `../shared/data` from the repository root. */
export const DATA = resolve(
  process.env.LEGIBLE_DATA ?? join(import.meta.dirname, "..", "..", "..", "..", "shared", "data")
)

/** A document of a set: a file to read (or a document already built) and its truth by field. */
export interface Entry {
  readonly id: string
  readonly truth: Readonly<Record<string, Truth>>
  /** The file to read, unless `bytes` or `document` is given. */
  readonly file?: string
  /** The bytes to read (a generated document). */
  readonly bytes?: Uint8Array
  readonly document?: Document.ReadDocument
  /** The half the entry belongs to, when not decided by its place in the set (the generated OCR subset). */
  readonly half?: "first" | "second"
  /** The text that decides which truth values are printed (`present`); the read document's when absent. */
  readonly referenceText?: string
}

const readJson = (path: string): unknown => JSON.parse(readFileSync(path, "utf8"))

const get = (value: unknown, key: string): unknown =>
  typeof value === "object" && value !== null ? Reflect.get(value, key) : undefined

const text = (value: unknown): string | undefined =>
  typeof value === "string" && value.trim() !== "" ? value : undefined

const num = (value: unknown): number | undefined => {
  const n = typeof value === "number" ? value : typeof value === "string" ? Number(value) : Number.NaN
  return Number.isFinite(n) ? n : undefined
}

const isoOf = (value: unknown): string | undefined => {
  const s = text(value)?.slice(0, 10)
  return s !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(s) ? s : undefined
}

/** The files of a folder with one of `extensions`, sorted, or `undefined` when the folder is absent. */
const filesOf = (folder: string, ...extensions: ReadonlyArray<string>): ReadonlyArray<string> | undefined => {
  const dir = join(DATA, folder)
  if (!existsSync(dir)) return undefined
  return readdirSync(dir)
    .filter((f) => extensions.some((e) => f.endsWith(e)))
    .sort()
}

const documentOf = (
  lines: ReadonlyArray<Document.ReadLine>,
  height: number,
  width: number,
  mimeType: string,
  source: Document.ReadPage["source"] = "ocr"
): Document.ReadDocument => ({
  mimeType,
  numPages: 1,
  pages: [{ page: 1, width, height, source, lines, markdown: "" }],
  fullText: lines.map((l) => l.words.map((w) => w.word).join(" ")).join("\n"),
  images: []
})

/** Words of a text line spread over its box in proportion to their characters. */
const wordsOfLine = (
  line: string,
  box: readonly [number, number, number, number],
  next: () => string
): Array<Document.ReadWord> => {
  const [x0, y0, x1, y1] = box
  const perChar = (x1 - x0) / Math.max(1, line.length)
  return [...line.matchAll(/\S+/g)].map((m) => ({
    id: next(),
    word: m[0],
    x0: x0 + (m.index ?? 0) * perChar,
    x1: x0 + ((m.index ?? 0) + m[0].length) * perChar,
    y0,
    y1,
    page: 1,
    confidence: 1
  }))
}

const counter = () => {
  let n = 0
  return () => `w${++n}`
}

/** SROIE's key fields as truth. */
const sroieTruth = (json: unknown): Record<string, Truth> => ({
  company: { kind: "name", text: text(get(json, "company")) ?? "", printed: true },
  date: { kind: "date", iso: sroieDate(text(get(json, "date")) ?? "") },
  address: { kind: "name", text: text(get(json, "address")) ?? "", printed: true },
  total: { kind: "amount", value: Number((text(get(json, "total")) ?? "").replace(/[^\d.]/g, "")) }
})

// SROIE's dates are the receipt's literal (day-first in Malaysia): kept as ISO here for the common scorer.
const sroieDate = (literal: string): string => {
  const m = /(\d{1,2})[/.-](\d{1,2})[/.-](\d{2,4})/.exec(literal)
  if (m === null) return literal
  const year = (m[3] ?? "").length === 2 ? `20${m[3]}` : m[3]
  return `${year}-${(m[2] ?? "").padStart(2, "0")}-${(m[1] ?? "").padStart(2, "0")}`
}

/** SROIE receipts from their ground-truth OCR lines (`box/*.txt`); `undefined` when the folder is absent. */
export const sroieLines = (): ReadonlyArray<Entry> | undefined =>
  filesOf("sroie/box", ".txt")?.map((file) => {
    const id = file.replace(/\.txt$/, "")
    const next = counter()
    const lines = readFileSync(join(DATA, "sroie", "box", file), "utf8")
      .split(/\r?\n/)
      .filter((l) => l.trim() !== "")
      .map((row): Document.ReadLine => {
        const parts = row.split(",")
        const [ax = 0, ay = 0, , , bx = 0, by = 0] = parts.slice(0, 8).map(Number)
        const box = [Math.min(ax, bx), Math.min(ay, by), Math.max(ax, bx), Math.max(ay, by)] as const
        return { words: wordsOfLine(parts.slice(8).join(",").trim(), box, next) }
      })
    const height = Math.max(...lines.flatMap((l) => l.words.map((w) => w.y1)))
    const width = Math.max(...lines.flatMap((l) => l.words.map((w) => w.x1)))
    const document = documentOf(lines, height, width, "image/jpeg")
    return { id, document, truth: sroieTruth(readJson(join(DATA, "sroie", "key", `${id}.json`))) }
  })

/** SROIE receipts as images to read, with the ground-truth lines as the reference text. */
export const sroieImages = (): ReadonlyArray<Entry> | undefined =>
  sroieLines()?.map((entry) => ({
    id: entry.id,
    truth: entry.truth,
    file: join(DATA, "sroie", "img", `${entry.id}.jpg`),
    referenceText: entry.document?.fullText ?? ""
  }))

/** The Argentine invoices (PDF; `factura1475` a scan). */
export const invoicesAr = (): ReadonlyArray<Entry> | undefined =>
  filesOf("invoices-ar", ".pdf")?.map((file) => {
    const id = file.replace(/\.pdf$/, "")
    const json = readJson(join(DATA, "invoices-ar", `${id}.json`))
    const pos = num(get(json, "point_of_sale")) ?? 0
    const number = num(get(json, "invoice_number")) ?? 0
    return {
      id,
      file: join(DATA, "invoices-ar", file),
      truth: {
        issuer_cuit: { kind: "digits", text: text(get(json, "issuer_cuit")) ?? "" },
        issuer: { kind: "name", text: text(get(json, "issuer_name")) ?? "" },
        number: { kind: "afip", pointOfSale: pos, number },
        date: { kind: "date", iso: isoOf(get(json, "date")) ?? "" },
        total: { kind: "amount", value: num(get(json, "total")) ?? Number.NaN }
      }
    }
  })

/**
 * The Argentine invoices' first pages rendered to 150 DPI JPEG (quality 85) with mupdf, as a phone or a scanner
 * would hand them in: no text layer, OCR and the QR code alone.
 */
export const invoicesArJpeg = (): ReadonlyArray<Entry> | undefined =>
  invoicesAr()?.map((entry) => {
    const doc = mupdf.Document.openDocument(readFileSync(entry.file ?? ""), "application/pdf")
    try {
      const page = doc.loadPage(0)
      const pixmap = page.toPixmap(mupdf.Matrix.scale(150 / 72, 150 / 72), mupdf.ColorSpace.DeviceRGB, false, true)
      const bytes = pixmap.asJPEG(85)
      pixmap.destroy()
      page.destroy()
      return { id: `${entry.id}@150dpi`, truth: entry.truth, bytes }
    } finally {
      doc.destroy()
    }
  })

/** The Spanish e-receipts (PDF with a text layer). */
export const receiptsEs = (): ReadonlyArray<Entry> | undefined =>
  filesOf("receipts-es", ".pdf")?.map((file) => {
    const id = file.replace(/\.pdf$/, "")
    const json = readJson(join(DATA, "receipts-es", `${id}.json`))
    const items = get(json, "items")
    return {
      id,
      file: join(DATA, "receipts-es", file),
      truth: {
        date: { kind: "date", iso: isoOf(get(json, "datetime")) ?? "" },
        total: { kind: "amount", value: num(get(json, "total")) ?? Number.NaN },
        store: { kind: "brand", text: text(get(json, "store")) ?? "" },
        items: {
          kind: "items",
          lines: (Array.isArray(items) ? items : []).map((item: unknown) => ({
            description: text(get(item, "name")) ?? "",
            quantity: num(get(item, "quantity")) ?? Number.NaN,
            unitPrice: num(get(item, "unit_price")) ?? Number.NaN,
            lineTotal: num(get(item, "line_total")) ?? Number.NaN
          }))
        }
      }
    }
  })

const invoice2dataTruth = (json: unknown): Record<string, Truth> => {
  const first = Array.isArray(json) ? json[0] : json
  const issuer = text(get(first, "issuer"))
  const number = text(get(first, "invoice_number"))
  const date = isoOf(get(first, "date"))
  const amount = num(get(first, "amount"))
  const currency = text(get(first, "currency"))
  return {
    ...(issuer === undefined ? {} : { issuer: { kind: "name", text: issuer } }),
    ...(currency === undefined ? {} : { currency: { kind: "code", text: currency } }),
    ...(number === undefined ? {} : { number: { kind: "number", accept: [number] } }),
    ...(date === undefined ? {} : { date: { kind: "date", iso: date } }),
    ...(amount === undefined ? {} : { total: { kind: "amount", value: amount } })
  }
}

/** A plain-text document as one page of lines, 6 points per character and 12 per line. */
export const textDocument = (content: string): Document.ReadDocument => {
  const next = counter()
  const rows = content.split(/\r?\n/)
  const lines = rows
    .map((line, i) => ({ words: wordsOfLine(line, [0, i * 12, line.length * 6, i * 12 + 10], next) }))
    .filter((l) => l.words.length > 0)
  return documentOf(lines, rows.length * 12, 600, "text/plain", "text")
}

/** Every invoice of invoice2data: the PDFs, and `Orlen.txt` as a text document. */
export const invoice2data = (): ReadonlyArray<Entry> | undefined => {
  const files = filesOf("invoice2data", ".pdf", ".txt")
  return files?.map((file) => {
    const id = file.replace(/\.(pdf|txt)$/, "")
    const truth = invoice2dataTruth(readJson(join(DATA, "invoice2data", `${id}.json`)))
    const path = join(DATA, "invoice2data", file)
    if (!file.endsWith(".txt")) return { id, file: path, truth }
    return { id, truth, document: textDocument(readFileSync(path, "utf8")) }
  })
}

/** The German receipt scans (JPEG): date and total from the JSON. */
export const receiptsDe = (): ReadonlyArray<Entry> | undefined =>
  filesOf("receipts-de", ".jpg")?.map((file) => {
    const id = file.replace(/\.jpg$/, "")
    const json = readJson(join(DATA, "receipts-de", `${id}.json`))
    return {
      id,
      file: join(DATA, "receipts-de", file),
      truth: {
        date: { kind: "date", iso: isoOf(get(json, "date")) ?? "" },
        total: { kind: "amount", value: num(get(json, "total")) ?? Number.NaN }
      }
    }
  })
