// biome-ignore-all lint/suspicious/noTemplateCurlyInString: systemd units and shell scripts use ${VAR} literally
/**
 * MachineConfig content for an AWS 4.10 cluster, written for this example (shape after the MCO's
 * templates: Ignition 3.2.0, `data:,` percent-encoded files, systemd units with drop-ins). The
 * template MachineConfigs are 00-<role>, 01-<role>-container-runtime, 01-<role>-kubelet,
 * 99-<role>-generated-registries and 99-<role>-ssh; a rendered config merges them in name order.
 * Release images appear where the 4.10 templates put them (docs/domain.md 3.6): the pause image in
 * kubelet.service and CRI-O's 00-default, the MCO image in machine-config-daemon-pull.service,
 * baremetal-runtimecfg in nodeip-configuration.service.
 */

import { ignitionJson as writeIgnition } from '../../src/machineconfig/write.js';
import { BASE_DOMAIN, CLUSTER_NAME, type Role } from './facts.js';
import { image, type Side } from './release.js';
import { base64Blob } from './util.js';

interface IgnFile {
  readonly path: string;
  readonly mode: number;
  readonly text: string;
}

interface IgnUnit {
  readonly name: string;
  readonly enabled?: boolean;
  readonly contents?: string;
  readonly dropins?: readonly { name: string; contents: string }[];
  readonly mask?: boolean;
}

export interface IgnConfig {
  readonly files: readonly IgnFile[];
  readonly units: readonly IgnUnit[];
  readonly sshKeys?: readonly string[];
}

const RW = 420; // 0644
const SECRET = 384; // 0600
const EXEC = 493; // 0755

const lines = (...l: string[]) => `${l.join('\n')}\n`;

function pem(label: string): string {
  const body = base64Blob(label, 780).match(/.{1,64}/g) ?? [];
  return lines('-----BEGIN CERTIFICATE-----', ...body, '-----END CERTIFICATE-----');
}

/**
 * kubelet.service of 01-<role>-kubelet. The master unit is 42 lines with the pause image on line 34
 * (the seed's diff); the worker unit has no taint flag.
 */
function kubeletService(role: Role, pod: string): string {
  return lines(
    '[Unit]',
    'Description=Kubernetes Kubelet',
    'Wants=rpc-statd.service network-online.target',
    'Requires=crio.service kubelet-auto-node-size.service',
    'After=network-online.target crio.service kubelet-auto-node-size.service',
    'After=ostree-finalize-staged.service',
    '',
    '[Service]',
    'Type=notify',
    'ExecStartPre=/bin/mkdir --parents /etc/kubernetes/manifests',
    'ExecStartPre=/bin/rm -f /var/lib/kubelet/cpu_manager_state',
    'ExecStartPre=/bin/rm -f /var/lib/kubelet/memory_manager_state',
    'EnvironmentFile=/etc/os-release',
    'EnvironmentFile=-/etc/kubernetes/kubelet-workaround',
    'EnvironmentFile=-/etc/kubernetes/kubelet-env',
    'EnvironmentFile=/etc/node-sizing.env',
    '',
    'ExecStart=/usr/bin/hyperkube \\',
    '    kubelet \\',
    '      --config=/etc/kubernetes/kubelet.conf \\',
    '      --bootstrap-kubeconfig=/etc/kubernetes/kubeconfig \\',
    '      --kubeconfig=/var/lib/kubelet/kubeconfig \\',
    '      --container-runtime=remote \\',
    '      --container-runtime-endpoint=/var/run/crio/crio.sock \\',
    '      --runtime-cgroups=/system.slice/crio.service \\',
    `      --node-labels=node-role.kubernetes.io/${role},node.openshift.io/os_id=\${ID} \\`,
    '      --node-ip=${KUBELET_NODE_IP} \\',
    '      --minimum-container-ttl-duration=6m0s \\',
    '      --cloud-provider=aws \\',
    '      --volume-plugin-dir=/etc/kubernetes/kubelet-plugins/volume/exec \\',
    '       \\',
    '      --hostname-override=${KUBELET_NODE_NAME} \\',
    ...(role === 'master'
      ? ['      --register-with-taints=node-role.kubernetes.io/master=:NoSchedule \\']
      : []),
    `      --pod-infra-container-image=${pod} \\`,
    '      --system-reserved=cpu=${SYSTEM_RESERVED_CPU},memory=${SYSTEM_RESERVED_MEMORY} \\',
    '      --v=${KUBELET_LOG_LEVEL}',
    '',
    'Restart=always',
    'RestartSec=10',
    '',
    '[Install]',
    'WantedBy=multi-user.target',
  );
}

