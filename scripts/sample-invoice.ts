/**
 * Generates the quick start's sample documents with mupdf:
 * - `examples/sample-invoice.pdf`: a one-page Spanish invoice with a text layer (born digital), laid out as
 *   label/value pairs and a table of lines, so the `local` extractor reads every field of the demo skill;
 * - `examples/sample-invoice-scan.jpg`: the same page as a 200 DPI greyscale scan turned by 0.4°, for OCR.
 * The output is deterministic. Run from the repository root: `node scripts/sample-invoice.ts`.
 */
import { writeFileSync } from "node:fs"
import * as mupdf from "mupdf"

interface Run {
  readonly text: string
  readonly x: number
  /** Baseline, in points from the top of the page. */
  readonly y: number
  readonly size: number
  readonly bold?: boolean
  readonly right?: boolean
}

const WIDTH = 595
const HEIGHT = 842

const fonts = { regular: new mupdf.Font("Helvetica"), bold: new mupdf.Font("Helvetica-Bold") }

// WinAnsiEncoding: Latin-1, plus € at 0x80.
const hex = (text: string): string =>
  `<${Array.from(text, (c) => {
    const code = c.codePointAt(0) ?? 0x3f
    const byte = code === 0x20ac ? 0x80 : code <= 0xff ? code : 0x3f
    return byte.toString(16).padStart(2, "0")
  }).join("")}>`

const width = (run: Run): number => {
  const font = run.bold === true ? fonts.bold : fonts.regular
  let total = 0
  for (const c of run.text) total += font.advanceGlyph(font.encodeCharacter(c.codePointAt(0) ?? 0x3f))
  return total * run.size
}

const left = (run: Run): number => (run.right === true ? run.x - width(run) : run.x)

const lines: ReadonlyArray<readonly [number, number, number]> = [
  [50, 545, 318],
  [50, 545, 338],
  [50, 545, 430]
]

const table = (y: number, cells: readonly [string, string, string, string], bold = false): Array<Run> => [
  { text: cells[0], x: 55, y, size: 10, bold },
  { text: cells[1], x: 360, y, size: 10, bold, right: true },
  { text: cells[2], x: 450, y, size: 10, bold, right: true },
  { text: cells[3], x: 540, y, size: 10, bold, right: true }
]

const runs: ReadonlyArray<Run> = [
  { text: "FACTURA", x: 50, y: 70, size: 22, bold: true },
  { text: "Número de factura: F-2026-0042", x: 50, y: 110, size: 11 },
  { text: "Fecha: 12/03/2026", x: 400, y: 110, size: 11 },
  { text: "Emisor: Papelería Ejemplo S.L.", x: 50, y: 150, size: 11 },
  { text: "CIF: B12345674", x: 50, y: 168, size: 11 },
  { text: "Dirección: Calle Mayor 12, 28013 Madrid", x: 50, y: 186, size: 11 },
  { text: "Cliente: Demo S.L.", x: 50, y: 226, size: 11 },
  { text: "NIF cliente: B99887766", x: 50, y: 244, size: 11 },
  { text: "Forma de pago: transferencia a 30 días", x: 50, y: 262, size: 11 },
  ...table(332, ["Descripción", "Cantidad", "Precio", "Importe"], true),
  ...table(356, ["Paquete de folios A4", "10", "4,50", "45,00"]),
  ...table(374, ["Bolígrafos azules (caja)", "5", "6,20", "31,00"]),
  ...table(392, ["Grapadora metálica", "2", "12,75", "25,50"]),
  { text: "Base imponible: 101,50 €", x: 540, y: 456, size: 11, right: true },
  { text: "IVA 21%: 21,32 €", x: 540, y: 474, size: 11, right: true },
  { text: "Total: 122,82 €", x: 540, y: 498, size: 13, bold: true, right: true },
  { text: "Gracias por su confianza.", x: 50, y: 780, size: 9 }
]

const content = [
  ...lines.map(([x0, x1, y]) => `0.6 w ${x0} ${HEIGHT - y} m ${x1} ${HEIGHT - y} l S`),
  ...runs.map(
    (run) =>
      `BT ${run.bold === true ? "/F2" : "/F1"} ${run.size} Tf ${left(run)} ${HEIGHT - run.y} Td ${hex(run.text)} Tj ET`
  )
].join("\n")

/** The invoice as a PDF with a text layer. */
const invoicePdf = (): Uint8Array => {
  const doc = new mupdf.PDFDocument()
  const resources = doc.addObject(doc.newDictionary())
  const fontDict = doc.newDictionary()
  fontDict.put("F1", doc.addSimpleFont(fonts.regular, "Latin"))
  fontDict.put("F2", doc.addSimpleFont(fonts.bold, "Latin"))
  resources.put("Font", fontDict)
  doc.insertPage(-1, doc.addPage([0, 0, WIDTH, HEIGHT], 0, resources, content))
  const buffer = doc.saveToBuffer("compress,garbage")
  const bytes = buffer.asUint8Array().slice()
  buffer.destroy()
  doc.destroy()
  return bytes
}

/** The invoice rendered at 200 DPI, turned by 0.4°, as a greyscale JPEG (a scan with no text layer). */
const invoiceScan = (pdf: Uint8Array): Uint8Array => {
  const doc = mupdf.Document.openDocument(pdf, "application/pdf")
  const page = doc.loadPage(0)
  const matrix = mupdf.Matrix.concat(mupdf.Matrix.scale(200 / 72, 200 / 72), mupdf.Matrix.rotate(0.4))
  const pixmap = page.toPixmap(matrix, mupdf.ColorSpace.DeviceGray, false, false)
  const jpeg = pixmap.asJPEG(80, false).slice()
  pixmap.destroy()
  page.destroy()
  doc.destroy()
  return jpeg
}

const pdf = invoicePdf()
writeFileSync(new URL("../examples/sample-invoice.pdf", import.meta.url), pdf)
writeFileSync(new URL("../examples/sample-invoice-scan.jpg", import.meta.url), invoiceScan(pdf))
console.log(`wrote examples/sample-invoice.pdf (${pdf.byteLength} bytes) and examples/sample-invoice-scan.jpg`)
