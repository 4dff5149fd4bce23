/**
 * Code detection as the reader's workers do it (`src/internal/codes/found.ts`), in three parts:
 *
 * 1. Decode rate per condition. Seeded payloads of every kind `@legible/codes` writes (AFIP, VeriFactu, SAT CFDI,
 *    SUNAT, EPC; all as QR codes, `Qr.render`) are drawn 12 to a 20 × 15 cm page (a 4 × 3 grid of 5 cm cells) at a
 *    code side of 1–4 cm, turned 0°, 5° or 90°, rendered grey by mupdf at 100/150/200/300 DPI, then left clean,
 *    blurred (Gaussian, σ = 0.1 mm: a soft scan) or JPEG-compressed (quality 75 and 40); a code
 *    counts when zxing's text equals its payload. Target: ≥ 99 % at 150 DPI and above for codes ≥ 2 cm.
 * 2. The extra CPU of detection on scanned pages: FUNSD forms and SROIE receipts rendered as the worker renders them
 *    for OCR; the CPU ms of `greyOf` + `codesIn` on that render against the CPU ms of OCR (`recognizePage`, one
 *    engine in this process with the reader's defaults). Target ≤ 5 %.
 * 3. The cost on text-layer pages: the PDFs of invoices-ar, invoice2data and receipts-es, page 1: the graphics check,
 *    the grey render and detection, against reading the text layer.
 *
 * Run: `npx vitest run --config vitest.bench.config.ts bench/codes.run.ts` in packages/ocr-onnx. Data root from
 * `LEGIBLE_DATA` (parts 2 and 3 skip with a message where it is absent); `CODES_BENCH_PAGES` scanned pages per
 * dataset (default 5); `CODES_BENCH_PARTS` which parts (default `1,2,3`).
 */
import * as Fs from "node:fs"
import * as Path from "node:path"
import { it } from "@effect/vitest"
import { Codes, Qr } from "@legible/codes"
import { Effect } from "effect"
import * as mupdf from "mupdf"
import { mayHoldCode } from "../src/internal/codes/finder.js"
import { codesIn, decodeAll, detectionFactor, greyOf } from "../src/internal/codes/found.js"
import { defaultLimits } from "../src/internal/mupdf/limits.js"
import { openDocument, withPage } from "../src/internal/mupdf/open.js"
import { codesDpi, graphicsOf, renderForOcr, renderGrey } from "../src/internal/mupdf/render.js"
import { textLayer } from "../src/internal/mupdf/textLayer.js"
import { makeEngine } from "../src/internal/ocr/engine.js"
import { recognizePage } from "../src/internal/ocr/pipeline.js"
import { dataRoot, funsd, sroie } from "./datasets.js"
import { type Random, seeded } from "./random.js"