/** CRI-O drop-in of 01-<role>-container-runtime; `pause_image` is the release's `pod` image. */
function crioDefaults(pod: string): string {
  return lines(
    '[crio]',
    'internal_wipe = true',
    '',
    '[crio.api]',
    'stream_address = ""',
    'stream_port = "10010"',
    '',
    '[crio.runtime]',
    'selinux = true',
    'conmon_cgroup = "pod"',
    'default_env = [',
    '    "NSS_SDB_USE_CACHE=no",',
    ']',
    'log_level = "info"',
    'cgroup_manager = "systemd"',
    'default_sysctls = [',
    '    "net.ipv4.ping_group_range=0 2147483647",',
    ']',
    'hooks_dir = [',
    '    "/etc/containers/oci/hooks.d",',
    '    "/run/containers/oci/hooks.d",',
    ']',
    'manage_ns_lifecycle = true',
    'absent_mount_sources_to_reject = [',
    '    "/etc/hostname",',
    ']',
    'drop_infra_ctr = true',
    '',
    '[crio.image]',
    'global_auth_file = "/var/lib/kubelet/config.json"',
    `pause_image = "${pod}"`,
    'pause_image_auth_file = "/var/lib/kubelet/config.json"',
    'pause_command = "/usr/bin/pod"',
    '',
    '[crio.network]',
    'network_dir = "/etc/kubernetes/cni/net.d/"',
    'plugin_dirs = [',
    '    "/var/lib/cni/bin",',
    '    "/usr/libexec/cni",',
    ']',
    '',
    '[crio.metrics]',
    'enable_metrics = true',
    'metrics_port = 9537',
  );
}

function kubeletConf(): string {
  return lines(
    'kind: KubeletConfiguration',
    'apiVersion: kubelet.config.k8s.io/v1beta1',
    'authentication:',
    '  x509:',
    '    clientCAFile: /etc/kubernetes/kubelet-ca.crt',
    '  anonymous:',
    '    enabled: false',
    'cgroupDriver: systemd',
    'cgroupRoot: /',
    'clusterDNS:',
    '  - 172.30.0.10',
    'clusterDomain: cluster.local',
    'containerLogMaxSize: 50Mi',
    'maxPods: 250',
    'kubeAPIQPS: 50',
    'kubeAPIBurst: 100',
    'rotateCertificates: true',
    'serializeImagePulls: false',
    'staticPodPath: /etc/kubernetes/manifests',
    'systemCgroups: /system.slice',
    'systemReserved:',
    '  ephemeral-storage: 1Gi',
    'featureGates:',
    '  APIPriorityAndFairness: true',
    '  CSIMigrationAWS: false',
    '  DownwardAPIHugePages: true',
    '  PodSecurity: true',
    '  RotateKubeletServerCertificate: true',
    'serverTLSBootstrap: true',
    'tlsMinVersion: VersionTLS12',
    'tlsCipherSuites:',
    '  - TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256',
    '  - TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256',
    '  - TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384',
    '  - TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384',
  );
}

