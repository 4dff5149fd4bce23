/**
 * Synthetic test documents, drawn with mupdf itself, whose words and boxes are known by construction.
 *
 * A `SyntheticPage` is a list of text runs (base-14 Helvetica, WinAnsi encoding, so á é í ó ú ñ Ñ º € are
 * available) placed by baseline. From it:
 * - `truthOf(page)` gives the ground truth: words with boxes in PDF points, top-left origin, grouped in visual lines
 *   (same baseline) in reading order (top to bottom, left to right). A box spans the advances of the word's glyphs
 *   horizontally and the font's ascender..descender vertically (mupdf's convention for text-layer quads).
 * - `textPdf(pages, { rotate })` a PDF with a text layer (optionally `/Rotate`d: the truth is then on the rotated
 *   page); `imagePdf` the same pages as image-only PDF pages; `raster` PNG/JPEG bytes; `tiff` a multi-page
 *   TIFF; `skewed` a page rotated by a small angle (with optional seeded noise) and the word quads in pixels.
 * Everything is deterministic: the same call gives the same bytes.
 *
 * `invoice` is a one-page Spanish invoice (header, emitter, client, a 4-column table of lines and totals);
 * `conditions` a second page of running text, for multi-page documents.
 */
import * as mupdf from "mupdf"
import { seeded } from "../../bench/random.ts"
import { encodeTiff } from "./tiff.js"

/** A piece of text drawn on one baseline. `y` is the baseline in points from the top of the page. */
export interface Run {
  readonly text: string
  /** Left edge, or right edge when `align` is "right". */
  readonly x: number
  readonly y: number
  readonly size: number
  readonly bold?: boolean
  readonly align?: "left" | "right"
}

/** A page to draw: text runs and horizontal rules (`[x0, x1, y]` in points, top-left origin). */
export interface SyntheticPage {
  readonly width: number
  readonly height: number
  readonly runs: ReadonlyArray<Run>
  readonly rules?: ReadonlyArray<readonly [number, number, number]>
}

/** A ground-truth word: box in points, top-left origin. */
export interface TruthWord {
  readonly word: string
  readonly x0: number
  readonly y0: number
  readonly x1: number
  readonly y1: number
}

/** A ground-truth page: its size and its words in visual lines, in reading order. */
export interface TruthPage {
  readonly width: number
  readonly height: number
  readonly lines: ReadonlyArray<ReadonlyArray<TruthWord>>
}

/** Raster bytes with their size and the factor from pixels to points. */
export interface Raster {
  readonly bytes: Uint8Array
  readonly width: number
  readonly height: number
  /** Points per pixel (72 / dpi). */
  readonly scale: number
}

/** A word of a skewed raster: its four corners in pixels (top-left, top-right, bottom-right, bottom-left). */
export interface SkewedWord {
  readonly word: string
  readonly quad: readonly [number, number, number, number, number, number, number, number]
}

/** A skewed raster and its words. */
export interface Skewed extends Raster {
  readonly lines: ReadonlyArray<ReadonlyArray<SkewedWord>>
}

// Ascender and descender of mupdf's built-in Helvetica (Nimbus Sans) as fractions of the font size: mupdf uses them
// for the vertical extent of every character quad of the text layer.
const metrics = {
  regular: { name: "Helvetica", ascender: 1.075, descender: -0.299 },
  bold: { name: "Helvetica-Bold", ascender: 1.07, descender: -0.307 }
} as const

const fonts = { regular: new mupdf.Font(metrics.regular.name), bold: new mupdf.Font(metrics.bold.name) }

// WinAnsiEncoding: Latin-1 above 0xA0; the 0x80–0x9F block holds € and typographic marks.
const winAnsiHigh: Record<number, number> = { 8364: 0x80, 8211: 0x96, 8212: 0x97, 8220: 0x93, 8221: 0x94 }

const winAnsiByte = (codePoint: number): number => {
  if ((codePoint >= 0x20 && codePoint < 0x7f) || (codePoint >= 0xa0 && codePoint <= 0xff)) return codePoint
  const byte = winAnsiHigh[codePoint]
  if (byte === undefined) throw new Error(`synthetic: U+${codePoint.toString(16)} is not in WinAnsiEncoding`)
  return byte
}

