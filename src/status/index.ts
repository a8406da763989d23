/**
 * status/ owns the assessment of one moment of a cluster update, the facts `oc adm upgrade status`
 * prints and more: control-plane progress and time left, every pool and node, health insights (with
 * the pod and budget that block a drain), and an update that was asked for but never began; and
 * the same for a hosted cluster (hosted.ts: HostedCluster, ControlPlaneComponents, NodePools and
 * their Machines, which oc cannot show). Pure
 * functions over a ClusterHistory: no files, no clock, no network.
 */
export { assessStatus, statusPrerequisites } from './assess.js';
export { assessStatusAt } from './at.js';
export {
  assessHostedStatus,
  type HostedObjects,
  hostedSnapshotNow,
  pickHostedCluster,
} from './hosted.js';
export { assessHostedStatusAt } from './hosted-at.js';
export { guestOperatorInsights } from './hosted-guest.js';
export type * from './hosted-types.js';
export { isSerious } from './insights.js';
export type * from './types.js';
