import { defineProject } from "vitest/config"
import { parallel } from "../../vitest.shared.ts"

export default defineProject(parallel)