const hexString = (text: string): string =>
  `<${Array.from(text, (c) => winAnsiByte(c.codePointAt(0)!).toString(16).padStart(2, "0")).join("")}>`

const advance = (text: string, size: number, bold: boolean): number => {
  const font = bold ? fonts.bold : fonts.regular
  let width = 0
  for (const c of text) width += font.advanceGlyph(font.encodeCharacter(c.codePointAt(0)!))
  return width * size
}

const runLeft = (run: Run): number =>
  run.align === "right" ? run.x - advance(run.text, run.size, run.bold === true) : run.x

/** The words of a page with their boxes, in visual lines (runs sharing a baseline), top to bottom, left to right. */
export const truthOf = (page: SyntheticPage): TruthPage => {
  const byBaseline = new Map<number, Array<{ x: number; words: Array<TruthWord> }>>()
  for (const run of page.runs) {
    const m = run.bold === true ? metrics.bold : metrics.regular
    const y0 = run.y - m.ascender * run.size
    const y1 = run.y - m.descender * run.size
    const words: Array<TruthWord> = []
    let x = runLeft(run)
    for (const [i, word] of run.text.split(" ").entries()) {
      if (i > 0) x += advance(" ", run.size, run.bold === true)
      const width = advance(word, run.size, run.bold === true)
      if (word.length > 0) words.push({ word, x0: x, y0, x1: x + width, y1 })
      x += width
    }
    const row = byBaseline.get(run.y) ?? []
    row.push({ x: runLeft(run), words })
    byBaseline.set(run.y, row)
  }
  const lines = [...byBaseline.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, row]) => row.sort((a, b) => a.x - b.x).flatMap((r) => r.words))
  return { width: page.width, height: page.height, lines }
}

/** The truth's text: words joined by spaces, lines by newlines. */
export const truthText = (truth: TruthPage): string => truth.lines.map((l) => l.map((w) => w.word).join(" ")).join("\n")

// Text render mode 3 draws nothing: the text layer of a "searchable" scan.
const textOps = (page: SyntheticPage, runs: ReadonlyArray<Run>, invisible = false): Array<string> =>
  runs.map((run) => {
    const font = run.bold === true ? "/F2" : "/F1"
    const mode = invisible ? "3 Tr " : ""
    return `BT ${mode}${font} ${run.size} Tf ${runLeft(run)} ${page.height - run.y} Td ${hexString(run.text)} Tj ET`
  })

const contentStream = (page: SyntheticPage): string => {
  const ops: Array<string> = []
  for (const [x0, x1, y] of page.rules ?? []) {
    ops.push(`0.6 w ${x0} ${page.height - y} m ${x1} ${page.height - y} l S`)
  }
  return [...ops, ...textOps(page, page.runs)].join("\n")
}

const rotateTruth = (truth: TruthPage, rotate: 0 | 90 | 180 | 270): TruthPage => {
  const { width: w, height: h } = truth
  const map = (x: number, y: number): readonly [number, number] =>
    rotate === 90 ? [h - y, x] : rotate === 180 ? [w - x, h - y] : rotate === 270 ? [y, w - x] : [x, y]
  const lines = truth.lines.map((line) =>
    line.map((word) => {
      const [ax, ay] = map(word.x0, word.y0)
      const [bx, by] = map(word.x1, word.y1)
      return {
        word: word.word,
        x0: Math.min(ax, bx),
        y0: Math.min(ay, by),
        x1: Math.max(ax, bx),
        y1: Math.max(ay, by)
      }
    })
  )
  return rotate === 90 || rotate === 270 ? { width: h, height: w, lines } : { width: w, height: h, lines }
}

const savePdf = (doc: mupdf.PDFDocument): Uint8Array => {
  const buffer = doc.saveToBuffer("compress")
  const bytes = buffer.asUint8Array().slice()
  buffer.destroy()
  doc.destroy()
  return bytes
}

const newTextDocument = (): { doc: mupdf.PDFDocument; resources: mupdf.PDFObject } => {
  const doc = new mupdf.PDFDocument()
  const resources = doc.addObject(doc.newDictionary())
  const fontDict = doc.newDictionary()
  fontDict.put("F1", doc.addSimpleFont(fonts.regular, "Latin"))
  fontDict.put("F2", doc.addSimpleFont(fonts.bold, "Latin"))
  resources.put("Font", fontDict)
  return { doc, resources }
}