function baseFiles(role: Role): IgnFile[] {
  const files: IgnFile[] = [
    {
      path: '/etc/NetworkManager/conf.d/99-keyfiles.conf',
      mode: RW,
      text: lines(
        '[main]',
        'plugins=keyfile,ifcfg-rh',
        '[keyfile]',
        'path=/etc/NetworkManager/systemConnectionsMerged',
      ),
    },
    {
      path: '/etc/kubernetes/apiserver-url.env',
      mode: RW,
      text: lines(
        `KUBERNETES_SERVICE_HOST='api-int.${CLUSTER_NAME}.${BASE_DOMAIN}'`,
        "KUBERNETES_SERVICE_PORT='6443'",
      ),
    },
    {
      path: '/etc/tmpfiles.d/cleanup-cni.conf',
      mode: RW,
      text: lines(
        'r /etc/kubernetes/cni/net.d/80-openshift-network.conf',
        'r /etc/kubernetes/cni/net.d/10-ovn-kubernetes.conf',
        'd /run/multus/cni/net.d/ 0755 root root - -',
        'D /var/lib/cni/networks/openshift-sdn/ 0755 root root - -',
      ),
    },
    {
      path: '/usr/local/bin/configure-ovs.sh',
      mode: EXEC,
      text: lines(
        '#!/bin/bash',
        '# OpenShiftSDN needs no host bridge; only OVNKubernetes moves the default interface',
        '# onto br-ex. Clean up anything a previous network type left behind.',
        'set -eux',
        'if [ "${1:-}" != "OVNKubernetes" ]; then',
        '  nmcli connection show ovs-if-br-ex &>/dev/null && nmcli connection delete ovs-if-br-ex || true',
        '  exit 0',
        'fi',
        'echo "OVNKubernetes host networking is not used on this cluster"',
      ),
    },
    {
      path: '/etc/containers/storage.conf',
      mode: RW,
      text: lines(
        '[storage]',
        'driver = "overlay"',
        'runroot = "/var/run/containers/storage"',
        'graphroot = "/var/lib/containers/storage"',
        '',
        '[storage.options]',
        'additionalimagestores = []',
        '',
        '[storage.options.overlay]',
        'mountopt = "nodev,metacopy=on"',
      ),
    },
    {
      path: '/etc/mco/proxy.env',
      mode: RW,
      text: lines(
        '# Node services that need the cluster proxy read it from this file.',
        '# It is left empty when the cluster has no proxy configured.',
      ),
    },
    {
      path: '/etc/systemd/system.conf.d/10-default-env-godebug.conf',
      mode: RW,
      text: lines('[Manager]', 'DefaultEnvironment=GODEBUG=x509ignoreCN=0,madvdontneed=1'),
    },
    { path: '/etc/modules-load.d/iptables.conf', mode: RW, text: lines('ip_tables', 'iptable_nat') },
    {
      path: '/etc/node-sizing-enabled.env',
      mode: RW,
      text: lines('NODE_SIZING_ENABLED=false', 'SYSTEM_RESERVED_MEMORY=1Gi', 'SYSTEM_RESERVED_CPU=500m'),
    },
    {
      path: '/usr/local/sbin/dynamic-system-reserved-calc.sh',
      mode: EXEC,
      text: lines(
        '#!/bin/bash',
        '# Writes /etc/node-sizing.env for kubelet.service. With sizing disabled the',
        '# configured defaults are used as they are.',
        'set -euo pipefail',
        'enabled="${1:-false}"',
        'memory="${2:-1Gi}"',
        'cpu="${3:-500m}"',
        'if [ "${enabled}" = "true" ]; then',
        "  total_kib=$(awk '/MemTotal/ {print $2}' /proc/meminfo)",
        '  memory="$(( total_kib / 1024 / 1024 / 16 + 1 ))Gi"',
        'fi',
        'printf "SYSTEM_RESERVED_MEMORY=%s\\nSYSTEM_RESERVED_CPU=%s\\n" "${memory}" "${cpu}" > /etc/node-sizing.env',
      ),
    },
    { path: '/etc/kubernetes/kubelet-ca.crt', mode: RW, text: pem('kubelet-ca') },
    {
      path: '/etc/systemd/system.conf.d/kubelet-cgroups.conf',
      mode: RW,
      text: lines(
        '[Manager]',
        'DefaultCPUAccounting=yes',
        'DefaultMemoryAccounting=yes',
        'DefaultBlockIOAccounting=yes',
      ),
    },
    {
      path: '/etc/systemd/system/kubelet.service.d/20-logging.conf',
      mode: RW,
      text: lines('[Service]', 'Environment="KUBELET_LOG_LEVEL=2"'),
    },
    {
      path: '/etc/NetworkManager/conf.d/sdn.conf',
      mode: RW,
      text: lines(
        '[keyfile]',
        'unmanaged-devices=interface-name:veth*;interface-name:tun0;interface-name:br0;interface-name:vxlan_sys_4789',
      ),
    },
    // The real file holds the cluster pull secret; the example carries an empty one.
    { path: '/var/lib/kubelet/config.json', mode: SECRET, text: '{"auths":{}}' },
    { path: '/etc/kubernetes/ca.crt', mode: RW, text: pem('root-ca') },
    { path: '/etc/sysctl.d/forward.conf', mode: RW, text: lines('net.ipv4.ip_forward = 1') },
    {
      path: '/etc/sysctl.d/inotify.conf',
      mode: RW,
      text: lines('fs.inotify.max_user_watches = 65536', 'fs.inotify.max_user_instances = 8192'),
    },
    {
      path: '/usr/local/sbin/set-valid-hostname.sh',
      mode: EXEC,
      text: lines(
        '#!/bin/bash',
        '# Keeps the transient hostname within 63 characters so the node can register.',
        'set -eu',
        'current="$(hostname)"',
        'if [ "${#current}" -gt 63 ]; then',
        '  short="${current%%.*}"',
        '  hostnamectl set-hostname --transient "${short:0:63}"',
        'fi',
      ),
    },
    { path: '/etc/kubernetes/kubelet-plugins/volume/exec/.dummy', mode: RW, text: '' },
  ];
  if (role === 'master') {
    files.push({
      path: '/usr/local/bin/recover-kubeconfig.sh',
      mode: EXEC,
      text: lines(
        '#!/bin/bash',
        '# Rebuilds the kubelet bootstrap kubeconfig from the node-bootstrapper token.',
        'set -euo pipefail',
        'dir=/etc/kubernetes/static-pod-resources/kube-apiserver-certs/secrets/node-kubeconfigs',
        'cp "${dir}/lb-int.kubeconfig" /etc/kubernetes/kubeconfig',
        'echo "kubeconfig restored from ${dir}"',
      ),
    });
  }
  return files;
}

