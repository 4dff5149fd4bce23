/**
 * Fonts of the synthetic training lines: mupdf's built-in base-14 families (Nimbus Sans, Nimbus Roman, Nimbus Mono:
 * Helvetica, Times and Courier metrics, regular/bold/italic) and OFL-1.1 TrueType fonts from the
 * `@expo-google-fonts/*` devDependencies (sans, serif, condensed, monospace and the VT323 dot-matrix face for
 * receipt printers). Licences in `packages/ocr-onnx/models/README.md`.
 */
import * as Fs from "node:fs"
import { createRequire } from "node:module"
import * as Path from "node:path"
import * as mupdf from "mupdf"

const require = createRequire(import.meta.url)

/** A loaded font and a name for the logs. */
export interface TrainingFont {
  readonly name: string
  readonly font: mupdf.Font
  /** Monospace faces: used more often for receipt-like lines. */
  readonly mono: boolean
}

const builtin = [
  "Helvetica",
  "Helvetica-Bold",
  "Helvetica-Oblique",
  "Helvetica-BoldOblique",
  "Times-Roman",
  "Times-Bold",
  "Times-Italic",
  "Courier",
  "Courier-Bold",
  "Courier-Oblique"
] as const

const google: ReadonlyArray<readonly [string, string, boolean]> = [
  ["roboto", "400Regular/Roboto_400Regular.ttf", false],
  ["roboto", "700Bold/Roboto_700Bold.ttf", false],
  ["roboto", "300Light/Roboto_300Light.ttf", false],
  ["roboto", "400Regular_Italic/Roboto_400Regular_Italic.ttf", false],
  ["arimo", "400Regular/Arimo_400Regular.ttf", false],
  ["arimo", "700Bold/Arimo_700Bold.ttf", false],
  ["pt-sans-narrow", "400Regular/PTSansNarrow_400Regular.ttf", false],
  ["pt-sans-narrow", "700Bold/PTSansNarrow_700Bold.ttf", false],
  ["merriweather", "400Regular/Merriweather_400Regular.ttf", false],
  ["merriweather", "700Bold/Merriweather_700Bold.ttf", false],
  ["courier-prime", "400Regular/CourierPrime_400Regular.ttf", true],
  ["courier-prime", "700Bold/CourierPrime_700Bold.ttf", true],
  ["inconsolata", "400Regular/Inconsolata_400Regular.ttf", true],
  ["inconsolata", "700Bold/Inconsolata_700Bold.ttf", true],
  ["vt323", "400Regular/VT323_400Regular.ttf", true]
]

/** Every training font, loaded (built-in ones need no file). */
export const loadFonts = (): ReadonlyArray<TrainingFont> => [
  ...builtin.map((name) => ({ name, font: new mupdf.Font(name), mono: name.startsWith("Courier") })),
  ...google.map(([family, file, mono]) => {
    const dir = Path.dirname(require.resolve(`@expo-google-fonts/${family}/package.json`))
    const path = Path.join(dir, file)
    return { name: Path.basename(file, ".ttf"), font: new mupdf.Font(family, Fs.readFileSync(path)), mono }
  })
]

/** Whether the font has a glyph for every character of `text` (spaces aside). */
export const covers = (font: mupdf.Font, text: string): boolean => {
  for (const c of text) if (c !== " " && font.encodeCharacter(c.codePointAt(0)!) <= 0) return false
  return true
}
