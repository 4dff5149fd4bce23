import { pglite, postgres } from "../support/databases.js"
import { outboxSuite } from "./outbox.js"

outboxSuite("PGlite", pglite)
outboxSuite("PostgreSQL", postgres)
