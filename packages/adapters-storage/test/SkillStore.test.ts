import { Memory } from "@legible/testkit"
import { Layer } from "effect"
import * as SqlStorage from "../src/SqlStorage.js"
import { skillStoreContract } from "./contracts/SkillStore.js"
import { pglite, postgres } from "./support/databases.js"

skillStoreContract("PGlite", SqlStorage.layer().pipe(Layer.provide(pglite)))
skillStoreContract("PostgreSQL", SqlStorage.layer().pipe(Layer.provide(postgres)))
skillStoreContract("in-memory", Memory.layer)
