/**
 * Files embedded in a PDF: the `EmbeddedFiles` name tree of the catalog (where Factur-X, ZUGFeRD and XRechnung put
 * their XML) and the file-attachment annotations of a page. Runs inside a worker thread, on hostile input:
 *
 * - the name tree is walked with a depth and an entry cap and each node visited once (a cycle ends the walk);
 * - a file's bytes are taken from its stream only when they fit `maxBytes`: an unfiltered stream by its declared
 *   `Length` before reading, a Flate one by inflating at most `maxBytes + 1` (a 50 MB file or a bomb is never
 *   inflated whole); other filters are not read (mupdf would decode them without a bound);
 * - every failure is a reason string, never an exception: the caller ignores that file and notes why.
 */
import * as mupdf from "mupdf"
import { flateLayers, inflateAtMost } from "./open.js"

/** An embedded file found: its name and declared type, where (null: the document's), and its stream's key. */
export interface Attachment {
  readonly name: string
  readonly mimeType: string
  readonly page: number | null
  readonly box: { readonly x0: number; readonly y0: number; readonly x1: number; readonly y1: number } | null
  readonly filespec: mupdf.PDFObject
}

/** The most name-tree entries looked at; a real invoice embeds one to a few files. */
export const MAX_ATTACHMENTS = 64
const MAX_DEPTH = 16

const describe = (pdf: mupdf.PDFDocument, filespec: mupdf.PDFObject, fallback: string) => {
  try {
    const params = pdf.getFilespecParams(filespec)
    return { name: params.filename || fallback, mimeType: params.mimetype ?? "" }
  } catch {
    return { name: fallback, mimeType: "" }
  }
}

/** The files of the catalog's `EmbeddedFiles` name tree (at most `MAX_ATTACHMENTS`). */
export const documentAttachments = (pdf: mupdf.PDFDocument): Array<Attachment> => {
  const found: Array<Attachment> = []
  const seen = new Set<number>()
  const walk = (node: mupdf.PDFObject, depth: number): void => {
    if (depth > MAX_DEPTH || found.length >= MAX_ATTACHMENTS || !node.isDictionary()) return
    if (node.isIndirect()) {
      if (seen.has(node.asIndirect())) return
      seen.add(node.asIndirect())
    }
    const names = node.get("Names")
    if (names.isArray()) {
      for (let i = 0; i + 1 < names.length && found.length < MAX_ATTACHMENTS; i += 2) {
        const key = names.get(i)
        const filespec = names.get(i + 1)
        const fallback = key.isString() ? key.asString() : `file ${i / 2 + 1}`
        if (filespec.isDictionary())
          found.push({ ...describe(pdf, filespec, fallback), page: null, box: null, filespec })
      }
    }
    const kids = node.get("Kids")
    if (kids.isArray()) for (let i = 0; i < kids.length; i++) walk(kids.get(i), depth + 1)
  }
  walk(pdf.getTrailer().get("Root", "Names", "EmbeddedFiles"), 0)
  return found
}

/** The files attached to a page by file-attachment annotations, boxed in page coordinates (points, top-left). */
export const pageAttachments = (pdf: mupdf.PDFDocument, page: mupdf.Page, number: number): Array<Attachment> => {
  if (!(page instanceof mupdf.PDFPage)) return []
  const found: Array<Attachment> = []
  for (const annotation of page.getAnnotations()) {
    if (found.length >= MAX_ATTACHMENTS) break
    if (annotation.getType() !== "FileAttachment" || !annotation.hasFilespec()) continue
    const filespec = annotation.getFileSpec()
    if (!filespec.isDictionary()) continue
    const [x0, y0, x1, y1] = annotation.getBounds()
    found.push({ ...describe(pdf, filespec, "attachment"), page: number, box: { x0, y0, x1, y1 }, filespec })
  }
  return found
}

/** The embedded stream of a file specification (`EF` `F`, else `UF`). */
export const streamOf = (filespec: mupdf.PDFObject): mupdf.PDFObject | undefined => {
  const ef = filespec.get("EF")
  if (!ef.isDictionary()) return undefined
  for (const key of ["F", "UF"]) {
    const stream = ef.get(key)
    if (stream.isStream()) return stream
  }
  return undefined
}

/** A file's bytes when they fit `maxBytes`, else why not (a sentence). */
export const contentsOf = (filespec: mupdf.PDFObject, maxBytes: number): Uint8Array | string => {
  try {
    const stream = streamOf(filespec)
    if (stream === undefined) return "no embedded file stream"
    const filter = stream.get("Filter")
    const layers = flateLayers(stream)
    if (!filter.isNull() && layers === 0) return `its stream's filter (${filter.toString()}) is not read`
    const length = stream.get("Length")
    const declared = length.isNumber() ? length.asNumber() : Number.NaN
    // Checked before reading: inflating gives at least about as many bytes as were stored (Flate's overhead is a
    // few bytes a block), so stored bytes over the cap mean a file over it.
    if (declared > maxBytes) return `its stream declares ${declared} bytes, over the limit of ${maxBytes}`
    const raw = stream.readRawStream()
    let data: Uint8Array | undefined = raw.asUint8Array().slice()
    raw.destroy()
    if (layers === 0 && data.length > maxBytes) return `${data.length} bytes, over the limit of ${maxBytes}`
    for (let layer = 0; layer < layers && data !== undefined; layer++) data = inflateAtMost(data, maxBytes + 1)
    if (data === undefined || data.length > maxBytes) return `it inflates beyond the limit of ${maxBytes} bytes`
    return data
  } catch (error) {
    return `its stream cannot be read: ${error instanceof Error ? error.message : String(error)}`
  }
}

/** A key for a file's stream, so that one file reached twice (name tree and annotation) is read once. */
export const streamKey = (filespec: mupdf.PDFObject): number | undefined => {
  try {
    const stream = streamOf(filespec)
    return stream?.isIndirect() === true ? stream.asIndirect() : undefined
  } catch {
    return undefined
  }
}
