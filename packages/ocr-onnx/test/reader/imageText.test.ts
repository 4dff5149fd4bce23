/**
 * The text inside a text-layer page's images is read by OCR: a letterhead's logo drawn as a picture gives its words
 * (with the OCR's confidence, in the picture's place, its line before the text under it); live text drawn over a
 * picture is read once, from the text layer; `models.imageText: false` reads the text layer alone.
 */
import { describe, expect, layer } from "@effect/vitest"
import { type Document, Ports } from "@legible/core"
import { Effect, Logger, References } from "effect"
import { beforeAll } from "vitest"
import * as OnnxReader from "../../src/OnnxReader.js"
import { buildDist } from "../pool/build.js"
import { picturePdf, type SyntheticPage } from "../support/synthetic.js"
import { pageText } from "./support.js"

beforeAll(buildDist)

const logo: SyntheticPage = {
  width: 220,
  height: 40,
  runs: [{ text: "NORDWIND LOGISTIK", x: 8, y: 28, size: 20, bold: true }]
}

const letter: SyntheticPage = {
  width: 595,
  height: 842,
  runs: [
    { text: "Hafenstrasse 12, 20457 Hamburg", x: 40, y: 110, size: 10 },
    { text: "Rechnung Nr. 4711", x: 40, y: 160, size: 12, bold: true },
    { text: "Datum 12.03.2024", x: 40, y: 180, size: 10 },
    { text: "Summe 119,00 EUR", x: 40, y: 220, size: 10 }
  ]
}

// A band under live text: the picture prints "ENTWURF" beside where the text layer's "Rechnung" is drawn over it.
const band: SyntheticPage = {
  width: 400,
  height: 30,
  runs: [{ text: "ENTWURF", x: 260, y: 22, size: 16, bold: true }]
}

const read = (bytes: Uint8Array) => Effect.flatMap(Ports.DocumentReader, (reader) => reader.read(bytes))

const words = (document: Document.ReadDocument) => document.pages.flatMap((p) => p.lines.flatMap((l) => l.words))

describe("text in the images of a text-layer page", () => {
  layer(OnnxReader.layer({ poolSize: 1 }), { excludeTestServices: true })((it) => {
    it.effect("a logo drawn as a picture is read: its words in its place, its line first", () =>
      Effect.gen(function* () {
        const document = yield* read(picturePdf(letter, [{ picture: logo, x: 40, y: 40 }]))
        const page = document.pages[0]!
        expect(page.source).toBe("text")
        const text = pageText(page)
        expect(text.split("\n")[0]).toMatch(/^NORDWIND LOGISTIK$/)
        expect(text).toContain("Rechnung Nr. 4711\nDatum 12.03.2024")
        const nordwind = words(document).find((w) => w.word === "NORDWIND")!
        // From OCR: its confidence is the recognizer's; inside the picture's rectangle (40–260 × 40–80 points).
        expect(nordwind.confidence).toBeLessThanOrEqual(1)
        expect(nordwind.x0).toBeGreaterThanOrEqual(38)
        expect(nordwind.x1).toBeLessThanOrEqual(262)
        expect(nordwind.y0).toBeGreaterThanOrEqual(38)
        expect(nordwind.y1).toBeLessThanOrEqual(82)
        // Marked as read from a picture; the text layer's words are as before, with their full confidence.
        expect(nordwind.pictured).toBe(true)
        const number = words(document).find((w) => w.word === "4711")
        expect(number?.confidence).toBe(1)
        expect(number?.pictured).toBeUndefined()
      })
    )

    it.effect("the same logo on every page of a document is read on each (once by OCR: by its pixels)", () =>
      Effect.gen(function* () {
        const document = yield* read(picturePdf(letter, [{ picture: logo, x: 40, y: 40 }], 3))
        expect(document.pages.map((page) => pageText(page).split("\n")[0])).toEqual([
          "NORDWIND LOGISTIK",
          "NORDWIND LOGISTIK",
          "NORDWIND LOGISTIK"
        ])
        const boxes = document.pages.map((page) => page.lines[0]!.words.map((w) => [w.x0, w.y0, w.x1, w.y1]))
        expect(boxes[1]).toEqual(boxes[0])
        expect(boxes[2]).toEqual(boxes[0])
      })
    )

    it.effect("live text over a picture is read once, from the text layer; the picture's own text is read", () =>
      Effect.gen(function* () {
        // The band's top left at (40, 142): the live "Rechnung Nr. 4711" (baseline 160) lies over its left part.
        const document = yield* read(picturePdf(letter, [{ picture: band, x: 40, y: 142 }]))
        const all = words(document).map((w) => w.word)
        expect(all.filter((w) => /Rechnung/i.test(w))).toEqual(["Rechnung"])
        expect(all.filter((w) => w === "4711")).toEqual(["4711"])
        expect(all).toContain("ENTWURF")
      })
    )
  })

  // The OCR models cannot load: the pictures' text is left out with a log line, the text layer read whole.
  layer(OnnxReader.layer({ poolSize: 1, models: { recognition: "/nonexistent/rec.onnx" } }), {
    excludeTestServices: true
  })((it) => {
    it.effect("when the OCR models cannot load, the text layer reads and the pictures' text is one log line", () =>
      Effect.gen(function* () {
        const lines: Array<{ message: unknown; what: unknown }> = []
        const logger = Logger.layer([
          Logger.make(({ message, fiber }) => {
            lines.push({
              message: Array.isArray(message) ? message[0] : message,
              what: fiber.getRef(References.CurrentLogAnnotations).what
            })
          })
        ])
        const document = yield* read(picturePdf(letter, [{ picture: logo, x: 40, y: 40 }])).pipe(Effect.provide(logger))
        expect(pageText(document.pages[0]!)).toBe(
          "Hafenstrasse 12, 20457 Hamburg\nRechnung Nr. 4711\nDatum 12.03.2024\nSumme 119,00 EUR"
        )
        expect(lines.filter((l) => l.message === "image text not read")).toEqual([
          { message: "image text not read", what: "image text" }
        ])
      })
    )
  })

  layer(OnnxReader.layer({ poolSize: 1, models: { imageText: false } }), { excludeTestServices: true })((it) => {
    it.effect("with models.imageText false, the text layer alone", () =>
      Effect.gen(function* () {
        const document = yield* read(picturePdf(letter, [{ picture: logo, x: 40, y: 40 }]))
        expect(pageText(document.pages[0]!)).toBe(
          "Hafenstrasse 12, 20457 Hamburg\nRechnung Nr. 4711\nDatum 12.03.2024\nSumme 119,00 EUR"
        )
      })
    )
  })
})
