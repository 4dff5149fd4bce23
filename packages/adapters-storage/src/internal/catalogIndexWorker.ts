/**
 * The worker-thread entry of in-process catalog indexes (run by Node from `dist/internal/catalogIndexWorker.js`, one
 * thread per build): receives a catalog column's rows page by page, builds the compact trigram index and transfers
 * its typed arrays back, so a large build (seconds at a million records, `MEASUREMENTS.md`) never holds the event loop
 * of the process that searches.
 */
import { parentPort } from "node:worker_threads"
import { TrigramIndexBuilder, type TrigramIndexParts } from "./trigramIndex.js"

/**
 * A page of rows: `ids` is the records' UUIDs concatenated (36 characters each), `keys` their normalized keys joined
 * by `\n` (keys hold only `a-z`, `0-9` and spaces). Two strings per page, so posting a page copies two buffers.
 */
export interface RowsMessage {
  readonly _tag: "Rows"
  readonly ids: string
  readonly keys: string
}

/** What the worker is sent: pages of rows, then `Build` once. */
export type ToWorker = RowsMessage | { readonly _tag: "Build" }

/** What the worker answers to `Build`: the index's parts (their buffers transferred), or why it failed. */
export type FromWorker =
  | { readonly _tag: "Built"; readonly parts: TrigramIndexParts }
  | { readonly _tag: "Failed"; readonly message: string }

/** Length of a UUID in text. */
export const UUID_LENGTH = 36

/** Adds a page of rows to the builder; fails if its ids and keys do not pair up. */
export const addPage = (builder: TrigramIndexBuilder, page: RowsMessage): void => {
  const keys = page.keys.split("\n")
  if (page.ids.length !== keys.length * UUID_LENGTH) {
    throw new Error(`a page of ${keys.length} keys came with ${page.ids.length / UUID_LENGTH} ids`)
  }
  for (let i = 0; i < keys.length; i++) {
    builder.add(page.ids.slice(i * UUID_LENGTH, (i + 1) * UUID_LENGTH), keys[i] ?? "")
  }
}

const port = parentPort
if (port !== null) {
  const builder = new TrigramIndexBuilder()
  let failed: string | undefined
  port.on("message", (message: ToWorker) => {
    if (message._tag === "Rows") {
      if (failed !== undefined) return
      try {
        addPage(builder, message)
      } catch (error) {
        failed = String(error)
      }
      return
    }
    let answer: FromWorker
    let transfer: Array<ArrayBuffer> = []
    try {
      if (failed !== undefined) throw new Error(failed)
      const parts = builder.parts()
      answer = { _tag: "Built", parts }
      transfer = [parts.ids, parts.offsets, parts.postings, parts.counts].map((array) => array.buffer as ArrayBuffer)
    } catch (error) {
      answer = { _tag: "Failed", message: String(error) }
    }
    port.postMessage(answer, transfer)
  })
}