/** A PDF with a text layer; with `rotate`, every page carries that `/Rotate` and the truth is on the rotated page. */
export const textPdf = (
  pages: ReadonlyArray<SyntheticPage>,
  options: { readonly rotate?: 0 | 90 | 180 | 270 } = {}
): { readonly bytes: Uint8Array; readonly truth: ReadonlyArray<TruthPage> } => {
  const rotate = options.rotate ?? 0
  const { doc, resources } = newTextDocument()
  for (const page of pages) {
    doc.insertPage(-1, doc.addPage([0, 0, page.width, page.height], rotate, resources, contentStream(page)))
  }
  return { bytes: savePdf(doc), truth: pages.map((p) => rotateTruth(truthOf(p), rotate)) }
}

// Draws a page into a pixmap with `matrix` (points → pixels), white background, in `colorspace`.
const drawPage = (page: SyntheticPage, matrix: mupdf.Matrix, colorspace: mupdf.ColorSpace): mupdf.Pixmap => {
  const { doc, resources } = newTextDocument()
  doc.insertPage(-1, doc.addPage([0, 0, page.width, page.height], 0, resources, contentStream(page)))
  const pdfPage = doc.loadPage(0)
  const pixmap = pdfPage.toPixmap(matrix, colorspace, false, false)
  pdfPage.destroy()
  doc.destroy()
  return pixmap
}

const encode = (pixmap: mupdf.Pixmap, format: "png" | "jpeg", quality: number): Uint8Array =>
  (format === "png" ? pixmap.asPNG() : pixmap.asJPEG(quality, false)).slice()

/** The page rendered at `dpi` (default 200) as PNG or JPEG (quality default 90). */
export const raster = (
  page: SyntheticPage,
  options: { readonly format: "png" | "jpeg"; readonly dpi?: number; readonly quality?: number }
): Raster => {
  const dpi = options.dpi ?? 200
  const pixmap = drawPage(page, mupdf.Matrix.scale(dpi / 72, dpi / 72), mupdf.ColorSpace.DeviceRGB)
  const result = {
    bytes: encode(pixmap, options.format, options.quality ?? 90),
    width: pixmap.getWidth(),
    height: pixmap.getHeight(),
    scale: 72 / dpi
  }
  pixmap.destroy()
  return result
}

/** A picture on a page: `picture` drawn at `dpi` (default 200) and placed with its top left at `x`, `y` (points). */
export interface Picture {
  readonly picture: SyntheticPage
  readonly x: number
  readonly y: number
  readonly dpi?: number
}

/**
 * A PDF of `copies` pages (default 1) whose text layer is `page`'s runs, drawn over `pictures`: images of text (a
 * letterhead's logo), so that what they print is in no text layer. The pages share the pictures, as an invoice's
 * pages share its logo.
 */
export const picturePdf = (page: SyntheticPage, pictures: ReadonlyArray<Picture>, copies = 1): Uint8Array => {
  const { doc, resources } = newTextDocument()
  const xobjects = doc.newDictionary()
  const draw = pictures.map(({ picture, x, y, dpi = 200 }, k) => {
    const pixmap = drawPage(picture, mupdf.Matrix.scale(dpi / 72, dpi / 72), mupdf.ColorSpace.DeviceRGB)
    const image = new mupdf.Image(pixmap)
    xobjects.put(`Im${k}`, doc.addImage(image))
    image.destroy()
    pixmap.destroy()
    return `q ${picture.width} 0 0 ${picture.height} ${x} ${page.height - y - picture.height} cm /Im${k} Do Q`
  })
  resources.put("XObject", xobjects)
  const content = [...draw, contentStream(page)].join("\n")
  for (let n = 0; n < copies; n++)
    doc.insertPage(-1, doc.addPage([0, 0, page.width, page.height], 0, resources, content))
  return savePdf(doc)
}

/**
 * Image-only PDF: each page rendered at `dpi` (default 200) and embedded as one full-page image. With
 * `invisibleText`, the page's runs are also drawn invisibly over it (a searchable scan); `stamp` runs are drawn
 * visibly over it (a scan with a small text header).
 */
