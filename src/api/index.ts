// The HTTP API's bodies (versioned under /v1), built from the engine's schemas. Bodies that carry Python
// values (run configs, results, simulations) are JSON written with `dumpsPy`: read them with `parsePyJson`
// so int/float kinds survive, then parse with these schemas.
//
//   GET    /v1/health                         → HealthSchema (no auth)
//   POST   /v1/runs                           RunRequestSchema → 202 RunCreatedSchema (Idempotency-Key honoured)
//   GET    /v1/runs?limit&status              → RunListSchema (newest first)
//   GET    /v1/runs/:id                       → RunSchema
//   GET    /v1/runs/:id/results               → ResultsSchema (the reference results-file format)
//   GET    /v1/runs/:id/events                → Server-Sent Events: `simulation` (SimulationEventSchema) and
//                                               `status` (RunStatusEventSchema); the stream ends after the
//                                               status event of a finished run. Event ids resume via Last-Event-ID.
//   GET    /v1/runs/:id/episodes?limit&after&status → RunEpisodesSchema (work-unit order, paged)
//   POST   /v1/runs/:id/cancel                → RunSchema (409 when the run already completed)
//   POST   /v1/runs/:id/rerun-infra-errors    → 202 RerunSchema
//   GET    /v1/compare?a=RUN&b=RUN            → CompareSchema (paired comparison on the tasks both runs evaluated)
//   GET    /v1/simulations/:id                → SimulationRunSchema (messages, reward_info)
//   POST   /v1/simulations/:id/fork           EpisodeForkSchema → 201 EpisodeForkCreatedSchema
//   POST   /v1/episodes/:id/fork              EpisodeForkSchema → 201 EpisodeForkCreatedSchema
//   POST   /v1/schedules                      ScheduleCreateSchema → 201 ScheduleSchema
//   GET    /v1/schedules                      → ScheduleListSchema
//   GET    /v1/schedules/:id                  → ScheduleSchema
//   PATCH  /v1/schedules/:id                  ScheduleUpdateSchema → ScheduleSchema
//   DELETE /v1/schedules/:id                  → 204
//   POST   /v1/admin/keys                     ApiKeyCreateSchema → 201 ApiKeyCreatedSchema (operator only)
//   GET    /v1/admin/keys                     → ApiKeyListSchema (operator only)
//   DELETE /v1/admin/keys/:id                 → ApiKeySchema, revoked (operator only)
//   GET    /v1/provider-credentials           → ProviderCredentialListSchema (the caller's; keys never shown)
//   PUT    /v1/provider-credentials/:provider ProviderCredentialPutSchema → ProviderCredentialSchema
//   DELETE /v1/provider-credentials/:provider → 204
//   GET    /v1/admin/tenants/:tenant/quotas   → TenantQuotasViewSchema (operator only)
//   PUT    /v1/admin/tenants/:tenant/quotas   TenantQuotasSchema → TenantQuotasViewSchema (operator only)
//   POST   /v1/episodes/:id/mcp              McpMessageSchema → McpResponseSchema (MCP Streamable HTTP; also the episode token)
//   GET    /.well-known/agent-card.json       → tau2-edge's A2A agent card (no auth)
//   POST   /v1/a2a                            A2A 1.0 JSON-RPC (a2a.ts): SendMessage with a run config, GetTask, CancelTask
// Every failure answers ApiErrorSchema. With an API key configured, every route but /v1/health needs
// `Authorization: Bearer <key>`: the operator's or a tenant's; a tenant sees only its own runs, simulations and
// schedules (anything else is 404).
export * from './common.ts';
export * from './runs.ts';
export * from './schedules.ts';
export * from './tenants.ts';
export * from './episodes.ts';
export * from './mcp.ts';
export * from './errors.ts';
