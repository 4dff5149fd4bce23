/**
 * The pipeline's wiring with fake sessions (no onnxruntime): detection boxes in page pixels, the classifier's
 * flips, recognition per line, words with boxes, reading order, per-call options and the errors.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { defaultOcrConfig } from "../../src/internal/ocr/config.js"
import { parseDictionary } from "../../src/internal/ocr/ctc.js"
import {
  type EngineWordLists,
  type InferenceSession,
  type OcrEngine,
  OcrError,
  type Tensor
} from "../../src/internal/ocr/engine.js"
import type { PageImage } from "../../src/internal/ocr/image.js"
import {
  type DiacriticFamilies,
  diacriticFamilies,
  type Lexicon,
  type LexiconLanguage
} from "../../src/internal/ocr/lexicon.js"
import { type OcrPage, recognizePage } from "../../src/internal/ocr/pipeline.js"

const labels = parseDictionary("a\nb\nc")

const session = (run: (input: Tensor) => Tensor, calls: Array<ReadonlyArray<number>> = []): InferenceSession => ({
  inputNames: ["x"],
  outputNames: ["y"],
  run: (feeds) =>
    Effect.sync(() => {
      const input = feeds.x!
      calls.push(input.dims)
      return { y: run(input) }
    })
})

// A 400×200 page is detected at 192×96: two text kernels, the lower one drawn first so order must be sorted out.
const det = session((input) => {
  const [, , h, w] = input.dims as [number, number, number, number]
  const data = new Float32Array(h * w)
  for (const [x0, x1, y0, y1] of [
    [20, 140, 64, 72],
    [20, 100, 20, 28]
  ]) {
    for (let y = y0!; y < y1!; y++) data.fill(0.95, y * w + x0!, y * w + x1!)
  }
  return { data, dims: [1, 1, h, w] }
})

// Every line reads "ab c": a at timestep 1, b at 3, a space at 5, c at 7, with probability `p`, one timestep per
// `stride` columns.
const rec = (p = 0.9, classes = labels.length, calls?: Array<ReadonlyArray<number>>, stride = 8) =>
  session((input) => {
    const t = Math.floor(input.dims[3]! / stride)
    const data = new Float32Array(t * classes)
    const script: Record<number, number> = { 1: 1, 3: 2, 5: labels.length - 1, 7: 3 }
    for (let k = 0; k < t; k++) data[k * classes + (script[k] ?? 0)] = p
    return { data, dims: [1, t, classes] }
  }, calls)

const cls = (p180: number, calls?: Array<ReadonlyArray<number>>) =>
  session((input) => {
    const n = input.dims[0]!
    const data = new Float32Array(2 * n)
    for (let k = 0; k < n; k++) data.set([1 - p180, p180], 2 * k)
    return { data, dims: [n, 2] }
  }, calls)

const page: PageImage = { width: 400, height: 200, channels: 3, data: new Uint8Array(400 * 200 * 3).fill(255) }

/** Word lists of `languages` that all hold `words`, recording each language whose list is loaded. */
const fakeLists = (
  languages: ReadonlyArray<LexiconLanguage>,
  words: ReadonlySet<string>,
  families: DiacriticFamilies
): EngineWordLists & { readonly loads: Array<LexiconLanguage> } => {
  const loads: Array<LexiconLanguage> = []
  const list: Lexicon = { has: (w) => words.has(w) }
  return {
    languages,
    families,
    loads,
    lists: {
      lists: (asked) =>
        Effect.sync(() => {
          for (const l of asked) if (!loads.includes(l)) loads.push(l)
          return new Map(asked.map((l) => [l, list]))
        }),
      loaded: () => loads
    }
  }
}

const engine = (over: Partial<OcrEngine> = {}): OcrEngine => ({
  det,
  cls: cls(0.1),
  rec: rec(),
  labels,
  config: defaultOcrConfig,
  precision: "float32",
  families: diacriticFamilies(labels),
  ...over
})

