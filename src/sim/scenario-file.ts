/**
 * User-defined scenarios: a small YAML file (schema in docs/simulate.md), validated with zod. Any
 * problem is reported as one line naming the file and the offending field.
 */
import * as z from 'zod';
import { InputError, plural } from '../model/index.js';
import { parseYamlDocuments, readInputText } from '../sources/index.js';
import { DEFAULT_LATENCIES, LATENCY_KEYS, type Latencies, MAX_LATENCY_MS } from './latency.js';
import { BUILTIN_OPERANDS, builtinOperand, type OperandSpec } from './operands.js';
import { OPERATORS } from './operators.js';
import { preview } from './preview.js';
import { CATALOG } from './release.js';
import type { Dist } from './rng.js';
import { BUILTIN_SCENARIOS, type BuiltinSpec, builtinSpec, makeScenario, type Scenario } from './scenario.js';

const COMPONENTS = new Set(CATALOG.map(([name]) => name));
const NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
/** A Node's name: a DNS subdomain (RFC 1123), as Kubernetes requires. */
const NODE_NAME = /^(?=.{1,253}$)[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** `250ms`, `5s`, `2m`, `1h`, or a number of milliseconds. */
export function parseDuration(value: string | number): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : undefined;
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(value.trim());
  if (!m) return undefined;
  const n = Number(m[1]);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[m[2] as 'ms' | 's' | 'm' | 'h'];
  return n * unit;
}

/** Longer than a whole run (latency.ts MAX_LATENCY_MS) could never fire: refused, not run vacuously. */
function tooLong(ms: number): string | undefined {
  return ms > MAX_LATENCY_MS
    ? `${ms} ms is longer than a whole simulated run (4h), so it could never happen`
    : undefined;
}

const duration = z.union([z.number(), z.string()]).transform((v, ctx) => {
  const ms = parseDuration(v);
  if (ms === undefined) {
    ctx.addIssue({
      code: 'custom',
      message: `expected a duration like 250ms, 5s or 2m, got ${preview(v)}`,
    });
    return z.NEVER;
  }
  const long = tooLong(ms);
  if (long !== undefined) {
    ctx.addIssue({ code: 'custom', message: long });
    return z.NEVER;
  }
  return ms;
});

/** A latency: a duration (constant), `{median, sigma[, min, max]}` (log-normal) or `{min, max}` (uniform). */
const dist = z.unknown().transform((v, ctx): Dist => {
  const fail = (message: string): never => {
    ctx.addIssue({ code: 'custom', message });
    return z.NEVER as never;
  };
  const ms = (x: unknown, what: string): number => {
    const d = typeof x === 'string' || typeof x === 'number' ? parseDuration(x) : undefined;
    if (d === undefined) return fail(`${what}: expected a duration like 250ms, 5s or 2m, got ${preview(x)}`);
    const long = tooLong(d);
    return long === undefined ? d : fail(`${what}: ${long}`);
  };
  if (typeof v === 'string' || typeof v === 'number') return { kind: 'const', ms: ms(v, 'duration') };
  if (v === null || typeof v !== 'object' || Array.isArray(v)) {
    return fail(`expected a duration, {median, sigma} or {min, max}, got ${preview(v)}`);
  }
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o);
  if ('median' in o) {
    const extra = keys.filter((k) => !['median', 'sigma', 'min', 'max'].includes(k));
    if (extra.length > 0)
      return fail(`unknown key ${extra[0]} (a log-normal latency has median, sigma, min, max)`);
    const sigma = o.sigma;
    if (typeof sigma !== 'number' || sigma < 0 || sigma > 3)
      return fail('sigma: expected a number from 0 to 3');
    return {
      kind: 'lognormal',
      median: ms(o.median, 'median'),
      sigma,
      ...(o.min !== undefined ? { min: ms(o.min, 'min') } : {}),
      ...(o.max !== undefined ? { max: ms(o.max, 'max') } : {}),
    };
  }
  if ('min' in o && 'max' in o && keys.length === 2) {
    const min = ms(o.min, 'min');
    const max = ms(o.max, 'max');
    return max < min ? fail('max is below min') : { kind: 'uniform', min, max };
  }
  return fail(`expected {median, sigma} or {min, max}, got keys ${keys.join(', ') || '(none)'}`);
});

const latencies = z.strictObject(
  Object.fromEntries(LATENCY_KEYS.map((k) => [k, dist.optional()])) as Record<
    keyof Latencies,
    z.ZodOptional<typeof dist>
  >,
);

const component = z.string().refine((c) => COMPONENTS.has(c), {
  message: `unknown release component (known: ${[...COMPONENTS].join(', ')})`,
});

