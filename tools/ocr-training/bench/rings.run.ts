/**
 * Degree sign or ordinal indicator across faces: what the reader makes of "N°" and "Nº" with the ring rule of
 * `ring.ts` (`OcrConfig.ringDrop`) and without it, on pages where the truth is known.
 *
 * Each page is one face: 18 lines (each of 9 templates twice, 8–14 pt) with a ring after a capital ("CAE N°: …",
 * "FACTURA Nº …", "CUIT Nº: …") or after a digit ("25°C", "2º izq.", "3º B"), each line tagged with a number of its
 * own, drawn in four conditions: clean 200 DPI, scanned 200 DPI (0.6°, noise, JPEG 80), noisy 150 DPI (1.5°, heavy
 * noise, JPEG 60) and 300 DPI (0.3°, light noise, JPEG 85). Every page is read twice by one engine in this process,
 * with the rule and with `ringDrop` 0, and each line's ring is scored: read as printed, read as the other ring, or
 * not read. Printed per condition and for the rings after a capital alone (the only ones the rule looks at).
 *
 * First, each face's glyphs drawn large and clean: how far the top of its "°" and "º" is below the top of its "N".
 *
 * Faces: the training faces (`src/fonts.ts`: mupdf's base-14 Helvetica, Times and Courier and the npm families),
 * plus every TrueType/OpenType face with "N", "°", "º" and the digits under `RING_BENCH_FONTS` (a directory,
 * default `/usr/share/fonts`; symbol and script faces left out). The 144-face figures in `config.ts` were measured
 * with Debian's fonts-dejavu-core, fonts-liberation2, fonts-freefont-ttf, fonts-noto-core, fonts-open-sans,
 * fonts-croscore, fonts-crosextra-carlito, fonts-crosextra-caladea and fonts-urw-base35 installed.
 * `RING_BENCH_FONTS=none` reads the training faces alone. Run: `npm run bench:rings -w @legible/ocr-training`.
 */
import * as Fs from "node:fs"
import * as Path from "node:path"
import { it } from "@effect/vitest"
import { seeded } from "@legible/ocr-onnx/bench/random.ts"
import { type Condition, renderPage, type SpanishPage } from "@legible/ocr-onnx/bench/spanish.pages.ts"
import {
  defaultLimits,
  makeEngine,
  type OcrPage,
  openDocument,
  recognizePage,
  renderForOcr,
  withPage
} from "@legible/ocr-onnx/training"
import { Effect } from "effect"
import * as mupdf from "mupdf"
import { loadFonts } from "../src/fonts.ts"

const FONTS = process.env.RING_BENCH_FONTS ?? "/usr/share/fonts"
const log = (line: string) => process.stdout.write(`${line}\n`)

interface Face {
  readonly name: string
  readonly font: mupdf.Font
}

/** Faces under a directory, recursively: text faces that have every character the templates need. */
const facesUnder = (dir: string): Array<Face> => {
  if (dir === "none" || !Fs.existsSync(dir)) return []
  const files = Fs.readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => /\.(ttf|otf)$/i.test(f))
    .sort()
    // Symbol, dingbat and script faces; Noto's faces for other scripts (their Latin is a fallback copy).
    .filter((f) => !/StandardSymbols|D050000L|Z003|Noto(Sans|Serif)(?!-)[A-Z]/.test(Path.basename(f)))
  return files.flatMap((f) => {
    try {
      return [{ name: Path.basename(f), font: new mupdf.Font(Path.basename(f), Fs.readFileSync(Path.join(dir, f))) }]
    } catch {
      return []
    }
  })
}

/** Whether a face has every character the templates need. */
const complete = (face: Face): boolean =>
  Array.from("N°º0123456789").every((c) => face.font.encodeCharacter(c.codePointAt(0)!) > 0)

/** A line template: the ring as printed, what precedes it, and the text around a tag number. */
interface Template {
  readonly ring: "°" | "º"
  readonly capital: boolean
  readonly before: string
  readonly make: (tag: string) => string
}

const templates: ReadonlyArray<Template> = [
  { ring: "°", capital: true, before: "N", make: (tag) => `CAE N°: 7306428458${tag}` },
  { ring: "°", capital: true, before: "N", make: (tag) => `Comp. N° 0000${tag}` },
  { ring: "°", capital: true, before: "N", make: (tag) => `N° ${tag} pedido` },
  { ring: "°", capital: false, before: "5", make: (tag) => `Temperatura 25°C lote ${tag}` },
  { ring: "º", capital: true, before: "N", make: (tag) => `FACTURA Nº 2024-${tag}` },
  { ring: "º", capital: true, before: "N", make: (tag) => `CUIT Nº: 23-${tag}-9` },
  { ring: "º", capital: true, before: "N", make: (tag) => `Nº ${tag} cuenta` },
  { ring: "º", capital: false, before: "2", make: (tag) => `Calle Mayor 15, 2º izq. ${tag}` },
  { ring: "º", capital: false, before: "3", make: (tag) => `Piso 3º B puerta ${tag}` }
]

