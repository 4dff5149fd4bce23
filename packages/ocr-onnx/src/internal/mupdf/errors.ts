/**
 * Turning mupdf's exceptions into core's `DocumentError`.
 *
 * `attempt(thunk, context)` runs mupdf code: an `Error` thrown by mupdf (a damaged file) fails with `Corrupt` and a
 * message that starts with `context`; a `WebAssembly.RuntimeError` (an abort or a trap: the WASM instance may be
 * unusable) is kept as a defect, so the worker that hit it is replaced rather than reused.
 */
import { Document } from "@legible/core"
import { Effect } from "effect"

/** Core's `DocumentError` with a reason and a message. */
export const documentError = (reason: Document.DocumentError["reason"], message: string): Document.DocumentError =>
  new Document.DocumentError({ reason, message })

/** The first line of a thrown value's message, shortened (mupdf's messages are short; stacks are not wanted). */
export const errorText = (cause: unknown): string =>
  (cause instanceof Error ? cause.message : String(cause)).split("\n")[0]!.slice(0, 200)

/** Runs mupdf code: thrown errors are `Corrupt` ("<context>: <mupdf's message>"), WASM traps are defects. */
export const attempt = <A>(thunk: () => A, context: string): Effect.Effect<A, Document.DocumentError> =>
  Effect.suspend(() => {
    try {
      return Effect.succeed(thunk())
    } catch (cause) {
      // WebAssembly.RuntimeError (the lib typings in use do not declare the WebAssembly namespace).
      if (cause instanceof Error && cause.name === "RuntimeError") return Effect.die(cause)
      if (cause instanceof Document.DocumentError) return Effect.fail(cause)
      return Effect.fail(documentError("Corrupt", `${context}: ${errorText(cause)}`))
    }
  })