const MADV_DROPIN = {
  name: '10-mco-default-madv.conf',
  contents: lines('[Service]', 'Environment="GODEBUG=x509ignoreCN=0,madvdontneed=1"'),
};
const DISABLED_DROPIN = {
  name: 'mco-disabled.conf',
  contents: lines('[Unit]', 'ConditionPathExists=/enoent'),
};

function baseUnits(role: Role, side: Side): IgnUnit[] {
  const mco = image('machine-config-operator', side);
  const runtimecfg = image('baremetal-runtimecfg', side);
  const units: IgnUnit[] = [
    {
      name: 'crio.service',
      dropins: [
        { name: '10-mco-default-env.conf', contents: '' },
        {
          name: '10-mco-profile-unix-socket.conf',
          contents: lines('[Service]', 'Environment="ENABLE_PROFILE_UNIX_SOCKET=true"'),
        },
        MADV_DROPIN,
      ],
    },
    { name: 'docker.socket', dropins: [DISABLED_DROPIN] },
    {
      name: 'kubelet-auto-node-size.service',
      enabled: true,
      contents: lines(
        '[Unit]',
        'Description=Compute system-reserved resources for the kubelet',
        'Wants=network-online.target',
        'After=network-online.target ignition-firstboot-complete.service',
        'Before=kubelet.service crio.service',
        '[Service]',
        'Type=oneshot',
        'RemainAfterExit=yes',
        'EnvironmentFile=/etc/node-sizing-enabled.env',
        'ExecStart=/bin/bash /usr/local/sbin/dynamic-system-reserved-calc.sh ${NODE_SIZING_ENABLED} ${SYSTEM_RESERVED_MEMORY} ${SYSTEM_RESERVED_CPU}',
        '[Install]',
        'RequiredBy=kubelet.service',
      ),
    },
    { name: 'kubelet.service', dropins: [{ name: '10-mco-default-env.conf', contents: '' }, MADV_DROPIN] },
    {
      name: 'machine-config-daemon-firstboot.service',
      enabled: true,
      contents: lines(
        '[Unit]',
        'Description=Machine Config Daemon Firstboot',
        'ConditionPathExists=/run/ostree-booted',
        'ConditionPathExists=/etc/ignition-machine-config-encapsulated.json',
        'After=machine-config-daemon-pull.service',
        'Before=crio.service kubelet.service',
        '',
        '[Service]',
        'Type=oneshot',
        'RemainAfterExit=yes',
        'ExecStart=/run/bin/machine-config-daemon firstboot-complete-machineconfig',
        '[Install]',
        'WantedBy=multi-user.target',
        'RequiredBy=crio.service kubelet.service',
      ),
    },
    {
      name: 'machine-config-daemon-pull.service',
      enabled: true,
      contents: lines(
        '[Unit]',
        'Description=Machine Config Daemon Pull',
        'ConditionPathExists=/run/ostree-booted',
        'ConditionPathExists=/etc/ignition-machine-config-encapsulated.json',
        'Wants=network-online.target crio-wipe.service',
        'After=network-online.target crio-wipe.service',
        '',
        '[Service]',
        'Type=oneshot',
        'RemainAfterExit=yes',
        "ExecStart=/bin/sh -c '/bin/mkdir -p /run/bin && chcon --reference=/usr/bin /run/bin'",
        `ExecStart=/bin/sh -c "until /usr/bin/podman pull --authfile=/var/lib/kubelet/config.json --quiet '${mco}'; do sleep 1; done"`,
        `ExecStart=/bin/sh -c "/usr/bin/podman run --rm --quiet --net=host --entrypoint=cat '${mco}' /usr/bin/machine-config-daemon > /run/bin/machine-config-daemon.tmp"`,
        "ExecStart=/bin/sh -c '/usr/bin/chmod a+x /run/bin/machine-config-daemon.tmp && mv /run/bin/machine-config-daemon.tmp /run/bin/machine-config-daemon'",
        '[Install]',
        'RequiredBy=machine-config-daemon-firstboot.service',
      ),
    },
    {
      name: 'node-valid-hostname.service',
      enabled: true,
      contents: lines(
        '[Unit]',
        'Description=Ensure the node hostname is valid for the cluster',
        'Before=kubelet.service',
        'After=NetworkManager-wait-online.service',
        '',
        '[Service]',
        'Type=oneshot',
        'ExecStart=/usr/local/sbin/set-valid-hostname.sh',
        'RemainAfterExit=yes',
        '',
        '[Install]',
        'WantedBy=multi-user.target',
        'RequiredBy=kubelet.service',
      ),
    },
    {
      name: 'nodeip-configuration.service',
      enabled: false,
      contents: lines(
        '[Unit]',
        'Description=Writes IP address configuration so that kubelet and crio services select a valid node IP',
        'Wants=network-online.target',
        'After=network-online.target ignition-firstboot-complete.service',
        'Before=kubelet.service crio.service',
        '',
        '[Service]',
        'Type=oneshot',
        `ExecStart=/bin/bash -c " until /usr/bin/podman run --rm --authfile /var/lib/kubelet/config.json --net=host --volume /etc/systemd/system:/etc/systemd/system:z ${runtimecfg} node-ip set --retry-on-failure; do sleep 5; done"`,
        'ExecStart=/bin/systemctl daemon-reload',
        '',
        '[Install]',
        'RequiredBy=kubelet.service',
      ),
    },
    { name: 'openvswitch.service', enabled: true },
    {
      name: 'ovs-configuration.service',
      enabled: true,
      contents: lines(
        '[Unit]',
        'Description=Configures OVS with proper host networking configuration',
        'Requires=openvswitch.service',
        'Wants=NetworkManager-wait-online.service',
        'After=NetworkManager-wait-online.service openvswitch.service network.service',
        'Before=network-online.target kubelet.service crio.service node-valid-hostname.service',
        '',
        '[Service]',
        'Type=oneshot',
        'ExecStart=/usr/local/bin/configure-ovs.sh OpenShiftSDN',
        'StandardOutput=journal+console',
        'StandardError=journal+console',
        '',
        '[Install]',
        'WantedBy=network-online.target',
      ),
    },
    { name: 'pivot.service', dropins: [{ name: '10-mco-default-env.conf', contents: '' }] },
    { name: 'zincati.service', dropins: [DISABLED_DROPIN] },
  ];
  if (role === 'master') {
    units.push({
      name: 'rpm-ostreed.service',
      dropins: [
        {
          name: 'mco-controlplane-nice.conf',
          contents: lines('[Service]', 'Nice=10', 'IOSchedulingClass=best-effort', 'IOSchedulingPriority=6'),
        },
      ],
    });
  }
  return units;
}

