/**
 * Server-side printing: the `meta.k8s.io/v1` Table that `kubectl get` asks for. The columns are the
 * ones the real server prints, as each kind's descriptor lists them (model/kinds/: the CRD printer
 * columns of the OpenShift kinds, kubectl's own printers for the core ones); any other kind gets NAME
 * and AGE. Ages and "since" times are counted from the served moment, not from the wall clock: a
 * recorded cluster is shown as it looked then.
 */
import { DEFAULT_COLUMNS, isKnownKind, KINDS, type PrinterColumn } from '../model/index.js';
import type { KubeObject } from './store.js';

function columnsOf(kind: string): readonly PrinterColumn[] {
  return (isKnownKind(kind) ? KINDS[kind].columns : undefined) ?? DEFAULT_COLUMNS;
}

export type IncludeObject = 'None' | 'Metadata' | 'Object';

export function parseIncludeObject(value: string | null): IncludeObject | undefined {
  if (value === null || value === '' || value === 'Metadata') return 'Metadata';
  if (value === 'None' || value === 'Object') return value;
  return undefined;
}

function rowObject(o: KubeObject, include: IncludeObject, apiVersion: string): unknown {
  if (include === 'Object') return o;
  if (include === 'None') return undefined;
  return { kind: 'PartialObjectMetadata', apiVersion, metadata: o.metadata };
}

export interface TableOptions {
  readonly now: number;
  readonly include: IncludeObject;
  readonly resourceVersion: string;
  readonly continueToken?: string;
  readonly remaining?: number;
  /** meta.k8s.io/v1 (the default) or meta.k8s.io/v1beta1, as the client asked: the table's and its rows' objects'. */
  readonly apiVersion?: string;
  /** Watch events after the first leave the column definitions out, as the real server does not; kubectl copes with both. */
  readonly withColumns?: boolean;
}

export function toTable(
  kind: string,
  objects: readonly KubeObject[],
  opts: TableOptions,
): Record<string, unknown> {
  const columns = columnsOf(kind);
  const apiVersion = opts.apiVersion ?? 'meta.k8s.io/v1';
  return {
    kind: 'Table',
    apiVersion,
    metadata: {
      resourceVersion: opts.resourceVersion,
      ...(opts.continueToken ? { continue: opts.continueToken } : {}),
      ...(opts.remaining !== undefined ? { remainingItemCount: opts.remaining } : {}),
    },
    columnDefinitions:
      opts.withColumns === false
        ? []
        : columns.map(({ name, type, format, description, priority }) => ({
            name,
            type,
            format,
            description,
            priority,
          })),
    rows: objects.map((o) => {
      const object = rowObject(o, opts.include, apiVersion);
      return { cells: columns.map((c) => c.cell(o, opts.now)), ...(object !== undefined ? { object } : {}) };
    }),
  };
}
