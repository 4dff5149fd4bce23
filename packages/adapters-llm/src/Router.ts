/**
 * The `FieldExtractor` of a deployment: routes each model to the configured provider that serves it
 * (`claude-*` → Anthropic, `gpt-*`/`o1…` → OpenAI-compatible, `local` → local rules). `supports(model)` is false for
 * a model whose provider is not configured, so a submission naming it is refused up front.
 */
import { Extractor, Ports } from "@legible/core"
import { Config, Effect, Layer } from "effect"
import * as Anthropic from "./Anthropic.js"
import * as Local from "./Local.js"
import * as OpenAI from "./OpenAI.js"

/** Which providers to configure; an absent provider is not served. */
export interface Options {
  readonly anthropic?: Anthropic.Options | undefined
  readonly openai?: OpenAI.Options | undefined
  /** Whether to serve `local`; default true. */
  readonly local?: boolean | undefined
}

/** The provider a model name goes to by the default patterns, whether or not it is configured. */
export const providerOf = (model: string): "anthropic" | "openai" | "local" | undefined =>
  model === Local.MODEL
    ? "local"
    : Anthropic.models.test(model)
      ? "anthropic"
      : OpenAI.models.test(model)
        ? "openai"
        : undefined

/** One extractor over several: the first that supports a model serves it. */
export const make = (extractors: ReadonlyArray<Ports.FieldExtractor["Service"]>): Ports.FieldExtractor["Service"] =>
  Ports.FieldExtractor.of({
    supports: (model) => extractors.some((e) => e.supports(model)),
    extract: (request) => {
      const extractor = extractors.find((e) => e.supports(request.model))
      return extractor === undefined
        ? Effect.fail(
            new Extractor.ExtractorError({
              reason: "NotConfigured",
              message: `no configured provider serves the model "${request.model}"`,
              permanent: true
            })
          )
        : extractor.extract(request)
    }
  })

/** The configured providers behind one `FieldExtractor`. */
export const layer = (options: Options): Layer.Layer<Ports.FieldExtractor> =>
  Layer.effect(
    Ports.FieldExtractor,
    Effect.gen(function* () {
      const extractors: Array<Ports.FieldExtractor["Service"]> = []
      if (options.anthropic !== undefined) extractors.push(yield* Anthropic.make(options.anthropic))
      if (options.openai !== undefined) extractors.push(yield* OpenAI.make(options.openai))
      if (options.local ?? true) extractors.push(yield* Local.make)
      return make(extractors)
    })
  )

/** Like `layer`, with the options read from `Config`. */
export const layerConfig = (config: Config.Wrap<Options>): Layer.Layer<Ports.FieldExtractor, Config.ConfigError> =>
  Layer.unwrap(Effect.map(Config.unwrap(config), layer))
