/**
 * The review console (an extension): the static files of `@legible/console`'s build, served under `/console` by the
 * `api` role. Every response carries a Content-Security-Policy that allows scripts, styles and connections from
 * this origin only (no inline script, no other host), images from this origin and `blob:` (the page images the
 * console fetches with its key), and no framing; the files are read once, when the layer is built.
 */
import * as Fs from "node:fs"
import * as Path from "node:path"
import { Effect, Layer } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"

/** Where the console is served. */
export const PATH = "/console"

/** The Content-Security-Policy of every console response. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' blob:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'"
].join("; ")

const TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".json": "application/json"
}

/** The headers of every console file. */
export const headers = {
  "content-security-policy": CONTENT_SECURITY_POLICY,
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "cache-control": "no-cache"
} as const

/** The console's settings: the folder of its built files (`index.html` and its assets, no sub-folders). */
export interface Options {
  readonly directory: string
}

const load = (directory: string) => {
  const files = new Map<string, { readonly type: string; readonly body: Uint8Array }>()
  for (const name of Fs.readdirSync(directory)) {
    const type = TYPES[Path.extname(name)]
    const path = Path.join(directory, name)
    if (type !== undefined && Fs.statSync(path).isFile()) files.set(name, { type, body: Fs.readFileSync(path) })
  }
  return files
}

/** The console's routes: `/console` (and `/console/`) gives `index.html`, `/console/<file>` its assets. */
export const layer = (options: Options): Layer.Layer<never, never, HttpRouter.HttpRouter> =>
  Layer.unwrap(
    Effect.sync(() => {
      const files = load(options.directory)
      const serve = (name: string) => {
        const file = files.get(name)
        return file === undefined
          ? HttpServerResponse.jsonUnsafe({ error: "not found" }, { status: 404, headers })
          : HttpServerResponse.uint8Array(file.body, { contentType: file.type, headers })
      }
      return HttpRouter.addAll([
        HttpRouter.route(
          "GET",
          PATH,
          Effect.sync(() => serve("index.html"))
        ),
        HttpRouter.route("GET", `${PATH}/:file`, (request) =>
          Effect.sync(() => {
            const raw = new URL(request.url, "http://x").pathname.slice(PATH.length + 1)
            try {
              return serve(raw === "" ? "index.html" : decodeURIComponent(raw))
            } catch {
              return serve("")
            }
          })
        )
      ])
    })
  )
