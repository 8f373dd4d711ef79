#!/usr/bin/env bash
# Installs tcosim's build and test dependencies from Debian's packages (run as root).
set -euo pipefail
packages=(
  build-essential cmake ninja-build   # ninja: scripts/cmake-generator.sh
  libeigen3-dev nlohmann-json3-dev libcli11-dev libfmt-dev libboost-math-dev libboost-dev
  doctest-dev librandom123-dev python3 python3-jsonschema
  chromium
  tmux       # the progress bar on a real terminal (tests/check_progress_bar.sh)
  clang libclang-rt-14-dev lld   # the sanitizer build and fuzz harnesses (scripts/fuzz.sh); lld links them
  ccache
  libxlsxwriter-dev pkg-config
  libopenmpi-dev openmpi-bin   # mpirun -n K tcosim ... (TCO_MPI; tests labelled mpi)
  # A one-node Slurm for the job-array and srun test (tests/slurm/run_slurm_test.sh, label slurm);
  # python3-yaml reads the Kubernetes recipe (tests/check_shard_recipes.py).
  slurm-wlm munge python3-yaml
  # The workbook test recalculates in a real spreadsheet (tests/check_workbook.py): about 70 s
  # to install with --no-install-recommends (measured on Debian 12, lists already fetched).
  libreoffice-calc-nogui
  # The Python module (python/, docs/python.md) and its tests; the notebook examples/rent-vs-buy.ipynb
  # run by jupyter nbconvert. About 55 s to install with --no-install-recommends (measured on
  # Debian 12, lists already fetched: 15 s the module's, 40 s the notebook's).
  pybind11-dev pybind11-json-dev python3-dev python3-numpy python3-pandas python3-pytest python3-tqdm
  jupyter-core jupyter-nbconvert python3-nbconvert python3-ipykernel python3-matplotlib
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
