import { Memory } from "@legible/testkit"
import { Layer } from "effect"
import * as SqlStorage from "../src/SqlStorage.js"
import { extractionStoreContract } from "./contracts/ExtractionStore.js"
import { pglite, postgres } from "./support/databases.js"

extractionStoreContract("PGlite", SqlStorage.layer().pipe(Layer.provide(pglite)))
// On PostgreSQL the server reads stored results as bytes (`Layers.ts`): the contract holds for what it runs.
extractionStoreContract("PostgreSQL", SqlStorage.layer({ storedAsBytes: true }).pipe(Layer.provide(postgres)))
extractionStoreContract("in-memory", Memory.layer)
