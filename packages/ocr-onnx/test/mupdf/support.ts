/** Shared helpers of the mupdf tests: the real-document folder, and running a function on one page of a document. */

import { existsSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import type { Document } from "@legible/core"
import { Effect } from "effect"
import type * as mupdf from "mupdf"
import { defaultLimits, type Limits } from "../../src/internal/mupdf/limits.js"
import { type OpenedDocument, openDocument, withPage } from "../../src/internal/mupdf/open.js"

/** `../shared/data` from the project root (documents with ground truth; never copied into the repository). */
export const dataDir = fileURLToPath(new URL("../../../../../shared/data/", import.meta.url))

/** Whether a folder of `dataDir` is here; when it is not, says so once (the suites that need it skip). */
export const hasData = (folder: string): boolean => {
  const present = existsSync(`${dataDir}${folder}`)
  if (!present) console.warn(`skipping tests on ${dataDir}${folder}: the folder is absent`)
  return present
}

/** The bytes of a file of `dataDir`. */
export const dataFile = (path: string): Uint8Array => new Uint8Array(readFileSync(`${dataDir}${path}`))

/** Opens `bytes`, runs `use` on page `index` (0-based), closes everything. */
export const onPage = <A>(
  bytes: Uint8Array,
  index: number,
  use: (page: mupdf.Page, opened: OpenedDocument) => Effect.Effect<A, Document.DocumentError>,
  limits: Limits = defaultLimits
): Effect.Effect<A, Document.DocumentError> =>
  Effect.scoped(
    Effect.flatMap(openDocument(bytes, limits), (opened) => withPage(opened, index, (page) => use(page, opened)))
  )
