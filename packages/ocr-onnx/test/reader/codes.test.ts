/**
 * Codes through the reader: the AFIP QR of every invoice of `invoices-ar` (read by path from the shared data, never
 * copied) found on its page and decoded, from the PDF and from a JPEG render of it; a Factur-X PDF made here (mupdf
 * attaches the XML) read exactly; hostile attachments (billion laughs, 50 MB stored and compressed) ignored with one
 * log line each while the document reads as before, within a short page time limit.
 */
import { readFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { describe, expect, layer } from "@effect/vitest"
import { Codes } from "@legible/codes"
import { type Document, Ports } from "@legible/core"
import { Effect, Logger, References } from "effect"
import * as mupdf from "mupdf"
import { beforeAll } from "vitest"
import * as OnnxReader from "../../src/OnnxReader.js"
import { buildDist } from "../pool/build.js"
import { invoice, textPdf } from "../support/synthetic.js"
import { pageText } from "./support.js"

beforeAll(buildDist)

const root = resolve(import.meta.dirname, "../../../..", process.env.LEGIBLE_DATA ?? "../shared/data", "invoices-ar")
const names = ["factura128", "factura1360", "factura1475", "factura3435", "factura4"]

interface Truth {
  readonly issuer_cuit: string
  readonly point_of_sale: number
  readonly invoice_number: number
  readonly date: string
  readonly total: number
}

interface Line {
  readonly message: unknown
  readonly annotations: Record<string, unknown>
}

// The reader's log lines, with their annotations.
const logged = () => {
  const lines: Array<Line> = []
  const logger = Logger.layer([
    Logger.make(({ message, fiber }) => {
      lines.push({
        message: Array.isArray(message) ? message[0] : message,
        annotations: { ...fiber.getRef(References.CurrentLogAnnotations) }
      })
    })
  ])
  return { lines, logger }
}

const read = (bytes: Uint8Array) => Effect.flatMap(Ports.DocumentReader, (reader) => reader.read(bytes))

// The AFIP point of sale and number as the decoder writes the document number: "0003-00000128".
const documentNumber = (truth: Truth) =>
  `${String(truth.point_of_sale).padStart(4, "0")}-${String(truth.invoice_number).padStart(8, "0")}`

const expectAfip = (document: Document.ReadDocument, truth: Truth) => {
  const afip = document.codes?.filter((code) => code.kind === "Afip") ?? []
  expect(afip.length, "an AFIP QR found").toBeGreaterThan(0)
  for (const code of afip) {
    expect(code.format).toBe("QRCode")
    expect(code.facts).toMatchObject({
      issuerTaxId: truth.issuer_cuit,
      documentNumber: documentNumber(truth),
      issueDate: truth.date,
      total: truth.total
    })
    // On its page, in points, inside the page, at most a quarter of its width (the printed QR is 2–4 cm).
    const page = document.pages.find((p) => p.page === code.page)
    const box = code.box
    expect(page).toBeDefined()
    expect(box).not.toBeNull()
    if (page === undefined || box === null) continue
    expect(box.x0).toBeGreaterThanOrEqual(0)
    expect(box.y0).toBeGreaterThanOrEqual(0)
    expect(box.x1).toBeLessThanOrEqual(page.width)
    expect(box.y1).toBeLessThanOrEqual(page.height)
    expect(box.x1 - box.x0).toBeGreaterThan(20)
    expect(box.x1 - box.x0).toBeLessThan(page.width / 4)
  }
}

// Page 1 as a JPEG at `dpi`, as a scanner or a phone app would send it.
const jpegOfPage = (bytes: Uint8Array, dpi: number): Uint8Array => {
  const document = mupdf.Document.openDocument(bytes, "application/pdf")
  const pixmap = document.loadPage(0).toPixmap(mupdf.Matrix.scale(dpi / 72, dpi / 72), mupdf.ColorSpace.DeviceRGB)
  const jpeg = pixmap.asJPEG(90, false).slice()
  pixmap.destroy()
  document.destroy()
  return jpeg
}

const facturX: Codes.FacturXFields = {
  number: "FX-2026-0117",
  issueDate: "2026-03-12",
  currency: "EUR",
  seller: { name: "Librairie Dupont SARL", vat: "FR40303265045" },
  buyer: { name: "Atelier Martin", vat: "FR23334175221" },
  lines: [
    { name: "Livre", quantity: 3, unitPrice: 12.5, taxRate: 5.5 },
    { name: "Papeterie", quantity: 10, unitPrice: 1.99, taxRate: 20 }
  ],
  iban: "FR7630006000011234567890189"
}

/** The synthetic invoice page with `files` embedded (name → bytes); `compress` saves the streams with Flate. */
const pdfWithFiles = (files: ReadonlyArray<readonly [string, Uint8Array]>, compress = true): Uint8Array => {
  const doc = mupdf.PDFDocument.openDocument(textPdf([invoice]).bytes, "application/pdf").asPDF()
  if (doc === null) throw new Error("the synthetic PDF did not open as a PDF")
  const when = new Date("2026-03-12T10:00:00Z")
  for (const [name, bytes] of files) {
    doc.insertEmbeddedFile(name, doc.addEmbeddedFile(name, "text/xml", bytes, when, when))
  }
  const buffer = doc.saveToBuffer(compress ? "compress" : "")
  const saved = buffer.asUint8Array().slice()
  buffer.destroy()
  doc.destroy()
  return saved
}

const billionLaughs = new TextEncoder().encode(
  `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">${Array.from(
    { length: 9 },
    (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i === 0 ? "" : i};`.repeat(10)}">`
  ).join("")}]><rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100">` +
    "&lol9;</rsm:CrossIndustryInvoice>"
)

