// The package: the service's schema as types (generated into schema.ts from docs/openapi.yaml) and
// the minimal client built on them.

export type { components, operations, paths } from "./schema.js";
export * from "./client.js";
