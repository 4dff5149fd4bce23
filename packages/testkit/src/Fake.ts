/** Partial fakes of ports: supply the methods a test needs; any other method dies loudly, naming itself. */
import { type Extractor, Ports } from "@legible/core"
import { type Context, Effect, Layer } from "effect"

/** The defect of a method a fake does not implement. */
export class UnimplementedMethod extends Error {
  override readonly name = "UnimplementedMethod"
  constructor(
    readonly service: string,
    readonly method: string
  ) {
    super(`${service}.${method} is not implemented by this test's fake`)
  }
}

/**
 * A method the fake lacks: calling it gives an effect that dies with `UnimplementedMethod`; it is also such an effect
 * itself, for members that are effects rather than methods.
 */
const unimplemented = (service: string, method: string): (() => Effect.Effect<never>) => {
  const dead = Effect.die(new UnimplementedMethod(service, method))
  const call = () => dead
  Object.setPrototypeOf(call, Object.getPrototypeOf(dead))
  return Object.assign(call, dead)
}

/** The service `partial` completed so that every member it lacks dies with `UnimplementedMethod`. */
export const make = <I, S extends object>(tag: Context.Key<I, S>, partial: Partial<S>): S => {
  const target: Partial<S> = { ...partial }
  return new Proxy(target, {
    get(t, property, receiver) {
      if (typeof property === "symbol" || property in t) return Reflect.get(t, property, receiver)
      return unimplemented(tag.key, property)
    }
  }) as S
}

/** A layer of the port `tag` from a partial implementation (see `make`). */
export const layer = <I, S extends object>(tag: Context.Key<I, S>, partial: Partial<S>): Layer.Layer<I> =>
  Layer.succeed(tag, make(tag, partial))

/**
 * What `Processing.run` needs besides storage and matching, without a real document: a reader of one empty page and
 * an extractor that reads `values` (with zero usage).
 */
export const readerAndExtractor = (
  values: Extractor.ExtractedFields
): Layer.Layer<Ports.DocumentReader | Ports.FieldExtractor> =>
  Layer.mergeAll(
    layer(Ports.DocumentReader, {
      read: () =>
        Effect.succeed({
          mimeType: "application/pdf",
          numPages: 1,
          pages: [{ page: 1, width: 595, height: 842, source: "ocr" as const, lines: [], markdown: "" }],
          fullText: "",
          images: []
        })
    }),
    layer(Ports.FieldExtractor, {
      extract: () =>
        Effect.succeed({
          values,
          usage: { tokens_consumidos: 0, prompt_tokens: 0, response_tokens: 0, duration: 0, model: "local" }
        })
    })
  )
