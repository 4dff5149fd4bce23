import { Memory } from "@legible/testkit"
import { Layer } from "effect"
import * as SqlStorage from "../src/SqlStorage.js"
import { quotaStoreContract } from "./contracts/QuotaStore.js"
import { pglite, postgresWith } from "./support/databases.js"

quotaStoreContract("PGlite", SqlStorage.layer().pipe(Layer.provide(pglite)))
// A pool as large as a server's: the race must hold when many reservations truly run at once.
quotaStoreContract("PostgreSQL", SqlStorage.layer().pipe(Layer.provide(postgresWith({ maxConnections: 20 }))))
quotaStoreContract("in-memory", Memory.layer)
