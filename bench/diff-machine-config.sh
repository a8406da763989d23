#!/bin/bash
# diff-machine-config.sh from ../https://bugzilla.redhat.com/show_bug.cgi?id=2019850, the seed's own approach, for
# bench/diff.bench.ts. The one change: it reads a local file ("$1") where the original ran
# curl -s "${URI}". Usage: diff-machine-config.sh FILE NAME_A NAME_B [JQ]

FILE="$1"
NAME_A="$2"
NAME_B="$3"
JQ="${4:-.}"
MACHINE_CONFIGS="$(cat "${FILE}")"

function machine_config() {
      NAME="$1"
      echo "${MACHINE_CONFIGS}" | jq -r --arg name "${NAME}" '.items[] | select(.metadata.name == $name)' | jq -r "${JQ}"
}

CONFIG_A="$(machine_config ${NAME_A})"
CONFIG_B="$(machine_config ${NAME_B})"

echo "${NAME_A}: length: $(echo "${CONFIG_A}" | wc -l), sha1: $(echo "${CONFIG_A}" | sha1sum)"
echo "${NAME_B}: length: $(echo "${CONFIG_B}" | wc -l), sha1: $(echo "${CONFIG_B}" | sha1sum)"

diff -u0 <(machine_config "${NAME_A}") <(machine_config "${NAME_B}")