// A well-formed Factur-X padded past 50 MB with a comment: only its size is wrong.
const fiftyMegabytes = (): Uint8Array => {
  const xml = Codes.encodeFacturX(facturX)
  const padding = "<!-- padding -->".repeat(Math.ceil((50 * 1024 * 1024) / 16))
  return new TextEncoder().encode(xml.replace("</rsm:CrossIndustryInvoice>", `${padding}</rsm:CrossIndustryInvoice>`))
}

describe("the AFIP QR of every invoice of invoices-ar, through the reader", () => {
  layer(OnnxReader.layer({ poolSize: 1 }), { excludeTestServices: true })((it) => {
    for (const name of names) {
      const truth: Truth = JSON.parse(readFileSync(join(root, `${name}.json`), "utf8"))
      const pdf = () => new Uint8Array(readFileSync(join(root, `${name}.pdf`)))

      it.effect(`${name}: from the PDF`, () => Effect.map(read(pdf()), (document) => expectAfip(document, truth)), {
        timeout: 120_000
      })

      // The phone scan's blurred QR is lost at 150 DPI (its modules are under 2 px): read from 200 DPI.
      const dpi = name === "factura1475" ? 200 : 150
      it.effect(
        `${name}: from a ${dpi} DPI JPEG of page 1`,
        () => Effect.map(read(jpegOfPage(pdf(), dpi)), (document) => expectAfip(document, truth)),
        { timeout: 120_000 }
      )
    }
  })
})

describe("embedded e-invoices", () => {
  // A page time limit far below the default (60 s): hostile attachments are refused in milliseconds.
  layer(OnnxReader.layer({ poolSize: 1, pageTimeLimitMs: 10_000 }), { excludeTestServices: true })((it) => {
    it.effect("a Factur-X PDF made here: its XML read exactly, as a document-level code", () =>
      Effect.gen(function* () {
        const xml = Codes.encodeFacturX(facturX)
        const document = yield* read(pdfWithFiles([["factur-x.xml", new TextEncoder().encode(xml)]]))
        expect(document.pages.map((page) => page.source)).toEqual(["text"])
        const totals = Codes.facturXTotals(facturX)
        expect(document.codes).toEqual([
          {
            page: null,
            box: null,
            format: "embedded:factur-x.xml",
            text: xml.slice(0, Codes.RAW_LIMIT),
            kind: "Invoice",
            facts: {
              issuerTaxId: "FR40303265045",
              buyerTaxId: "FR23334175221",
              documentNumber: "FX-2026-0117",
              issueDate: "2026-03-12",
              total: totals.grandTotal,
              currency: "EUR",
              iban: "FR7630006000011234567890189"
            },
            problems: []
          }
        ])
      })
    )

    it.effect("billion laughs, 50 MB stored and 50 MB compressed: ignored with one log line each; the page reads", () =>
      Effect.gen(function* () {
        const plain = yield* read(textPdf([invoice]).bytes)
        const huge = fiftyMegabytes()
        for (const [compress, files] of [
          [true, [["zugferd-invoice.xml", billionLaughs] as const, ["xrechnung.xml", huge] as const]],
          [false, [["factur-x.xml", huge] as const]]
        ] as const) {
          const { lines, logger } = logged()
          const document = yield* read(pdfWithFiles(files, compress)).pipe(Effect.provide(logger))
          expect(document.pages.map(pageText)).toEqual(plain.pages.map(pageText))
          expect(document.codes).toBeUndefined()
          const ignored = lines.filter((line) => line.message === "code ignored")
          expect(ignored.map((line) => line.annotations.what).sort()).toEqual(
            files.map(([name]) => `embedded:${name}`).sort()
          )
          for (const line of ignored) {
            expect(line.annotations.reason).toMatch(
              line.annotations.what === "embedded:zugferd-invoice.xml" ? /^doctype/ : /over the limit|beyond the limit/
            )
          }
        }
      })
    )
  })
})
