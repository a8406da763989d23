// biome-ignore-all lint/suspicious/noTemplateCurlyInString: unit files and scripts carry ${VAR} for systemd and bash, not for JavaScript
/**
 * What the template controller generates from a ControllerConfig: the `00-<role>`,
 * `01-<role>-container-runtime` and `01-<role>-kubelet` MachineConfigs (docs/domain.md 3.4–3.6), with
 * realistic Ignition content. The images that matter land where the 4.10 templates put them: the
 * pause image in kubelet.service (`--pod-infra-container-image`) and CRI-O's `pause_image`, the MCO
 * image in machine-config-daemon-pull.service, baremetal-runtimecfg in nodeip-configuration.service.
 * The text of the files is this project's own; only the facts (paths, flags, keys) are OpenShift's.
 */
import type { IgnFile, IgnUnit, MachineConfigSpec } from './objects.js';

export interface TemplateInput {
  readonly role: string;
  readonly images: Readonly<Record<string, string>>;
  readonly osImageURL: string;
}

export interface TemplateConfig {
  readonly name: string;
  readonly spec: MachineConfigSpec;
  readonly contentKey: string;
}

const memo = new Map<string, readonly TemplateConfig[]>();

/** The template MachineConfigs for one role; identical inputs return the identical (shared) objects. */
export function templateConfigs(input: TemplateInput): readonly TemplateConfig[] {
  const img = input.images;
  const key = `${input.role}|${img.infraImageKey}|${img.machineConfigOperator}|${img.baremetalRuntimeCfgImage}`;
  const hit = memo.get(key);
  if (hit) return hit;
  const role = input.role;
  // A config's key names exactly the inputs its content depends on, so an unrelated image change
  // leaves it (and the rendered configs built from it) untouched.
  const mk = (name: string, inputs: string, files: IgnFile[], units: IgnUnit[]): TemplateConfig => ({
    name,
    spec: {
      osImageURL: '',
      config: { files, units, sshKeys: [] },
      kernelArguments: [],
      extensions: [],
      fips: false,
      kernelType: '',
    },
    contentKey: `${name}|${inputs}`,
  });
  const out = [
    mk(
      `00-${role}`,
      `${img.machineConfigOperator}|${img.baremetalRuntimeCfgImage}`,
      baseFiles(role),
      baseUnits(img),
    ),
    mk(`01-${role}-container-runtime`, `${img.infraImageKey}`, crioFiles(img), []),
    mk(`01-${role}-kubelet`, `${img.infraImageKey}`, kubeletFiles(role), [kubeletUnit(role, img)]),
  ];
  memo.set(key, out);
  return out;
}

const file = (path: string, contents: string, mode = 420): IgnFile => ({ path, mode, contents });
const unit = (name: string, enabled: boolean | undefined, contents: string): IgnUnit => ({
  name,
  enabled,
  contents,
  dropins: [],
});

function baseFiles(role: string): IgnFile[] {
  const files = [
    file('/etc/containers/storage.conf', storageConf),
    file('/etc/kubernetes/kubelet-ca.crt', caBundle(role)),
    file('/etc/modules-load.d/iptables.conf', 'ip_tables\n'),
    file(
      '/etc/NetworkManager/conf.d/99-keyfiles.conf',
      '[keyfile]\npath=/etc/NetworkManager/systemConnectionsMerged\n',
    ),
    file('/etc/sysctl.d/forward.conf', 'net.ipv4.conf.all.forwarding=1\nnet.ipv6.conf.all.forwarding=1\n'),
    file(
      '/etc/sysctl.d/inotify.conf',
      'fs.inotify.max_user_watches = 65536\nfs.inotify.max_user_instances = 8192\n',
    ),
    file('/usr/local/bin/mco-hostname', hostnameScript, 493),
  ];
  if (role === 'master') {
    files.push(
      file('/etc/kubernetes/manifests/.keep', ''),
      file('/usr/local/bin/recover-kubeconfig.sh', recoverKubeconfig, 493),
    );
  }
  return files;
}