export const imagePdf = (
  pages: ReadonlyArray<SyntheticPage>,
  options: { readonly dpi?: number; readonly invisibleText?: boolean; readonly stamp?: ReadonlyArray<Run> } = {}
): Uint8Array => {
  const dpi = options.dpi ?? 200
  const { doc, resources: fontResources } = newTextDocument()
  const fontDict = fontResources.get("Font")
  for (const page of pages) {
    const pixmap = drawPage(page, mupdf.Matrix.scale(dpi / 72, dpi / 72), mupdf.ColorSpace.DeviceRGB)
    const image = new mupdf.Image(pixmap)
    const resources = doc.addObject(doc.newDictionary())
    const xobjects = doc.newDictionary()
    xobjects.put("Im0", doc.addImage(image))
    resources.put("XObject", xobjects)
    resources.put("Font", fontDict)
    const text = [
      ...(options.invisibleText === true ? textOps(page, page.runs, true) : []),
      ...textOps(page, options.stamp ?? [])
    ]
    const content = [`q ${page.width} 0 0 ${page.height} 0 0 cm /Im0 Do Q`, ...text].join("\n")
    doc.insertPage(-1, doc.addPage([0, 0, page.width, page.height], 0, resources, content))
    image.destroy()
    pixmap.destroy()
  }
  return savePdf(doc)
}

/**
 * The page rotated by `degrees` (clockwise as seen, e.g. 0.6–1.5) at `dpi` (default 200), with optional noise
 * (±`noise` grey levels, seeded), as PNG or JPEG, and each word's quad in pixels of the result.
 */
export const skewed = (
  page: SyntheticPage,
  options: {
    readonly degrees: number
    readonly format: "png" | "jpeg"
    readonly dpi?: number
    readonly noise?: number
    readonly quality?: number
    readonly seed?: number
  }
): Skewed => {
  const dpi = options.dpi ?? 200
  const matrix = mupdf.Matrix.concat(mupdf.Matrix.scale(dpi / 72, dpi / 72), mupdf.Matrix.rotate(options.degrees))
  const pixmap = drawPage(page, matrix, mupdf.ColorSpace.DeviceRGB)
  const ox = pixmap.getX()
  const oy = pixmap.getY()
  const noise = options.noise ?? 0
  if (noise > 0) {
    const random = seeded(options.seed ?? 42)
    const pixels = pixmap.getPixels()
    for (let i = 0; i < pixels.length; i++) pixels[i] = pixels[i]! + Math.round((random() * 2 - 1) * noise)
  }
  const [a, b, c, d, e, f] = matrix
  const at = (x: number, y: number): readonly [number, number] => [a * x + c * y + e - ox, b * x + d * y + f - oy]
  const lines = truthOf(page).lines.map((line) =>
    line.map((w): SkewedWord => {
      const [ax, ay] = at(w.x0, w.y0)
      const [bx, by] = at(w.x1, w.y0)
      const [cx, cy] = at(w.x1, w.y1)
      const [dx, dy] = at(w.x0, w.y1)
      return { word: w.word, quad: [ax, ay, bx, by, cx, cy, dx, dy] }
    })
  )
  const result = {
    bytes: encode(pixmap, options.format, options.quality ?? 85),
    width: pixmap.getWidth(),
    height: pixmap.getHeight(),
    scale: 72 / dpi,
    lines
  }
  pixmap.destroy()
  return result
}

/** A multi-page TIFF of the pages (8-bit greyscale, PackBits, `dpi` default 200), via the writer in `tiff.ts`. */
export const tiff = (pages: ReadonlyArray<SyntheticPage>, options: { readonly dpi?: number } = {}): Uint8Array => {
  const dpi = options.dpi ?? 200
  const frames = pages.map((page) => {
    const pixmap = drawPage(page, mupdf.Matrix.scale(dpi / 72, dpi / 72), mupdf.ColorSpace.DeviceGray)
    const width = pixmap.getWidth()
    const height = pixmap.getHeight()
    const stride = pixmap.getStride()
    const view = pixmap.getPixels()
    const pixels = new Uint8Array(width * height)
    for (let y = 0; y < height; y++) pixels.set(view.subarray(y * stride, y * stride + width), y * width)
    pixmap.destroy()
    return { width, height, pixels }
  })
  return encodeTiff(frames, dpi)
}