const PAGES = Number(process.env.CODES_BENCH_PAGES ?? 5)
const parts = (process.env.CODES_BENCH_PARTS ?? "1,2,3").split(",")
const log = (line: string) => process.stdout.write(`${line}\n`)
const median = (xs: ReadonlyArray<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0
const pct = (x: number) => `${(100 * x).toFixed(1)} %`

// ---- 1. generated codes -------------------------------------------------------------------------------------------

const digits = (random: Random, n: number) => Array.from({ length: n }, () => Math.floor(random() * 10)).join("")
const amount = (random: Random) => Math.round(random() * 2_000_000) / 100
const date = (random: Random) =>
  `20${20 + Math.floor(random() * 7)}-${String(1 + Math.floor(random() * 12)).padStart(2, "0")}-${String(1 + Math.floor(random() * 28)).padStart(2, "0")}`
const letters = (random: Random, n: number) =>
  Array.from({ length: n }, () => String.fromCharCode(65 + Math.floor(random() * 26))).join("")

/** One payload of each kind in turn, seeded. */
const payload = (random: Random, index: number): string => {
  switch (index % 5) {
    case 0:
      return Codes.encodeAfip({
        issueDate: date(random),
        cuit: `30${digits(random, 9)}`,
        pointOfSale: 1 + Math.floor(random() * 20),
        documentType: 1 + Math.floor(random() * 10),
        number: Math.floor(random() * 99_999),
        total: amount(random),
        authorizationCode: digits(random, 14)
      })
    case 1:
      return Codes.encodeVeriFactu({
        nif: `B${digits(random, 8)}`,
        documentNumber: `F${digits(random, 4)}/${digits(random, 5)}`,
        issueDate: date(random),
        total: amount(random)
      })
    case 2:
      return Codes.encodeSat({
        uuid: `${digits(random, 8)}-${digits(random, 4)}-4${digits(random, 3)}-8${digits(random, 3)}-${digits(random, 12)}`,
        issuerRfc: `${letters(random, 3)}${digits(random, 6)}${letters(random, 3)}`,
        buyerRfc: `${letters(random, 4)}${digits(random, 6)}${letters(random, 3)}`,
        total: amount(random),
        sealTail: `${letters(random, 6)}==`
      })
    case 3:
      return Codes.encodeSunat({
        ruc: `20${digits(random, 9)}`,
        documentType: "01",
        series: `F${digits(random, 3)}`,
        number: digits(random, 6),
        tax: amount(random) / 10,
        total: amount(random),
        issueDate: date(random)
      })
    default:
      return Codes.encodeEpc({
        beneficiary: `${letters(random, 8)} GmbH`,
        iban: `DE89370400440532013000`,
        total: amount(random),
        text: `Rechnung ${digits(random, 6)}`
      })
  }
}

const CM = 72 / 2.54
const COLUMNS = 4
const ROWS = 3
const CELL = 5 * CM

/** A page of 12 codes of `side` cm turned by `degrees`, as a one-page PDF. */
const codesPage = (images: ReadonlyArray<Qr.GreyImage>, side: number, degrees: number): Uint8Array => {
  const doc = new mupdf.PDFDocument()
  const resources = doc.newDictionary()
  const xobjects = doc.newDictionary()
  resources.put("XObject", xobjects)
  const theta = (degrees * Math.PI) / 180
  const s = side * CM
  const [cos, sin] = [Math.cos(theta), Math.sin(theta)]
  const content: Array<string> = []
  images.forEach((image, index) => {
    const pixmap = new mupdf.Pixmap(mupdf.ColorSpace.DeviceGray, [0, 0, image.width, image.height], false)
    pixmap.getPixels().set(image.pixels)
    xobjects.put(`Im${index}`, doc.addImage(new mupdf.Image(pixmap)))
    const cx = (index % COLUMNS) * CELL + CELL / 2
    const cy = Math.floor(index / COLUMNS) * CELL + CELL / 2
    const e = cx - (s / 2) * (cos - sin)
    const f = cy - (s / 2) * (sin + cos)
    // Fixed-point: PDF numbers have no exponent (cos 90° is 6e-17).
    const matrix = [s * cos, s * sin, -s * sin, s * cos, e, f].map((n) => n.toFixed(4)).join(" ")
    content.push(`q ${matrix} cm /Im${index} Do Q`)
  })
  doc.insertPage(-1, doc.addPage([0, 0, COLUMNS * CELL, ROWS * CELL], 0, resources, content.join("\n")))
  const buffer = doc.saveToBuffer("")
  const bytes = buffer.asUint8Array().slice()
  buffer.destroy()
  doc.destroy()
  return bytes
}

type Finish = "clean" | "blur" | "jpeg 75" | "jpeg 40"

/**
 * A Gaussian blur of σ = 0.1 mm on the page, whatever the resolution (0.6 px at 150 DPI, 1.2 px at 300): the
 * softness of a print scanned or photographed, in the paper's units — a blur in pixels would be a worse optic at
 * every lower DPI. (A fixed 3 × 3 box twice, about 1.2 px, was tried first: at 150 DPI it erases 2 cm codes of
 * 50–65 modules, 1.8–2.4 px a module, whatever zxing's binarizer; MEASUREMENTS.md.)
 */
const blurred = (image: Qr.GreyImage, dpi: number): Qr.GreyImage => {
  const sigma = (0.1 / 25.4) * dpi
  const radius = Math.ceil(3 * sigma)
  const kernel = Array.from({ length: 2 * radius + 1 }, (_, i) => Math.exp(-((i - radius) ** 2) / (2 * sigma * sigma)))
  const total = kernel.reduce((a, b) => a + b, 0)
  const weights = kernel.map((k) => k / total)
  const pass = (source: Uint8Array, horizontal: boolean): Uint8Array => {
    const out = new Uint8Array(source.length)
    for (let y = 0; y < image.height; y++)
      for (let x = 0; x < image.width; x++) {
        let sum = 0
        for (let k = -radius; k <= radius; k++) {
          const xx = horizontal ? Math.min(Math.max(x + k, 0), image.width - 1) : x
          const yy = horizontal ? y : Math.min(Math.max(y + k, 0), image.height - 1)
          sum += (weights[k + radius] ?? 0) * (source[yy * image.width + xx] ?? 255)
        }
        out[y * image.width + x] = Math.round(sum)
      }
    return out
  }
  return { ...image, pixels: pass(pass(Uint8Array.from(image.pixels), true), false) }
}

const jpeg = (image: Qr.GreyImage, quality: number): Qr.GreyImage => {
  const pixmap = new mupdf.Pixmap(mupdf.ColorSpace.DeviceGray, [0, 0, image.width, image.height], false)
  pixmap.getPixels().set(image.pixels)
  const bytes = pixmap.asJPEG(quality, false).slice()
  pixmap.destroy()
  const decoded = new mupdf.Image(bytes).toPixmap()
  const grey =
    decoded.getNumberOfComponents() === 1 ? decoded : decoded.convertToColorSpace(mupdf.ColorSpace.DeviceGray)
  const result = { width: grey.getWidth(), height: grey.getHeight(), pixels: grey.getPixels().slice() }
  return result
}

const finished = (image: Qr.GreyImage, finish: Finish, dpi: number): Qr.GreyImage =>
  finish === "clean" ? image : finish === "blur" ? blurred(image, dpi) : jpeg(image, finish === "jpeg 75" ? 75 : 40)

const renderPage = (pdf: Uint8Array, dpi: number): Qr.GreyImage => {
  const document = mupdf.Document.openDocument(pdf, "application/pdf")
  const pixmap = document.loadPage(0).toPixmap(mupdf.Matrix.scale(dpi / 72, dpi / 72), mupdf.ColorSpace.DeviceGray)
  const image = { width: pixmap.getWidth(), height: pixmap.getHeight(), pixels: pixmap.getPixels().slice() }
  pixmap.destroy()
  document.destroy()
  return image
}

const generated = Effect.gen(function* () {
  const sides = [1, 2, 3, 4]
  const rotations = [0, 5, 90]
  const finishes: ReadonlyArray<Finish> = ["clean", "blur", "jpeg 75", "jpeg 40"]
  const dpis = [100, 150, 200, 300]
  log("\n### Decode rate of generated codes (12 a page: AFIP, VeriFactu, SAT, SUNAT, EPC in turn; QR, EC level M)\n")
  log(`| side | rotation | finish | ${dpis.map((d) => `${d} DPI`).join(" | ")} |`)
  log(`| --- | --- | --- | ${dpis.map(() => "---").join(" | ")} |`)
  const target = { found: 0, total: 0 }
  const perDpi = new Map<number, { found: number; total: number }>(dpis.map((d) => [d, { found: 0, total: 0 }]))
  let seed = 1
  for (const side of sides)
    for (const rotation of rotations)
      for (const finish of finishes) {
        const random = seeded(seed++)
        const texts = Array.from({ length: COLUMNS * ROWS }, (_, i) => payload(random, i))
        const symbols = yield* Effect.forEach(texts, (text) => Qr.render(text, { moduleSize: 4 }))
        const pdf = codesPage(symbols, side, rotation)
        const cells: Array<string> = []
        for (const dpi of dpis) {
          const image = finished(renderPage(pdf, dpi), finish, dpi)
          const found = yield* codesIn(image, 72 / dpi, 1)
          const read = new Set(found.codes.map((code) => code.text))
          const hits = texts.filter((text) => read.has(text)).length
          cells.push(`${hits}/${texts.length}`)
          const bucket = perDpi.get(dpi)!
          bucket.found += hits
          bucket.total += texts.length
          if (side >= 2 && dpi >= 150) {
            target.found += hits
            target.total += texts.length
          }
        }
        log(`| ${side} cm | ${rotation}° | ${finish} | ${cells.join(" | ")} |`)
      }
  log(
    `\nAll sizes, per DPI: ${dpis.map((d) => `${d}: ${pct(perDpi.get(d)!.found / perDpi.get(d)!.total)}`).join(", ")}`
  )
  log(
    `Codes ≥ 2 cm at ≥ 150 DPI: ${target.found}/${target.total} = ${pct(target.found / target.total)} (target ≥ 99 %)`
  )
})

// ---- 2. scanned pages ---------------------------------------------------------------------------------------------

const scanned = Effect.gen(function* () {
  if (!Fs.existsSync(Path.join(dataRoot, "funsd")) || !Fs.existsSync(Path.join(dataRoot, "sroie"))) {
    log(`\nDetection CPU on scanned pages skipped: ${dataRoot} (funsd/, sroie/) is absent`)
    return
  }
  const engine = yield* makeEngine({})
  log(`\n### Detection CPU on scanned pages (${PAGES} a dataset), against OCR CPU\n`)
  log(
    "| dataset | render px (median) | detection ms (pre-check + zxing when it passes) | zxing alone ms | OCR ms | detection / OCR | zxing alone / OCR | pages passing the pre-check | codes found |"
  )
  log("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
  let warm = false
  for (const [name, samples] of [
    ["FUNSD", funsd(PAGES)],
    ["SROIE", sroie(PAGES)]
  ] as const) {
    const detections: Array<number> = []
    const zxingAlone: Array<number> = []
    let candidates = 0
    const ocrs: Array<number> = []
    const sizes: Array<number> = []
    let found = 0
    for (const sample of samples) {
      const rendered = yield* Effect.scoped(
        Effect.flatMap(openDocument(new Uint8Array(Fs.readFileSync(sample.image)), defaultLimits), (opened) =>
          withPage(opened, 0, (page) => renderForOcr(page, opened.kind, defaultLimits))
        )
      )
      if (!warm) {
        yield* recognizePage(engine, rendered)
        yield* codesIn(greyOf(rendered), rendered.scale, 1)
        warm = true
      }
      const c0 = process.cpuUsage()
      const factor = detectionFactor(rendered.width * rendered.height)
      const grey = greyOf(rendered, factor)
      const candidate = mayHoldCode(grey)
      const codes = candidate ? yield* decodeAll(grey, rendered.scale * factor, 1) : { codes: [] }
      const c1 = process.cpuUsage(c0)
      detections.push((c1.user + c1.system) / 1000)
      const z0 = process.cpuUsage()
      yield* decodeAll(grey, rendered.scale * factor, 1)
      const z1 = process.cpuUsage(z0)
      zxingAlone.push((z1.user + z1.system) / 1000)
      if (candidate) candidates++
      found += codes.codes.length
      const o0 = process.cpuUsage()
      yield* recognizePage(engine, rendered)
      const o1 = process.cpuUsage(o0)
      ocrs.push((o1.user + o1.system) / 1000)
      sizes.push(rendered.width * rendered.height)
    }
    const detection = detections.reduce((a, b) => a + b, 0) / detections.length
    const ocr = ocrs.reduce((a, b) => a + b, 0) / ocrs.length
    const zxing = zxingAlone.reduce((a, b) => a + b, 0) / zxingAlone.length
    log(
      `| ${name} | ${(median(sizes) / 1e6).toFixed(1)} MP | ${detection.toFixed(0)} | ${zxing.toFixed(0)} | ${ocr.toFixed(0)} | ${pct(detection / ocr)} | ${pct(zxing / ocr)} | ${candidates}/${samples.length} | ${found} |`
    )
  }
})

// ---- 3. text-layer pages ------------------------------------------------------------------------------------------

const textPages = Effect.gen(function* () {
  const folders = ["invoices-ar", "invoice2data", "receipts-es"].map((f) => Path.join(dataRoot, f))
  if (!folders.every((f) => Fs.existsSync(f))) {
    log(`\nText-layer pages skipped: ${dataRoot} (invoices-ar/, invoice2data/, receipts-es/) is absent`)
    return
  }
  log("\n### Text-layer pages (page 1): detection CPU against reading the text layer\n")
  log("| file | text layer ms | graphics check ms | render DPI | render + detection ms | codes |")
  log("| --- | --- | --- | --- | --- | --- |")
  const files = folders.flatMap((folder) =>
    Fs.readdirSync(folder)
      .filter((name) => name.endsWith(".pdf"))
      .sort()
      .map((name) => Path.join(folder, name))
  )
  for (const file of files) {
    const row = yield* Effect.scoped(
      Effect.flatMap(openDocument(new Uint8Array(Fs.readFileSync(file)), defaultLimits), (opened) =>
        withPage(opened, 0, (page) =>
          Effect.gen(function* () {
            const t0 = process.cpuUsage()
            yield* textLayer(page)
            const t1 = process.cpuUsage(t0)
            const g0 = process.cpuUsage()
            const graphics = yield* graphicsOf(page, defaultLimits)
            const g1 = process.cpuUsage(g0)
            const dpi = codesDpi(graphics)
            const r0 = process.cpuUsage()
            let codes = 0
            if (graphics.drawn) {
              const grey = yield* renderGrey(page, dpi, defaultLimits, 16_000_000, graphics.oversized)
              codes = (yield* codesIn(grey, grey.scale, 1)).codes.length
            }
            const r1 = process.cpuUsage(r0)
            const ms = (u: NodeJS.CpuUsage) => ((u.user + u.system) / 1000).toFixed(0)
            return `| ${Path.basename(file)} | ${ms(t1)} | ${ms(g1)} | ${graphics.drawn ? dpi.toFixed(0) : "not rendered"} | ${ms(r1)} | ${codes} |`
          })
        )
      )
    )
    log(row)
  }
})

it.live(
  "code detection: decode rate and CPU",
  () =>
    Effect.scoped(
      Effect.gen(function* () {
        if (parts.includes("1")) yield* generated
        if (parts.includes("2")) yield* scanned
        if (parts.includes("3")) yield* textPages
      })
    ),
  60 * 60_000
)