export interface TemplateMC {
  readonly name: string;
  readonly config: IgnConfig;
  /** Written by the MCO's template controller (owner ControllerConfig) or another MCO controller. */
  readonly owner: 'ControllerConfig' | 'Image' | 'installer';
  /** Content depends on the release's `pod` image, so the new MCO rewrites it. */
  readonly podDependent: boolean;
}

/** The MachineConfigs a pool's selector picks, sorted by name as the render controller sorts them. */
export function templateConfigs(role: Role, side: Side): TemplateMC[] {
  const pod = image('pod', side);
  return [
    {
      name: `00-${role}`,
      config: { files: baseFiles(role), units: baseUnits(role, side) },
      owner: 'ControllerConfig',
      podDependent: false,
    },
    {
      name: `01-${role}-container-runtime`,
      config: {
        files: [
          {
            path: '/etc/containers/registries.conf',
            mode: RW,
            text: lines("unqualified-search-registries = ['registry.access.redhat.com', 'docker.io']"),
          },
          { path: '/etc/crio/crio.conf.d/00-default', mode: RW, text: crioDefaults(pod) },
          {
            path: '/etc/containers/policy.json',
            mode: RW,
            text: '{\n    "default": [\n        {\n            "type": "insecureAcceptAnything"\n        }\n    ],\n    "transports": {\n        "docker-daemon": {\n            "": [{"type":"insecureAcceptAnything"}]\n        }\n    }\n}\n',
          },
        ],
        units: [],
      },
      owner: 'ControllerConfig',
      podDependent: true,
    },
    {
      name: `01-${role}-kubelet`,
      config: {
        files: [
          { path: '/etc/kubernetes/cloud.conf', mode: RW, text: '' },
          { path: '/etc/kubernetes/kubelet.conf', mode: RW, text: kubeletConf() },
        ],
        units: [{ name: 'kubelet.service', enabled: true, contents: kubeletService(role, pod) }],
      },
      owner: 'ControllerConfig',
      podDependent: true,
    },
    {
      name: `99-${role}-generated-registries`,
      config: { files: [], units: [] },
      owner: 'Image',
      podDependent: false,
    },
    {
      name: `99-${role}-ssh`,
      config: {
        files: [],
        units: [],
        sshKeys: [`ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQ${base64Blob('ci-ssh-key', 380)} ci@openshift\n`],
      },
      owner: 'installer',
      podDependent: false,
    },
  ];
}