const A4 = { width: 595, height: 842 } as const
const left = 56
const right = 539

/** A one-page Spanish invoice: header, emitter, client, a table (descripción, cantidad, precio, importe), totals. */
export const invoice: SyntheticPage = {
  ...A4,
  runs: [
    { text: "FACTURA Nº 2024-0042", x: left, y: 72, size: 16, bold: true },
    { text: "Fecha: 12/03/2024", x: left, y: 96, size: 10 },
    { text: "Vencimiento: 11/04/2024", x: right, y: 96, size: 10, align: "right" },
    { text: "Emisor: Distribuciones Martínez S.L.", x: left, y: 130, size: 10, bold: true },
    { text: "CIF: B-12345678", x: left, y: 144, size: 10 },
    { text: "Calle Mayor 15, 28013 Madrid", x: left, y: 158, size: 10 },
    { text: "Cliente: Café Rincón Andaluz S.A.", x: left, y: 186, size: 10, bold: true },
    { text: "CIF: A-87654321", x: left, y: 200, size: 10 },
    { text: "Avenida de la Constitución 7, 41004 Sevilla", x: left, y: 214, size: 10 },
    { text: "Número de pedido: PED-7781", x: left, y: 228, size: 10 },
    { text: "Descripción", x: left, y: 266, size: 10, bold: true },
    { text: "Cantidad", x: 360, y: 266, size: 10, bold: true, align: "right" },
    { text: "Precio", x: 450, y: 266, size: 10, bold: true, align: "right" },
    { text: "Importe", x: right, y: 266, size: 10, bold: true, align: "right" },
    ...(
      [
        ["Tornillos de acero inoxidable", "100", "0,15 €", "15,00 €"],
        ["Piñones de latón", "50", "0,20 €", "10,00 €"],
        ["Arandelas planas", "200", "0,05 €", "10,00 €"],
        ["Llave inglesa ajustable", "2", "12,50 €", "25,00 €"]
      ] as const
    ).flatMap(([description, quantity, price, amount], i): Array<Run> => {
      const y = 288 + i * 18
      return [
        { text: description, x: left, y, size: 10 },
        { text: quantity, x: 360, y, size: 10, align: "right" },
        { text: price, x: 450, y, size: 10, align: "right" },
        { text: amount, x: right, y, size: 10, align: "right" }
      ]
    }),
    { text: "Base imponible:", x: 450, y: 380, size: 10, align: "right" },
    { text: "60,00 €", x: right, y: 380, size: 10, align: "right" },
    { text: "IVA (21%):", x: 450, y: 396, size: 10, align: "right" },
    { text: "12,60 €", x: right, y: 396, size: 10, align: "right" },
    { text: "Total:", x: 450, y: 414, size: 11, bold: true, align: "right" },
    { text: "72,60 €", x: right, y: 414, size: 11, bold: true, align: "right" },
    { text: "Forma de pago: transferencia bancaria", x: left, y: 460, size: 10 },
    { text: "IBAN: ES91 2100 0418 4502 0005 1332", x: left, y: 474, size: 10 }
  ],
  rules: [
    [left, right, 272],
    [left, right, 360]
  ]
}

/** A second page of running text (general conditions), for multi-page documents. */
export const conditions: SyntheticPage = {
  ...A4,
  runs: [
    { text: "CONDICIONES GENERALES", x: left, y: 72, size: 14, bold: true },
    ...[
      "1. El pago se realizará en un plazo máximo de treinta días.",
      "2. Los precios incluyen el transporte hasta el almacén del cliente.",
      "3. La garantía de los productos es de dos años desde la entrega.",
      "4. Cualquier reclamación deberá comunicarse por escrito.",
      "5. Para cualquier controversia, las partes se someten a los tribunales de Madrid."
    ].map((text, i): Run => ({ text, x: left, y: 104 + i * 16, size: 10 })),
    { text: "Página 2 de 2", x: right, y: 800, size: 9, align: "right" }
  ]
}
