import { defineProject } from "vitest/config"
import { parallel, sharingModules } from "../../vitest.shared.ts"

export default defineProject(sharingModules(parallel))