function baseUnits(img: Readonly<Record<string, string>>): IgnUnit[] {
  return [
    unit(
      'machine-config-daemon-firstboot.service',
      true,
      '[Unit]\nDescription=Machine Config Daemon Firstboot\n' +
        'ConditionPathExists=/etc/ignition-machine-config-encapsulated.json\n' +
        'After=machine-config-daemon-pull.service\nBefore=crio.service crio-wipe.service\n\n' +
        '[Service]\nType=oneshot\nRemainAfterExit=yes\n' +
        'ExecStart=/run/bin/machine-config-daemon firstboot-complete-machineconfig\n\n' +
        '[Install]\nRequiredBy=multi-user.target\n',
    ),
    unit(
      'machine-config-daemon-pull.service',
      true,
      '[Unit]\nDescription=Machine Config Daemon Pull\n' +
        'ConditionPathExists=/etc/ignition-machine-config-encapsulated.json\n' +
        'Wants=network-online.target\nAfter=network-online.target\n\n' +
        '[Service]\nType=oneshot\nRemainAfterExit=yes\n' +
        `ExecStart=/bin/sh -c "/usr/bin/podman pull --authfile=/var/lib/kubelet/config.json --quiet '${img.machineConfigOperator}'"\n` +
        `ExecStart=/bin/sh -c "/usr/bin/podman run --rm --quiet --net=host --entrypoint=cat '${img.machineConfigOperator}' /usr/bin/machine-config-daemon > /run/bin/machine-config-daemon.tmp"\n` +
        'ExecStart=/bin/sh -c "mv /run/bin/machine-config-daemon.tmp /run/bin/machine-config-daemon"\n\n' +
        '[Install]\nRequiredBy=machine-config-daemon-firstboot.service\n',
    ),
    unit(
      'nodeip-configuration.service',
      false,
      '[Unit]\nDescription=Writes IP address configuration so that kubelet and crio services select a valid node IP\n' +
        'Wants=network-online.target\nAfter=network-online.target ignition-firstboot-complete.service\n' +
        'Before=kubelet.service crio.service\n\n' +
        '[Service]\nType=oneshot\n' +
        `ExecStart=/bin/bash -c " \\\n  until \\\n  /usr/bin/podman run --rm \\\n  --authfile /var/lib/kubelet/config.json \\\n  --net=host \\\n  --volume /etc/systemd/system:/etc/systemd/system:z \\\n  ${img.baremetalRuntimeCfgImage} \\\n  node-ip \\\n  set --retry-on-failure; \\\n  do \\\n  sleep 5; \\\n  done"\n` +
        'ExecStart=/bin/systemctl daemon-reload\n\n[Install]\nRequiredBy=kubelet.service\n',
    ),
    unit(
      'openvswitch.service',
      true,
      '[Unit]\nDescription=Open vSwitch\nAfter=ovs-vswitchd.service ovsdb-server.service\n\n' +
        '[Service]\nType=oneshot\nExecStart=/bin/true\nRemainAfterExit=yes\n\n[Install]\nWantedBy=multi-user.target\n',
    ),
  ];
}

function crioFiles(img: Readonly<Record<string, string>>): IgnFile[] {
  return [
    file(
      '/etc/crio/crio.conf.d/00-default',
      '[crio]\ninternal_wipe = true\n\n' +
        '[crio.api]\nstream_address = ""\nstream_port = "10010"\n\n' +
        '[crio.runtime]\nselinux = true\nconmon = ""\nconmon_cgroup = "pod"\n' +
        'default_env = [\n    "NSS_SDB_USE_CACHE=no",\n]\nlog_level = "info"\ncgroup_manager = "systemd"\n' +
        'default_sysctls = [\n    "net.ipv4.ping_group_range=0 2147483647",\n]\nhooks_dir = [\n    "/etc/containers/oci/hooks.d",\n    "/run/containers/oci/hooks.d",\n]\n' +
        'manage_ns_lifecycle = true\nabsent_mount_sources_to_reject = [\n    "/etc/hostname",\n]\n\n' +
        '[crio.image]\nglobal_auth_file = "/var/lib/kubelet/config.json"\n' +
        `pause_image = "${img.infraImageKey}"\n` +
        'pause_image_auth_file = "/var/lib/kubelet/config.json"\npause_command = "/usr/bin/pod"\n\n' +
        '[crio.network]\nnetwork_dir = "/etc/kubernetes/cni/net.d/"\nplugin_dirs = [\n    "/var/lib/cni/bin",\n    "/usr/libexec/cni",\n]\n\n' +
        '[crio.metrics]\nenable_metrics = true\nmetrics_port = 9537\n',
    ),
    file(
      '/etc/containers/registries.conf',
      'unqualified-search-registries = ["registry.access.redhat.com", "docker.io"]\nshort-name-mode = ""\n',
    ),
    file(
      '/etc/containers/policy.json',
      '{\n    "default": [\n        {\n            "type": "insecureAcceptAnything"\n        }\n    ],\n' +
        '    "transports": {\n        "docker-daemon": {\n            "": [\n                {\n                    "type": "insecureAcceptAnything"\n                }\n            ]\n        }\n    }\n}\n',
    ),
  ];
}

