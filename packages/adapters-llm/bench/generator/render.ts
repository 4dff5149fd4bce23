/**
 * Draws a generated page to a one-page PDF with a text layer (mupdf, base-14 fonts, WinAnsi encoding), and a PDF's
 * page to a greyscale PNG for OCR. Deterministic: the same page gives the same bytes.
 */
import * as mupdf from "mupdf"
import type { Family, Page, Run } from "./page.js"
import type { Random } from "./random.js"

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

/** The PDF's first page as a greyscale pixmap at `dpi`, turned by `degrees`; `use` sees it before it is freed. */
const rendered = <A>(bytes: Uint8Array, dpi: number, degrees: number, use: (pixmap: mupdf.Pixmap) => A): A => {
  const doc = mupdf.Document.openDocument(bytes, "application/pdf")
  const page = doc.loadPage(0)
  const matrix = mupdf.Matrix.concat(mupdf.Matrix.scale(dpi / 72, dpi / 72), mupdf.Matrix.rotate(degrees))
  const pixmap = page.toPixmap(matrix, mupdf.ColorSpace.DeviceGray, false, false)
  try {
    return use(pixmap)
  } finally {
    pixmap.destroy()
    page.destroy()
    doc.destroy()
  }
}

/** The PDF's first page rendered at `dpi` as a greyscale PNG, turned by `degrees` (a scan with no text layer). */
export const raster = (bytes: Uint8Array, dpi: number, degrees: number): Uint8Array =>
  rendered(bytes, dpi, degrees, (pixmap) => pixmap.asPNG().slice())

/**
 * The PDF's first page as a worn scan: a JPEG at 170–260 DPI, turned up to 1.5°, its ink faded unevenly down the page
 * (a thermal receipt's), blurred, on a tinted paper with a shadow across it, grainy and speckled. Every draw comes
 * from `random`, so the same document and stream give the same bytes.
 */
export const scan = (bytes: Uint8Array, random: Random): Uint8Array => {
  const dpi = random.int(170, 260)
  const degrees = (random.next() * 2 - 1) * 1.5
  return rendered(bytes, dpi, degrees, (pixmap) => {
    const width = pixmap.getWidth()
    const height = pixmap.getHeight()
    const stride = pixmap.getStride()
    const pixels = pixmap.getPixels()
    const ink = Array.from({ length: height }, () => 0)
    // Ink strength: a base fade and a slow wave down the page (a thermal head's uneven heat, a worn ribbon).
    const fade = 0.6 + random.next() * 0.4
    const wave = random.next() * 0.25
    const period = 200 + random.next() * 900
    const phase = random.next() * Math.PI * 2
    for (let y = 0; y < height; y++) ink[y] = Math.min(1, fade + wave * Math.sin(phase + (y / period) * Math.PI * 2))
    const paper = 215 + random.int(0, 35)
    const shadow = random.next() * 40
    const shadowLeft = random.chance(0.5)
    const grain = 2 + random.next() * 8
    const speckles = random.next() * 0.002
    const radius = random.pick([0, 1, 1])
    const source = new Float32Array(width * height)
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        const darkness = (255 - (pixels[y * stride + x] ?? 255)) * (ink[y] ?? 1)
        const light = paper - shadow * (shadowLeft ? 1 - x / width : x / width)
        source[y * width + x] = light - (darkness * light) / 255
      }
    const blurred = radius === 0 ? source : boxBlur(source, width, height, radius)
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        const speck = random.next() < speckles ? -120 * random.next() : 0
        const value = (blurred[y * width + x] ?? 255) + gaussian(random) * grain + speck
        pixels[y * stride + x] = value
      }
    return pixmap.asJPEG(random.int(55, 88)).slice()
  })
}

/** A standard normal draw (Box–Muller). */
const gaussian = (random: Random): number =>
  Math.sqrt(-2 * Math.log(1 - random.next())) * Math.cos(2 * Math.PI * random.next())

/** A box blur of `radius` pixels, horizontal then vertical. */
const boxBlur = (source: Float32Array, width: number, height: number, radius: number): Float32Array => {
  const pass = (input: Float32Array, step: number, length: number, lines: number, lineStep: number) => {
    const output = new Float32Array(input.length)
    for (let line = 0; line < lines; line++) {
      const base = line * lineStep
      for (let i = 0; i < length; i++) {
        let sum = 0
        let n = 0
        for (let k = Math.max(0, i - radius); k <= Math.min(length - 1, i + radius); k++) {
          sum += input[base + k * step] ?? 0
          n++
        }
        output[base + i * step] = sum / n
      }
    }
    return output
  }
  return pass(pass(source, 1, width, height, width), width, height, width, 1)
}
