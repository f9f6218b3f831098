// What a production start (NODE_ENV=production) refuses, marked on the variables it concerns: a fallback made
// for development when the variable is unset, or a development switch turned on.

interface ProductionRule {
  variable: string;
  refused: (value: unknown, config: object) => boolean;
  problem: string;
}

/** The rules each config class declares itself, by its prototype; a class also obeys those of the classes it extends. */
const RULES = new WeakMap<object, ProductionRule[]>();

function rule(refused: ProductionRule['refused'], problem: string): PropertyDecorator {
  return (prototype, property) => {
    RULES.set(prototype, [...(RULES.get(prototype) ?? []), { variable: String(property), refused, problem }]);
  };
}

/**
 * Unset, the service falls back to something made for development (`fallback` says what): a production start refuses
 * that. With `when` (its text in the problem), only a start whose config `applies`.
 */
export function RequiredInProduction(fallback: string, when?: { text: string; applies: (config: object) => boolean }): PropertyDecorator {
  return rule(
    (value, config) => value === undefined && (when?.applies(config) ?? true),
    `must be set when NODE_ENV=production${when ? ` and ${when.text}` : ''} (unset, ${fallback})`,
  );
}

/** A switch for development and tests: a production start refuses it on. */
export function DevelopmentOnly(): PropertyDecorator {
  return rule((value) => value === true || value === 'true', 'is for development and tests only: NODE_ENV=production refuses it on');
}

/**
 * What the values published with the project carry: docker-compose.yml's trial defaults (`dev-only-…`) and the
 * placeholders of deploy/k8s's Secrets (`REPLACE…`). Anyone can read them.
 */
export const PUBLISHED_VALUE_MARKS = ['dev-only-', 'REPLACE'] as const;

/** A secret only this deployment may know (a key, or a token it accepts): a production start refuses a published one. */
export function NotPublishedInProduction(): PropertyDecorator {
  return rule(
    (value) => typeof value === 'string' && PUBLISHED_VALUE_MARKS.some((mark) => value.includes(mark)),
    'holds a value published with the project (a "dev-only-…" default of docker-compose.yml or a "REPLACE…" placeholder of deploy/k8s): NODE_ENV=production refuses it',
  );
}

/** A host only this machine reaches, where http is as private as https: `localhost`, 127.0.0.0/8, [::1]. */
function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/**
 * A public URL of the platform (an issuer, a resource agents reach): a production start refuses `http://` to any host
 * but loopback, over which sign-ins, cookies and tokens would travel in clear (TLS may end at a proxy; the URL is still https).
 */
export function HttpsInProduction(): PropertyDecorator {
  return rule((value) => {
    if (typeof value !== 'string' || !/^http:/i.test(value)) return false;
    try {
      return !isLoopbackHost(new URL(value).hostname);
    } catch {
      return false;
    }
  }, 'must be https:// when NODE_ENV=production (http only to this machine: localhost, 127.0.0.1, [::1])');
}

/** Each `VARIABLE: why` a production start refuses in `config`; none when NODE_ENV is not `production`. */
export function productionProblems(config: object): string[] {
  if ((config as { NODE_ENV?: unknown }).NODE_ENV !== 'production') return [];
  const problems: string[] = [];
  for (
    let prototype = Object.getPrototypeOf(config) as object | null;
    prototype;
    prototype = Object.getPrototypeOf(prototype) as object | null
  ) {
    for (const { variable, refused, problem } of RULES.get(prototype) ?? []) {
      if (refused((config as Record<string, unknown>)[variable], config)) problems.push(`${variable}: ${problem}`);
    }
  }
  return problems;
}
