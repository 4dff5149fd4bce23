/**
 * The real documents of the local-extractor benchmark, as `ReadDocument`s: SROIE receipts from their ground-truth
 * OCR lines (`box/*.txt`), and Argentine invoices from their PDF text layer (mupdf, words boxed from their
 * characters). Read by path from the shared data folder, never copied.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import type { Document } from "@legible/core"
import * as mupdf from "mupdf"

/** The shared data folder (from the repository root: `../shared/data`). */
export const DATA = process.env.LEGIBLE_DATA ?? join(import.meta.dirname, "..", "..", "..", "..", "shared", "data")

/** A document with its ground truth. */
export interface Sample<T> {
  readonly id: string
  readonly document: Document.ReadDocument
  readonly truth: T
  /** The original file (image or PDF), for reading it again with the OCR reader. */
  readonly file: string
}

const documentOf = (pages: ReadonlyArray<Document.ReadPage>, mimeType: string): Document.ReadDocument => ({
  mimeType,
  numPages: pages.length,
  pages,
  fullText: pages.map((p) => p.lines.map((l) => l.words.map((w) => w.word).join(" ")).join("\n")).join("\n\n"),
  images: []
})

/** Width and height of a JPEG, from its SOF marker. */
const jpegSize = (bytes: Buffer): readonly [number, number] => {
  let offset = 2
  while (offset + 9 < bytes.length) {
    if (bytes[offset] !== 0xff) return [0, 0]
    const marker = bytes[offset + 1] ?? 0
    const length = bytes.readUInt16BE(offset + 2)
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
      return [bytes.readUInt16BE(offset + 7), bytes.readUInt16BE(offset + 5)]
    offset += 2 + length
  }
  return [0, 0]
}

/** Words of a text line spread over its box in proportion to their characters (the box file has no word boxes). */
const wordsOfLine = (
  text: string,
  box: readonly [number, number, number, number],
  page: number,
  next: () => string
): Array<Document.ReadWord> => {
  const [x0, y0, x1, y1] = box
  const perChar = (x1 - x0) / Math.max(1, text.length)
  const out: Array<Document.ReadWord> = []
  for (const match of text.matchAll(/\S+/g)) {
    const start = match.index ?? 0
    out.push({
      id: next(),
      word: match[0],
      x0: x0 + start * perChar,
      x1: x0 + (start + match[0].length) * perChar,
      y0,
      y1,
      page,
      confidence: 1
    })
  }
  return out
}

/** SROIE key fields. */
export interface SroieTruth {
  readonly company: string
  readonly date: string
  readonly address: string
  readonly total: string
}

/** The SROIE receipts, read from the ground-truth OCR lines; `undefined` when the folder is absent. */
export const sroie = (): ReadonlyArray<Sample<SroieTruth>> | undefined => {
  const dir = join(DATA, "sroie")
  if (!existsSync(join(dir, "box"))) return undefined
  return readdirSync(join(dir, "box"))
    .filter((f) => f.endsWith(".txt"))
    .sort()
    .map((file) => {
      const id = file.replace(/\.txt$/, "")
      let counter = 0
      const next = () => `w${++counter}`
      const lines = readFileSync(join(dir, "box", file), "utf8")
        .split(/\r?\n/)
        .filter((l) => l.trim() !== "")
        .map((row): Document.ReadLine => {
          const parts = row.split(",")
          const [ax, ay, , , bx, by] = parts.slice(0, 8).map(Number)
          const text = parts.slice(8).join(",").trim()
          const box = [
            Math.min(ax ?? 0, bx ?? 0),
            Math.min(ay ?? 0, by ?? 0),
            Math.max(ax ?? 0, bx ?? 0),
            Math.max(ay ?? 0, by ?? 0)
          ] as const
          return { words: wordsOfLine(text, box, 1, next) }
        })
      const image = join(dir, "img", `${id}.jpg`)
      const [width, height] = existsSync(image) ? jpegSize(readFileSync(image)) : [0, 0]
      const maxY = Math.max(...lines.flatMap((l) => l.words.map((w) => w.y1)))
      const page: Document.ReadPage = {
        page: 1,
        width,
        height: height > 0 ? height : maxY,
        source: "ocr",
        lines,
        markdown: ""
      }
      const truth = JSON.parse(readFileSync(join(dir, "key", `${id}.json`), "utf8")) as SroieTruth
      return { id, document: documentOf([page], "image/jpeg"), truth, file: image }
    })
}

/** Ground truth of the Argentine invoices. */
export interface InvoiceArTruth {
  readonly issuer_cuit: string
  readonly invoice_number: number
  readonly point_of_sale: number
  readonly date: string
  readonly total: number
}