const conditions: ReadonlyArray<Condition> = [
  { name: "clean 200 DPI", dpi: 200, degrees: 0, noise: 0, jpeg: 0 },
  { name: "scanned 200 DPI", dpi: 200, degrees: 0.6, noise: 14, jpeg: 80 },
  { name: "noisy 150 DPI", dpi: 150, degrees: 1.5, noise: 32, jpeg: 60 },
  { name: "300 DPI", dpi: 300, degrees: 0.3, noise: 6, jpeg: 85 }
]

/** The top of the ink of one character drawn at 200 pixels, in pixels from the baseline up. */
const inkTop = (font: mupdf.Font, character: string): number | undefined => {
  const size = 200
  const pixmap = new mupdf.Pixmap(mupdf.ColorSpace.DeviceGray, [0, 0, 320, 320], false)
  pixmap.clear(255)
  const device = new mupdf.DrawDevice(mupdf.Matrix.identity, pixmap)
  const text = new mupdf.Text()
  text.showString(font, [size, 0, 0, -size, 60, 260], character)
  device.fillText(text, mupdf.Matrix.identity, mupdf.ColorSpace.DeviceGray, [0], 1)
  device.close()
  const pixels = pixmap.getPixels()
  const stride = pixmap.getStride()
  let top: number | undefined
  for (let y = 0; y < 320 && top === undefined; y++) {
    for (let x = 0; x < 320; x++) {
      if (pixels[y * stride + x]! < 128) {
        top = 260 - y
        break
      }
    }
  }
  pixmap.destroy()
  return top
}

/** How far each ring's top is below the face's cap height ("N"), as a fraction of it, drawn large and clean. */
const ringTops = (face: Face): { degree: number; ordinal: number } | undefined => {
  const [cap, degree, ordinal] = ["N", "°", "º"].map((c) => inkTop(face.font, c))
  if (cap === undefined || degree === undefined || ordinal === undefined) return undefined
  return { degree: (cap - degree) / cap, ordinal: (cap - ordinal) / cap }
}

/** How a line's ring was read: as printed, as the other ring, or neither (the line or its ring not read). */
type Outcome = "right" | "swapped" | "lost"

const outcome = (page: OcrPage, template: Template, tag: string): Outcome => {
  const lines = page.lines.map((l) => l.words.map((w) => w.text).join(" "))
  // The line's own digits, all of them (a tag alone can stand inside another line's digits).
  const digits = template.make(tag).replace(/\D/g, "")
  const line = lines.find((l) => l.replace(/\D/g, "").includes(digits))
  if (line === undefined) return "lost"
  const other = template.ring === "°" ? "º" : "°"
  if (line.includes(`${template.before}${template.ring}`)) return "right"
  return line.includes(`${template.before}${other}`) ? "swapped" : "lost"
}

/** Counts per ring printed: lines, read right without and with the rule, not read with it. */
interface Tally {
  count: number
  rightOff: number
  rightOn: number
  lost: number
}

const emptyTally = (): Tally => ({ count: 0, rightOff: 0, rightOn: 0, lost: 0 })

