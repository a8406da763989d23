/**
 * A kubeconfig for the served URL. Plain http: kubectl takes the http URL as is; client libraries
 * that insist on TLS settings (@kubernetes/client-node) accept `insecure-skip-tls-verify: true`,
 * which has no effect on http.
 */
import yaml from 'js-yaml';

export function kubeconfigFor(url: string, name = 'atlevel-serve'): string {
  return yaml.dump({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name, cluster: { server: url, 'insecure-skip-tls-verify': true } }],
    users: [{ name, user: {} }],
    contexts: [{ name, context: { cluster: name, user: name } }],
    'current-context': name,
    preferences: {},
  });
}
