import { Memory } from "@legible/testkit"
import { Layer } from "effect"
import * as SqlStorage from "../src/SqlStorage.js"
import { directoryContract } from "./contracts/Directory.js"
import { pglite, postgres } from "./support/databases.js"

directoryContract("PGlite", SqlStorage.layer().pipe(Layer.provide(pglite)))
directoryContract("PostgreSQL", SqlStorage.layer().pipe(Layer.provide(postgres)))
directoryContract("in-memory", Memory.layer)