/** A PDF's text layer as pages of words (characters grouped at spaces), in mupdf's line order. */
export const pdfTextLayer = (bytes: Uint8Array): Document.ReadDocument => {
  const doc = mupdf.Document.openDocument(bytes, "application/pdf")
  const pages: Array<Document.ReadPage> = []
  let counter = 0
  for (let index = 0; index < doc.countPages(); index++) {
    const pdfPage = doc.loadPage(index)
    const [bx0, by0, bx1, by1] = pdfPage.getBounds()
    const lines: Array<Document.ReadLine> = []
    let words: Array<Document.ReadWord> = []
    let current: { text: string; x0: number; y0: number; x1: number; y1: number } | undefined
    const flush = () => {
      if (current !== undefined && current.text.trim() !== "")
        words.push({
          id: `w${++counter}`,
          word: current.text,
          ...current,
          x0: current.x0 - bx0,
          x1: current.x1 - bx0,
          y0: current.y0 - by0,
          y1: current.y1 - by0,
          page: index + 1,
          confidence: 1
        })
      current = undefined
    }
    pdfPage.toStructuredText("preserve-whitespace").walk({
      onChar: (c, _origin, _font, _size, quad) => {
        if (c.trim() === "") return flush()
        const xs = [quad[0], quad[2], quad[4], quad[6]]
        const ys = [quad[1], quad[3], quad[5], quad[7]]
        const box = { x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) }
        // A gap wider than a third of the glyph height starts a new word even without a space character.
        if (current !== undefined && box.x0 - current.x1 > (box.y1 - box.y0) / 3) flush()
        current =
          current === undefined
            ? { text: c, ...box }
            : {
                text: current.text + c,
                x0: current.x0,
                y0: Math.min(current.y0, box.y0),
                x1: box.x1,
                y1: Math.max(current.y1, box.y1)
              }
      },
      endLine: () => {
        flush()
        if (words.length > 0) lines.push({ words })
        words = []
      }
    })
    pages.push({ page: index + 1, width: bx1 - bx0, height: by1 - by0, source: "text", lines, markdown: "" })
  }
  return documentOf(pages, "application/pdf")
}

/** The Argentine invoices from their PDFs' text layer; `undefined` when the folder is absent. */
export const invoicesAr = (): ReadonlyArray<Sample<InvoiceArTruth>> | undefined => {
  const dir = join(DATA, "invoices-ar")
  if (!existsSync(dir)) return undefined
  return readdirSync(dir)
    .filter((f) => f.endsWith(".pdf"))
    .sort()
    .map((file) => {
      const id = file.replace(/\.pdf$/, "")
      const bytes = new Uint8Array(readFileSync(join(dir, file)))
      const truth = JSON.parse(readFileSync(join(dir, `${id}.json`), "utf8")) as InvoiceArTruth
      return { id, document: pdfTextLayer(bytes), truth, file: join(dir, file) }
    })
}

/** Ground truth kept for the generalisation check: total (or amount), date and invoice number, as the JSON has them. */
export interface OtherTruth {
  readonly total: number | null
  readonly date: string | null
  readonly number: string | null
}

const readJson = (path: string): unknown => JSON.parse(readFileSync(path, "utf8"))

const field = (value: unknown, key: string): unknown =>
  typeof value === "object" && value !== null ? Reflect.get(value, key) : undefined

/**
 * Documents the rules were not tuned on, from their PDFs' text layer: the Spanish e-receipts (`receipts-es`) and
 * the born-digital invoices of `invoice2data` (several languages).
 */
export const others = (): ReadonlyArray<Sample<OtherTruth>> | undefined => {
  const sets: ReadonlyArray<readonly [string, (json: unknown) => OtherTruth]> = [
    [
      "receipts-es",
      (json) => ({
        total: Number(field(json, "total")),
        date: String(field(json, "datetime")).slice(0, 10),
        number: null
      })
    ],
    [
      "invoice2data",
      (json) => {
        const first = Array.isArray(json) ? json[0] : json
        const amount = field(first, "amount")
        const number = field(first, "invoice_number")
        return {
          total: typeof amount === "number" ? amount : null,
          date: String(field(first, "date")).slice(0, 10),
          number: typeof number === "string" ? number : null
        }
      }
    ]
  ]
  const out: Array<Sample<OtherTruth>> = []
  for (const [folder, truthOf] of sets) {
    const dir = join(DATA, folder)
    if (!existsSync(dir)) return undefined
    for (const file of readdirSync(dir)
      .filter((f) => f.endsWith(".pdf"))
      .sort()) {
      const id = file.replace(/\.pdf$/, "")
      out.push({
        id: `${folder}/${id}`,
        document: pdfTextLayer(new Uint8Array(readFileSync(join(dir, file)))),
        truth: truthOf(readJson(join(dir, `${id}.json`))),
        file: join(dir, file)
      })
    }
  }
  return out
}
