import { sqlStorageContract } from "./contracts/SqlStorage.js"
import { pglite, postgres } from "./support/databases.js"

sqlStorageContract("PGlite", pglite)
sqlStorageContract("PostgreSQL", postgres)
