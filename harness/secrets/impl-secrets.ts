// Declared-secret adapter options (`--impl-secret`): how they reach a driver without sitting in any argv, and how a reproduce command names them.

/** The environment variable the host driver reads its secret options from (a JSON object), then removes. */
export const IMPL_SECRETS_ENV = 'EJC_IMPL_SECRETS';

/** A secret option as given: its value, and the environment variable a reproduce command reads it from. */
export interface ImplSecret {
  readonly value: string;
  readonly env: string;
}

/** The driver environment that carries the secret options, or undefined when there are none. */
export function implSecretsEnv(secrets: Readonly<Record<string, string>> | undefined): Record<string, string> | undefined {
  if (secrets === undefined || Object.keys(secrets).length === 0) return undefined;
  return { [IMPL_SECRETS_ENV]: JSON.stringify(secrets) };
}

/** The variable a reproduce command reads a secret option from when the user gave its value literally. */
export function defaultSecretEnv(key: string): string {
  return `EJC_IMPL_SECRET_${key.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}`;
}

/** Reads and removes the secret options a host driver was started with; the adapter's children do not inherit them. */
export function takeImplSecrets(env: NodeJS.ProcessEnv): Record<string, string> {
  const text = env[IMPL_SECRETS_ENV];
  delete env[IMPL_SECRETS_ENV];
  if (text === undefined) return {};
  const parsed = JSON.parse(text) as unknown;
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed) || !Object.values(parsed).every((v) => typeof v === 'string')) {
    throw new Error(`${IMPL_SECRETS_ENV} must be a JSON object of strings`);
  }
  return Object.fromEntries(Object.entries(parsed as Record<string, string>));
}
