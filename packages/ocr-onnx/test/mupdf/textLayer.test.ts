import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { textLayer } from "../../src/internal/mupdf/textLayer.js"
import { conditions, imagePdf, invoice, type SyntheticPage, type TruthPage, textPdf } from "../support/synthetic.js"
import { dataFile, hasData, onPage } from "./support.js"

const layerOf = (bytes: Uint8Array, index = 0) => onPage(bytes, index, (page) => textLayer(page))

// Same words, line by line, in the same order, each box within 0.5 pt of the truth.
const assertMatches = (actual: Effect.Success<ReturnType<typeof layerOf>>, truth: TruthPage) => {
  assert.closeTo(actual.width, truth.width, 0.01)
  assert.closeTo(actual.height, truth.height, 0.01)
  assert.deepStrictEqual(
    actual.lines.map((l) => l.words.map((w) => w.word)),
    truth.lines.map((l) => l.map((w) => w.word))
  )
  for (const [i, line] of truth.lines.entries()) {
    for (const [j, expected] of line.entries()) {
      const word = actual.lines[i]!.words[j]!
      for (const key of ["x0", "y0", "x1", "y1"] as const) {
        assert.closeTo(word[key], expected[key], 0.5, `${word.word}.${key}`)
      }
    }
  }
}

describe("text layer", () => {
  it.effect("the synthetic invoice: exact words, boxes within 0.5 pt, rows in reading order", () =>
    Effect.gen(function* () {
      const { bytes, truth } = textPdf([invoice, conditions])
      const first = yield* layerOf(bytes, 0)
      assertMatches(first, truth[0]!)
      assert.deepStrictEqual(first.verdict.usable, true)
      // Table rows come out as one line each, cells left to right.
      assert.include(
        first.lines.map((l) => l.words.map((w) => w.word).join(" ")),
        "Piñones de latón 50 0,20 € 10,00 €"
      )
      assertMatches(yield* layerOf(bytes, 1), truth[1]!)
    })
  )

  for (const rotate of [90, 180, 270] as const) {
    it.effect(`a page with /Rotate ${rotate}: boxes on the rotated page, same reading order`, () =>
      Effect.gen(function* () {
        const { bytes, truth } = textPdf([invoice], { rotate })
        const layer = yield* layerOf(bytes)
        assertMatches(layer, truth[0]!)
        if (rotate !== 180) assert.deepStrictEqual([layer.width, layer.height], [842, 595])
      })
    )
  }

  it.effect("two columns of running text stay whole: the left column, then the right one", () =>
    Effect.gen(function* () {
      const left = ["El contrato entra en vigor", "en la fecha de su firma y", "dura un año natural."]
      const right = ["Los pagos se realizarán", "por transferencia en un", "plazo de treinta días."]
      const page: SyntheticPage = {
        width: 595,
        height: 842,
        runs: [
          { text: "CONDICIONES", x: 56, y: 60, size: 14, bold: true },
          ...left.map((text, i) => ({ text, x: 56, y: 100 + i * 13, size: 10 })),
          ...right.map((text, i) => ({ text, x: 310, y: 100 + i * 13, size: 10 }))
        ]
      }
      const layer = yield* layerOf(textPdf([page]).bytes)
      assert.deepStrictEqual(
        layer.lines.map((l) => l.words.map((w) => w.word).join(" ")),
        ["CONDICIONES", ...left, ...right]
      )
    })
  )

  it.effect("verdicts: text usable; image-only empty; a scan with a small stamp or with a full invisible layer", () =>
    Effect.gen(function* () {
      assert.deepStrictEqual((yield* layerOf(textPdf([invoice]).bytes)).verdict.reason, "text")
      assert.deepStrictEqual((yield* layerOf(imagePdf([invoice]))).verdict.reason, "empty")
      const stamp = [{ text: "Escaneado 12/03/2024", x: 400, y: 30, size: 8 }]
      const stamped = yield* layerOf(imagePdf([invoice], { stamp }))
      assert.deepStrictEqual(stamped.verdict.reason, "scanned")
      assert.deepStrictEqual(stamped.verdict.usable, false)
      assert.deepStrictEqual(
        stamped.lines.map((l) => l.words.map((w) => w.word)),
        [["Escaneado", "12/03/2024"]]
      )
      const searchable = yield* layerOf(imagePdf([invoice], { invisibleText: true }))
      assert.deepStrictEqual(searchable.verdict.usable, true)
      assert.deepStrictEqual(searchable.lines.length, 19)
    })
  )

  describe.skipIf(!hasData("odd-pdfs"))("verdicts on real files (../shared/data/odd-pdfs)", () => {
    it.effect("a scanned form without text (issue7229.pdf) is OCRed", () =>
      Effect.gen(function* () {
        for (const index of [0, 1]) {
          const layer = yield* layerOf(dataFile("odd-pdfs/issue7229.pdf"), index)
          assert.deepStrictEqual(layer.verdict.usable, false)
          assert.deepStrictEqual(layer.verdict.reason, "empty")
        }
      })
    )

    it.effect("a TrueType font without cmap or ToUnicode (TrueType_without_cmap.pdf) is garbage", () =>
      Effect.gen(function* () {
        const layer = yield* layerOf(dataFile("odd-pdfs/TrueType_without_cmap.pdf"))
        assert.deepStrictEqual(layer.verdict.reason, "garbage")
        assert.deepStrictEqual(layer.verdict.usable, false)
      })
    )

    it.effect("a Type3 font drawing shapes (simpletype3font.pdf) has no letters: OCRed", () =>
      Effect.gen(function* () {
        const layer = yield* layerOf(dataFile("odd-pdfs/simpletype3font.pdf"))
        assert.deepStrictEqual(layer.verdict.reason, "symbols")
      })
    )

    it.effect("rotation.pdf: the landscape page reads in its displayed size and order", () =>
      Effect.gen(function* () {
        const layer = yield* layerOf(dataFile("odd-pdfs/rotation.pdf"), 1)
        assert.deepStrictEqual([layer.width, layer.height], [792, 612])
        assert.deepStrictEqual(
          layer.lines[0]!.words.slice(0, 3).map((w) => w.word),
          ["This", "is", "my"]
        )
        for (const word of layer.lines.flatMap((l) => l.words)) {
          assert.isTrue(word.x0 >= 0 && word.x1 <= 792 && word.y0 >= 0 && word.y1 <= 612, word.word)
          assert.isTrue(word.x1 - word.x0 > word.y1 - word.y0 || word.word.length < 3, `${word.word} is horizontal`)
        }
      })
    )
  })
})
