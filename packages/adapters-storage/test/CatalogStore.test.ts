import { Memory } from "@legible/testkit"
import { Layer } from "effect"
import * as SqlCatalogStore from "../src/SqlCatalogStore.js"
import * as SqlStorage from "../src/SqlStorage.js"
import { catalogStoreContract } from "./contracts/CatalogStore.js"
import { pglite, postgres } from "./support/databases.js"

catalogStoreContract("PGlite", SqlStorage.layer().pipe(Layer.provide(pglite)))
// Every trigram search through the in-process index (the default keeps small catalogs in `pg_trgm`).
catalogStoreContract(
  "PGlite, in-process index",
  Layer.mergeAll(SqlStorage.layer(), SqlCatalogStore.layerWith({ minRecords: 1 })).pipe(Layer.provide(pglite))
)
catalogStoreContract("PostgreSQL", SqlStorage.layer().pipe(Layer.provide(postgres)))
catalogStoreContract("in-memory", Memory.layer)
