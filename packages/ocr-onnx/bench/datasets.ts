/**
 * The benchmark's pages and their ground truth, read from `../shared/data` by path (never copied): FUNSD forms
 * (word boxes) and SROIE receipts (line quads). A fixed subset: the first `count` files in name order.
 */
import * as Fs from "node:fs"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import { Schema } from "effect"
import type { Boxed } from "./metrics.js"

/** Where the shared data lives: `LEGIBLE_DATA`, or `<repo>/../shared/data`. */
export const dataRoot = Path.resolve(
  process.env.LEGIBLE_DATA ?? fileURLToPath(new URL("../../../../shared/data/", import.meta.url))
)

/** One benchmark page: its image file and reference boxes in its pixels. */
export interface Sample {
  readonly dataset: "FUNSD" | "SROIE"
  readonly id: string
  readonly image: string
  /** Reference words (FUNSD) or lines (SROIE). */
  readonly truth: ReadonlyArray<Boxed>
}

const Box = Schema.Tuple([Schema.Finite, Schema.Finite, Schema.Finite, Schema.Finite])
const FunsdAnnotation = Schema.Struct({
  form: Schema.Array(Schema.Struct({ words: Schema.Array(Schema.Struct({ text: Schema.String, box: Box })) }))
})
const decodeFunsd = Schema.decodeUnknownSync(Schema.fromJsonString(FunsdAnnotation))

/** The first `count` FUNSD forms with their reference words. */
export const funsd = (count: number, from = 0): ReadonlyArray<Sample> => {
  const dir = Path.join(dataRoot, "funsd")
  return Fs.readdirSync(Path.join(dir, "annotations"))
    .filter((name) => name.endsWith(".json"))
    .sort()
    .slice(from, from + count)
    .map((name) => {
      const id = name.slice(0, -".json".length)
      const annotation = decodeFunsd(Fs.readFileSync(Path.join(dir, "annotations", name), "utf8"))
      const truth = annotation.form.flatMap((entity) =>
        entity.words.map(({ text, box: [x0, y0, x1, y1] }) => ({ text, x0, y0, x1, y1 }))
      )
      return { dataset: "FUNSD", id, image: Path.join(dir, "images", `${id}.png`), truth }
    })
}

/** `x1,y1,…,x4,y4,transcript`: split on the first 8 commas only (the transcript may hold commas). */
const sroieLine = (line: string): Boxed | undefined => {
  const parts = line.split(",")
  if (parts.length < 9) return undefined
  const xs = [0, 2, 4, 6].map((i) => Number(parts[i]))
  const ys = [1, 3, 5, 7].map((i) => Number(parts[i]))
  return {
    text: parts.slice(8).join(","),
    x0: Math.min(...xs),
    y0: Math.min(...ys),
    x1: Math.max(...xs),
    y1: Math.max(...ys)
  }
}

/** The first `count` SROIE receipts with their reference lines. */
export const sroie = (count: number, from = 0): ReadonlyArray<Sample> => {
  const dir = Path.join(dataRoot, "sroie")
  return Fs.readdirSync(Path.join(dir, "box"))
    .filter((name) => name.endsWith(".txt"))
    .sort()
    .slice(from, from + count)
    .map((name) => {
      const id = name.slice(0, -".txt".length)
      const truth = Fs.readFileSync(Path.join(dir, "box", name), "utf8")
        .split(/\r?\n/)
        .flatMap((line) => sroieLine(line) ?? [])
      return { dataset: "SROIE", id, image: Path.join(dir, "img", `${id}.jpg`), truth }
    })
}
