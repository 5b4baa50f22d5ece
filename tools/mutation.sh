#!/usr/bin/env bash
# Mutation testing of the rules engine: mutmut mutates src/escoba/engine/ and
# runs tests/engine against each mutant. On demand, like the benchmarks; never
# in CI or pytest. Its settings are [tool.mutmut] in pyproject.toml; the last
# figures and the survivors explained are in bench/RESULTS-mutation.md.
#
#   bash tools/mutation.sh              a full run from scratch (2 workers)
#   KEEP=1 bash tools/mutation.sh       go on from mutants/ of the last run
#                                       (only what changed is tried again)
#   JOBS=1 PYTHON=/path/to/python bash tools/mutation.sh
#
# Then: `mutmut results` lists the survivors, `mutmut show NAME` a mutant's
# diff, `mutmut browse` both, interactively.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-.venv/bin/python}
JOBS=${JOBS:-2}
# mutmut puts its mutated copy (mutants/src) first on the path: a PYTHONPATH
# naming src/ would have the tests import the original engine instead.
unset PYTHONPATH
[ "${KEEP:-0}" = 1 ] || rm -rf mutants
start=$(date +%s)
"$PYTHON" -m mutmut run --max-children "$JOBS"
echo "mutmut $("$PYTHON" -m mutmut --version | awk '{print $NF}'), wall time $(($(date +%s) - start)) s"
"$PYTHON" -m mutmut export-cicd-stats >/dev/null
cat mutants/mutmut-cicd-stats.json
echo
"$PYTHON" -m mutmut results
