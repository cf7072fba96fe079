// The CAPI oracle: Cluster API's own code as a test-time oracle for render-clusterclass.
// This file only marks the module root. Dependencies are pinned per CAPI version in
// modules/<minor>.mod and modules/<minor>.sum (go build -modfile=...); build with
// `npm run oracle:capi` (scripts/oracle/build-capi.mjs), never `go build` here.
module render-clusterclass.dev/oracle/capi

go 1.26.0