const pool = z.strictObject({
  name: z.string().regex(NAME, 'a pool name is lower-case letters, digits and dashes'),
  nodes: z.number().int().min(0).max(50),
  paused: z.boolean().default(false),
  maxUnavailable: z
    .union([z.number().int().min(0), z.string().regex(/^\d+%$/, 'a percentage like "25%"')])
    .default(1),
  names: z
    .array(
      z
        .string()
        .regex(NODE_NAME, 'a node name is a DNS subdomain (lower-case letters, digits, dashes, dots)'),
    )
    .optional(),
});

const intOrPercent = z.union([
  z.number().int().min(0),
  z.string().regex(/^\d+%$/, 'a percentage like "25%"'),
]);
const GENERIC_OPERATORS = OPERATORS.map((o) => o.name);

/** An operand: a built-in one by name (dns, node-tuning, console, service-ca) or a whole definition. */
const operand = z.union([
  z.string().refine((n) => builtinOperand(n) !== undefined, {
    message: `unknown built-in operand (built in: ${Object.keys(BUILTIN_OPERANDS).join(', ')})`,
  }),
  z.strictObject({
    operator: z.string().refine((n) => GENERIC_OPERATORS.includes(n), {
      message: `not an operator the model runs generically (one of: ${GENERIC_OPERATORS.join(', ')})`,
    }),
    kind: z.enum(['Deployment', 'DaemonSet']),
    namespace: z.string().regex(NAME, 'a namespace is lower-case letters, digits and dashes'),
    name: z.string().regex(NAME, 'a workload name is lower-case letters, digits and dashes'),
    container: z.string().regex(NAME).optional(),
    component,
    replicas: z.number().int().min(1).max(50).default(1),
    maxUnavailable: intOrPercent.default('25%'),
    maxSurge: intOrPercent.default('25%'),
  }),
]);

function operandSpec(o: z.output<typeof operand>): OperandSpec | undefined {
  if (typeof o === 'string') return builtinOperand(o);
  return {
    operator: o.operator,
    kind: o.kind,
    namespace: o.namespace,
    name: o.name,
    container: o.container ?? o.name,
    component: o.component,
    replicas: o.kind === 'DaemonSet' ? 0 : o.replicas,
    maxUnavailable: o.maxUnavailable,
    maxSurge: o.kind === 'DaemonSet' ? 0 : o.maxSurge,
  };
}

const SCENARIO = z
  .strictObject({
    name: z.string().regex(NAME, 'a scenario name is lower-case letters, digits and dashes'),
    description: z.string().optional(),
    base: z
      .string()
      .refine((b) => BUILTIN_SCENARIOS.includes(b), {
        message: `unknown base scenario (built in: ${BUILTIN_SCENARIOS.join(', ')})`,
      })
      .optional(),
    from: z.strictObject({ version: z.string().min(1) }).optional(),
    to: z.strictObject({ version: z.string().min(1) }).optional(),
    changed: z.array(component).optional(),
    pools: z.array(pool).min(1).optional(),
    failures: z
      .array(
        z.strictObject({
          pool: z.string(),
          index: z.number().int().min(0),
          reason: z.string().min(1).default('unexpected on-disk state validating against {config}'),
          recoverAfter: duration.optional(),
        }),
      )
      .optional(),
    machineConfigs: z
      .array(
        z.strictObject({
          name: z.string().regex(NAME, 'a MachineConfig name is lower-case letters, digits and dashes'),
          role: z.string().regex(NAME),
          files: z
            .array(
              z.strictObject({
                path: z.string().startsWith('/'),
                contents: z.string(),
                mode: z.number().int().min(0).max(0o7777).default(420),
              }),
            )
            .default([]),
          kernelArguments: z.array(z.string()).default([]),
        }),
      )
      .optional(),
    operands: z.array(operand).optional(),
    latencies: latencies.optional(),
    ci: z
      .strictObject({
        target: z.string().regex(NAME, 'a CI test name is lower-case letters, digits and dashes'),
      })
      .optional(),
  })
  .superRefine((s, ctx) => {
    const operators = new Set<string>();
    const workloads = new Set<string>();
    s.operands?.forEach((o, i) => {
      // An entry that failed its own checks (an unknown name) has its issue already.
      const spec = operandSpec(o);
      if (!spec) return;
      if (operators.has(spec.operator))
        ctx.addIssue({
          code: 'custom',
          path: ['operands', i],
          message: `operator ${spec.operator} already has an operand (one per operator)`,
        });
      const id = `${spec.namespace}/${spec.name}`;
      if (workloads.has(id))
        ctx.addIssue({ code: 'custom', path: ['operands', i], message: `${id} is declared twice` });
      operators.add(spec.operator);
      workloads.add(id);
    });
    const pools = s.pools;
    if (pools) {
      const names = pools.map((p) => p.name);
      for (const required of ['master', 'worker']) {
        if (!names.includes(required))
          ctx.addIssue({ code: 'custom', path: ['pools'], message: `a ${required} pool is required` });
      }
      if (new Set(names).size !== names.length)
        ctx.addIssue({ code: 'custom', path: ['pools'], message: 'pool names must be unique' });
      const seen = new Set<string>();
      pools.forEach((p, i) => {
        if (p.names === undefined) return;
        if (p.names.length !== p.nodes)
          ctx.addIssue({
            code: 'custom',
            path: ['pools', i, 'names'],
            message: `pool ${p.name} has ${plural(p.nodes, 'node')} but ${plural(p.names.length, 'name')}`,
          });
        for (const n of p.names) {
          if (seen.has(n))
            ctx.addIssue({
              code: 'custom',
              path: ['pools', i, 'names'],
              message: `node ${n} is named twice`,
            });
          seen.add(n);
        }
      });
      const master = pools.find((p) => p.name === 'master');
      if (master && master.nodes < 1)
        ctx.addIssue({ code: 'custom', path: ['pools'], message: 'the master pool needs at least one node' });
    }
    s.failures?.forEach((f, i) => {
      const p = (
        pools ?? [
          { name: 'master', nodes: 3 },
          { name: 'worker', nodes: 3 },
        ]
      ).find((x) => x.name === f.pool);
      if (!p)
        ctx.addIssue({ code: 'custom', path: ['failures', i, 'pool'], message: `no pool named ${f.pool}` });
      else if (f.index >= p.nodes)
        ctx.addIssue({
          code: 'custom',
          path: ['failures', i, 'index'],
          message: `pool ${f.pool} has only ${plural(p.nodes, 'node')}`,
        });
    });
  });

