/**
 * Fonts whose text cannot be trusted, found in a PDF page's resources.
 *
 * `untrustedFonts(page)` → the names (as mupdf's text layer reports them: the `BaseFont`, subset prefix included) of
 * simple TrueType fonts that have no `/ToUnicode` map and whose embedded program has no `cmap` table. Such a font
 * draws glyphs by index, so the Unicode text mupdf derives from the encoding names other letters than the page
 * shows (TrueType_without_cmap.pdf reads "’>in" where the page shows Armenian). Fonts that map to U+FFFD or
 * private-use code points need no list: the text layer counts those characters itself.
 */
import * as mupdf from "mupdf"

// The sfnt table directory: numTables at offset 4, then 16-byte records whose first 4 bytes are the tag.
const hasCmapTable = (program: Uint8Array): boolean => {
  if (program.length < 12) return false
  const tables = (program[4]! << 8) | program[5]!
  for (let i = 0; i < tables; i++) {
    const at = 12 + i * 16
    if (at + 4 > program.length) return false
    if (program[at] === 0x63 && program[at + 1] === 0x6d && program[at + 2] === 0x61 && program[at + 3] === 0x70) {
      return true
    }
  }
  return false
}

/** Names of the TrueType fonts of a PDF page (and its form XObjects) with neither `/ToUnicode` nor a `cmap`. */
export const untrustedFonts = (page: mupdf.Page): ReadonlySet<string> => {
  const names = new Set<string>()
  if (!(page instanceof mupdf.PDFPage)) return names
  // Every PDFObject wrapper holds a reference into the WASM heap: collect them and free them all at the end.
  const held: Array<mupdf.PDFObject> = []
  const hold = (object: mupdf.PDFObject): mupdf.PDFObject => {
    held.push(object)
    return object
  }
  const seen = new Set<number>()
  const visitFont = (font: mupdf.PDFObject) => {
    if (hold(font.get("Subtype")).asName() !== "TrueType" || !hold(font.get("ToUnicode")).isNull()) return
    const program = hold(font.get("FontDescriptor", "FontFile2"))
    if (!program.isStream()) return
    const buffer = program.readStream()
    const embedded = buffer.asUint8Array()
    const untrusted = !hasCmapTable(embedded)
    buffer.destroy()
    if (untrusted) names.add(hold(font.get("BaseFont")).asName())
  }
  const visitResources = (resources: mupdf.PDFObject, depth: number) => {
    if (!resources.isDictionary() || depth > 4) return
    hold(resources.get("Font")).forEach((value) => {
      hold(value)
      const font = hold(value.resolve())
      if (value.isIndirect()) {
        if (seen.has(value.asIndirect())) return
        seen.add(value.asIndirect())
      }
      if (font.isDictionary()) visitFont(font)
    })
    hold(resources.get("XObject")).forEach((value) => {
      hold(value)
      if (!value.isIndirect() || seen.has(value.asIndirect())) return
      seen.add(value.asIndirect())
      const xobject = hold(value.resolve())
      if (hold(xobject.get("Subtype")).asName() === "Form") visitResources(hold(xobject.get("Resources")), depth + 1)
    })
  }
  try {
    const pageObject = hold(page.getObject())
    visitResources(hold(pageObject.getInheritable("Resources")), 0)
  } finally {
    for (const object of held) object.destroy()
  }
  return names
}
