#!/usr/bin/env bash
# The CTest resource spec of this host's GPUs, for `./kverify test --gpus all|N`: each GPU a
# resource `gpus` with SLOTS slots (tests that declare RESOURCE_GROUPS "gpus:1" take one; a GPU holds
# that many such tests at once), ids as CUDA_VISIBLE_DEVICES names the devices.
#   gpu_resource_spec.sh all|N [SLOTS]    prints the JSON; exit 2 with one line on bad input
# The devices: CUDA_VISIBLE_DEVICES's entries when it is set (also how a list is faked for the
# tests), else one per line of `nvidia-smi -L`.
set -euo pipefail
want="${1:-}" slots="${2:-4}"
if [[ -n "${CUDA_VISIBLE_DEVICES+set}" ]]; then
  IFS=',' read -r -a listed <<<"$CUDA_VISIBLE_DEVICES"
  devices=()
  for d in "${listed[@]}"; do [[ -n "$d" ]] || break; devices+=("$d"); done  # CUDA stops at an empty entry
else
  count="$( (nvidia-smi -L 2>/dev/null || true) | grep -c '^GPU ' || true)"
  devices=()
  for ((i = 0; i < count; ++i)); do devices+=("$i"); done
fi
if ((${#devices[@]} == 0)); then
  echo "--gpus $want: no GPU visible here (nvidia-smi -L lists none and CUDA_VISIBLE_DEVICES is not set)" >&2
  exit 2
fi
if [[ "$want" == all ]]; then
  n=${#devices[@]}
elif [[ "$want" =~ ^[1-9][0-9]*$ ]] && ((want <= ${#devices[@]})); then
  n=$want
else
  echo "--gpus '$want' (accepted: all, or a number of GPUs from 1 to ${#devices[@]}, the ones visible here)" >&2
  exit 2
fi
[[ "$slots" =~ ^[1-9][0-9]*$ ]] || { echo "slots '$slots' (accepted: a whole number >= 1)" >&2; exit 2; }
printf '{"version": {"major": 1, "minor": 0}, "local": [{"gpus": ['
for ((i = 0; i < n; ++i)); do
  ((i == 0)) || printf ', '
  printf '{"id": "%s", "slots": %d}' "${devices[$i]}" "$slots"
done
printf ']}]}\n'