describe("recognizePage with fake sessions", () => {
  it.effect("finds both lines in page pixels, in reading order, with their words", () =>
    Effect.gen(function* () {
      const result = yield* recognizePage(engine(), page)
      expect(result.lines.map((l) => l.words.map((w) => w.text).join(" "))).toEqual(["ab c", "ab c"])
      expect(result.rotation).toBe(0)
      const [top, bottom] = result.lines
      // Kernel rows 20..28 and 64..72 of 96, unclipped, at 200/96 page pixels per detection pixel.
      expect(top!.words[0]!.y0).toBeLessThan(48)
      expect(top!.words[0]!.y1).toBeGreaterThan(60)
      expect(bottom!.words[0]!.y0).toBeGreaterThan(110)
      for (const line of result.lines) {
        expect(line.angle).toBeCloseTo(0, 5)
        const [ab, c] = line.words
        expect(ab!.x1).toBeLessThanOrEqual(c!.x0)
        expect(ab!.confidence).toBeCloseTo(0.9, 5)
      }
    })
  )

  it.effect(
    "measures the recognizer's stride from its output (a CRNN-style model emits a timestep per 4 columns)",
    () =>
      Effect.gen(function* () {
        const result = yield* recognizePage(engine({ rec: rec(0.9, labels.length, [], 4) }), page)
        const [ab, c] = result.lines[0]!.words
        expect(result.lines.map((l) => l.words.map((w) => w.text).join(" "))).toEqual(["ab c", "ab c"])
        // At stride 4, "ab" spans timesteps 1–3, i.e. crop columns 4–16: half as far along the line as at stride 8.
        const eight = (yield* recognizePage(engine(), page)).lines[0]!.words
        expect(ab!.x1 - ab!.x0).toBeLessThan(eight[0]!.x1 - eight[0]!.x0)
        expect(c!.x0).toBeLessThan(eight[1]!.x0)
      })
  )

  it.effect("turns every line round when the classifier says 180° with enough confidence", () =>
    Effect.gen(function* () {
      const flipped = yield* recognizePage(engine({ cls: cls(0.95) }), page)
      expect(flipped.rotation).toBe(180)
      expect(flipped.lines.map((l) => Math.abs(l.angle))).toEqual([180, 180])
      // Read upside down, the lower line comes first and each word runs right to left on the page.
      const [first] = flipped.lines
      expect(first!.words[0]!.y0).toBeGreaterThan(110)
      expect(first!.words[0]!.x0).toBeGreaterThan(first!.words[1]!.x1 - 1)
      const unsure = yield* recognizePage(engine({ cls: cls(0.85) }), page)
      expect(unsure.rotation).toBe(0)
    })
  )

  it.effect("reads a line the classifier turned both ways and keeps the reading the recognizer is surer of", () =>
    Effect.gen(function* () {
      // Ink on the left of both lines: a crop read the right way up is darker on its left (the recognizer's input
      // is normalised to [-1, 1], ink negative); this recognizer is sure of itself only on such crops.
      const data = new Uint8Array(400 * 200 * 3).fill(255)
      for (let y = 30; y < 160; y++) data.fill(0, (y * 400 + 40) * 3, (y * 400 + 120) * 3)
      const inkLeft: PageImage = { ...page, data }
      const calls: Array<ReadonlyArray<number>> = []
      const sure = (input: Tensor) => {
        const [, , h, w] = input.dims as [number, number, number, number]
        let left = 0
        let right = 0
        for (let y = 0; y < h; y++) {
          for (let x = 0; x < w / 4; x++) {
            left += input.data[y * w + x]!
            right += input.data[y * w + w - 1 - x]!
          }
        }
        return left < right ? 0.95 : 0.6
      }
      const recognizer = session((input) => rec(sure(input)).run({ x: input }).pipe(Effect.runSync).y!, calls)
      const result = yield* recognizePage(engine({ cls: cls(0.95), rec: recognizer }), inkLeft)
      // The classifier said 180° for both lines; reading them both ways overrules it.
      expect(result.rotation).toBe(0)
      expect(result.lines.map((l) => l.angle)).toEqual([0, 0])
      expect(result.lines.map((l) => l.words.map((w) => w.text).join(" "))).toEqual(["ab c", "ab c"])
      expect(result.lines[0]!.words[0]!.confidence).toBeCloseTo(0.95, 5)
      expect(calls).toHaveLength(4)
      // Lines the classifier leaves upright are read once.
      calls.length = 0
      yield* recognizePage(engine({ cls: cls(0.1), rec: recognizer }), inkLeft)
      expect(calls).toHaveLength(2)
    })
  )

  it.effect("takes per-call options without touching the engine's configuration", () =>
    Effect.gen(function* () {
      const calls: Array<ReadonlyArray<number>> = []
      const e = engine({ cls: cls(0.95, calls) })
      const result = yield* recognizePage(e, page, { useClassifier: false })
      expect(calls).toEqual([])
      expect(result.rotation).toBe(0)
      expect(e.config).toBe(defaultOcrConfig)
      yield* recognizePage(e, page)
      expect(calls).toEqual([[2, 3, 48, 192]])
    })
  )

  it.effect("loads a word list on the first page that needs it, none for a page without lines or unchecked", () =>
    Effect.gen(function* () {
      const blank = session((input) => {
        const [, , h, w] = input.dims as [number, number, number, number]
        return { data: new Float32Array(h * w), dims: [1, 1, h, w] }
      })
      const lists = fakeLists(["es", "en", "fr", "de"], new Set(), diacriticFamilies(labels))
      const checked = engine({ lexicon: lists })
      expect((yield* recognizePage({ ...checked, det: blank }, page)).lines).toEqual([])
      yield* recognizePage(checked, page, { lexiconWeight: 0 })
      expect(lists.loads).toEqual([])
      // "ab c" tells no language: the page is checked against the fallback, Spanish and English, and only those load.
      yield* recognizePage(checked, page)
      expect(lists.loads).toEqual(["es", "en"])
    })
  )

  it.effect("checks the recognizer's marks against the engine's lexicon, keeping the words' boxes", () =>
    Effect.gen(function* () {
      // Every line reads "áb c" with "a" a close second to "á"; the lexicon knows "ab" only.
      const marked = parseDictionary("a\ná\nb\nc")
      const classes = marked.length
      const recMarked = session((input) => {
        const t = Math.floor(input.dims[3]! / 8)
        const data = new Float32Array(t * classes)
        const script: Record<number, number> = { 1: 2, 3: 3, 5: classes - 1, 7: 4 }
        for (let k = 0; k < t; k++) data[k * classes + (script[k] ?? 0)] = 0.9
        data[1 * classes + 1] = 0.3
        return { data, dims: [1, t, classes] }
      })
      const base = engine({ rec: recMarked, labels: marked })
      const checked = { ...base, lexicon: fakeLists(["es"], new Set(["ab", "c"]), diacriticFamilies(marked)) }
      const text = (p: OcrPage) => p.lines.map((l) => l.words.map((w) => w.text).join(" "))
      const before = yield* recognizePage(base, page)
      const after = yield* recognizePage(checked, page)
      expect(text(before)).toEqual(["áb c", "áb c"])
      expect(text(after)).toEqual(["ab c", "ab c"])
      expect(after.lines.map((l) => l.words.map(({ x0, y0, x1, y1 }) => [x0, y0, x1, y1]))).toEqual(
        before.lines.map((l) => l.words.map(({ x0, y0, x1, y1 }) => [x0, y0, x1, y1]))
      )
      expect(text(yield* recognizePage(checked, page, { lexiconWeight: 0, lexiconAddWeight: 0 }))).toEqual([
        "áb c",
        "áb c"
      ])
    })
  )

  it.effect("classifies a sample of the largest lines first, and the others only when one reads upside down", () =>
    Effect.gen(function* () {
      // A 400×800 page detected at 192×384 with twelve lines of different lengths.
      const tall: PageImage = { ...page, height: 800, data: new Uint8Array(400 * 800 * 3).fill(255) }
      const twelve = session((input) => {
        const [, , h, w] = input.dims as [number, number, number, number]
        const data = new Float32Array(h * w)
        for (let k = 0; k < 12; k++) {
          const y0 = 8 + 30 * k
          for (let y = y0; y < y0 + 8; y++) data.fill(0.95, y * w + 20, y * w + 60 + 8 * k)
        }
        return { data, dims: [1, 1, h, w] }
      })
      const upright: Array<ReadonlyArray<number>> = []
      const read = yield* recognizePage(engine({ det: twelve, cls: cls(0.1, upright) }), tall)
      expect(read.lines).toHaveLength(12)
      expect(read.rotation).toBe(0)
      expect(upright).toEqual([[8, 3, 48, 192]])
      const flipped: Array<ReadonlyArray<number>> = []
      const turned = yield* recognizePage(engine({ det: twelve, cls: cls(0.95, flipped) }), tall)
      expect(flipped).toEqual([
        [8, 3, 48, 192],
        [4, 3, 48, 192]
      ])
      expect(turned.rotation).toBe(180)
      expect(turned.lines.map((l) => Math.abs(l.angle))).toEqual(Array(12).fill(180))
      const all: Array<ReadonlyArray<number>> = []
      yield* recognizePage(engine({ det: twelve, cls: cls(0.1, all) }), tall, { clsSample: 0 })
      expect(all).toEqual([
        [8, 3, 48, 192],
        [4, 3, 48, 192]
      ])
    })
  )

  it.effect("skips boxes too long for their height to be text (rules, borders)", () =>
    Effect.gen(function* () {
      const calls: Array<ReadonlyArray<number>> = []
      const result = yield* recognizePage(engine({ rec: rec(0.9, labels.length, calls) }), page, { recMaxAspect: 6 })
      // The upper kernel is 80 × 8 detection pixels (about 5:1 unclipped), the lower one 120 × 8 (about 7:1).
      expect(result.lines).toHaveLength(1)
      expect(calls).toHaveLength(1)
    })
  )

  it.effect("accepts a recognizer without a space class (trained without use_space_char)", () =>
    Effect.gen(function* () {
      const noSpace = session((input) => {
        const classes = labels.length - 1
        const t = Math.floor(input.dims[3]! / 8)
        const data = new Float32Array(t * classes)
        const script: Record<number, number> = { 1: 1, 3: 2, 7: 3 }
        for (let k = 0; k < t; k++) data[k * classes + (script[k] ?? 0)] = 0.9
        return { data, dims: [1, t, classes] }
      })
      const result = yield* recognizePage(engine({ rec: noSpace }), page)
      expect(result.lines.map((l) => l.words.map((w) => w.text).join(" "))).toEqual(["abc", "abc"])
    })
  )

  it.effect("drops lines read with too little confidence", () =>
    Effect.gen(function* () {
      const result = yield* recognizePage(engine({ rec: rec(0.4) }), page)
      expect(result.lines).toEqual([])
    })
  )

  it.effect("reads a lone glyph again from wider and taller crops when its tight crop reads too unsure", () =>
    Effect.gen(function* () {
      // One 8 × 8 kernel: a box about as long as high (a lone "1" in a quantity column).
      const glyph = session((input) => {
        const [, , h, w] = input.dims as [number, number, number, number]
        const data = new Float32Array(h * w)
        for (let y = 40; y < 48; y++) data.fill(0.95, y * w + 60, y * w + 68)
        return { data, dims: [1, 1, h, w] }
      })
      // "a" in the middle timestep: unsure in the tight crop (48 columns), sure in any wider one.
      const calls: Array<ReadonlyArray<number>> = []
      const unsure = session((input) => {
        const t = Math.floor(input.dims[3]! / 8)
        const data = new Float32Array(t * labels.length)
        for (let k = 0; k < t; k++) data[k * labels.length] = 0.5
        data[Math.floor(t / 2) * labels.length + 1] = input.dims[3]! > 48 ? 0.9 : 0.4
        return { data, dims: [1, t, labels.length] }
      }, calls)
      const result = yield* recognizePage(engine({ det: glyph, rec: unsure }), page)
      expect(result.lines.map((l) => l.words.map((w) => w.text))).toEqual([["a"]])
      expect(result.lines[0]!.words[0]!.confidence).toBeCloseTo(0.9)
      expect(calls.map((dims) => dims[3])).toEqual([48, 96, 96])
      // The word stays where the glyph is, read from a wider crop: around detection column 64 of 192.
      const word = result.lines[0]!.words[0]!
      expect((word.x0 + word.x1) / 2).toBeCloseTo((64 * 400) / 192, -1)
      const off = yield* recognizePage(engine({ det: glyph, rec: unsure }), page, { glyphMaxAspect: 0 })
      expect(off.lines).toEqual([])
      // What the wider crops read must be letters or digits: here an ordinal indicator (a tick), so nothing.
      const brackets = parseDictionary("a\nº")
      const bracket = session((input) => {
        const t = Math.floor(input.dims[3]! / 8)
        const data = new Float32Array(t * brackets.length)
        for (let k = 0; k < t; k++) data[k * brackets.length] = 0.5
        data[Math.floor(t / 2) * brackets.length + (input.dims[3]! > 48 ? 2 : 1)] = input.dims[3]! > 48 ? 0.9 : 0.4
        return { data, dims: [1, t, brackets.length] }
      })
      const noise = yield* recognizePage(engine({ det: glyph, rec: bracket, labels: brackets }), page)
      expect(noise.lines).toEqual([])
    })
  )

  it.effect("reads a long line that reads too unsure only once", () =>
    Effect.gen(function* () {
      const calls: Array<ReadonlyArray<number>> = []
      const result = yield* recognizePage(engine({ rec: rec(0.4, labels.length, calls) }), page)
      expect(result.lines).toEqual([])
      expect(calls).toHaveLength(2)
    })
  )

  it.effect("fails with OcrError on a dictionary that does not match the recognizer", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(recognizePage(engine({ rec: rec(0.9, labels.length + 1) }), page))
      expect(error).toBeInstanceOf(OcrError)
      expect(error.message).toMatch(/6 classes but the dictionary gives 5/)
      const fewer = yield* Effect.flip(recognizePage(engine({ rec: rec(0.9, labels.length - 2) }), page))
      expect(fewer.message).toMatch(/3 classes but the dictionary gives 5/)
    })
  )

  it.effect("fails with OcrError on an image whose buffer is too short, and passes session failures on", () =>
    Effect.gen(function* () {
      const short = yield* Effect.flip(recognizePage(engine(), { ...page, data: new Uint8Array(10) }))
      expect(short.message).toMatch(/buffer holds 10 bytes/)
      const broken: InferenceSession = {
        ...det,
        run: () => Effect.fail(new OcrError({ message: "inference failed on det.onnx: boom" }))
      }
      const failed = yield* Effect.flip(recognizePage(engine({ det: broken }), page))
      expect(failed.message).toBe("inference failed on det.onnx: boom")
    })
  )

  it.effect("returns no lines for a blank page", () =>
    Effect.gen(function* () {
      const blank = session((input) => ({
        data: new Float32Array(input.dims[2]! * input.dims[3]!),
        dims: [1, 1, input.dims[2]!, input.dims[3]!]
      }))
      const result = yield* recognizePage(engine({ det: blank }), page)
      expect(result).toMatchObject({ lines: [], skewDeg: 0, rotation: 0 })
    })
  )
})
