/**
 * The `IdempotencyStore` port over SQL. A claim is one `INSERT … ON CONFLICT DO UPDATE … WHERE`: the primary key
 * makes concurrent claims of one key queue on its row, and the update (taking over an expired key, or a stale
 * unfinished claim of the same body) happens only when its condition holds on the row as committed. The claim is
 * marked done by `completeIn`, inside the submission's transaction, fenced by the claim's token.
 */
import { Errors, Ports, type Timestamp } from "@legible/core"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { mapSqlError } from "./errors.js"
import { toNumber } from "./sql.js"

interface KeyRow {
  readonly fingerprint: string
  readonly extraction_id: string | null
}

/** Claims that find the row gone between the failed upsert and the read (released meanwhile) try again this often. */
const CLAIM_ROUNDS = 3

/**
 * Marks the claim done with its extraction, in the caller's transaction: fails with `IdempotencyKeyInFlight` (which
 * rolls the transaction back) when the claim is no longer held by this token — a retry took it over.
 */
export const completeIn = (sql: SqlClient.SqlClient, claim: Ports.IdempotencyClaim, extractionId: string) =>
  Effect.flatMap(
    sql`
      UPDATE idempotency_keys SET extraction_id = ${extractionId}
      WHERE client_id = ${claim.scope.clientId} AND sandbox = ${claim.scope.sandbox} AND key = ${claim.key}
        AND token = ${claim.token} AND extraction_id IS NULL
      RETURNING 1 AS done`,
    (rows) => (rows.length === 1 ? Effect.void : Effect.fail(new Errors.IdempotencyKeyInFlight({ key: claim.key })))
  )

/** Builds the SQL `IdempotencyStore` over the `SqlClient` in context. */
export const make: Effect.Effect<Ports.IdempotencyStore["Service"], never, SqlClient.SqlClient> = Effect.gen(
  function* () {
    const sql = yield* SqlClient.SqlClient

    const upsert = (r: Ports.IdempotencyClaimRequest) =>
      sql<{ readonly token: string }>`
        INSERT INTO idempotency_keys (client_id, sandbox, key, fingerprint, token, extraction_id, claimed_at, expires_at)
        VALUES (${r.scope.clientId}, ${r.scope.sandbox}, ${r.key}, ${r.fingerprint}, ${r.token}, NULL,
          ${r.now}::timestamptz, ${r.expiresAt}::timestamptz)
        ON CONFLICT (client_id, sandbox, key) DO UPDATE SET
          fingerprint = excluded.fingerprint, token = excluded.token, extraction_id = NULL,
          claimed_at = excluded.claimed_at, expires_at = excluded.expires_at
        WHERE idempotency_keys.expires_at <= excluded.claimed_at
          OR (idempotency_keys.extraction_id IS NULL AND idempotency_keys.fingerprint = excluded.fingerprint
            AND idempotency_keys.claimed_at <= ${r.staleBefore}::timestamptz)
        RETURNING token`

    const read = (r: Ports.IdempotencyClaimRequest) =>
      sql<KeyRow>`
        SELECT fingerprint, extraction_id FROM idempotency_keys
        WHERE client_id = ${r.scope.clientId} AND sandbox = ${r.scope.sandbox} AND key = ${r.key}
          AND expires_at > ${r.now}::timestamptz`

    const claim = Effect.fn("IdempotencyStore.claim")(function* (request: Ports.IdempotencyClaimRequest) {
      for (let round = 0; round < CLAIM_ROUNDS; round++) {
        const [claimed] = yield* upsert(request)
        if (claimed?.token === request.token) return { _tag: "Claimed" } as const
        const [row] = yield* read(request)
        if (row === undefined) continue
        return row.extraction_id === null
          ? ({ _tag: "InFlight", fingerprint: row.fingerprint } as const)
          : ({ _tag: "Done", fingerprint: row.fingerprint, extractionId: row.extraction_id } as const)
      }
      // Claimed and released by others on every round: someone is working on this key right now.
      return { _tag: "InFlight", fingerprint: request.fingerprint } as const
    }, mapSqlError("IdempotencyStore.claim"))

    const release = Effect.fn("IdempotencyStore.release")(function* (claim: Ports.IdempotencyClaim) {
      yield* sql`
        DELETE FROM idempotency_keys
        WHERE client_id = ${claim.scope.clientId} AND sandbox = ${claim.scope.sandbox} AND key = ${claim.key}
          AND token = ${claim.token} AND extraction_id IS NULL`.pipe(mapSqlError("IdempotencyStore.release"))
    })

    const sweep = Effect.fn("IdempotencyStore.sweep")(function* (now: Timestamp.Timestamp) {
      const [row] = yield* sql<{ readonly n: bigint | number | string }>`
        WITH gone AS (DELETE FROM idempotency_keys WHERE expires_at <= ${now}::timestamptz RETURNING 1)
        SELECT count(*) AS n FROM gone`.pipe(mapSqlError("IdempotencyStore.sweep"))
      return row === undefined ? 0 : toNumber(row.n)
    })

    return Ports.IdempotencyStore.of({ claim, release, sweep })
  }
)

/** Provides `IdempotencyStore` over the `SqlClient` in context. */
export const layer: Layer.Layer<Ports.IdempotencyStore, never, SqlClient.SqlClient> = Layer.effect(
  Ports.IdempotencyStore,
  make
)
