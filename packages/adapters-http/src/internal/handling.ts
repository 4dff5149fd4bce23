/** What every handler does around a core use case: ids checked before any lookup, services given, errors mapped. */
import { type ApiKeys, type Directory, Uuid } from "@legible/core"
import { Effect } from "effect"
import * as Errors from "../Errors.js"
import { CurrentCaller, CurrentUser } from "../Security.js"

/**
 * A path id that cannot exist is "not found" before any lookup (a malformed UUID must not reach a SQL `uuid`
 * column as a 500); ids are matched lower-case.
 */
export const knownId = <E>(id: string, notFound: (id: string) => E): Effect.Effect<string, E> =>
  Uuid.isUuid(id) ? Effect.succeed(id.toLowerCase()) : Effect.fail(notFound(id))

/**
 * Takes the services `S` once, when a group is built, and gives back how its handlers run a use case: with those
 * services provided and its domain errors mapped to HTTP errors; `asUser` and `asCaller` run it for the JWT's user
 * or the API key's caller.
 */
export const runner = <S>() =>
  Effect.map(Effect.context<S>(), (services) => {
    const run = <A, E, R extends S>(useCase: Effect.Effect<A, E, R>) =>
      useCase.pipe(Effect.provideContext(services), Errors.respond)
    return {
      run,
      asUser: <A, E, R extends S>(useCase: (user: Directory.User) => Effect.Effect<A, E, R>) =>
        Effect.flatMap(CurrentUser, (user) => run(useCase(user))),
      asCaller: <A, E, R extends S>(useCase: (caller: ApiKeys.Caller) => Effect.Effect<A, E, R>) =>
        Effect.flatMap(CurrentCaller, (caller) => run(useCase(caller)))
    }
  })
