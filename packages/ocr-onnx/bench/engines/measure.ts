/**
 * What every engine process of the benchmarks does around its reads: `input.workers` pages at a time (each slot takes
 * the next page, so a page's time is its own, without queueing), then the process's CPU, wall time and peak RSS.
 */
import * as Fs from "node:fs"
import type { Ports } from "@legible/core"
import { Effect } from "effect"
import type { EngineInput, EngineOutput, EnginePage } from "./protocol.ts"

/** Reads every image of `input` with `read` (given the slot, 0 … workers − 1, that reads it) and measures the run. */
export const measure = async (
  input: EngineInput,
  engine: string,
  startupMs: number,
  read: (image: string, slot: number) => Promise<EnginePage>
): Promise<EngineOutput> => {
  const cpu = process.cpuUsage()
  const started = performance.now()
  const pages: Array<EnginePage> = []
  let next = 0
  await Promise.all(
    Array.from({ length: input.workers }, async (_, slot) => {
      while (next < input.images.length) {
        const index = next++
        pages[index] = await read(input.images[index]!, slot)
      }
    })
  )
  const wallMs = performance.now() - started
  const used = process.cpuUsage(cpu)
  return {
    engine,
    workers: input.workers,
    startupMs,
    wallMs,
    cpuMs: (used.user + used.system) / 1000,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
    pages
  }
}

/** One image read by our reader: its first page's words, boxes in points, or why it failed. */
export const readerPage = async (reader: Ports.DocumentReader["Service"], image: string): Promise<EnginePage> => {
  const bytes = Fs.readFileSync(image)
  const t0 = performance.now()
  const read = await Effect.runPromise(Effect.result(reader.read(bytes)))
  const ms = performance.now() - t0
  if (read._tag === "Failure") {
    return { image, width: 0, height: 0, unit: "point", words: [], ms, error: read.failure.message }
  }
  const page = read.success.pages[0]
  const words = (page?.lines ?? []).flatMap((line) =>
    line.words.map((w) => ({ text: w.word, x0: w.x0, y0: w.y0, x1: w.x1, y1: w.y1 }))
  )
  return { image, width: page?.width ?? 0, height: page?.height ?? 0, unit: "point", words, ms }
}
