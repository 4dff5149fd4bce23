/**
 * Draws a generated page to a one-page PDF with a text layer (mupdf, base-14 fonts, WinAnsi encoding), and a PDF's
 * page to a greyscale PNG for OCR. Deterministic: the same page gives the same bytes.
 */
import * as mupdf from "mupdf"
import type { Family, Page, Run } from "./page.js"

const FONTS: Readonly<Record<Family, readonly [string, string]>> = {
  Helvetica: ["Helvetica", "Helvetica-Bold"],
  Times: ["Times-Roman", "Times-Bold"],
  Courier: ["Courier", "Courier-Bold"]
}

// WinAnsi code points above Latin-1 that the vocabularies use.
const WIN_ANSI: Readonly<Record<number, number>> = { 8364: 0x80, 8211: 0x96, 8217: 0x92, 339: 0x9c, 338: 0x8c }

const byteOf = (c: string): number => {
  const code = c.codePointAt(0) ?? 0x3f
  return WIN_ANSI[code] ?? (code <= 0xff ? code : 0x3f)
}

const hex = (text: string): string => `<${Array.from(text, (c) => byteOf(c).toString(16).padStart(2, "0")).join("")}>`

const widthOf = (font: mupdf.Font, run: Run): number => {
  let total = 0
  for (const c of run.text) total += font.advanceGlyph(font.encodeCharacter(c.codePointAt(0) ?? 0x3f))
  return total * run.size
}

/** The page as a PDF with a text layer. */
export const pdf = (page: Page): Uint8Array => {
  const [regularName, boldName] = FONTS[page.family]
  const regular = new mupdf.Font(regularName)
  const bold = new mupdf.Font(boldName)
  const x = (run: Run) => {
    const width = widthOf(run.bold ? bold : regular, run)
    return run.align === "right" ? run.x - width : run.align === "center" ? run.x - width / 2 : run.x
  }
  const content = page.runs
    .map(
      (run) =>
        `BT ${run.bold ? "/F2" : "/F1"} ${run.size} Tf ${x(run).toFixed(2)} ${(page.height - run.y).toFixed(2)} Td ${hex(run.text)} Tj ET`
    )
    .join("\n")
  const doc = new mupdf.PDFDocument()
  const resources = doc.addObject(doc.newDictionary())
  const fonts = doc.newDictionary()
  fonts.put("F1", doc.addSimpleFont(regular, "Latin"))
  fonts.put("F2", doc.addSimpleFont(bold, "Latin"))
  resources.put("Font", fonts)
  doc.insertPage(-1, doc.addPage([0, 0, page.width, page.height], 0, resources, content))
  const buffer = doc.saveToBuffer("compress,garbage")
  const bytes = buffer.asUint8Array().slice()
  buffer.destroy()
  doc.destroy()
  return bytes
}

/** The PDF's first page rendered at `dpi` as a greyscale PNG, turned by `degrees` (a scan with no text layer). */
export const raster = (bytes: Uint8Array, dpi: number, degrees: number): Uint8Array => {
  const doc = mupdf.Document.openDocument(bytes, "application/pdf")
  const page = doc.loadPage(0)
  const matrix = mupdf.Matrix.concat(mupdf.Matrix.scale(dpi / 72, dpi / 72), mupdf.Matrix.rotate(degrees))
  const pixmap = page.toPixmap(matrix, mupdf.ColorSpace.DeviceGray, false, false)
  const png = pixmap.asPNG().slice()
  pixmap.destroy()
  page.destroy()
  doc.destroy()
  return png
}
