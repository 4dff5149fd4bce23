import { Memory } from "@legible/testkit"
import { Layer } from "effect"
import * as SqlStorage from "../src/SqlStorage.js"
import { apiKeyStoreContract } from "./contracts/ApiKeyStore.js"
import { pglite, postgres } from "./support/databases.js"

apiKeyStoreContract("PGlite", SqlStorage.layer().pipe(Layer.provide(pglite)))
apiKeyStoreContract("PostgreSQL", SqlStorage.layer().pipe(Layer.provide(postgres)))
apiKeyStoreContract("in-memory", Memory.layer)
