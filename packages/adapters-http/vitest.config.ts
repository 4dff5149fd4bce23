import { defineProject } from "vitest/config"
import { shared, sharingModules } from "../../vitest.shared.ts"

export default defineProject(sharingModules(shared))
