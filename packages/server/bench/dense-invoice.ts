/**
 * A one-page born-digital invoice of about 500 words for the benchmark's detailed read: the sample invoice's
 * header, a table of 40 lines (description, quantity, price, amount) and a paragraph of terms, drawn with mupdf.
 * Deterministic: the same bytes on every run.
 */
import * as mupdf from "mupdf"

const WIDTH = 595
const HEIGHT = 842
const ITEMS = ["Paquete de folios A4", "Bolígrafos azules (caja)", "Grapadora metálica", "Carpeta de anillas"]
const TERMS =
  "Condiciones: el pago se realizará por transferencia bancaria en el plazo indicado desde la fecha de la factura. " +
  "Los precios incluyen el transporte hasta la dirección del cliente y no incluyen el montaje. Cualquier " +
  "reclamación sobre la mercancía deberá comunicarse por escrito dentro de los ocho días siguientes a la entrega. " +
  "La mercancía viaja por cuenta y riesgo del comprador salvo pacto en contrario. En caso de retraso en el pago se " +
  "aplicarán los intereses de demora previstos en la ley vigente sobre operaciones comerciales entre empresas."

// WinAnsiEncoding as a PDF hex string: Latin-1, with € at 0x80.
const hex = (text: string): string => `<${Buffer.from(text.replaceAll("€", "\x80"), "latin1").toString("hex")}>`

const euros = (cents: number): string => `${Math.floor(cents / 100)},${String(cents % 100).padStart(2, "0")}`

/** The page's text runs: [text, x, baseline from the top, size, right-aligned]. */
const runs = (): Array<readonly [string, number, number, number, boolean]> => {
  const out: Array<readonly [string, number, number, number, boolean]> = [
    ["FACTURA", 50, 50, 18, false],
    ["Número de factura: F-2026-0500", 50, 78, 10, false],
    ["Fecha: 12/03/2026", 400, 78, 10, false],
    ["Emisor: Papelería Ejemplo S.L.  CIF: B12345674", 50, 96, 10, false],
    ["Dirección: Calle Mayor 12, 28013 Madrid", 50, 110, 10, false],
    ["Cliente: Demo S.L.  NIF cliente: B99887766", 50, 124, 10, false],
    ["Forma de pago: transferencia a 30 días", 50, 138, 10, false],
    ["Descripción", 55, 160, 8, false],
    ["Cantidad", 360, 160, 8, true],
    ["Precio", 450, 160, 8, true],
    ["Importe", 540, 160, 8, true]
  ]
  let base = 0
  for (let i = 0; i < 40; i++) {
    const y = 174 + i * 12
    const quantity = 1 + (i % 9)
    const price = 150 + ((i * 137) % 2000)
    base += quantity * price
    out.push([`${ITEMS[i % ITEMS.length]} referencia ${1000 + i}`, 55, y, 8, false])
    out.push([String(quantity), 360, y, 8, true])
    out.push([euros(price), 450, y, 8, true])
    out.push([euros(quantity * price), 540, y, 8, true])
  }
  const tax = Math.round(base * 0.21)
  out.push([`Base imponible: ${euros(base)} €`, 540, 672, 9, true])
  out.push([`IVA 21%: ${euros(tax)} €`, 540, 686, 9, true])
  out.push([`Total: ${euros(base + tax)} €`, 540, 702, 10, true])
  const words = TERMS.split(" ")
  for (let line = 0; line * 16 < words.length; line++) {
    out.push([words.slice(line * 16, line * 16 + 16).join(" "), 50, 730 + line * 11, 7, false])
  }
  return out
}

/** The invoice as PDF bytes. */
export const denseInvoicePdf = (): Uint8Array => {
  const font = new mupdf.Font("Helvetica")
  const doc = new mupdf.PDFDocument()
  const resources = doc.addObject(doc.newDictionary())
  const fonts = doc.newDictionary()
  fonts.put("F1", doc.addSimpleFont(font, "Latin"))
  resources.put("Font", fonts)
  const widthOf = (text: string, size: number) => {
    let total = 0
    for (const c of text) total += font.advanceGlyph(font.encodeCharacter(c.codePointAt(0) ?? 0x3f))
    return total * size
  }
  const content = runs()
    .map(([text, x, y, size, right]) => {
      const left = right ? x - widthOf(text, size) : x
      return `BT /F1 ${size} Tf ${left} ${HEIGHT - y} Td ${hex(text)} Tj ET`
    })
    .join("\n")
  try {
    doc.insertPage(-1, doc.addPage([0, 0, WIDTH, HEIGHT], 0, resources, content))
    return doc.saveToBuffer("compress,garbage").asUint8Array().slice()
  } finally {
    doc.destroy()
  }
}
