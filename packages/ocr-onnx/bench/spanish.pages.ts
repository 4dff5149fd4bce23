/**
 * Spanish pages the benchmark renders itself, with exact ground truth: invoices (Lato, a family the recognizer
 * was not trained on), supermarket receipts (Courier, upper case) and contracts (Times), each in three conditions:
 * clean (200 DPI PNG), scanned (200 DPI, 0.6° skew, noise, JPEG 80) and noisy (150 DPI, 1.5° skew, heavy noise,
 * JPEG 60). Text comes from fixed templates and a seeded generator here, not from the training generator.
 *
 * Also the Argentine invoices of `../shared/data/invoices-ar`: text-layer pages rendered to images, their truth the
 * text layer's lines.
 */
import * as Fs from "node:fs"
import { createRequire } from "node:module"
import * as Path from "node:path"
import * as mupdf from "mupdf"
import type { Boxed } from "./metrics.js"
import { seeded } from "./random.ts"

const require = createRequire(import.meta.url)

/** A line of text on a page, in points (baseline y). */
interface Run {
  readonly text: string
  readonly x: number
  readonly y: number
  readonly size: number
  readonly font: mupdf.Font
  readonly align?: "right"
}

/** A page to draw: its size in points and its runs. */
export interface SpanishPage {
  readonly kind: "invoice" | "receipt" | "contract"
  readonly width: number
  readonly height: number
  readonly runs: ReadonlyArray<Run>
}

/** How a page is rendered. */
export interface Condition {
  readonly name: string
  readonly dpi: number
  readonly degrees: number
  readonly noise: number
  /** 0: PNG. */
  readonly jpeg: number
}

export const conditions: ReadonlyArray<Condition> = [
  { name: "clean 200 DPI", dpi: 200, degrees: 0, noise: 0, jpeg: 0 },
  { name: "scanned 200 DPI (0.6°, noise, JPEG 80)", dpi: 200, degrees: 0.6, noise: 14, jpeg: 80 },
  { name: "noisy 150 DPI (1.5°, heavy noise, JPEG 60)", dpi: 150, degrees: 1.5, noise: 32, jpeg: 60 }
]

const lato = (weight: string) => {
  const dir = Path.dirname(require.resolve("@expo-google-fonts/lato/package.json"))
  return new mupdf.Font("Lato", Fs.readFileSync(Path.join(dir, weight, `Lato_${weight}.ttf`)))
}

const fonts = {
  sans: lato("400Regular"),
  sansBold: lato("700Bold"),
  serif: new mupdf.Font("Times-Roman"),
  serifBold: new mupdf.Font("Times-Bold"),
  mono: new mupdf.Font("Courier"),
  monoBold: new mupdf.Font("Courier-Bold")
}

const advance = (font: mupdf.Font, text: string, size: number): number => {
  let width = 0
  for (const c of text) width += font.advanceGlyph(font.encodeCharacter(c.codePointAt(0)!))
  return width * size
}

