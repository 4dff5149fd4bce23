import { Memory } from "@legible/testkit"
import { Layer } from "effect"
import * as SqlStorage from "../src/SqlStorage.js"
import { idempotencyStoreContract } from "./contracts/IdempotencyStore.js"
import { pglite, postgresWith } from "./support/databases.js"

idempotencyStoreContract("PGlite", SqlStorage.layer().pipe(Layer.provide(pglite)))
// A pool as large as a server's: the claims of the race must truly run at once.
idempotencyStoreContract("PostgreSQL", SqlStorage.layer().pipe(Layer.provide(postgresWith({ maxConnections: 20 }))))
idempotencyStoreContract("in-memory", Memory.layer)
