// Public surface of the embedded sandbox.
export { startSandbox, SANDBOX_TOKENS, DEFAULT_EMPLOYEES } from './server.js';
export type { Sandbox, SandboxOptions, RequestLogEntry } from './server.js';
export type { FaultRule, FaultKind, FaultSettings } from './faults.js';
export { createSigner } from './signing.js';
export type { Signer, Jwks, PublicJwk, RotateOptions, SignOptions } from './signing.js';
export { listEntities, getSchema, validateCreate, validateDynamic, dynamicSections, createSections } from './forms.js';
export type { FieldError, FormValidation, JsonSchema } from './forms.js';
export { WebhookSender, envelope } from './webhook.js';
export { JWKS_PATH } from './routes.js';
export { COMPANY_A, COMPANY_B } from './companies.js';
export { SANDBOX_TODAY } from './dates.js';
export type * from './types.js';