type ScenarioFile = z.output<typeof SCENARIO>;

/** Turn a validated scenario document into a Scenario. */
function scenarioFromDocument(doc: ScenarioFile): Scenario {
  const base: BuiltinSpec = (doc.base !== undefined ? builtinSpec(doc.base) : undefined) ?? {
    description: '',
    changed: [],
  };
  const lat: Record<string, Dist> = { ...DEFAULT_LATENCIES };
  for (const [k, v] of Object.entries(doc.latencies ?? {})) if (v !== undefined) lat[k] = v;
  const spec: BuiltinSpec = {
    ...base,
    description: doc.description ?? base.description ?? `user scenario ${doc.name}`,
    changed: doc.changed ?? base.changed,
    ...(doc.to ? { toVersion: doc.to.version } : {}),
    ...(doc.from ? { fromVersion: doc.from.version } : {}),
    ...(doc.pools
      ? {
          pools: doc.pools.map((p) => ({
            name: p.name,
            nodes: p.nodes,
            paused: p.paused,
            maxUnavailable: p.maxUnavailable,
            ...(p.names ? { names: p.names } : {}),
          })),
        }
      : {}),
    ...(doc.failures
      ? {
          failures: doc.failures.map((f) => ({
            pool: f.pool,
            index: f.index,
            reason: f.reason,
            ...(f.recoverAfter !== undefined ? { recoverAfterMs: f.recoverAfter } : {}),
          })),
        }
      : {}),
    ...(doc.machineConfigs ? { machineConfigs: doc.machineConfigs } : {}),
    ...(doc.operands
      ? { operands: doc.operands.map(operandSpec).filter((o): o is OperandSpec => o !== undefined) }
      : {}),
    latencies: lat as unknown as Latencies,
    ...(doc.ci ? { ciTarget: doc.ci.target } : {}),
  };
  return makeScenario(doc.name, spec);
}

/** Parse and validate scenario YAML text; `file` names it in errors. */
export function parseScenario(text: string, file: string): Scenario {
  // The pipeline's YAML edge (sources/): one error form, duplicate keys as everywhere (the last one
  // wins), and the budget's node and depth limits counted after alias expansion.
  const docs = parseYamlDocuments(text, file);
  if (docs.length > 1) throw new InputError(file, 'a scenario file holds one YAML document, found several');
  const raw: unknown = docs[0]?.value ?? null;
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new InputError(
      file,
      'a scenario file must be a YAML mapping',
      'see docs/simulate.md for the schema',
    );
  }
  const parsed = SCENARIO.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where =
      issue && issue.path.length > 0
        ? `${issue.path
            .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
            .join('')
            .replace(/^\./, '')}: `
        : '';
    throw new InputError(
      file,
      `invalid scenario: ${where}${issue?.message ?? 'unknown problem'}`,
      'see docs/simulate.md for the schema',
    );
  }
  return scenarioFromDocument(parsed.data);
}

export async function loadScenarioFile(file: string): Promise<Scenario> {
  return parseScenario(await readInputText(file), file);
}
