import { Memory } from "@legible/testkit"
import { Layer } from "effect"
import * as SqlStorage from "../src/SqlStorage.js"
import { webhookStoreContract } from "./contracts/WebhookStore.js"
import { pglite, postgres } from "./support/databases.js"

webhookStoreContract("PGlite", SqlStorage.layer().pipe(Layer.provide(pglite)))
webhookStoreContract("PostgreSQL", SqlStorage.layer().pipe(Layer.provide(postgres)))
webhookStoreContract("in-memory", Memory.layer)
