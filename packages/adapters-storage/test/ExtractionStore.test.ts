import { Memory } from "@legible/testkit"
import { Layer } from "effect"
import * as SqlStorage from "../src/SqlStorage.js"
import { extractionStoreContract } from "./contracts/ExtractionStore.js"
import { pglite, postgres } from "./support/databases.js"

extractionStoreContract("PGlite", SqlStorage.layer().pipe(Layer.provide(pglite)))
extractionStoreContract("PostgreSQL", SqlStorage.layer().pipe(Layer.provide(postgres)))
extractionStoreContract("in-memory", Memory.layer)
