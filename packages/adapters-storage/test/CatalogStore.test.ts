import { Memory } from "@legible/testkit"
import { Layer } from "effect"
import * as SqlStorage from "../src/SqlStorage.js"
import { catalogStoreContract } from "./contracts/CatalogStore.js"
import { pglite, postgres } from "./support/databases.js"

catalogStoreContract("PGlite", SqlStorage.layer().pipe(Layer.provide(pglite)))
catalogStoreContract("PostgreSQL", SqlStorage.layer().pipe(Layer.provide(postgres)))
catalogStoreContract("in-memory", Memory.layer)
