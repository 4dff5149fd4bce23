import { readdirSync } from "node:fs"
import { assert, describe, it } from "@effect/vitest"
import type { Document } from "@legible/core"
import { Effect } from "effect"
import { defaultLimits } from "../../src/internal/mupdf/limits.js"
import { openDocument, withPage } from "../../src/internal/mupdf/open.js"
import { renderForOcr } from "../../src/internal/mupdf/render.js"
import { textLayer } from "../../src/internal/mupdf/textLayer.js"
import { dataDir, dataFile, hasData } from "./support.js"

type Outcome =
  | { readonly pages: number; readonly verdicts?: ReadonlyArray<string>; readonly text?: string }
  | { readonly error: Document.DocumentError["reason"] }

// What each file of ../shared/data/odd-pdfs gives (see its NOTES.md): a document (pages, each page's text layer
// verdict, the start of the text) or a typed error.
const expected: Record<string, Outcome> = {
  "ArabicCIDTrueType.pdf": { pages: 1, verdicts: ["text"], text: "انواع اخلطوط العربية" },
  "ContentStreamCycleType3insideType3.pdf": { pages: 1 }, // glyph procedures drawing each other: no hang
  "REDHAT-1531897-0.pdf": { error: "Corrupt" },
  "TrueType_without_cmap.pdf": { pages: 1, verdicts: ["garbage"] },
  "bug1020226.pdf": { error: "Corrupt" },
  "ccitt_EndOfBlock_false.pdf": { pages: 1, verdicts: ["empty"] },
  "empty.pdf": { pages: 1, verdicts: ["empty"] },
  "empty_protected.pdf": { pages: 1, verdicts: ["empty"] }, // empty user password: opens
  "encrypted-attachment.pdf": { pages: 1, verdicts: ["text"], text: "Example" }, // only the attachment is encrypted
  "gen_10000_pages.pdf": { error: "TooManyPages" },
  "gen_truncated_half_oyo.pdf": { error: "Corrupt" },
  "gen_zero_pages.pdf": { error: "NoPages" },
  "helloworld-bad.pdf": { pages: 1, verdicts: ["text"], text: "Hello, world!" }, // xref rebuilt
  "issue21436.pdf": { error: "Corrupt" }, // /Pages is a Page: mupdf finds no page tree
  "issue6010_1.pdf": { error: "Encrypted" },
  "issue7229.pdf": { pages: 2, verdicts: ["empty", "empty"] },
  "issue9105_other.pdf": { error: "Corrupt" },
  "issue9418.pdf": { error: "Corrupt" }, // pdf.js rebuilds the catalog; mupdf does not
  "jbig2_symbol_offset.pdf": { pages: 1, verdicts: ["empty"] },
  "poppler-67295-0.pdf": { error: "Corrupt" },
  "print_protection.pdf": { error: "Encrypted" },
  "rotation.pdf": { pages: 2, verdicts: ["text", "text"], text: "This is my first page with normal layout." },
  "saslprep-r6.pdf": { error: "Encrypted" },
  "simpletype3font.pdf": { pages: 1, verdicts: ["symbols"] },
  "vertical.pdf": { pages: 3, verdicts: ["text", "empty", "empty"] },
  "xref_command_missing.pdf": { pages: 1, verdicts: ["text"], text: "Reduced test-case" }
}

// Opens the file and, when it opens, reads every page's text layer and renders it for OCR (the work a worker does).
const outcome = (bytes: Uint8Array) =>
  Effect.scoped(
    Effect.gen(function* () {
      const doc = yield* openDocument(bytes, defaultLimits)
      const verdicts: Array<string> = []
      let text = ""
      for (let i = 0; i < doc.numPages; i++) {
        const layer = yield* withPage(doc, i, (page) => textLayer(page))
        verdicts.push(layer.verdict.reason)
        if (i === 0) text = layer.lines[0]?.words.map((w) => w.word).join(" ") ?? ""
        const image = yield* withPage(doc, i, (page) => renderForOcr(page, doc.kind, defaultLimits))
        assert.isAbove(image.data.length, 0)
      }
      return { pages: doc.numPages, verdicts, text } as Outcome
    })
  ).pipe(Effect.catch((error) => Effect.succeed({ error: error.reason } as Outcome)))

describe.skipIf(!hasData("odd-pdfs"))("every file of ../shared/data/odd-pdfs", () => {
  it.effect("gives a document or the expected typed error, each within its time limit", () =>
    Effect.gen(function* () {
      const files = readdirSync(`${dataDir}odd-pdfs`).filter((f) => f.endsWith(".pdf"))
      assert.sameMembers(files, Object.keys(expected))
      const times: Array<string> = []
      const started = performance.now()
      for (const file of files) {
        const bytes = dataFile(`odd-pdfs/${file}`)
        const t0 = performance.now()
        const got = yield* outcome(bytes)
        const ms = performance.now() - t0
        times.push(`${file} ${ms.toFixed(0)} ms`)
        const want = expected[file]!
        if ("error" in want) assert.deepStrictEqual(got, want, file)
        else {
          assert.isFalse("error" in got, `${file}: ${JSON.stringify(got)}`)
          if (!("error" in got)) {
            assert.deepStrictEqual(got.pages, want.pages, file)
            if (want.verdicts !== undefined) assert.deepStrictEqual(got.verdicts, want.verdicts, file)
            if (want.text !== undefined) assert.deepStrictEqual(got.text, want.text, file)
          }
        }
        // Opening, reading and rendering every page (two 200 DPI scans at most) stays well under a page's limit.
        assert.isBelow(ms, 3000, file)
      }
      console.log(
        `odd-pdfs, wall time per file (open + text layer + 200 DPI render of every page):\n  ${times.join("\n  ")}`
      )
      assert.isBelow(performance.now() - started, 15_000)
    })
  )

  it.effect("the 10,000-page PDF is refused as TooManyPages before any page loads", () =>
    Effect.gen(function* () {
      const bytes = dataFile("odd-pdfs/gen_10000_pages.pdf")
      const started = performance.now()
      const error = yield* Effect.flip(Effect.scoped(openDocument(bytes, defaultLimits)))
      assert.deepStrictEqual(error.reason, "TooManyPages")
      assert.match(error.message, /10000 pages/)
      assert.isBelow(performance.now() - started, 1000)
    })
  )
})
