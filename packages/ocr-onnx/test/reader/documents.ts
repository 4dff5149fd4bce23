/**
 * Documents the reader tests build on top of `test/support/synthetic.ts`: a mixed PDF (a text page, then a scanned
 * page), an encrypted PDF, a PNG that declares 100,000 × 100,000 pixels and a 10,000-page PDF. Deterministic.
 */
import { crc32 } from "node:zlib"
import * as mupdf from "mupdf"
import { concat } from "../../src/internal/bytes.js"
import { conditions, imagePdf, invoice, textPdf } from "../support/synthetic.js"

const save = (doc: mupdf.PDFDocument, options = "compress"): Uint8Array => {
  const buffer = doc.saveToBuffer(options)
  const bytes = buffer.asUint8Array().slice()
  buffer.destroy()
  return bytes
}

/** Page 1: the invoice with a text layer; page 2: the conditions page as an image only. */
export const mixedPdf = (): Uint8Array => {
  const text = mupdf.PDFDocument.openDocument(textPdf([invoice]).bytes, "application/pdf").asPDF()
  const scanned = mupdf.PDFDocument.openDocument(imagePdf([conditions]), "application/pdf").asPDF()
  if (text === null || scanned === null) throw new Error("the synthetic PDFs did not open as PDFs")
  text.graftPage(-1, scanned, 0)
  const bytes = save(text)
  scanned.destroy()
  text.destroy()
  return bytes
}

/** The invoice, encrypted with AES-256 and a user password. */
export const encryptedPdf = (): Uint8Array => {
  const doc = mupdf.PDFDocument.openDocument(textPdf([invoice]).bytes, "application/pdf").asPDF()
  if (doc === null) throw new Error("the synthetic PDF did not open as a PDF")
  const bytes = save(doc, "encrypt=aes-256,user-password=secreto,owner-password=propietario")
  doc.destroy()
  return bytes
}

const chunk = (type: string, data: Uint8Array): Uint8Array => {
  const out = new Uint8Array(12 + data.length)
  const view = new DataView(out.buffer)
  view.setUint32(0, data.length)
  const typeAndData = new Uint8Array(4 + data.length)
  typeAndData.set(new TextEncoder().encode(type), 0)
  typeAndData.set(data, 4)
  out.set(typeAndData, 4)
  view.setUint32(8 + data.length, crc32(typeAndData))
  return out
}

/** A 60-byte PNG whose header declares `width` × `height` pixels (a decompression bomb's header, no data). */
export const pixelFlood = (width = 100_000, height = 100_000): Uint8Array => {
  const header = new Uint8Array(13)
  const view = new DataView(header.buffer)
  view.setUint32(0, width)
  view.setUint32(4, height)
  header.set([8, 0, 0, 0, 0], 8) // 8-bit greyscale, deflate, no filter, no interlace
  return concat([
    Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", Uint8Array.from([0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])),
    chunk("IEND", new Uint8Array(0))
  ])
}

/** A PDF of `count` empty A4 pages in one flat page tree, written by hand (fast, with a correct xref table). */
export const manyPagesPdf = (count = 10_000): Uint8Array => {
  const objects: Array<string> = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    `<< /Type /Pages /Count ${count} /Kids [${Array.from({ length: count }, (_, i) => `${i + 3} 0 R`).join(" ")}] >>`,
    ...Array.from({ length: count }, () => "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>")
  ]
  let body = "%PDF-1.7\n"
  const offsets: Array<number> = []
  for (const [i, object] of objects.entries()) {
    offsets.push(body.length)
    body += `${i + 1} 0 obj\n${object}\nendobj\n`
  }
  const xref = body.length
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`
  body += offsets.map((offset) => `${String(offset).padStart(10, "0")} 00000 n \n`).join("")
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`
  return new TextEncoder().encode(body)
}