function kubeletFiles(role: string): IgnFile[] {
  return [
    file('/etc/kubernetes/cloud.conf', ''),
    file(
      '/etc/kubernetes/kubelet.conf',
      'kind: KubeletConfiguration\napiVersion: kubelet.config.k8s.io/v1beta1\nauthentication:\n  x509:\n' +
        '    clientCAFile: /etc/kubernetes/kubelet-ca.crt\n  anonymous:\n    enabled: false\n' +
        'cgroupDriver: systemd\ncgroupRoot: /\nclusterDNS:\n  - 172.30.0.10\nclusterDomain: cluster.local\n' +
        'containerLogMaxSize: 50Mi\nmaxPods: 250\nkubeAPIQPS: 50\nkubeAPIBurst: 100\nrotateCertificates: true\n' +
        'serializeImagePulls: false\nstaticPodPath: /etc/kubernetes/manifests\nsystemCgroups: /system.slice\n' +
        'systemReserved:\n  ephemeral-storage: 1Gi\nfeatureGates:\n  APIPriorityAndFairness: true\n' +
        '  DownwardAPIHugePages: true\n  RotateKubeletServerCertificate: true\n' +
        `serverTLSBootstrap: true\ntlsMinVersion: VersionTLS12\n${role === 'master' ? '' : 'shutdownGracePeriod: 0s\n'}`,
    ),
    file(
      '/etc/systemd/system.conf.d/kubelet-cgroups.conf',
      '[Manager]\nDefaultCPUAccounting=yes\nDefaultMemoryAccounting=yes\nDefaultBlockIOAccounting=yes\n',
    ),
  ];
}

function kubeletUnit(role: string, img: Readonly<Record<string, string>>): IgnUnit {
  const master = role === 'master';
  const labels = master
    ? 'node-role.kubernetes.io/master,node.openshift.io/os_id=${ID}'
    : 'node-role.kubernetes.io/worker,node.openshift.io/os_id=${ID}';
  return unit(
    'kubelet.service',
    true,
    '[Unit]\nDescription=Kubernetes Kubelet\nWants=rpc-statd.service network-online.target\n' +
      'Requires=crio.service kubelet-auto-node-size.service\n' +
      'After=network-online.target crio.service kubelet-auto-node-size.service\n' +
      'After=ostree-finalize-staged.service\n\n' +
      '[Service]\nType=notify\nExecStartPre=/bin/mkdir --parents /etc/kubernetes/manifests\n' +
      'ExecStartPre=/bin/rm -f /var/lib/kubelet/cpu_manager_state\n' +
      'ExecStartPre=/bin/rm -f /var/lib/kubelet/memory_manager_state\n' +
      'EnvironmentFile=/etc/os-release\nEnvironmentFile=-/etc/kubernetes/kubelet-workaround\n' +
      'EnvironmentFile=-/etc/kubernetes/kubelet-env\nEnvironmentFile=/etc/node-sizing.env\n\n' +
      'ExecStart=/usr/bin/hyperkube \\\n    kubelet \\\n' +
      '      --config=/etc/kubernetes/kubelet.conf \\\n' +
      '      --bootstrap-kubeconfig=/etc/kubernetes/kubeconfig \\\n' +
      '      --kubeconfig=/var/lib/kubelet/kubeconfig \\\n' +
      '      --container-runtime=remote \\\n' +
      '      --container-runtime-endpoint=/var/run/crio/crio.sock \\\n' +
      '      --runtime-cgroups=/system.slice/crio.service \\\n' +
      `      --node-labels=${labels} \\\n` +
      '      --node-ip=${KUBELET_NODE_IP} \\\n' +
      '      --minimum-container-ttl-duration=6m0s \\\n' +
      '      --cloud-provider=aws \\\n' +
      '      --volume-plugin-dir=/etc/kubernetes/kubelet-plugins/volume/exec \\\n' +
      '      --hostname-override=${KUBELET_NODE_NAME} \\\n' +
      (master ? '      --register-with-taints=node-role.kubernetes.io/master=:NoSchedule \\\n' : '') +
      `      --pod-infra-container-image=${img.infraImageKey} \\\n` +
      '      --system-reserved=cpu=${SYSTEM_RESERVED_CPU},memory=${SYSTEM_RESERVED_MEMORY} \\\n' +
      '      --v=${KUBELET_LOG_LEVEL}\n\n' +
      'Restart=always\nRestartSec=10\n\n[Install]\nWantedBy=multi-user.target\n',
  );
}

const storageConf =
  '[storage]\ndriver = "overlay"\nrunroot = "/var/run/containers/storage"\ngraphroot = "/var/lib/containers/storage"\n\n' +
  '[storage.options]\nadditionalimagestores = [\n]\nsize = ""\n\n[storage.options.overlay]\nmountopt = "nodev"\n';

const hostnameScript =
  '#!/bin/bash\n# Set the transient hostname from the metadata service when the node has none.\n' +
  'set -euo pipefail\nif [[ "$(hostname)" == "localhost" || -z "$(hostname)" ]]; then\n' +
  '  name=$(curl -s http://169.254.169.254/latest/meta-data/local-hostname)\n  hostnamectl --transient set-hostname "${name%%.*}"\nfi\n';

const recoverKubeconfig =
  '#!/bin/bash\n# Rebuild a kubeconfig for the kubelet from the node-bootstrapper token.\nset -eou pipefail\n' +
  'echo "recovering kubeconfig from /etc/kubernetes/kubeconfig"\n';

function caBundle(role: string): string {
  // A stable, certificate-shaped block; its bytes only need to be the same for the same role.
  const body = Buffer.from(`atlevel simulated kubelet CA for ${role} nodes `.repeat(12)).toString('base64');
  const lines = body.match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`;
}
