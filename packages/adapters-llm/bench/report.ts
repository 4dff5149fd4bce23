/**
 * The benchmark's tables: per set, per half (first: tuning; second: held out) and per field, precision (right /
 * filled) and recall (right / present) with their counts, a line with the ids of each half, and the misses when
 * asked (`BENCH_VERBOSE=1`: first half only; `all`: both).
 */
import type { Judged } from "./truth.js"

/** The half a document belongs to. */
export type Half = "first" | "second"

/** One document's judged fields. */
export interface Scored {
  readonly id: string
  readonly half: Half
  readonly fields: ReadonlyArray<readonly [string, Judged]>
}

/** Splits ids in two, in the given order: the first half has the extra one when the count is odd. */
export const halves = <A>(items: ReadonlyArray<A>): ReadonlyArray<readonly [A, Half]> => {
  const cut = Math.ceil(items.length / 2)
  return items.map((item, i) => [item, i < cut ? "first" : "second"] as const)
}

const ratio = (a: number, b: number) => (b === 0 ? "   – " : (a / b).toFixed(2).padStart(5))

const count = (a: number, b: number) => `(${a}/${b})`.padEnd(11)

/** The misses to print: `BENCH_VERBOSE=1` those of the first half, `all` both halves'. */
export const verboseHalves = (): ReadonlyArray<Half> =>
  process.env.BENCH_VERBOSE === "all" ? ["first", "second"] : process.env.BENCH_VERBOSE === "1" ? ["first"] : []

/** The halves whose figures are printed: both, or the first alone while tuning (`BENCH_HALF=first`). */
export const shownHalves = (): ReadonlyArray<Half> =>
  process.env.BENCH_HALF === "first" ? ["first"] : ["first", "second"]

/** The table of one set, as lines. */
export const table = (title: string, scored: ReadonlyArray<Scored>): ReadonlyArray<string> => {
  const out = [`\n${title}`]
  for (const half of ["first", "second"] as const) {
    const docs = scored.filter((s) => s.half === half)
    out.push(
      `  ${half === "first" ? "first half (tuning)" : "second half (held out)"}: ${docs.map((d) => d.id).join(" ")}`
    )
  }
  out.push(`  ${"field".padEnd(14)} ${"half".padEnd(7)} precision             recall`)
  const names = [...new Set(scored.flatMap((s) => s.fields.map(([name]) => name)))]
  for (const name of names)
    for (const half of shownHalves()) {
      const judged = scored.filter((s) => s.half === half).flatMap((s) => s.fields.filter(([n]) => n === name))
      const sum = (key: "filled" | "present" | "right" | "rightPresent") => judged.reduce((a, [, j]) => a + j[key], 0)
      out.push(
        `  ${name.padEnd(14)} ${half.padEnd(7)} ${ratio(sum("right"), sum("filled"))} ${count(sum("right"), sum("filled"))}` +
          `     ${ratio(sum("rightPresent"), sum("present"))} ${count(sum("rightPresent"), sum("present"))}`
      )
    }
  for (const half of verboseHalves())
    for (const s of scored.filter((d) => d.half === half))
      for (const [name, j] of s.fields)
        if (j.right < j.filled || j.rightPresent < j.present)
          out.push(`  miss [${half}] ${s.id} ${name}: got ${JSON.stringify(j.got)}, want ${JSON.stringify(j.want)}`)
  return out
}