const euros = (cents: number): string => {
  const [whole, frac] = (cents / 100).toFixed(2).split(".") as [string, string]
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ".")},${frac}`
}

const items = [
  "Tornillería de acero inoxidable",
  "Piñones de latón mecanizado",
  "Revisión técnica anual",
  "Instalación de calefacción",
  "Reparación de máquina cafetera",
  "Señalización de almacén",
  "Diseño gráfico de catálogo",
  "Consultoría jurídica (8 h)",
  "Mantenimiento de jardín",
  "Transporte a Logroño",
  "Cuñas de madera de haya",
  "Baterías de litio 12 V",
  "Formación en gestión económica",
  "Envío urgente a Cádiz"
]
const clients = [
  ["Café Rincón Andaluz S.A.", "Avenida de la Constitución 7, 41004 Sevilla"],
  ["Muñoz & Peña Asesores S.L.", "Calle Ibáñez de Ibero 3, 28003 Madrid"],
  ["Panadería La Espiga de Jaén", "Plaza de España 1, 23001 Jaén"],
  ["Ferretería Núñez Hermanos", "Calle Águila 22, 10003 Cáceres"]
] as const

const invoicePage = (random: () => number, n: number): SpanishPage => {
  const runs: Array<Run> = []
  const left = 56
  const right = 539
  const add = (text: string, x: number, y: number, size = 10, bold = false, align?: "right") =>
    runs.push({ text, x, y, size, font: bold ? fonts.sansBold : fonts.sans, ...(align ? { align } : {}) })
  const [client, address] = clients[n % clients.length]!
  add(`FACTURA Nº ${2024 + (n % 3)}-${String(100 + Math.floor(random() * 900))}`, left, 72, 16, true)
  add(`Fecha de emisión: ${1 + Math.floor(random() * 28)}/0${1 + Math.floor(random() * 9)}/2025`, left, 96)
  add("Vencimiento: 30 días", right, 96, 10, false, "right")
  add("Emisor: Distribuciones Martínez Ibáñez S.L.", left, 130, 10, true)
  add("NIF: B-12345678 · Teléfono: +34 913 456 789", left, 144)
  add("Calle Mayor 15, 2º izq., 28013 Madrid (España)", left, 158)
  add(`Cliente: ${client}`, left, 186, 10, true)
  add(address, left, 200)
  add("Descripción", left, 236, 10, true)
  add("Cant.", 360, 236, 10, true, "right")
  add("Precio", 450, 236, 10, true, "right")
  add("Importe", right, 236, 10, true, "right")
  let total = 0
  const count = 6 + Math.floor(random() * 5)
  for (let i = 0; i < count; i++) {
    const y = 256 + i * 16
    const quantity = 1 + Math.floor(random() * 20)
    const price = 50 + Math.floor(random() * 150_000)
    total += quantity * price
    add(items[Math.floor(random() * items.length)]!, left, y)
    add(String(quantity), 360, y, 10, false, "right")
    add(`${euros(price)} €`, 450, y, 10, false, "right")
    add(`${euros(quantity * price)} €`, right, y, 10, false, "right")
  }
  const y = 256 + count * 16 + 24
  const vat = Math.round(total * 0.21)
  add("Base imponible:", 450, y, 10, false, "right")
  add(`${euros(total)} €`, right, y, 10, false, "right")
  add("IVA (21 %):", 450, y + 16, 10, false, "right")
  add(`${euros(vat)} €`, right, y + 16, 10, false, "right")
  add("TOTAL A PAGAR:", 450, y + 34, 11, true, "right")
  add(`${euros(total + vat)} €`, right, y + 34, 11, true, "right")
  add("Forma de pago: transferencia bancaria a la cuenta del emisor.", left, y + 70)
  add("IBAN: ES91 2100 0418 4502 0005 1332 · ¿Dudas? Escríbanos a cobros@martinez.es", left, y + 84)
  add("¡Gracias por su confianza! Inscrita en el Registro Mercantil de Madrid, tomo 1.234, folio 56.", left, y + 98, 8)
  return { kind: "invoice", width: 595, height: 842, runs }
}

const products = [
  "PLÁTANO CANARIO",
  "LECHE SEMIDESNATADA",
  "PAN DE CEREALES",
  "JAMÓN SERRANO LONCHAS",
  "ACEITE DE OLIVA VÍRGEN",
  "PIÑA EN ALMÍBAR",
  "ATÚN CLARO PACK-3",
  "CAFÉ MOLIDO NATURAL",
  "AZÚCAR MORENO",
  "LIMÓN MALLA 1 KG",
  "QUESO MANCHEGO CUÑA",
  "CHAMPIÑÓN LAMINADO",
  "YOGUR GRIEGO AZÚCAR",
  "PAÑUELOS DE PAPEL"
]

const receiptPage = (random: () => number, n: number): SpanishPage => {
  const runs: Array<Run> = []
  const left = 20
  const right = 206
  const add = (text: string, x: number, y: number, bold = false, align?: "right") =>
    runs.push({ text, x, y, size: 8.5, font: bold ? fonts.monoBold : fonts.mono, ...(align ? { align } : {}) })
  add(n % 2 === 0 ? "SUPERMERCADOS DÍA S.A." : "ALIMENTACIÓN MUÑOZ S.L.", left, 30, true)
  add("C/ ALCALÁ 123, 28009 MADRID", left, 42)
  add("NIF: A-28164754  TEL: 915 551 234", left, 54)
  add(`FACTURA SIMPLIFICADA Nº ${String(Math.floor(random() * 1e6)).padStart(6, "0")}`, left, 72)
  add(`FECHA: 1${n}/03/2025  HORA: 1${n}:4${n}`, left, 84)
  let total = 0
  const count = 8 + Math.floor(random() * 6)
  for (let i = 0; i < count; i++) {
    const y = 104 + i * 11
    const quantity = 1 + Math.floor(random() * 3)
    const price = 45 + Math.floor(random() * 900)
    total += quantity * price
    add(`${quantity} ${products[Math.floor(random() * products.length)]!}`, left, y)
    add(euros(quantity * price), right, y, false, "right")
  }
  const y = 104 + count * 11 + 10
  add("TOTAL (€)", left, y, true)
  add(euros(total), right, y, true, "right")
  add(`TARJETA BANCARIA: ${euros(total)} €`, left, y + 14)
  add("IVA  BASE IMP.  CUOTA", left, y + 30)
  add(`10%  ${euros(Math.round(total / 1.1))}  ${euros(total - Math.round(total / 1.1))}`, left, y + 41)
  add("¿TIENE NUESTRA TARJETA CLIENTE?", left, y + 60)
  add("¡GRACIAS POR SU VISITA!", left, y + 72, true)
  return { kind: "receipt", width: 226, height: y + 100, runs }
}

const clauses = [
  "PRIMERA.- Objeto. El arrendador cede al arrendatario el uso de la vivienda situada en la calle Núñez de",
  "Balboa nº 45, 3º B, de Madrid, con una superficie útil de noventa y dos metros cuadrados.",
  "SEGUNDA.- Duración. El contrato tendrá una duración de un año, prorrogable por períodos anuales hasta un",
  "máximo de cinco años, salvo que el arrendatario manifieste su voluntad de no renovarlo.",
  "TERCERA.- Renta. La renta anual será de 14.400,00 € (catorce mil cuatrocientos euros), pagadera en doce",
  "mensualidades de 1.200,00 € dentro de los siete primeros días de cada mes mediante domiciliación.",
  "CUARTA.- Fianza. A la firma del presente contrato el arrendatario entrega la cantidad de 2.400,00 € en",
  "concepto de fianza, que será devuelta a la finalización del arrendamiento, una vez comprobado el estado.",
  "QUINTA.- Obras. El arrendatario no podrá realizar obras sin el consentimiento escrito del arrendador.",
  "¿Qué ocurre si se incumple esta cláusula? El arrendador podrá exigir la reposición al estado anterior.",
  "SEXTA.- Gastos. Los gastos de comunidad, el impuesto sobre bienes inmuebles y la tasa de basuras",
  "correrán a cargo del arrendador; los suministros de agua, electricidad y gas, a cargo del arrendatario.",
  "SÉPTIMA.- Jurisdicción. Para cualquier controversia, las partes se someten a los juzgados y tribunales",
  "de la ciudad de Madrid, con renuncia expresa a su propio fuero, si lo tuvieren.",
  "Y en prueba de conformidad, firman el presente documento por duplicado en el lugar y fecha indicados.",
  "¡Atención! Este contrato incluye un anexo con el inventario de muebles y electrodomésticos (págs. 3–4)."
]

const contractPage = (random: () => number, n: number): SpanishPage => {
  const runs: Array<Run> = []
  const left = 60
  const add = (text: string, y: number, size = 10.5, bold = false) =>
    runs.push({ text, x: left, y, size, font: bold ? fonts.serifBold : fonts.serif })
  add("CONTRATO DE ARRENDAMIENTO DE VIVIENDA", 70, 14, true)
  add(`En Madrid, a ${10 + n} de febrero de 2025.`, 96)
  add("REUNIDOS", 122, 11, true)
  add("De una parte, Dña. María José Ibáñez Gómez, con D.N.I. nº 12.345.678-Z, en calidad de arrendadora.", 142)
  add("De otra parte, D. Joaquín Peña Muñoz, con N.I.E. nº X-1234567-L, en calidad de arrendatario.", 158)
  add("CLÁUSULAS", 186, 11, true)
  const start = Math.floor(random() * 4) * 2
  const chosen = [...clauses.slice(start), ...clauses.slice(0, start)]
  for (const [i, text] of chosen.entries()) add(text, 206 + i * 16)
  return { kind: "contract", width: 595, height: 842, runs }
}

/** The benchmark's Spanish pages: `perKind` of each kind, from a fixed seed. */
export const spanishPages = (perKind: number): ReadonlyArray<SpanishPage> => {
  const random = seeded(1475)
  return Array.from({ length: perKind }, (_, n) => [
    invoicePage(random, n),
    receiptPage(random, n),
    contractPage(random, n)
  ]).flat()
}

const runLeft = (run: Run): number => (run.align === "right" ? run.x - advance(run.font, run.text, run.size) : run.x)

/** A page's truth: each run's words with boxes in points (ascender 0.8, descender 0.2 of the size). */
export const truthWords = (page: SpanishPage): Array<Boxed> =>
  page.runs.flatMap((run) => {
    let x = runLeft(run)
    const out: Array<Boxed> = []
    for (const [i, word] of run.text.split(" ").entries()) {
      if (i > 0) x += advance(run.font, " ", run.size)
      const width = advance(run.font, word, run.size)
      if (word !== "")
        out.push({ text: word, x0: x, y0: run.y - 0.8 * run.size, x1: x + width, y1: run.y + 0.2 * run.size })
      x += width
    }
    return out
  })

/** The page drawn in a condition: image bytes (PNG or JPEG) and the factor from points to pixels. */
export const renderPage = (page: SpanishPage, condition: Condition, seed: number): Uint8Array => {
  const scale = condition.dpi / 72
  const width = Math.round(page.width * scale)
  const height = Math.round(page.height * scale)
  const pixmap = new mupdf.Pixmap(mupdf.ColorSpace.DeviceRGB, [0, 0, width, height], false)
  pixmap.clear(255)
  const device = new mupdf.DrawDevice(mupdf.Matrix.identity, pixmap)
  const ctm = mupdf.Matrix.concat(
    mupdf.Matrix.concat(
      mupdf.Matrix.concat(mupdf.Matrix.scale(scale, scale), mupdf.Matrix.translate(-width / 2, -height / 2)),
      mupdf.Matrix.rotate(condition.degrees)
    ),
    mupdf.Matrix.translate(width / 2, height / 2)
  )
  for (const run of page.runs) {
    const text = new mupdf.Text()
    text.showString(run.font, [run.size, 0, 0, -run.size, runLeft(run), run.y], run.text)
    device.fillText(text, ctm, mupdf.ColorSpace.DeviceRGB, [0.1, 0.1, 0.1], 1)
    text.destroy()
  }
  device.close()
  device.destroy()
  if (condition.noise > 0) {
    const random = seeded(seed)
    const pixels = pixmap.getPixels()
    for (let i = 0; i < pixels.length; i += 3) {
      const d = Math.round((random() * 2 - 1) * condition.noise)
      pixels[i] = pixels[i]! + d
      pixels[i + 1] = pixels[i + 1]! + d
      pixels[i + 2] = pixels[i + 2]! + d
    }
  }
  const bytes = (condition.jpeg > 0 ? pixmap.asJPEG(condition.jpeg, false) : pixmap.asPNG()).slice()
  pixmap.destroy()
  return bytes
}

/**
 * Word boxes in pixels of a page rendered with `condition`, turned back by its rotation into page points, so that
 * both engines' words and the truth go through the same reading order on a skewed page.
 */
export const unrotate = (words: ReadonlyArray<Boxed>, page: SpanishPage, condition: Condition, pxPerUnit: number) => {
  const scale = condition.dpi / 72
  const cx = (page.width * scale) / 2
  const cy = (page.height * scale) / 2
  const a = (-condition.degrees * Math.PI) / 180
  const c = Math.cos(a)
  const s = Math.sin(a)
  return words.map((w) => {
    const x = ((w.x0 + w.x1) / 2) * pxPerUnit - cx
    const y = ((w.y0 + w.y1) / 2) * pxPerUnit - cy
    const hw = ((w.x1 - w.x0) / 2) * pxPerUnit
    const hh = ((w.y1 - w.y0) / 2) * pxPerUnit
    const ux = (x * c - y * s + cx) / scale
    const uy = (x * s + y * c + cy) / scale
    return { text: w.text, x0: ux - hw / scale, y0: uy - hh / scale, x1: ux + hw / scale, y1: uy + hh / scale }
  })
}

/** The first page of a PDF rendered at `dpi` as PNG, and its text layer's lines (boxes in pixels). */
export const pdfPage = (path: string, dpi: number): { readonly png: Uint8Array; readonly truth: Array<Boxed> } => {
  const doc = mupdf.Document.openDocument(new Uint8Array(Fs.readFileSync(path)), "application/pdf")
  const page = doc.loadPage(0)
  const scale = dpi / 72
  const pixmap = page.toPixmap(mupdf.Matrix.scale(scale, scale), mupdf.ColorSpace.DeviceRGB, false, true)
  const png = pixmap.asPNG().slice()
  pixmap.destroy()
  const stext = page.toStructuredText("preserve-whitespace")
  const json = JSON.parse(stext.asJSON()) as {
    blocks: Array<{ lines?: Array<{ text: string; bbox: { x: number; y: number; w: number; h: number } }> }>
  }
  stext.destroy()
  page.destroy()
  doc.destroy()
  const truth = json.blocks.flatMap((b) =>
    (b.lines ?? []).map((l) => ({
      text: l.text,
      x0: l.bbox.x * scale,
      y0: l.bbox.y * scale,
      x1: (l.bbox.x + l.bbox.w) * scale,
      y1: (l.bbox.y + l.bbox.h) * scale
    }))
  )
  return { png, truth }
}

/**
 * The errors of factura1475's text layer, which is the phone scan's own machine OCR, each checked against the page
 * rendered at 200 DPI: what the layer says → what the page prints. "Códigó": a pen stroke crosses the last "o"; "CAE
 * N:": a ring is printed after the N, and AFIP's form writes it as a degree sign (U+00B0 in the text layers of the
 * other four invoices); on this scan it is an unbarred ring at the cap height, so no reader can tell it from "º".
 */
export const factura1475Errata: ReadonlyArray<readonly [string, string]> = [
  ["MARCIO Y AGUSTINN", "MARCIO Y AGUSTIN"],
  ["cOD. 006", "COD. 006"],
  ["cUIT:", "CUIT:"],
  ["VA Responsable", "IVA Responsable"],
  ["Códigó", "Código"],
  ["CantidadU. Medida", "Cantidad U. Medida"],
  ["CAE N:", "CAE N°:"],
  ["responsabillza", "responsabiliza"],
  ["on el detallo", "en el detalle"]
]

/** Lines with each erratum applied (a text layer with none or several lines holding one of them is an error). */
export const withErrata = (
  lines: ReadonlyArray<Boxed>,
  errata: ReadonlyArray<readonly [string, string]>
): Array<Boxed> => {
  const out = [...lines]
  for (const [wrong, right] of errata) {
    const holding = out.flatMap((line, k) => (line.text.includes(wrong) ? [k] : []))
    if (holding.length !== 1) throw new Error(`erratum "${wrong}" is in ${holding.length} lines of the text layer`)
    const at = holding[0]!
    out[at] = { ...out[at]!, text: out[at]!.text.replace(wrong, right) }
  }
  return out
}