/** Ignition v3 merge of the pool's MachineConfigs: later files replace earlier ones by path, units merge by name. */
export function mergeConfigs(configs: readonly IgnConfig[]): IgnConfig {
  const files = new Map<string, IgnFile>();
  const units = new Map<string, IgnUnit>();
  let sshKeys: readonly string[] | undefined;
  for (const c of configs) {
    for (const f of c.files) files.set(f.path, f);
    for (const u of c.units) {
      const prev = units.get(u.name);
      if (!prev) {
        units.set(u.name, u);
        continue;
      }
      const dropins = new Map((prev.dropins ?? []).map((d) => [d.name, d]));
      for (const d of u.dropins ?? []) dropins.set(d.name, d);
      units.set(u.name, {
        ...prev,
        ...u,
        ...(dropins.size > 0 ? { dropins: [...dropins.values()] } : {}),
      });
    }
    if (c.sshKeys) sshKeys = c.sshKeys;
  }
  const sortedUnits = [...units.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { files: [...files.values()], units: sortedUnits, ...(sshKeys ? { sshKeys } : {}) };
}

/** The Ignition object as it sits in `spec.config` (keys are sorted later, as `oc get -o json` prints maps). */
export function ignitionJson(config: IgnConfig): Record<string, unknown> {
  return writeIgnition({
    ...config,
    files: config.files.map((f) => ({ path: f.path, mode: f.mode, contents: f.text })),
  });
}