it.live(
  "degree sign and ordinal indicator across faces, with and without the ring rule",
  () =>
    Effect.scoped(
      Effect.gen(function* () {
        const training = loadFonts().map((f) => ({ name: f.name, font: f.font }))
        const extra = facesUnder(FONTS)
        const faces = [...training, ...extra].filter(complete)
        log(`Ring rule: ${faces.length} faces (${training.length} training faces, ${extra.length} from ${FONTS})`)
        // The glyphs themselves: where each face puts the two rings against its cap height.
        const tops = faces.flatMap((face) => {
          const t = ringTops(face)
          return t === undefined ? [] : [{ name: face.name, ...t }]
        })
        const lowest = tops.toSorted((a, b) => b.ordinal - a.ordinal).slice(0, 3)
        log(
          `Ordinal indicator's top below the cap height, lowest of ${tops.length} faces: ${lowest.map((t) => `${t.name} ${t.ordinal.toFixed(3)}`).join(", ")}`
        )
        const low = tops.filter((t) => t.degree >= 0.045)
        log(
          `Faces whose degree sign's top is ≥ 0.045 below the cap height: ${low.length} (${low.map((t) => `${t.name} ${t.degree.toFixed(3)}`).join(", ")})`
        )
        const engine = yield* makeEngine()
        // tallies[condition][ring][capital|digit]
        const tallies = conditions.map(() => ({
          "°": { capital: emptyTally(), digit: emptyTally() },
          º: { capital: emptyTally(), digit: emptyTally() }
        }))
        const wrongFlips = new Map<string, number>()
        const started = performance.now()
        for (const [f, face] of faces.entries()) {
          for (const [c, condition] of conditions.entries()) {
            const random = seeded(1000 * f + c)
            const lines: Array<{ template: Template; tag: string }> = []
            const runs: Array<SpanishPage["runs"][number]> = []
            let y = 60
            for (let repeat = 0; repeat < 2; repeat++) {
              for (const template of templates) {
                const tag = String(100_000 + Math.floor(random() * 900_000))
                const size = 8 + Math.floor(random() * 7)
                runs.push({ text: template.make(tag), x: 50 + random() * 40, y, size, font: face.font })
                lines.push({ template, tag })
                y += size * 2.2
              }
            }
            const page: SpanishPage = { kind: "invoice", width: 595, height: Math.max(842, y + 40), runs }
            const bytes = renderPage(page, condition, 1000 * f + c)
            const image = yield* Effect.scoped(
              Effect.flatMap(openDocument(bytes, defaultLimits), (opened) =>
                withPage(opened, 0, (p) => renderForOcr(p, opened.kind, defaultLimits))
              )
            )
            const pixels = { width: image.width, height: image.height, channels: 3 as const, data: image.data }
            const on = yield* recognizePage(engine, pixels)
            const off = yield* recognizePage(engine, pixels, { ringDrop: 0 })
            for (const { template, tag } of lines) {
              const t = tallies[c]![template.ring][template.capital ? "capital" : "digit"]
              const [a, b] = [outcome(off, template, tag), outcome(on, template, tag)]
              t.count++
              if (a === "right") t.rightOff++
              if (b === "right") t.rightOn++
              if (b === "lost") t.lost++
              if (a === "right" && b === "swapped") {
                const key = `${face.name} (${condition.name})`
                wrongFlips.set(key, (wrongFlips.get(key) ?? 0) + 1)
              }
            }
          }
        }
        const seconds = (performance.now() - started) / 1000
        log(`${faces.length * conditions.length} pages read twice in ${seconds.toFixed(0)} s`)
        log("")
        log(
          "| condition | ring after | degree signs read ° without → with the rule | ordinal indicators read º without → with | not read |"
        )
        log("| --- | --- | ---: | ---: | ---: |")
        const cell = (t: Tally, on: number) =>
          `${on} of ${t.count} (${((100 * on) / Math.max(1, t.count)).toFixed(1)} %)`
        const sum = (a: Tally, b: Tally): Tally => ({
          count: a.count + b.count,
          rightOff: a.rightOff + b.rightOff,
          rightOn: a.rightOn + b.rightOn,
          lost: a.lost + b.lost
        })
        const total = {
          "°": { capital: emptyTally(), digit: emptyTally() },
          º: { capital: emptyTally(), digit: emptyTally() }
        }
        const row = (label: string, kind: string, d: Tally, o: Tally) =>
          log(
            `| ${label} | ${kind} | ${cell(d, d.rightOff)} → ${cell(d, d.rightOn)} | ${cell(o, o.rightOff)} → ${cell(o, o.rightOn)} | ${d.lost + o.lost} |`
          )
        for (const [c, condition] of conditions.entries()) {
          for (const kind of ["capital", "digit"] as const) {
            const d = tallies[c]!["°"][kind]
            const o = tallies[c]!.º[kind]
            total["°"][kind] = sum(total["°"][kind], d)
            total.º[kind] = sum(total.º[kind], o)
            row(condition.name, kind, d, o)
          }
        }
        for (const kind of ["capital", "digit"] as const) row("all", kind, total["°"][kind], total.º[kind])
        log("")
        log(
          `Ordinal indicators read right without the rule and "°" with it: ${[...wrongFlips.values()].reduce((a, b) => a + b, 0)}`
        )
        for (const [key, n] of [...wrongFlips].sort((a, b) => b[1] - a[1])) log(`  ${key}: ${n}`)
      })
    ),
  3_600_000
)
