import { defineProject } from "vitest/config"
import { shared } from "../../vitest.shared.ts"

export default defineProject(shared)
